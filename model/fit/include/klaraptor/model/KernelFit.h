//===- KernelFit.h - a kernel's rational program, fitted -------*- C++ -*-===//
///
/// \file
/// fitKernel turns the samples a profile database holds for one kernel into a
/// *rational program*: the kernel's raw metrics (instructions, global
/// requests and sectors per access kind, barriers, registers, shared memory)
/// fitted as rational functions of its variables (the pragma's data
/// parameters and its free block dimensions), the launch shape (blocks,
/// threads per block) computed exactly from the pragma's grid formula, and
/// the MWP-CWP model evaluated on the inputs the metrics give by the rule of
/// docs/models.md ("From metrics to inputs"). Fitting the raw totals rather
/// than the model's inputs keeps the fits smooth: whether an access kind
/// counts as coalesced can flip between block shapes, its totals do not.
/// A total may be fitted per warp (launched, or with a thread inside the
/// data) and multiplied back by the exact count: that removes the ceil
/// effects of blocks overhanging the data; the scale of least held-out
/// error is kept (QuantityScale).
///
/// A KernelFit predicts in C++ (predictNs) exactly what its emitted C
/// (emitC) computes, reports how well each quantity fits, and how well the
/// predictions agree with the measured times. `klaraptor fit` writes one C
/// file per kernel; `report` and `bench` use the same API. docs/models.md,
/// "Rational programs", describes the emitted program.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_MODEL_KERNELFIT_H
#define KLARAPTOR_MODEL_KERNELFIT_H

#include "ProfileDb.h"
#include "klaraptor/fitting/Fitter.h"
#include "klaraptor/fitting/Formula.h"
#include "klaraptor/model/PerformanceModel.h"
#include "klaraptor/mwp_cwp.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace klaraptor {
namespace modelfit {

/// How fitKernel fits.
struct KernelFitOptions {
  /// The device profile whose MWP-CWP parameters the program embeds (a
  /// built-in name or a .device file); empty: the database's `device`.
  std::string Device;
  /// The performance model the program evaluates (docs/models.md):
  /// "mwp-cwp-lines" (the default, model::defaultModel()), "mwp-cwp",
  /// "waves" or "roofline"; empty: the default.
  std::string Model;
  /// A kernel with fewer usable ("ok") samples is not fitted.
  unsigned MinSamples = 6;
  /// Options of every rational fit (docs/fitting.md).
  fitting::FitOptions Fit;
  /// Whether json() gives each fitted quantity's selection time
  /// (FittedQuantity::FitSeconds); off, the report is the same on every run.
  bool RecordTimes = false;
};

/// What a fitted function measures: the quantity itself, or the quantity
/// per warp the program computes exactly from the pragma (the fit is
/// multiplied back at evaluation).
enum class QuantityScale {
  Total,        ///< the whole launch's total
  PerWarp,      ///< per launched warp: blocks * ceil(threads / 32)
  PerActiveWarp, ///< per warp with a thread inside the data (KernelFit::
                 ///< activeWarps)
  /// Sectors or lines per request of their access kind (KernelFit::
  /// requestQuantity), as a function of the data and of the warp's shape
  /// (warpShape) instead of the block's: a request's sectors and lines are
  /// those of its warp's 32 addresses.
  PerRequest
};

/// "total", "per warp", "per active warp", "per request".
const char *describe(QuantityScale S);

/// The part of a block one warp covers (its first warp): min(bx, 32)
/// threads of a row, as many rows (at most by) as 32 threads make, as many
/// planes (at most bz) as the rest make. For a block whose width is a
/// multiple or a divisor of 32, every warp's lanes lie so, and the
/// addresses of a warp's request are those of a block of this shape; a
/// 1024x1 block's warp is a 32x1 block's, a 16x16 block's a 16x2 block's.
void warpShape(const int64_t Block[3], int64_t Warp[3]);

/// One fitted quantity of a kernel.
struct FittedQuantity {
  /// The metric key (docs/metrics.md) or `registers_per_thread` /
  /// `shared_per_block`.
  std::string Name;
  /// Every sample had the same value: no fit, the value is Constant.
  bool IsConstant = false;
  double Constant = 0;
  /// The fit (when not constant) of the quantity divided by Scale's count.
  fitting::FitReport Report;
  QuantityScale Scale = QuantityScale::Total;
  /// With PerActiveWarp, the value of each idle warp (one with no thread
  /// inside the data: it computes its index, tests it and exits): the total
  /// is F * active_warps + IdleWarp * (warps - active_warps).
  double IdleWarp = 0;
  /// The held-out error of the total's own fit when another scale was chosen
  /// (NaN when the total was chosen or not fitted).
  double TotalHeldOut = NAN;
  /// Not empty: this quantity was Factor times the quantity MultipleOf in
  /// every sample, and its fit is that one's fit times Factor (not fitted
  /// again).
  std::string MultipleOf;
  double Factor = 1;
  /// Host seconds this fit spent selecting the quantity's functions (every
  /// scale, on one thread of the pool; 0 for a constant, a multiple, or
  /// fits read from the database's fit cache) and the part of them spent in
  /// the phase that tries pieces.
  double FitSeconds = 0, PiecesSeconds = 0;
  /// Whether the quantity is known exactly (constant or exact fit).
  bool exact() const { return IsConstant || Report.Model.exact(); }
  /// RMS relative residual on the training samples (0 for a constant), of
  /// the fitted function (with a per-warp Scale, of the total divided by
  /// the count: an upper bound of the total's relative error).
  double residual() const;
  /// RMS relative error on the held-out samples (0 for a constant).
  double heldOut() const;
  /// The function as text, e.g. "(3*N*bx + 16*N) / (8*bx)"; with a scale
  /// other than Total, "(F) * warps" or "(F) * active_warps".
  std::string form() const;
  /// Numerator/denominator degree bounds, e.g. "N=1,bx=1/bx=1"; "const".
  std::string degrees() const;
};

/// How the predictions agree with the measured times of the samples.
struct Agreement {
  unsigned Samples = 0;     ///< samples compared (predicted and measured > 0)
  double Spearman = 0;      ///< rank correlation of predicted vs measured
  double GeomeanRatio = 0;  ///< geometric mean of predicted / measured
  unsigned Tuples = 0;      ///< data tuples with at least two shapes
  unsigned BestMatches = 0; ///< of those, where the predicted best shape is
                            ///< the measured best one
  /// The line `fit` and `report` print: "agreement with the measured times
  /// over N samples: Spearman rank correlation R, geomean predicted/measured
  /// G, best shape predicted for B of T data tuples".
  std::string str() const;
};

/// One kernel's rational program.
class KernelFit {
public:
  std::string Kernel; ///< the kernel's device (mangled) name
  std::string SourceName; ///< its name in the source (the spec's), else Kernel
  /// json() gives the quantities' fit times (KernelFitOptions::RecordTimes).
  bool RecordTimes = false;
  std::string Spec;   ///< the encoded pragma
  std::string Device; ///< the device profile of the embedded parameters
  /// The data parameter names, in the spec's order.
  std::vector<std::string> DataNames;
  /// The variables: the data parameters, then the free block dims (bx, by,
  /// bz).
  std::vector<std::string> Vars;
  /// For each block dim, its index in Vars, or -1 when not free.
  int BlockVar[3] = {-1, -1, -1};
  /// The fitted quantities, in the order of quantityNames().
  std::vector<FittedQuantity> Quantities;
  /// Computed exactly from the spec.
  std::shared_ptr<fitting::Formula> Blocks, Threads;
  /// Per block dimension, the data extent its grid formula covers
  /// (`ceildiv(E, bx)` gives E; a grid of 1 gives the block dim, or 1 when
  /// the dim is not free); all null when some grid formula has another form,
  /// and then no quantity is fitted per active warp.
  std::shared_ptr<fitting::Formula> Extents[3];
  /// The MWP-CWP parameters of Device.
  klaraptor_mwp_cwp_hw Hw{};
  /// SM cycles between two atomic operations on one global address
  /// (Device's `timing.atomic_same_address_cycles`; 0: not measured). With
  /// a fitted `global_atomic_max_address_ops` that is not 0, a launch's
  /// predicted time is at least those operations times this
  /// (docs/models.md, "Same-address atomics").
  double AtomicSameAddressCycles = 0;
  /// The performance model that predictNs and the emitted C evaluate on the
  /// inputs: "mwp-cwp-lines", "mwp-cwp", "waves" or "roofline"
  /// (isFitModel). Changing it needs no refit.
  std::string Model = model::defaultModel();
  unsigned SamplesUsed = 0, SamplesFailed = 0;
  /// Fits of quantities taken from the fit cache, and made anew.
  unsigned FitsReused = 0, FitsMade = 0;
  /// Samples whose recorded grid is not what the grid formula gives.
  unsigned GridMismatches = 0;
  /// Block shapes the kernel failed with in the profile (a fault or a
  /// refused launch at some profiled size, not a missing estimate), sorted:
  /// it is not correct for them, so predictNs and the emitted program give
  /// no prediction for them and the runtime never chooses them.
  std::vector<std::array<uint32_t, 3>> FailingBlocks;
  Agreement Agree;
  std::vector<std::string> Warnings;

  /// The quantities fitted, in order.
  static const std::vector<std::string> &quantityNames();
  /// The index in quantityNames() of the requests a sectors or lines
  /// quantity may be fitted per (QuantityScale::PerRequest); -1 for the
  /// others.
  static int requestQuantity(const std::string &Name);
  /// Whether quantity \p Name is fitted for the launch record only (the
  /// judge's "fitted" counts): the model does not read it, so it never
  /// refuses a shape and the emitted program does not evaluate it. The
  /// loads' lines are read by the lines model ("mwp-cwp-lines") only.
  bool recordedOnly(const std::string &Name) const;

  /// The predicted time in ns of a launch with \p Data and block \p Block,
  /// computed as the emitted C computes it when given no device information.
  /// False with \p Why when a data parameter is missing, a block dimension
  /// that is not free is not 1, or the program cannot predict (a fitted
  /// denominator vanishes, the grid formula fails); \p Ns is then NaN.
  bool predictNs(const profiledb::DataTuple &Data, const uint32_t Block[3],
                 double &Ns, std::string &Why) const;

  /// The MWP-CWP inputs the program computes for a launch (the rule of
  /// docs/models.md applied to the fitted metrics); false as predictNs.
  bool inputs(const profiledb::DataTuple &Data, const uint32_t Block[3],
              klaraptor_mwp_cwp_inputs &In, std::string &Why) const;

  /// The warps of a launch with a thread inside the data: the threads of a
  /// block with linear index x + bx*(y + by*z) form warps of 32, and a
  /// thread is inside when its global index is below the extent in each
  /// dimension (the guard `if (i >= N) return;` of a kernel whose grid is
  /// ceildiv(N, bx)). Computed with the integer loop the emitted C runs;
  /// NaN when there are no Extents or they cannot be evaluated.
  double activeWarps(const std::vector<int64_t> &X) const;
  /// Whether the grid formula gives the data's extents (activeWarps can
  /// count).
  bool hasExtents() const { return Extents[0] && Extents[1] && Extents[2]; }
  /// Whether a quantity a model reads was fitted per active warp (then a
  /// prediction needs the active warps).
  bool needsActiveWarps() const;

  /// The values of Vars for a launch; false with \p Why as predictNs.
  bool variables(const profiledb::DataTuple &Data, const uint32_t Block[3],
                 std::vector<int64_t> &X, std::string &Why) const;
  /// \p X (values of Vars) with the free block dims replaced by those of
  /// the warp's shape (warpShape): the variables of a PerRequest fit.
  std::vector<int64_t> warpVariables(const std::vector<int64_t> &X) const;

  /// The self-contained C program: fitted functions, embedded hardware
  /// parameters, a predict function and a constructor registering it with
  /// the runtime under modelName().
  std::string emitC() const;
  /// The model's name ("mwp-cwp", "waves"), "/" and 16 hex digits of the
  /// FNV-1a 64 hash of the program.
  std::string modelName() const;
  /// A file name for the program: the kernel name with characters other
  /// than [A-Za-z0-9_.-] replaced by '_' (no extension).
  std::string fileStem() const;
  /// The fit report of this kernel as one JSON object.
  std::string json() const;

  /// Whether the program bounds a launch's time from below by its
  /// same-address atomics: AtomicSameAddressCycles > 0 and the fitted
  /// `global_atomic_max_address_ops` is not the constant 0.
  bool boundsByAtomics() const;

  /// The fitted quantities of a launch as a metrics record (each scaled
  /// to the launch, under its metric key), with its blocks, threads and
  /// warps: what the model's inputs are computed from; false as predictNs.
  bool launchRecord(const profiledb::DataTuple &Data, const uint32_t Block[3],
                    std::map<std::string, double> &Record,
                    std::string &Why) const;

private:
  /// The C program with \p Name as the model name.
  std::string emitCWithName(const std::string &Name) const;
  /// A unique prefix of the program's external symbols.
  std::string symbolPrefix() const;
};

/// Whether \p Name is a model a rational program can evaluate
/// ("mwp-cwp-lines", "mwp-cwp", "waves", "roofline"); their names go to
/// \p Known when given.
bool isFitModel(const std::string &Name, std::string *Known = nullptr);

/// Spearman's rank correlation of \p A and \p B (equal sizes; ties get
/// their average rank); 0 when fewer than two values or either is constant.
double spearman(const std::vector<double> &A, const std::vector<double> &B);

/// The device profile to fit with for a database whose `device` is \p Name:
/// \p Name itself when it is a profile (a built-in name or a .device file);
/// for a GPU's name as the cupti backend records it ("NVIDIA H100 80GB
/// HBM3"), the built-in profile of that GPU family (H200, H100, A100, T4,
/// RTX 4090, RTX 2070 SUPER) with \p Note saying so; otherwise \p Name
/// (loading it then fails with the reason). \p StoredText is the database's
/// `device_profile` meta (the text of the profile file it was profiled
/// with): when given, it is registered under its id
/// (devices::registerDeviceProfile), so the id loads without the file;
/// \p From names the database in messages.
std::string deviceProfileFor(const std::string &Name, std::string &Note,
                             const std::string &StoredText = "",
                             const std::string &From = "");

/// Opens the profile database that `fit` and `report` read: \p DbPath must
/// be an existing, non-empty file (ProfileDb::open would create a missing
/// one) holding at least one kernel, whose rows go to \p Rows. An empty
/// \p Device becomes the database's device (deviceProfileFor; \p Note says
/// when a GPU's name was mapped to a profile); the device must load as a
/// profile. Null with \p Error, ready to print, otherwise.
std::unique_ptr<profiledb::ProfileDb>
openProfileToFit(const std::string &DbPath,
                 std::vector<profiledb::KernelRow> &Rows, std::string &Device,
                 std::string &Note, std::string &Error);

/// Fits \p Kernel from the samples \p Db holds for it. False with \p Error
/// (naming the kernel) when the spec cannot be parsed, the kernel has too few
/// usable samples, the device profile cannot be loaded or a quantity cannot
/// be fitted.
bool fitKernel(profiledb::ProfileDb &Db, const profiledb::KernelRow &Kernel,
               const KernelFitOptions &Options, KernelFit &Fit,
               std::string &Error);

/// Fit reports kept between runs of the tools. A slot is one fit of one
/// quantity (its scale, idle cost, samples and phase); it holds the hash of
/// everything the fit read (the samples' values, the fit options, the
/// klaraptor executable's file: buildIdentity) and the saved report
/// (fitting::saveFitReport). A slot whose hash matches is reused, any other
/// is fitted again and replaced. fitKernel keeps one cache per kernel in
/// the profile database (meta key `fit_cache:KERNEL`, not exported into
/// datasets), so `report` after `fit`, or a second `fit`, fits nothing.
/// Safe to use from the fit's threads.
struct FitCache {
  struct Entry {
    std::string Hash, Report;
  };
  std::map<std::string, Entry> Slots;
  unsigned Hits = 0, Misses = 0;
  bool Changed = false;
  std::mutex M;

  /// The cache as text, and back (false on a damaged text: start empty).
  std::string save() const;
  bool load(const std::string &Text);
  /// The identity of the running executable's file (device, inode, size,
  /// modification time; "" when it cannot be read: then nothing is cached).
  static const std::string &buildIdentity();
};

/// Fits \p Kernel from \p Samples (those of the database, or made up);
/// with \p Cache, fits found there are reused and new ones added.
bool fitKernelSamples(const profiledb::KernelRow &Kernel,
                      const std::vector<profiledb::SampleRow> &Samples,
                      const std::string &Device,
                      const KernelFitOptions &Options, KernelFit &Fit,
                      std::string &Error, FitCache *Cache = nullptr);

/// The kernel rows to fit, in database order: for each kernel name the
/// newest row (a kernel whose pragma changed has several; the last spec
/// wins), only the names in \p Only when it is not empty. The older rows
/// left out go to \p Older when given.
std::vector<const profiledb::KernelRow *>
newestKernelRows(const std::vector<profiledb::KernelRow> &Rows,
                 const std::vector<std::string> &Only = {},
                 std::vector<const profiledb::KernelRow *> *Older = nullptr);

/// A kernel that could not be fitted, and why.
struct FitFailure {
  std::string Kernel, Error;
};

/// Writes what `klaraptor fit` makes into the existing folder \p OutDir: one
/// C rational program per fit (<fileStem>.c, \p Files gets their paths) and
/// fit-report.json (every fit's json() and the failures, with \p DbPath and
/// \p Device), whose text goes to \p Report. False with \p Error when a
/// file cannot be written.
bool writeModels(const std::string &OutDir, const std::string &DbPath,
                 const std::string &Device, const std::vector<KernelFit> &Fits,
                 const std::vector<FitFailure> &Failed,
                 std::vector<std::string> &Files, std::string &Report,
                 std::string &Error);

} // namespace modelfit
} // namespace klaraptor

#endif // KLARAPTOR_MODEL_KERNELFIT_H
