//===- KernelFit.cpp - one kernel's rational program from its profile -----===//
///
/// \file
/// See KernelFit.h. The C that emitC writes and the C++ of inputs/predictNs
/// perform the same operations in the same order (the rule of
/// model::inputsFromMetrics, then klaraptor_mwp_cwp_ns), so that the
/// program's predictions and `klaraptor fit --eval` agree to the last bit.
//===----------------------------------------------------------------------===//
#include "klaraptor/model/KernelFit.h"

#include "klaraptor/fitting/CEmitter.h"
#include "klaraptor/fitting/DataTable.h"
#include "klaraptor/fitting/Report.h"
#include "klaraptor/fitting/Serialize.h"
#include "klaraptor/model/PerformanceModel.h"
#include "DeviceProfile.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <set>
#include <map>
#include <thread>
#include <tuple>
#include <sys/stat.h>
#include <cstring>
#include <cerrno>

using namespace klaraptor::fitting;

namespace klaraptor {
namespace modelfit {

namespace {

const char *const BlockNames[3] = {"bx", "by", "bz"};

/// A model a rational program can evaluate: its name, the C function the
/// program calls (declared in klaraptor/mwp_cwp.h) and what the program's
/// comment calls it.
struct FitModel {
  const char *Name;
  double (*Ns)(const klaraptor_mwp_cwp_inputs *, const klaraptor_mwp_cwp_hw *);
  const char *CFunction;
  const char *Description;
  /// Reads sectors_per_warp, active_warps_per_block and hw.dram_gap (the
  /// programs of the others do not set them, and stay as they were).
  bool Sectors = false;
  /// Reads load_lines_per_request (the fitted lines of the loads).
  bool Lines = false;
};
const FitModel FitModels[] = {
    {"mwp-cwp-lines", klaraptor_mwp_cwp_lines_ns, "klaraptor_mwp_cwp_lines_ns",
     "the lines model (MWP-CWP times the L1 lines a load request touches)",
     false, true},
    {"mwp-cwp", klaraptor_mwp_cwp_ns, "klaraptor_mwp_cwp_ns", "MWP-CWP"},
    {"waves", klaraptor_waves_ns, "klaraptor_waves_ns",
     "the wave model (MWP-CWP per wave on the busiest SM)"},
    {"roofline", klaraptor_roofline_ns, "klaraptor_roofline_ns",
     "the roofline model (the busiest SM's issue, DRAM, latency and\n"
     " * block-dispatch bounds)",
     true},
};

/// The entry of \p Name, or null.
const FitModel *findFitModel(const std::string &Name) {
  for (const FitModel &M : FitModels)
    if (Name == M.Name)
      return &M;
  return nullptr;
}

std::string hexDouble(double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, "%a", V);
  return Buf;
}

std::string cString(const std::string &S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    if (C == '\n') {
      Out += "\\n";
      continue;
    }
    Out += C;
  }
  return Out + "\"";
}

/// Comment text that cannot close the comment.
std::string safeComment(std::string S) {
  size_t P;
  while ((P = S.find("*/")) != std::string::npos)
    S.replace(P, 2, "* /");
  return S;
}

/// The value of quantity \p Name in sample \p S.
double sampleValue(const profiledb::SampleRow &S, const std::string &Name) {
  if (Name == "shared_per_block")
    return double(S.SharedBytes);
  auto It = S.Metrics.find(Name);
  if (It != S.Metrics.end())
    return It->second;
  if (Name == "registers_per_thread")
    return double(S.Registers);
  return 0;
}

/// The factor C with Q[i] = C * P[i] in every sample (to rounding), if
/// there is one and it is not 0.
std::optional<double> constantFactor(const std::vector<double> &P,
                                     const std::vector<double> &Q) {
  double C = 0;
  for (size_t I = 0; I < P.size() && C == 0; ++I)
    if (P[I] != 0)
      C = Q[I] / P[I];
  if (!(C != 0) || !std::isfinite(C))
    return std::nullopt;
  for (size_t I = 0; I < P.size(); ++I) {
    double Want = C * P[I];
    if (!(std::fabs(Q[I] - Want) <=
          1e-12 * std::max(std::fabs(Q[I]), std::fabs(Want))))
      return std::nullopt;
  }
  return C;
}

/// Whether \p Q's fit can be multiplied by a factor as it is: no piece has
/// an exact form (exact coefficients would have to stay exact).
bool scalableFit(const FittedQuantity &Q) {
  if (Q.IsConstant)
    return false;
  for (const fitting::Piece &P : Q.Report.Model.Pieces)
    if (P.F.Exact)
      return false;
  return !Q.Report.Model.Pieces.empty();
}

/// Multiplies a (scalable) fitted quantity by \p C: its numerators and its
/// idle-warp value.
void scaleFittedQuantity(FittedQuantity &Q, double C) {
  Q.IdleWarp *= C;
  for (fitting::Piece &P : Q.Report.Model.Pieces)
    for (double &K : P.F.NumCoef)
      K *= C;
}

/// The warps with a thread inside the extents \p E of a launch with block
/// \p B (see KernelFit::activeWarps). The emitted C runs ActiveWarpsC, the
/// same statements: integer counting, then one double sum in the same order.
double activeWarpsOf(const int64_t E[3], const int64_t B[3]) {
  int64_t G[3], Last[3];
  for (int D = 0; D < 3; ++D) {
    if (B[D] <= 0 || E[D] < 0)
      return NAN;
    if (E[D] == 0)
      return 0;
    G[D] = (E[D] + B[D] - 1) / B[D];
    Last[D] = E[D] - (G[D] - 1) * B[D];
  }
  double Total = 0;
  for (int K = 0; K < 8; ++K) {
    int64_t R[3];
    double Count = 1;
    for (int D = 0; D < 3; ++D) {
      // Interior blocks (full), then the last one when it overhangs.
      bool Full = Last[D] == B[D];
      int Edge = (K >> D) & 1;
      R[D] = Edge ? Last[D] : B[D];
      Count *= Edge ? (Full ? 0.0 : 1.0)
                    : (Full ? double(G[D]) : double(G[D] - 1));
    }
    if (Count == 0)
      continue;
    int64_t Warps = 0, Prev = -1;
    for (int64_t Z = 0; Z < R[2]; ++Z)
      for (int64_t Y = 0; Y < R[1]; ++Y) {
        int64_t First = B[0] * (Y + B[1] * Z);
        int64_t Lo = First / 32, Hi = (First + R[0] - 1) / 32;
        Warps += Hi - Lo + 1 - (Lo == Prev ? 1 : 0);
        Prev = Hi;
      }
    Total += Count * double(Warps);
  }
  return Total;
}

/// The C of activeWarpsOf.
const char *const ActiveWarpsC = R"C(int64_t g[3], last[3], r[3], z, y, first, lo, hi, w, prev;
  double total = 0, count;
  int d, k, edge, full;
  for (d = 0; d < 3; ++d) {
    if (b[d] <= 0 || e[d] < 0)
      return NAN;
    if (e[d] == 0)
      return 0;
    g[d] = (e[d] + b[d] - 1) / b[d];
    last[d] = e[d] - (g[d] - 1) * b[d];
  }
  for (k = 0; k < 8; ++k) {
    count = 1;
    for (d = 0; d < 3; ++d) {
      full = last[d] == b[d];
      edge = (k >> d) & 1;
      r[d] = edge ? last[d] : b[d];
      count *= edge ? (full ? 0.0 : 1.0)
                    : (full ? (double)g[d] : (double)(g[d] - 1));
    }
    if (count == 0)
      continue;
    w = 0;
    prev = -1;
    for (z = 0; z < r[2]; ++z)
      for (y = 0; y < r[1]; ++y) {
        first = b[0] * (y + b[1] * z);
        lo = first / 32;
        hi = (first + r[0] - 1) / 32;
        w += hi - lo + 1 - (lo == prev ? 1 : 0);
        prev = hi;
      }
    total += count * (double)w;
  }
  return total;
)C";

} // namespace

namespace {
/// Ranks with ties averaged (1-based).
std::vector<double> ranks(const std::vector<double> &V) {
  std::vector<size_t> Order(V.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::sort(Order.begin(), Order.end(),
            [&](size_t A, size_t B) { return V[A] < V[B]; });
  std::vector<double> R(V.size());
  for (size_t I = 0; I < Order.size();) {
    size_t J = I;
    while (J + 1 < Order.size() && V[Order[J + 1]] == V[Order[I]])
      ++J;
    double Avg = (double(I) + double(J)) / 2 + 1;
    for (size_t K = I; K <= J; ++K)
      R[Order[K]] = Avg;
    I = J + 1;
  }
  return R;
}

double pearson(const std::vector<double> &A, const std::vector<double> &B) {
  size_t N = A.size();
  if (N < 2)
    return 0;
  double MA = std::accumulate(A.begin(), A.end(), 0.0) / double(N);
  double MB = std::accumulate(B.begin(), B.end(), 0.0) / double(N);
  double SAB = 0, SAA = 0, SBB = 0;
  for (size_t I = 0; I < N; ++I) {
    SAB += (A[I] - MA) * (B[I] - MB);
    SAA += (A[I] - MA) * (A[I] - MA);
    SBB += (B[I] - MB) * (B[I] - MB);
  }
  if (SAA <= 0 || SBB <= 0)
    return 0;
  return SAB / std::sqrt(SAA * SBB);
}

} // namespace

std::string Agreement::str() const {
  char Buf[256];
  std::snprintf(Buf, sizeof(Buf),
                "agreement with the measured times over %u samples: Spearman "
                "rank correlation %.3f, geomean predicted/measured %.3g, best "
                "shape predicted for %u of %u data tuples",
                Samples, Spearman, GeomeanRatio, BestMatches, Tuples);
  return Buf;
}

double spearman(const std::vector<double> &A, const std::vector<double> &B) {
  return pearson(ranks(A), ranks(B));
}

const char *describe(QuantityScale S) {
  switch (S) {
  case QuantityScale::Total:
    return "total";
  case QuantityScale::PerWarp:
    return "per warp";
  case QuantityScale::PerActiveWarp:
    return "per active warp";
  case QuantityScale::PerRequest:
    return "per request";
  }
  return "?";
}

void warpShape(const int64_t Block[3], int64_t Warp[3]) {
  // A dimension below 1 counts as 1 (no division by zero on bad input).
  int64_t B[3];
  for (int D = 0; D < 3; ++D)
    B[D] = Block[D] < 1 ? 1 : Block[D];
  Warp[0] = std::min<int64_t>(B[0], 32);
  Warp[1] = std::min<int64_t>(B[1], (32 + Warp[0] - 1) / Warp[0]);
  Warp[2] = std::min<int64_t>(B[2], (32 + Warp[0] * Warp[1] - 1) /
                                        (Warp[0] * Warp[1]));
}

const std::vector<std::string> &KernelFit::quantityNames() {
  static const std::vector<std::string> Names = {
      "inst_executed",         "global_load_requests", "global_load_sectors",
      "global_store_requests", "global_store_sectors", "global_atomic_requests",
      "global_atomic_sectors", "inst_barrier",         "registers_per_thread",
      "shared_per_block",      "global_atomic_max_address_ops",
      "global_load_lines"};
  return Names;
}

int KernelFit::requestQuantity(const std::string &Name) {
  const char *Requests = nullptr;
  if (Name == "global_load_sectors" || Name == "global_load_lines")
    Requests = "global_load_requests";
  else if (Name == "global_store_sectors")
    Requests = "global_store_requests";
  else if (Name == "global_atomic_sectors")
    Requests = "global_atomic_requests";
  if (!Requests)
    return -1;
  const std::vector<std::string> &Names = quantityNames();
  return int(std::find(Names.begin(), Names.end(), Requests) - Names.begin());
}

bool KernelFit::recordedOnly(const std::string &Name) const {
  // The lines of the loads: read by the lines model; for the others, by
  // scripts/model-playground.py's line models only (docs/results.md, "The
  // lines a load touches").
  if (Name != "global_load_lines")
    return false;
  const FitModel *M = findFitModel(Model);
  return !(M && M->Lines);
}

//===----------------------------------------------------------------------===//
// FittedQuantity
//===----------------------------------------------------------------------===//

double FittedQuantity::residual() const {
  if (IsConstant)
    return 0;
  double R = 0;
  for (const PieceStats &S : Report.Stats)
    R = std::max(R, S.Residual);
  return R;
}

double FittedQuantity::heldOut() const {
  return IsConstant ? 0 : Report.HeldOut;
}

std::string FittedQuantity::form() const {
  if (IsConstant) {
    char Buf[64];
    std::snprintf(Buf, sizeof Buf, "%.17g", Constant);
    return Buf;
  }
  if (Scale == QuantityScale::PerWarp)
    return "(" + Report.Model.str(6) + ") * warps";
  if (Scale == QuantityScale::PerActiveWarp && IdleWarp != 0) {
    char Buf[64];
    std::snprintf(Buf, sizeof Buf, "%.6g", IdleWarp);
    return "(" + Report.Model.str(6) + ") * active_warps + " + Buf +
           " * (warps - active_warps)";
  }
  if (Scale == QuantityScale::PerActiveWarp)
    return "(" + Report.Model.str(6) + ") * active_warps";
  if (Scale == QuantityScale::PerRequest)
    return "(" + Report.Model.str(6) + ", block dims of the warp's shape) * " +
           KernelFit::quantityNames()[size_t(KernelFit::requestQuantity(Name))];
  return Report.Model.str(6);
}

std::string FittedQuantity::degrees() const {
  if (IsConstant)
    return "const";
  const FittedModel &M = Report.Model;
  auto Bounds = [&](const std::vector<unsigned> &D) {
    std::string S;
    for (size_t V = 0; V < D.size() && V < M.Vars.size(); ++V)
      if (D[V])
        S += (S.empty() ? "" : ",") + M.Vars[V] + "=" + std::to_string(D[V]);
    return S.empty() ? std::string("0") : S;
  };
  if (M.Pieces.empty())
    return "?";
  const RationalFunction &F = M.Pieces[0].F;
  std::string S = Bounds(F.NumDegree) + "/" + Bounds(F.DenDegree);
  if (M.Pieces.size() > 1)
    S += " (" + std::to_string(M.Pieces.size()) + " pieces)";
  return S;
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

bool KernelFit::variables(const profiledb::DataTuple &Data,
                          const uint32_t Block[3], std::vector<int64_t> &X,
                          std::string &Why) const {
  X.assign(Vars.size(), 0);
  for (size_t I = 0; I < DataNames.size(); ++I) {
    auto It = Data.find(DataNames[I]);
    if (It == Data.end()) {
      Why = "no value for data parameter '" + DataNames[I] + "'";
      return false;
    }
    X[I] = It->second;
  }
  for (int D = 0; D < 3; ++D) {
    if (BlockVar[D] >= 0)
      X[size_t(BlockVar[D])] = int64_t(Block[D]);
    else if (Block[D] != 1) {
      Why = std::string("block dimension ") + BlockNames[D] +
            " is not free in the pragma and must be 1";
      return false;
    }
  }
  return true;
}

std::vector<int64_t>
KernelFit::warpVariables(const std::vector<int64_t> &X) const {
  std::vector<int64_t> W = X;
  int64_t B[3], Warp[3];
  for (int D = 0; D < 3; ++D)
    B[D] = BlockVar[D] >= 0 && size_t(BlockVar[D]) < X.size()
               ? X[size_t(BlockVar[D])]
               : 1;
  warpShape(B, Warp);
  for (int D = 0; D < 3; ++D)
    if (BlockVar[D] >= 0 && size_t(BlockVar[D]) < W.size())
      W[size_t(BlockVar[D])] = Warp[D];
  return W;
}

double KernelFit::activeWarps(const std::vector<int64_t> &X) const {
  if (!hasExtents() || X.size() != Vars.size())
    return NAN;
  int64_t E[3], B[3];
  for (int D = 0; D < 3; ++D) {
    double V = Extents[D]->evaluateAsC(X.data());
    if (std::isnan(V))
      return NAN;
    E[D] = int64_t(V);
    B[D] = BlockVar[D] >= 0 ? X[size_t(BlockVar[D])] : 1;
  }
  return activeWarpsOf(E, B);
}

bool KernelFit::inputs(const profiledb::DataTuple &Data,
                       const uint32_t Block[3], klaraptor_mwp_cwp_inputs &In,
                       std::string &Why) const {
  std::map<std::string, double> Record;
  if (!launchRecord(Data, Block, Record, Why))
    return false;
  In = model::MwpCwpModel::toC(model::inputsFromMetrics(Record));
  return true;
}

bool KernelFit::needsActiveWarps() const {
  return std::any_of(Quantities.begin(), Quantities.end(),
                     [this](const FittedQuantity &Q) {
                       return !Q.IsConstant && !recordedOnly(Q.Name) &&
                              Q.Scale == QuantityScale::PerActiveWarp;
                     });
}

bool KernelFit::launchRecord(const profiledb::DataTuple &Data,
                             const uint32_t Block[3],
                             std::map<std::string, double> &Record,
                             std::string &Why) const {
  std::vector<int64_t> X;
  if (!variables(Data, Block, X, Why))
    return false;
  std::vector<double> Values;
  const std::vector<int64_t> XW = warpVariables(X);
  for (const FittedQuantity &Q : Quantities) {
    double V;
    if (Q.IsConstant) {
      V = Q.Constant;
    } else {
      const FittedModel &M = Q.Report.Model;
      const std::vector<int64_t> &At =
          Q.Scale == QuantityScale::PerRequest ? XW : X;
      std::vector<int64_t> Sub;
      for (const std::string &Name : M.Vars)
        Sub.push_back(At[size_t(std::find(Vars.begin(), Vars.end(), Name) -
                                Vars.begin())]);
      V = M.evaluate(Sub.data());
    }
    if (std::isnan(V) && !recordedOnly(Q.Name)) {
      Why = "the fit of '" + Q.Name +
            "' is not defined there (its denominator vanishes)";
      return false;
    }
    Values.push_back(V);
  }
  double NumBlocks = Blocks->evaluateAsC(X.data());
  double NumThreads = Threads->evaluateAsC(X.data());
  if (std::isnan(NumBlocks) || std::isnan(NumThreads)) {
    Why = "the grid formula cannot be evaluated there";
    return false;
  }
  // The emitted C does exactly this (warp size 32, as inputsFromMetrics).
  double Warps = NumBlocks * std::ceil(NumThreads / 32);
  bool NeedActive = needsActiveWarps();
  // The warps with a thread inside the data, where the grid formula says
  // where the data end (NaN otherwise): the per-active-warp scale needs
  // them, the roofline's latency bound reads them from the record.
  double Active = activeWarps(X);
  if (NeedActive && std::isnan(Active)) {
    Why = "the data extents of the grid cannot be evaluated there";
    return false;
  }
  if (!std::isnan(Active))
    Record["active_warps"] = Active;
  for (size_t K = 0; K < Quantities.size(); ++K) {
    const FittedQuantity &Q = Quantities[K];
    double V = Values[K];
    // A quantity no model reads is recorded where it is defined, else left
    // out: it never refuses a shape.
    if (recordedOnly(Q.Name) &&
        (std::isnan(V) ||
         (!Q.IsConstant && Q.Scale == QuantityScale::PerActiveWarp &&
          std::isnan(Active))))
      continue;
    if (!Q.IsConstant && Q.Scale == QuantityScale::PerWarp)
      V = V * Warps;
    else if (!Q.IsConstant && Q.Scale == QuantityScale::PerActiveWarp &&
             Q.IdleWarp != 0)
      V = V * Active + Q.IdleWarp * (Warps - Active);
    else if (!Q.IsConstant && Q.Scale == QuantityScale::PerActiveWarp)
      V = V * Active;
    else if (!Q.IsConstant && Q.Scale == QuantityScale::PerRequest)
      // The requests come first in quantityNames(): already the launch's.
      V = V * Record[quantityNames()[size_t(requestQuantity(Q.Name))]];
    Record[Q.Name] = V;
  }
  Record["blocks_launched"] = NumBlocks;
  Record["threads_per_block"] = NumThreads;
  Record["warps_launched"] = Warps;
  Record["static_shared_bytes"] = Record["shared_per_block"];
  Record.erase("shared_per_block");
  return true;
}

namespace {
/// The index of quantity \p Name in quantityNames() (its size if none).
size_t quantityIndex(const char *Name) {
  const std::vector<std::string> &Names = KernelFit::quantityNames();
  return size_t(std::find(Names.begin(), Names.end(), Name) - Names.begin());
}

/// The index of the busiest address's atomics in quantityNames().
size_t atomicQuantity() {
  return quantityIndex("global_atomic_max_address_ops");
}
} // namespace

bool KernelFit::boundsByAtomics() const {
  size_t K = atomicQuantity();
  return AtomicSameAddressCycles > 0 && K < Quantities.size() &&
         !(Quantities[K].IsConstant && Quantities[K].Constant == 0);
}

bool KernelFit::predictNs(const profiledb::DataTuple &Data,
                          const uint32_t Block[3], double &Ns,
                          std::string &Why) const {
  Ns = NAN;
  if (std::binary_search(FailingBlocks.begin(), FailingBlocks.end(),
                         std::array<uint32_t, 3>{Block[0], Block[1], Block[2]})) {
    Why = "the kernel failed with block " + profiledb::blockText(Block) +
          " in the profile";
    return false;
  }
  std::map<std::string, double> Record;
  if (!launchRecord(Data, Block, Record, Why))
    return false;
  klaraptor_mwp_cwp_inputs In =
      model::MwpCwpModel::toC(model::inputsFromMetrics(Record));
  const FitModel *M = findFitModel(Model);
  if (!M) {
    Why = "unknown model '" + Model + "'";
    return false;
  }
  Ns = M->Ns(&In, &Hw);
  if (std::isnan(Ns)) {
    Why = "the model gives no number";
    return false;
  }
  // Same-address atomics, one after another at the L2 (the emitted C does
  // the same).
  if (boundsByAtomics()) {
    double Floor = Record["global_atomic_max_address_ops"] *
                   AtomicSameAddressCycles / Hw.freq_ghz;
    if (Floor > Ns)
      Ns = Floor;
  }
  // An SM starts a block only every block_launch_cycles: the busiest SM's
  // blocks bound the launch from below (the emitted C does the same).
  Ns = std::max(Ns, klaraptor_dispatch_bound_ns(&In, &Hw));
  return true;
}

//===----------------------------------------------------------------------===//
// C emission
//===----------------------------------------------------------------------===//

std::string KernelFit::fileStem() const {
  std::string S;
  for (char C : Kernel)
    S += (std::isalnum((unsigned char)C) || C == '_' || C == '-' || C == '.')
             ? C
             : '_';
  if (S.empty() || S[0] == '.' || S[0] == '-')
    S = "_" + S;
  return S;
}

std::string KernelFit::symbolPrefix() const {
  return "kfit_" +
         profiledb::specHash(Kernel + "\n" + Spec + "\n" + Device)
             .substr(0, 12) +
         "_";
}

std::string KernelFit::modelName() const {
  return Model + "/" +
         profiledb::specHash(emitCWithName(Model + "/@PROGRAM_HASH@"));
}

std::string KernelFit::emitC() const { return emitCWithName(modelName()); }

std::string KernelFit::emitCWithName(const std::string &Name) const {
  const FitModel *FM = findFitModel(Model);
  if (!FM) // fitKernel refuses such a model; Model was changed afterwards
    return "#error " + cString("klaraptor fit: unknown model '" + Model + "'") +
           "\n";
  std::string P = symbolPrefix();
  bool NeedActive = needsActiveWarps();
  // The roofline reads the active warps too, where the grid gives the
  // data's extents (a NAN count then means: every warp).
  bool EmitActive = NeedActive || (FM->Sectors && hasExtents());
  std::string S = emitCPreamble("klaraptor fit");
  S += "\n#include \"klaraptor/klaraptor_rt.h\"\n"
       "#include \"klaraptor/mwp_cwp.h\"\n\n";
  S += "/* The rational program of kernel " + safeComment(Kernel) + ".\n";
  S += " * Variables: ";
  for (size_t V = 0; V < Vars.size(); ++V)
    S += (V ? ", " : "") + Vars[V];
  S += "; " + std::to_string(SamplesUsed) + " samples; device profile " +
       safeComment(Device) + ".\n";
  S += " * Raw metrics are fitted; blocks and threads come from the pragma;\n"
       " * the MWP-CWP inputs follow the rule of docs/models.md; the model is\n"
       " * " + std::string(FM->Description) + ". */\n\n";

  // The fitted functions and the exact formulas (not of what no model
  // reads).
  for (const FittedQuantity &Q : Quantities) {
    if (Q.IsConstant || recordedOnly(Q.Name))
      continue;
    std::vector<std::string> Comment;
    char Buf[200];
    std::snprintf(Buf, sizeof Buf, "%s: %s; residual %.3g, held-out error %.3g",
                  Q.Name.c_str(), Q.exact() ? "exact" : "least-squares fit",
                  Q.residual(), Q.heldOut());
    Comment.push_back(Buf);
    if (Q.Scale != QuantityScale::Total)
      Comment.push_back(std::string("fitted ") + describe(Q.Scale) +
                        "; predict multiplies by the count");
    const char *Per = Q.Scale == QuantityScale::PerWarp ? "warps"
                      : Q.Scale == QuantityScale::PerActiveWarp
                          ? "active_warps"
                          : nullptr;
    if (Q.Scale == QuantityScale::PerRequest)
      Comment.push_back(Q.Name + " / " +
                        quantityNames()[size_t(requestQuantity(Q.Name))] +
                        " ~ " + Q.Report.Model.str(12) +
                        ", the block dims those of the warp's shape");
    else
      Comment.push_back(Q.Name + (Per ? std::string(" / ") + Per : "") +
                        " ~ " + Q.Report.Model.str(12));
    S += emitCFunction(Q.Report.Model, P + Q.Name, Comment) + "\n";
  }
  S += emitCFunction(*Blocks, P + "blocks",
                     {"blocks = " + Blocks->str() + " (the pragma's grid)"}) +
       "\n";
  S += emitCFunction(*Threads, P + "threads",
                     {"threads per block = " + Threads->str()}) +
       "\n";
  if (EmitActive) {
    for (int Dm = 0; Dm < 3; ++Dm)
      S += emitCFunction(*Extents[Dm], P + "extent_" + BlockNames[Dm],
                         {std::string("the data extent along ") +
                          BlockNames[Dm] + " = " + Extents[Dm]->str()}) +
           "\n";
    S += "/* The warps with a thread inside the extents e of a launch with\n"
         " * block b (threads x + bx*(y + by*z) in warps of 32); NAN when an\n"
         " * extent or block dim is negative. */\n";
    S += "static double " + P +
         "active_warps(const int64_t *e, const int64_t *b) {\n  " +
         ActiveWarpsC + "}\n\n";
  }

  // The hardware parameters of the profile.
  const klaraptor_mwp_cwp_hw &H = Hw;
  S += "/* MWP-CWP parameters of device profile " + safeComment(Device) +
       "; the occupancy limits are replaced at run time by the device's. */\n";
  S += "static const klaraptor_mwp_cwp_hw " + P + "hw = {\n";
  auto D = [&](const char *N, double V) {
    S += std::string("  .") + N + " = " + hexDouble(V) + ",\n";
  };
  auto I = [&](const char *N, int64_t V) {
    S += std::string("  .") + N + " = " + std::to_string(V) + ",\n";
  };
  D("mem_ld", H.mem_ld);
  D("departure_del_coal", H.departure_del_coal);
  D("departure_del_uncoal", H.departure_del_uncoal);
  D("issue_cycles", H.issue_cycles);
  D("freq_ghz", H.freq_ghz);
  D("mem_bandwidth_gbs", H.mem_bandwidth_gbs);
  D("load_bytes_per_warp", H.load_bytes_per_warp);
  D("active_sms", H.active_sms);
  I("warp_size", H.warp_size);
  I("max_threads_per_sm", H.max_threads_per_sm);
  I("max_blocks_per_sm", H.max_blocks_per_sm);
  I("max_threads_per_block", H.max_threads_per_block);
  I("regs_per_sm", H.regs_per_sm);
  I("regs_per_block", H.regs_per_block);
  I("max_regs_per_thread", H.max_regs_per_thread);
  I("reg_alloc_unit", H.reg_alloc_unit);
  I("reg_alloc_per_warp", H.reg_alloc_per_warp);
  I("sm_sub_partitions", H.sm_sub_partitions);
  I("shared_per_sm", H.shared_per_sm);
  I("shared_per_block", H.shared_per_block);
  I("shared_per_block_optin", H.shared_per_block_optin);
  I("reserved_shared_per_block", H.reserved_shared_per_block);
  I("shared_alloc_unit", H.shared_alloc_unit);
  // Only when measured: a profile without it emits the program as before.
  if (H.block_launch_cycles > 0)
    D("block_launch_cycles", H.block_launch_cycles);
  if (FM->Sectors)
    D("dram_gap", H.dram_gap);
  S += "};\n\n";

  // predict: variables, quantities, the rule, the model.
  std::string Args;
  for (size_t V = 0; V < Vars.size(); ++V)
    Args += (V ? ", " : "") + Vars[V];
  S += "/* Predicted ns of one candidate launch; NAN when it cannot predict. "
       "*/\n";
  S += "static double " + P +
       "predict(void *kfit_ctx, const int64_t *kfit_data, uint32_t kfit_num,\n"
       "    const klaraptor_candidate *kfit_cand,\n"
       "    const klaraptor_device_info *kfit_dev) {\n";
  S += "  klaraptor_mwp_cwp_inputs in;\n  klaraptor_mwp_cwp_hw hw = " + P +
       "hw;\n";
  S += "  double q[" + std::to_string(Quantities.size()) + "];\n";
  S += "  double blocks, threads, warps, creq = 0, ctr = 0, ureq = 0, utr = "
       "0;\n  int k;\n";
  if (EmitActive)
    S += "  double active = NAN;\n";
  S += "  (void)kfit_ctx;\n";
  S += "  if (!kfit_cand || kfit_num != " + std::to_string(DataNames.size()) +
       "u" + (DataNames.empty() ? "" : " || !kfit_data") +
       ")\n    return NAN;\n";
  for (int Dm = 0; Dm < 3; ++Dm)
    if (BlockVar[Dm] < 0)
      S += "  if (kfit_cand->block[" + std::to_string(Dm) +
           "] != 1) /* not free */\n    return NAN;\n";
  if (!FailingBlocks.empty()) {
    S += "  /* Blocks the kernel failed with in the profile: never chosen. */\n"
         "  {\n    static const uint32_t failing[][3] = {";
    for (size_t F = 0; F < FailingBlocks.size(); ++F)
      S += std::string(F ? ", " : "") + "{" +
           std::to_string(FailingBlocks[F][0]) + "u, " +
           std::to_string(FailingBlocks[F][1]) + "u, " +
           std::to_string(FailingBlocks[F][2]) + "u}";
    S += "};\n    for (k = 0; k < " + std::to_string(FailingBlocks.size()) +
         "; ++k)\n"
         "      if (kfit_cand->block[0] == failing[k][0] &&\n"
         "          kfit_cand->block[1] == failing[k][1] &&\n"
         "          kfit_cand->block[2] == failing[k][2])\n"
         "        return NAN;\n  }\n";
  }
  S += "  {\n";
  for (size_t V = 0; V < DataNames.size(); ++V)
    S += "    const int64_t " + DataNames[V] + " = kfit_data[" +
         std::to_string(V) + "];\n";
  for (int Dm = 0; Dm < 3; ++Dm)
    if (BlockVar[Dm] >= 0)
      S += std::string("    const int64_t ") + BlockNames[Dm] +
           " = (int64_t)kfit_cand->block[" + std::to_string(Dm) + "];\n";
  bool PerRequest = std::any_of(
      Quantities.begin(), Quantities.end(), [this](const FittedQuantity &Q) {
        return !Q.IsConstant && !recordedOnly(Q.Name) &&
               Q.Scale == QuantityScale::PerRequest;
      });
  if (PerRequest) {
    S += "    /* The warp's shape (sectors per request are fitted on it): "
         "min(bx, 32)\n     * threads of a row, the rows and planes 32 "
         "threads make. */\n    int64_t kfit_w[3], kfit_b[3];\n";
    for (int Dm = 0; Dm < 3; ++Dm)
      S += "    kfit_b[" + std::to_string(Dm) + "] = " +
           (BlockVar[Dm] >= 0 ? std::string(BlockNames[Dm]) + " < 1 ? 1 : " +
                                    BlockNames[Dm]
                              : std::string("1")) +
           ";\n";
    S += "    kfit_w[0] = kfit_b[0] < 32 ? kfit_b[0] : 32;\n"
         "    kfit_w[1] = (32 + kfit_w[0] - 1) / kfit_w[0];\n"
         "    if (kfit_b[1] < kfit_w[1])\n      kfit_w[1] = kfit_b[1];\n"
         "    kfit_w[2] = (32 + kfit_w[0] * kfit_w[1] - 1) / (kfit_w[0] * "
         "kfit_w[1]);\n"
         "    if (kfit_b[2] < kfit_w[2])\n      kfit_w[2] = kfit_b[2];\n";
  }
  for (size_t K = 0; K < Quantities.size(); ++K) {
    const FittedQuantity &Q = Quantities[K];
    std::string Lhs = "    q[" + std::to_string(K) + "] = ";
    if (recordedOnly(Q.Name)) {
      S += Lhs + "0; /* " + Q.Name + ": fitted for the record, not read "
                 "by this model */\n";
      continue;
    }
    if (Q.IsConstant) {
      S += Lhs + hexDouble(Q.Constant) + "; /* " + Q.Name +
           ": the same on every sample */\n";
      continue;
    }
    std::string A;
    for (size_t V = 0; V < Q.Report.Model.Vars.size(); ++V) {
      std::string Arg = Q.Report.Model.Vars[V];
      // A per-request fit is evaluated at the warp's shape.
      for (int Dm = 0; Dm < 3; ++Dm)
        if (Q.Scale == QuantityScale::PerRequest && BlockVar[Dm] >= 0 &&
            Arg == Vars[size_t(BlockVar[Dm])])
          Arg = "kfit_w[" + std::to_string(Dm) + "]";
      A += (V ? ", " : "") + Arg;
    }
    S += Lhs + P + Q.Name + "(" + A + ");\n";
  }
  S += "    blocks = " + P + "blocks(" + Args + ");\n";
  S += "    threads = " + P + "threads(" + Args + ");\n";
  if (EmitActive) {
    S += "    {\n      int64_t e[3], b[3];\n      double x;\n"
         "      int ok = 1;\n";
    for (int Dm = 0; Dm < 3; ++Dm) {
      std::string DS = std::to_string(Dm);
      S += "      x = " + P + "extent_" + BlockNames[Dm] + "(" + Args +
           ");\n      if (isnan(x))\n        ok = 0;\n      else\n"
           "        e[" + DS + "] = (int64_t)x;\n";
      S += "      b[" + DS + "] = " +
           (BlockVar[Dm] >= 0 ? std::string(BlockNames[Dm]) : "1") + ";\n";
    }
    S += "      if (ok)\n        active = " + P + "active_warps(e, b);\n"
         "    }\n";
  }
  for (size_t V = 0; V < Vars.size(); ++V)
    S += "    (void)" + Vars[V] + ";\n";
  S += "  }\n";
  S += "  for (k = 0; k < " + std::to_string(Quantities.size()) +
       "; ++k)\n    if (isnan(q[k]))\n      return NAN;\n";
  S += "  if (isnan(blocks) || isnan(threads))\n    return NAN;\n";
  S += "  warps = blocks * ceil(threads / 32);\n";
  if (NeedActive)
    S += "  if (isnan(active))\n    return NAN;\n";
  for (size_t K = 0; K < Quantities.size(); ++K) {
    const FittedQuantity &Q = Quantities[K];
    if (Q.IsConstant || Q.Scale == QuantityScale::Total ||
        recordedOnly(Q.Name))
      continue;
    if (Q.Scale == QuantityScale::PerRequest) {
      // The requests precede their sectors in quantityNames(): q[R] is
      // already the launch's.
      std::string R = std::to_string(requestQuantity(Q.Name));
      S += "  q[" + std::to_string(K) + "] = q[" + std::to_string(K) +
           "] * q[" + R + "]; /* " + Q.Name + " was fitted per request, " +
           "at the warp's shape */\n";
      continue;
    }
    S += "  q[" + std::to_string(K) + "] = q[" + std::to_string(K) + "] * " +
         (Q.Scale == QuantityScale::PerWarp ? "warps" : "active");
    if (Q.Scale == QuantityScale::PerActiveWarp && Q.IdleWarp != 0)
      S += " + " + hexDouble(Q.IdleWarp) + " * (warps - active)";
    S += "; /* " + Q.Name + " was fitted " + describe(Q.Scale) + " */\n";
  }
  // Quantity indices in quantityNames() order.
  S += R"C(  /* Each access kind (load, store, atomic) is coalesced when it averages at
   * most 4 sectors per request: then one 128-byte transaction per 4 sectors;
   * else uncoalesced, one transaction per sector. */
  for (k = 0; k < 3; ++k) {
    double req = q[1 + 2 * k], sec = q[2 + 2 * k], per;
    if (!(req > 0))
      continue;
    per = sec / req;
    if (per <= 4) {
      creq += req;
      ctr += req * fmax(1.0, ceil(per / 4));
    } else {
      ureq += req;
      utr += sec;
    }
  }
  in.blocks = blocks;
  in.threads_per_block = threads;
  in.regs_per_thread = q[8];
  in.shared_per_block = q[9] + 0.0;
  in.comp_insts = warps > 0 ? fmax(0.0, q[0] - (creq + ureq)) / warps : 0.0;
  in.coal_mem_insts = warps > 0 ? creq / warps : 0.0;
  in.uncoal_mem_insts = warps > 0 ? ureq / warps : 0.0;
  in.synch_insts = warps > 0 ? q[7] / warps : 0.0;
  in.coal_per_mw = creq > 0 ? ctr / creq : 1;
  in.uncoal_per_mw = ureq > 0 ? utr / ureq : 1;
  in.active_blocks_per_sm = 0;
  /* The occupancy limits of the device the runtime runs on. */
  if (kfit_dev && kfit_dev->size >= sizeof(klaraptor_device_info)) {
    if (kfit_dev->sm_count > 0)
      hw.active_sms = kfit_dev->sm_count;
    if (kfit_dev->warp_size > 0)
      hw.warp_size = kfit_dev->warp_size;
    if (kfit_dev->max_threads_per_sm > 0)
      hw.max_threads_per_sm = kfit_dev->max_threads_per_sm;
    if (kfit_dev->max_blocks_per_sm > 0)
      hw.max_blocks_per_sm = kfit_dev->max_blocks_per_sm;
    if (kfit_dev->max_threads_per_block > 0)
      hw.max_threads_per_block = kfit_dev->max_threads_per_block;
    if (kfit_dev->regs_per_sm > 0)
      hw.regs_per_sm = kfit_dev->regs_per_sm;
    if (kfit_dev->regs_per_block > 0)
      hw.regs_per_block = kfit_dev->regs_per_block;
    if (kfit_dev->shared_mem_per_sm > 0)
      hw.shared_per_sm = (int64_t)kfit_dev->shared_mem_per_sm;
    if (kfit_dev->shared_mem_per_block > 0)
      hw.shared_per_block = (int64_t)kfit_dev->shared_mem_per_block;
  }
  )C";
  if (FM->Sectors) {
    // Quantity indices in quantityNames() order: the sectors of loads,
    // stores and atomics.
    S += "/* The roofline reads sectors and the warps that hold data. */\n"
         "  in.sectors_per_warp = warps > 0 ? (q[2] + q[4] + q[6]) / warps : "
         "0.0;\n";
    S += EmitActive ? "  in.active_warps_per_block = blocks > 0 && "
                      "!isnan(active) ? active / blocks : 0.0;\n  "
                    : "  in.active_warps_per_block = 0.0; /* every warp */\n  ";
  }
  if (FM->Lines) {
    std::string R = std::to_string(requestQuantity("global_load_lines"));
    S += "/* The lines model reads the L1 lines a load request touches. */\n"
         "  in.load_lines_per_request = q[" + R + "] > 0 ? q[" +
         std::to_string(quantityIndex("global_load_lines")) + "] / q[" + R +
         "] : 0.0;\n  ";
  }
  if (boundsByAtomics() || Hw.block_launch_cycles > 0) {
    S += "{\n    double t = " + std::string(FM->CFunction) + "(&in, &hw);\n";
    if (boundsByAtomics()) {
      size_t Hot = atomicQuantity();
      S += "    /* Atomics on one global address are performed one after "
           "another at the L2:\n     * at least q[" +
           std::to_string(Hot) + "] of them, " +
           hexDouble(AtomicSameAddressCycles) +
           " cycles apart (the device\n     * profile's "
           "timing.atomic_same_address_cycles). */\n"
           "    double bound = q[" + std::to_string(Hot) + "] * " +
           hexDouble(AtomicSameAddressCycles) +
           " / hw.freq_ghz;\n"
           "    if (bound > t)\n      t = bound;\n";
    }
    if (Hw.block_launch_cycles > 0)
      S += "    /* An SM starts a block only every "
           "hw.block_launch_cycles (the device\n     * profile's "
           "timing.block_launch_cycles): the busiest SM's blocks bound\n"
           "     * the launch from below. */\n"
           "    t = fmax(t, klaraptor_dispatch_bound_ns(&in, &hw));\n";
    S += "    return t;\n  }\n}\n\n";
  } else {
    S += "return " + std::string(FM->CFunction) + "(&in, &hw);\n}\n\n";
  }
  // The quantity indices used above must be those of quantityNames().
  S += "static const char " + P + "name[] = " + cString(Name) + ";\n\n";
  S += "/* Registers the model for the kernel when the program starts. */\n";
  S += "__attribute__((constructor)) static void " + P + "register(void) {\n";
  S += "  klaraptor_model m;\n";
  S += "  m.size = sizeof(m);\n  m.abi_version = KLARAPTOR_RT_ABI_VERSION;\n";
  S += "  m.name = " + P + "name;\n  m.predict = " + P + "predict;\n";
  S += "  m.ctx = 0;\n";
  S += "  klaraptor_register_model(" + cString(Kernel) + ", &m);\n}\n";
  return S;
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

std::string KernelFit::json() const {
  std::string S = "{\"kernel\": " + jsonString(Kernel);
  S += ", \"source_name\": " +
       jsonString(SourceName.empty() ? Kernel : SourceName);
  S += ", \"device\": " + jsonString(Device);
  S += ", \"model\": " + jsonString(modelName());
  S += ", \"variables\": [";
  for (size_t V = 0; V < Vars.size(); ++V)
    S += (V ? ", " : "") + jsonString(Vars[V]);
  S += "], \"samples\": " + std::to_string(SamplesUsed);
  S += ", \"failed_samples\": " + std::to_string(SamplesFailed);
  S += ", \"grid_mismatches\": " + std::to_string(GridMismatches);
  S += ", \"failing_blocks\": [";
  for (size_t F = 0; F < FailingBlocks.size(); ++F)
    S += (F ? ", " : "") + jsonString(profiledb::blockText(FailingBlocks[F].data()));
  S += "]";
  S += ",\n  \"quantities\": [";
  for (size_t K = 0; K < Quantities.size(); ++K) {
    const FittedQuantity &Q = Quantities[K];
    S += std::string(K ? ",\n" : "\n") + "    {\"name\": " + jsonString(Q.Name);
    S += ", \"form\": " + jsonString(Q.form());
    S += ", \"degrees\": " + jsonString(Q.degrees());
    S += ", \"constant\": " + std::string(Q.IsConstant ? "true" : "false");
    S += ", \"exact\": " + std::string(Q.exact() ? "true" : "false");
    S += ", \"residual\": " + jsonNumber(Q.residual());
    S += ", \"held_out\": " + jsonNumber(Q.heldOut());
    S += ", \"scale\": " + jsonString(describe(Q.Scale));
    if (Q.IdleWarp != 0)
      S += ", \"idle_warp\": " + jsonNumber(Q.IdleWarp);
    if (!std::isnan(Q.TotalHeldOut))
      S += ", \"total_held_out\": " + jsonNumber(Q.TotalHeldOut);
    if (!Q.MultipleOf.empty())
      S += ", \"multiple_of\": " + jsonString(Q.MultipleOf) +
           ", \"factor\": " + jsonNumber(Q.Factor);
    if (RecordTimes && !Q.IsConstant && Q.MultipleOf.empty())
      S += ", \"fit_seconds\": " + jsonNumber(Q.FitSeconds) +
           ", \"pieces_seconds\": " + jsonNumber(Q.PiecesSeconds);
    S += "}";
  }
  S += ",\n    {\"name\": \"blocks\", \"form\": " + jsonString(Blocks->str()) +
       ", \"degrees\": \"computed\", \"constant\": false, \"exact\": true, "
       "\"residual\": 0, \"held_out\": 0}";
  S += ",\n    {\"name\": \"threads_per_block\", \"form\": " +
       jsonString(Threads->str()) +
       ", \"degrees\": \"computed\", \"constant\": false, \"exact\": true, "
       "\"residual\": 0, \"held_out\": 0}";
  S += "],\n  \"agreement\": {\"samples\": " + std::to_string(Agree.Samples);
  S += ", \"spearman\": " + jsonNumber(Agree.Spearman);
  S += ", \"geomean_ratio\": " + jsonNumber(Agree.GeomeanRatio);
  S += ", \"data_tuples\": " + std::to_string(Agree.Tuples);
  S += ", \"best_shape_matches\": " + std::to_string(Agree.BestMatches) + "}";
  S += ", \"warnings\": [";
  for (size_t W = 0; W < Warnings.size(); ++W)
    S += (W ? ", " : "") + jsonString(Warnings[W]);
  S += "]}";
  return S;
}

//===----------------------------------------------------------------------===//
// Fitting
//===----------------------------------------------------------------------===//

bool isFitModel(const std::string &Name, std::string *Known) {
  if (Known) {
    Known->clear();
    for (const FitModel &M : FitModels)
      *Known += (Known->empty() ? "" : ", ") + std::string(M.Name);
  }
  return findFitModel(Name) != nullptr;
}

bool fitKernelSamples(const profiledb::KernelRow &Kernel,
                      const std::vector<profiledb::SampleRow> &Samples,
                      const std::string &Device,
                      const KernelFitOptions &Options, KernelFit &Fit,
                      std::string &Error, FitCache *Cache) {
  std::string Who = "kernel " + Kernel.displayName();
  if (Cache && FitCache::buildIdentity().empty())
    Cache = nullptr;
  Fit = KernelFit();
  Fit.Kernel = Kernel.Name;
  Fit.SourceName = Kernel.sourceName();
  Fit.RecordTimes = Options.RecordTimes;
  Fit.Spec = Kernel.Spec;
  Fit.Device = Device;
  Fit.Model = Options.Model.empty() ? model::defaultModel() : Options.Model;
  std::string Known;
  if (!isFitModel(Fit.Model, &Known)) {
    Error = "unknown model '" + Fit.Model + "' (known: " + Known + ")";
    return false;
  }

  // Times-only samples (a CSV of measured times, cupti without metrics,
  // KLARAPTOR_PROFILE_TIMES_ONLY) can be compared with, not fitted.
  unsigned Ok = 0;
  bool AnyCounted = false;
  for (const profiledb::SampleRow &S : Samples) {
    if (S.Status != "ok")
      continue;
    ++Ok;
    for (const auto &[Key, V] : S.Metrics)
      AnyCounted |= Key.rfind("gpu_time_", 0) != 0;
  }
  if (Ok > 0 && !AnyCounted) {
    Error = Who + ": its samples hold measured times only, no metrics; "
            "fitting needs the counted metrics (docs/metrics.md): profile "
            "the program with 'klaraptor profile' (the emulator, or cupti "
            "with metrics) to fit it, and use times-only data to judge "
            "choices ('klaraptor dataset judge')";
    return false;
  }
  std::string Err;
  std::optional<KernelSpec> Spec = parseKernelSpec(Kernel.Spec, Err);
  if (!Spec) {
    Error = Who + ": the recorded spec cannot be parsed: " + Err;
    return false;
  }
  for (const DataParam &D : Spec->Data) {
    if (D.Name.rfind("kfit_", 0) == 0 || !isValidCParameterName(D.Name)) {
      Error = Who + ": data parameter '" + D.Name +
              "' cannot be a variable of the generated C";
      return false;
    }
    Fit.DataNames.push_back(D.Name);
    Fit.Vars.push_back(D.Name);
  }
  for (int D = 0; D < 3; ++D)
    if (Spec->FreeDims[D]) {
      Fit.BlockVar[D] = int(Fit.Vars.size());
      Fit.Vars.push_back(BlockNames[D]);
    }

  model::HardwareParams H;
  if (!model::loadHardwareParams(Device, H, Err)) {
    Error = "device profile '" + Device + "': " + Err;
    return false;
  }
  Fit.Hw = H.Mwp;
  {
    auto It = H.Profile.Timing.find("atomic_same_address_cycles");
    Fit.AtomicSameAddressCycles = It == H.Profile.Timing.end() ? 0 : It->second;
  }

  std::optional<Formula> Blocks = Formula::numBlocks(*Spec, Fit.Vars, Err);
  if (!Blocks) {
    Error = Who + ": the grid formula: " + Err;
    return false;
  }
  std::optional<Formula> Threads =
      Formula::threadsPerBlock(*Spec, Fit.Vars, Err);
  if (!Threads) {
    Error = Who + ": threads per block: " + Err;
    return false;
  }
  Fit.Blocks = std::make_shared<Formula>(std::move(*Blocks));
  Fit.Threads = std::make_shared<Formula>(std::move(*Threads));
  // The data extents the grid covers: ceildiv(E, b) per dimension.
  {
    std::shared_ptr<Formula> Ext[3];
    bool AllKnown = true;
    for (int D = 0; D < 3 && AllKnown; ++D) {
      const Expr *G = Spec->Grid[size_t(D)].get();
      std::string Text;
      if (!G || (G->K == Expr::Kind::Literal && G->Value == 1))
        Text = Spec->FreeDims[size_t(D)] ? BlockNames[D] : "1";
      else if (G->K == Expr::Kind::Call && G->F == Expr::Callee::CeilDiv &&
               G->Args.size() == 2 && G->Args[1]->K == Expr::Kind::BlockDim &&
               G->Args[1]->Value == D && Spec->FreeDims[size_t(D)])
        Text = printExpr(*G->Args[0], *Spec);
      else {
        AllKnown = false;
        break;
      }
      std::string ExtErr;
      std::optional<Formula> F = Formula::parse(Text, Fit.Vars, ExtErr);
      if (!F)
        AllKnown = false;
      else
        Ext[D] = std::make_shared<Formula>(std::move(*F));
    }
    if (AllKnown)
      for (int D = 0; D < 3; ++D)
        Fit.Extents[D] = Ext[D];
  }

  // The usable samples and their variables.
  std::vector<const profiledb::SampleRow *> Used;
  std::vector<std::vector<int64_t>> X;
  unsigned Unusable = 0;
  for (const profiledb::SampleRow &S : Samples) {
    if (S.Status != "ok") {
      ++Fit.SamplesFailed;
      continue;
    }
    std::vector<int64_t> Row;
    std::string Why;
    if (!Fit.variables(S.Data, S.Block, Row, Why)) {
      ++Unusable;
      continue;
    }
    int64_t B;
    if (Fit.Blocks->evaluate(Row.data(), B) != EvalStatus::Ok ||
        B != int64_t(S.Grid[0]) * S.Grid[1] * S.Grid[2])
      ++Fit.GridMismatches;
    Used.push_back(&S);
    X.push_back(std::move(Row));
  }
  // The variables with the warp's shape for the block's (PerRequest fits).
  std::vector<std::vector<int64_t>> XW;
  for (const std::vector<int64_t> &Row : X)
    XW.push_back(Fit.warpVariables(Row));
  const profiledb::FailedShapes Failed = profiledb::failedShapes(Samples);
  Fit.FailingBlocks = Failed.Blocks;
  if (!Failed.Blocks.empty()) {
    const bool One = Failed.Blocks.size() == 1;
    Fit.Warnings.push_back(
        "the kernel failed in the profile with block" +
        std::string(One ? " " : "s ") + Failed.list() + " (" +
        std::to_string(Failed.Samples) + " sample" +
        (Failed.Samples == 1 ? "" : "s") + "; the first: " + Failed.First +
        "): it is not correct for " + (One ? "that shape" : "these shapes") +
        ", so the rational program never chooses them; restrict the pragma "
        "(where(...), candidates(...), shared(...)) to the shapes the "
        "kernel handles");
  }
  if (Unusable)
    Fit.Warnings.push_back(std::to_string(Unusable) +
                           " samples skipped: their data or block shape does "
                           "not match the spec");
  if (Fit.GridMismatches)
    Fit.Warnings.push_back(std::to_string(Fit.GridMismatches) +
                           " samples ran a grid other than the pragma's "
                           "formula gives; blocks are computed from the "
                           "formula");
  // Data parameters that never varied independently of another one cannot
  // be told apart: the fit uses one of them for both, which extrapolates
  // wrongly to launches where they differ.
  for (size_t I = 0; I < Fit.DataNames.size(); ++I)
    for (size_t J = I + 1; J < Fit.DataNames.size(); ++J) {
      bool Same = !X.empty();
      for (const std::vector<int64_t> &Row : X)
        Same = Same && Row[I] == Row[J];
      if (Same)
        Fit.Warnings.push_back(
            Fit.DataNames[J] + " equals " + Fit.DataNames[I] +
            " in every sample, so the fit cannot tell them apart; its "
            "predictions hold for launches where they are equal (profile "
            "them with independent sizes, e.g. --sizes " +
            Fit.DataNames[I] + "=... --sizes " + Fit.DataNames[J] + "=...)");
    }
  Fit.SamplesUsed = unsigned(Used.size());
  if (Used.size() < Options.MinSamples) {
    Error = Who + ": too few samples to fit: " + std::to_string(Used.size()) +
            " usable (status ok) of " + std::to_string(Samples.size()) +
            " recorded, at least " + std::to_string(Options.MinSamples) +
            " needed";
    return false;
  }

  // The exact counts the totals may be divided by: warps launched, and
  // warps with a thread inside the data (0 where unknown).
  std::vector<double> WarpsOf, ActiveOf;
  for (size_t R = 0; R < Used.size(); ++R) {
    double B = Fit.Blocks->evaluateAsC(X[R].data());
    double T = Fit.Threads->evaluateAsC(X[R].data());
    double W = B * std::ceil(T / 32);
    WarpsOf.push_back(std::isfinite(W) ? W : 0.0);
    double A = Fit.activeWarps(X[R]);
    ActiveOf.push_back(std::isfinite(A) ? A : 0.0);
  }
  auto AllPositive = [](const std::vector<double> &V) {
    return std::all_of(V.begin(), V.end(), [](double D) { return D > 0; });
  };
  bool CanPerWarp = AllPositive(WarpsOf);
  bool CanPerActive = Fit.Extents[0] && AllPositive(ActiveOf);
  bool HasIdle = false;
  for (size_t R = 0; R < Used.size(); ++R)
    HasIdle |= WarpsOf[R] > ActiveOf[R];

  // The quantities are fitted independently, on as many threads as the
  // machine has; the results are merged in quantityNames() order, so the
  // output does not depend on the thread count.
  struct QuantityResult {
    FittedQuantity Q;
    std::vector<std::string> Warnings;
    std::string Error;
  };
  const std::vector<std::string> &Names = KernelFit::quantityNames();
  std::vector<QuantityResult> Results(Names.size());
  auto FitOne = [&](size_t QI) {
    const std::string &Name = Names[QI];
    QuantityResult &Res = Results[QI];
    if (std::find(Fit.Vars.begin(), Fit.Vars.end(), Name) != Fit.Vars.end()) {
      Res.Error = Who + ": data parameter '" + Name + "' has a metric's name";
      return;
    }
    FittedQuantity &Q = Res.Q;
    Q.Name = Name;
    std::string Err;
    std::vector<double> Y;
    for (const profiledb::SampleRow *S : Used)
      Y.push_back(sampleValue(*S, Name));
    if (std::all_of(Y.begin(), Y.end(), [&](double V) { return V == Y[0]; })) {
      Q.IsConstant = true;
      Q.Constant = Y[0];
      return;
    }
    // Fits (Y - Idle * idle warps) / Count (null Count: the total itself),
    // with the options of the phase (below): first single functions only.
    FitOptions Single = Options.Fit;
    if (Single.Pieces == Choice::Auto)
      Single.Pieces = Choice::Never;
    const FitOptions *Phase = &Single;
    // The first phase's fits by (scale, idle cost, without idle warps): the
    // second phase takes their single functions instead of selecting again.
    std::map<std::tuple<int, double, bool>, FitReport> SingleFits;
    // The requests of this quantity's kind (a PerRequest fit divides by
    // them and takes the warp's shape for the block's).
    const int RequestIndex = KernelFit::requestQuantity(Name);
    std::vector<double> RequestsOf;
    if (RequestIndex >= 0)
      for (const profiledb::SampleRow *S : Used)
        RequestsOf.push_back(sampleValue(*S, Names[size_t(RequestIndex)]));
    auto FitScaled = [&](const std::vector<double> *Count, FitReport &Out,
                         std::string &Why, double Idle = 0,
                         const std::vector<bool> *Keep = nullptr) {
      const bool ByRequest = Count == &RequestsOf;
      // The phase's options; a fit per request must stay bounded in the
      // data sizes (a request has 1 to 32 sectors, whatever the data).
      FitOptions Use = *Phase;
      if (ByRequest)
        Use.BoundedIn = Fit.DataNames;
      std::vector<std::string> Columns = Fit.Vars;
      Columns.push_back(Name);
      std::vector<std::vector<double>> Rows;
      for (size_t R = 0; R < Used.size(); ++R) {
        if (Keep && !(*Keep)[R])
          continue;
        const std::vector<int64_t> &At = ByRequest ? XW[R] : X[R];
        std::vector<double> Row(At.begin(), At.end());
        Row.push_back(Count ? (Y[R] - Idle * (WarpsOf[R] - ActiveOf[R])) /
                                  (*Count)[R]
                            : Y[R]);
        Rows.push_back(std::move(Row));
      }
      DataTable T = DataTable::fromColumns(Columns, Rows);
      std::vector<std::string> Warnings;
      std::optional<FitProblem> P =
          makeProblem(T, Name, Fit.Vars, Options.Fit, Warnings, Why);
      // Data parameters equal in every sample have the kernel's own note
      // (above), which says how to profile them apart.
      for (size_t I = 0; I < Fit.DataNames.size(); ++I)
        for (size_t J = I + 1; J < Fit.DataNames.size(); ++J)
          Warnings.erase(std::remove(Warnings.begin(), Warnings.end(),
                                     mergedVariableWarning(Fit.DataNames[J],
                                                           Fit.DataNames[I])),
                         Warnings.end());
      if (!Keep)
        Res.Warnings.insert(Res.Warnings.end(), Warnings.begin(),
                            Warnings.end());
      if (!P)
        return false;
      P->File = Kernel.Name;
      // The time this fit takes, cache lookup included (fit-report.json).
      struct AddTime {
        std::chrono::steady_clock::time_point From;
        double &All, *Pieces;
        ~AddTime() {
          double S = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - From)
                         .count();
          All += S;
          if (Pieces)
            *Pieces += S;
        }
      } Timer{std::chrono::steady_clock::now(), Q.FitSeconds,
              Phase == &Single ? nullptr : &Q.PiecesSeconds};
      std::tuple<int, double, bool> Key{ByRequest            ? 3
                                        : Count == &WarpsOf ? 2
                                        : Count             ? 1
                                                            : 0,
                                        Idle, Keep != nullptr};
      // The cache's slot and the hash of what this fit reads.
      std::string Slot, Hash;
      if (Cache) {
        char IdleText[64];
        std::snprintf(IdleText, sizeof(IdleText), "%a", Idle);
        Slot = Name + " scale=" + std::to_string(std::get<0>(Key)) +
               " idle=" + IdleText + " keep=" + (Keep ? "1" : "0") +
               " pieces=" + (Phase == &Single ? "0" : "1");
        std::string In = FitCache::buildIdentity() + "\n" +
                         fitOptionsText(Use) + "\n" + Kernel.Name;
        for (const std::string &C : Columns)
          In += "\n" + C;
        for (const std::vector<double> &Row : Rows)
          for (double V : Row) {
            char Buf[32];
            std::snprintf(Buf, sizeof(Buf), " %a", V);
            In += Buf;
          }
        Hash = profiledb::specHash(In);
        std::lock_guard<std::mutex> G(Cache->M);
        auto It = Cache->Slots.find(Slot);
        std::string LoadError;
        if (It != Cache->Slots.end() && It->second.Hash == Hash &&
            loadFitReport(It->second.Report, Out, LoadError)) {
          ++Cache->Hits;
          if (Phase == &Single)
            SingleFits[Key] = Out;
          Why = Out.Error;
          return Out.ok();
        }
        ++Cache->Misses;
      }
      if (Phase == &Single) {
        Out = fitQuantity(*P, Use);
        SingleFits[Key] = Out;
      } else {
        auto It = SingleFits.find(Key);
        Out = fitQuantity(*P, Use,
                          It == SingleFits.end() ? nullptr : &It->second);
      }
      if (Cache) {
        std::string Saved = saveFitReport(Out);
        std::lock_guard<std::mutex> G(Cache->M);
        Cache->Slots[Slot] = {Hash, std::move(Saved)};
        Cache->Changed = true;
      }
      Why = Out.Error;
      return Out.ok();
    };
    // Warps with no thread inside the data still run a few instructions:
    // Y = F * active + Idle * (warps - active). From the fit R of Y /
    // active, or better from F fitted on the samples without idle warps
    // alone, estimate Idle by least squares (relative weights) on the
    // samples with idle warps, refit F on all, up to 4 times; an integer
    // quantity has an integer Idle. R and Idle change only when the held-out
    // error drops.
    bool IntegerY = std::all_of(Y.begin(), Y.end(),
                                [](double V) { return V == std::floor(V); });
    auto fitIdle = [&](FitReport &R, double &Idle, auto &Refit) {
      double Cur = 0;
      std::vector<bool> NoIdle;
      size_t Clean = 0;
      for (size_t I = 0; I < Used.size(); ++I) {
        NoIdle.push_back(!(WarpsOf[I] > ActiveOf[I]));
        Clean += NoIdle.back();
      }
      FitReport Base;
      std::string BaseWhy;
      const FitReport *From = &R;
      if (Clean >= Options.MinSamples &&
          Refit(&ActiveOf, Base, BaseWhy, 0.0, &NoIdle))
        From = &Base;
      for (int Round = 0; Round < 4; ++Round) {
        const FitReport &Cf = Round == 0 ? *From : R;
        std::vector<int64_t> Sub;
        double Num = 0, Den = 0;
        for (size_t I = 0; I < Used.size(); ++I) {
          double IdleW = WarpsOf[I] - ActiveOf[I];
          if (!(IdleW > 0) || !(Y[I] != 0))
            continue;
          Sub.clear();
          for (const std::string &V : Cf.Model.Vars)
            Sub.push_back(X[I][size_t(std::find(Fit.Vars.begin(),
                                                Fit.Vars.end(), V) -
                                      Fit.Vars.begin())]);
          double F = Cf.Model.evaluate(Sub.data());
          if (!std::isfinite(F))
            continue;
          double Wt = 1 / (Y[I] * Y[I]);
          Num += Wt * IdleW * (Y[I] - F * ActiveOf[I]);
          Den += Wt * IdleW * IdleW;
        }
        if (!(Den > 0))
          return;
        double C = std::max(0.0, Num / Den);
        if (IntegerY)
          C = std::round(C);
        if (C == Cur)
          return;
        FitReport Next;
        std::string Why;
        if (!Refit(&ActiveOf, Next, Why, C) || !(Next.HeldOut < R.HeldOut))
          return;
        R = std::move(Next);
        Idle = Cur = C;
      }
    };
    // A launch total may fit better per warp: the counts are exact, and
    // dividing by them removes the blocks that overhang the data and the
    // idle warps. The scale of least held-out error (the fit's error on the
    // largest data sizes: we extrapolate) wins by a margin; an exact total
    // stays. Registers and shared memory are per thread and per block.
    bool PerLaunch =
        Name != "registers_per_thread" && Name != "shared_per_block";
    // Whether a fit's value depends on a free block dim: a term with a
    // power of one, or pieces (conditions may compare them).
    auto dependsOnBlock = [&](const FittedModel &M) {
      if (M.Pieces.size() > 1)
        return true;
      for (const Piece &Pc : M.Pieces)
        for (size_t V = 0; V < M.Vars.size(); ++V) {
          bool Block = false;
          for (int Dm = 0; Dm < 3; ++Dm)
            Block |= Fit.BlockVar[Dm] >= 0 &&
                     M.Vars[V] == Fit.Vars[size_t(Fit.BlockVar[Dm])];
          if (!Block)
            continue;
          for (const std::vector<Exponents> *Terms :
               {&Pc.F.NumTerms, &Pc.F.DenTerms})
            for (const Exponents &E : *Terms)
              if (V < E.size() && E[V] > 0)
                return true;
        }
      return false;
    };
    // The idle warp's cost the single functions gave (per active warp).
    double SingleIdle = 0;
    auto ChooseScale = [&]() -> bool {
      Q.Scale = QuantityScale::Total;
      Q.IdleWarp = 0;
      if (!FitScaled(nullptr, Q.Report, Err)) {
        Res.Error = Who + ": cannot fit '" + Name + "': " + Err;
        return false;
      }
      double TotalHeldOut = Q.Report.HeldOut;
      for (QuantityScale Sc :
           {QuantityScale::PerActiveWarp, QuantityScale::PerWarp}) {
        if (!PerLaunch || Q.Report.Model.exact())
          break;
        const std::vector<double> *Count =
            Sc == QuantityScale::PerWarp ? &WarpsOf : &ActiveOf;
        if (Sc == QuantityScale::PerWarp ? !CanPerWarp : !CanPerActive)
          continue;
        // An idle warp's cost is estimated once, with single functions;
        // the fit with pieces takes it (estimating it again with pieces
        // would cost up to five more fits with pieces for the same
        // constant).
        bool IdleScale = Sc == QuantityScale::PerActiveWarp && HasIdle;
        double Idle = IdleScale && Phase != &Single ? SingleIdle : 0;
        FitReport R;
        std::string Why;
        if (!FitScaled(Count, R, Why, Idle))
          continue;
        if (IdleScale && Phase == &Single) {
          if (!R.Model.exact())
            fitIdle(R, Idle, FitScaled);
          SingleIdle = Idle;
        }
        if (R.HeldOut < 0.8 * Q.Report.HeldOut ||
            (R.Model.exact() && !(Q.Report.HeldOut <= R.HeldOut))) {
          Q.Report = std::move(R);
          Q.Scale = Sc;
          Q.IdleWarp = Idle;
        }
      }
      // Sectors and lines per request, on the warp's shape: a request's
      // sectors are its warp's, so this form holds for blocks wider than
      // any profiled one (the training sizes bound the block by the data),
      // where a fit in the block's width extrapolates (docs/models.md,
      // "Rational programs"; an exact fit in the block's dims is exact on
      // the profiled shapes only). Tried unless the chosen fit is exact
      // and independent of the block dims; taken when exact, or when its
      // held-out error is at most the chosen one's divided by 0.8.
      if (RequestIndex >= 0 &&
          !(Q.Report.Model.exact() && !dependsOnBlock(Q.Report.Model)) &&
          std::all_of(RequestsOf.begin(), RequestsOf.end(),
                      [](double V) { return V > 0; })) {
        FitReport R;
        std::string Why;
        // Held-out errors below 1e-9 (relative) reproduce the data to
        // rounding: they count as equal.
        if (FitScaled(&RequestsOf, R, Why) &&
            (R.Model.exact() ||
             !(R.HeldOut > std::max(Q.Report.HeldOut, 1e-9) / 0.8))) {
          Q.Report = std::move(R);
          Q.Scale = QuantityScale::PerRequest;
          Q.IdleWarp = 0;
        }
      }
      if (Q.Scale != QuantityScale::Total)
        Q.TotalHeldOut = TotalHeldOut;
      return true;
    };
    // The scales are first compared on single functions. Pieces, the costly
    // part of a poor fit, are tried (on every scale) only when no scale has
    // an exact single function.
    if (!ChooseScale())
      return;
    if (Options.Fit.Pieces == Choice::Auto && !Q.Report.Model.exact()) {
      Phase = &Options.Fit;
      if (!ChooseScale())
        return;
    }
  };
  // A quantity that is a fixed multiple of an earlier one in every sample
  // (a stencil's 7 loads per store) is that one's fit times the factor:
  // relative errors, and so the selection, do not depend on the factor.
  // Exact fits are cheap and keep their own exact form, so such a quantity
  // is fitted itself when its source is exact.
  std::vector<int> SourceOf(Names.size(), -1);
  std::vector<double> FactorOf(Names.size(), 0.0);
  {
    std::vector<std::vector<double>> Ys(Names.size());
    for (size_t QI = 0; QI < Names.size(); ++QI)
      for (const profiledb::SampleRow *S : Used)
        Ys[QI].push_back(sampleValue(*S, Names[QI]));
    for (size_t QI = 0; QI < Names.size(); ++QI)
      for (size_t PI = 0; PI < QI && SourceOf[QI] < 0; ++PI) {
        if (SourceOf[PI] >= 0)
          continue;
        std::optional<double> C = constantFactor(Ys[PI], Ys[QI]);
        if (C) {
          SourceOf[QI] = int(PI);
          FactorOf[QI] = *C;
        }
      }
  }
  auto RunPool = [&](const std::vector<size_t> &Work) {
    unsigned Threads = std::max(1u, std::thread::hardware_concurrency());
    if (const char *T = std::getenv("KLARAPTOR_FIT_THREADS")) {
      char *End = nullptr;
      unsigned long V = std::strtoul(T, &End, 10);
      if (*T && !*End && V >= 1 && V <= 256)
        Threads = unsigned(V);
    }
    Threads = unsigned(std::min<size_t>(Threads, Work.size()));
    std::atomic<size_t> Next{0};
    auto Run = [&] {
      for (size_t I; (I = Next.fetch_add(1)) < Work.size();)
        FitOne(Work[I]);
    };
    std::vector<std::thread> Pool;
    for (unsigned T = 1; T < Threads; ++T)
      Pool.emplace_back(Run);
    Run();
    for (std::thread &T : Pool)
      T.join();
  };
  {
    std::vector<size_t> First, Second;
    for (size_t QI = 0; QI < Names.size(); ++QI)
      if (SourceOf[QI] < 0)
        First.push_back(QI);
    RunPool(First);
    for (size_t QI = 0; QI < Names.size(); ++QI) {
      if (SourceOf[QI] < 0)
        continue;
      const QuantityResult &Src = Results[size_t(SourceOf[QI])];
      // A fit per request multiplies by its own kind's requests: it is a
      // multiple's only if the multiple is of the same kind.
      bool OtherRequests =
          Src.Q.Scale == QuantityScale::PerRequest &&
          KernelFit::requestQuantity(Names[QI]) !=
              KernelFit::requestQuantity(Src.Q.Name);
      if (!Src.Error.empty() || !scalableFit(Src.Q) || OtherRequests) {
        Second.push_back(QI);
        continue;
      }
      QuantityResult &Res = Results[QI];
      Res.Q = Src.Q;
      Res.Q.Name = Names[QI];
      Res.Q.Report.Model.Target = Names[QI];
      scaleFittedQuantity(Res.Q, FactorOf[QI]);
      Res.Q.MultipleOf = Src.Q.Name;
      Res.Q.Factor = FactorOf[QI];
      Res.Q.FitSeconds = Res.Q.PiecesSeconds = 0;
    }
    RunPool(Second);
  }
  std::set<std::string> SeenWarnings;
  for (QuantityResult &R : Results) {
    if (!R.Error.empty()) {
      Error = R.Error;
      return false;
    }
    for (const std::string &W : R.Warnings)
      if (SeenWarnings.insert(W).second)
        Fit.Warnings.push_back(W);
    Fit.Quantities.push_back(std::move(R.Q));
  }

  // Agreement of the predictions with the measured times.
  std::vector<double> Pred, Meas;
  double LogSum = 0;
  std::map<std::string, std::vector<std::pair<double, double>>> ByTuple;
  for (const profiledb::SampleRow *S : Used) {
    double Ns;
    std::string Why;
    if (!Fit.predictNs(S->Data, S->Block, Ns, Why) || !std::isfinite(Ns) ||
        !(Ns > 0) || !(S->TimeNs > 0))
      continue;
    Pred.push_back(Ns);
    Meas.push_back(S->TimeNs);
    LogSum += std::log(Ns / S->TimeNs);
    ByTuple[profiledb::dataToJson(S->Data)].push_back({Ns, S->TimeNs});
  }
  Fit.Agree.Samples = unsigned(Pred.size());
  if (!Pred.empty()) {
    Fit.Agree.Spearman = spearman(Pred, Meas);
    Fit.Agree.GeomeanRatio = std::exp(LogSum / double(Pred.size()));
  }
  for (const auto &[Tuple, Points] : ByTuple) {
    if (Points.size() < 2)
      continue;
    ++Fit.Agree.Tuples;
    size_t BP = 0, BM = 0;
    for (size_t I = 1; I < Points.size(); ++I) {
      if (Points[I].first < Points[BP].first)
        BP = I;
      if (Points[I].second < Points[BM].second)
        BM = I;
    }
    if (Points[BP].second == Points[BM].second)
      ++Fit.Agree.BestMatches;
  }
  return true;
}

std::string deviceProfileFor(const std::string &Name, std::string &Note,
                             const std::string &StoredText,
                             const std::string &From) {
  Note.clear();
  model::HardwareParams H;
  std::string Err;
  if (!StoredText.empty()) {
    std::string Id;
    if (devices::registerDeviceProfile(
            StoredText, (From.empty() ? "the database" : From) + "'s device_profile",
            Id, Err) &&
        Id == Name)
      return Id;
    Note = Err.empty() ? "the stored device profile's id '" + Id +
                             "' is not the database's device '" + Name + "'"
                       : "cannot use the stored device profile: " + Err;
  }
  if (Name.empty() || model::loadHardwareParams(Name, H, Err))
    return Name;
  static const std::pair<const char *, const char *> Families[] = {
      {"H200", "h200"}, {"H100", "h100-sxm"}, {"A100", "a100-sxm4-80gb"},
      {"T4", "t4"},     {"4090", "rtx-4090"},
      {"2070 SUPER", "rtx-2070-super"}};
  for (const auto &[Key, Profile] : Families)
    if (Name.find(Key) != std::string::npos) {
      Note = "the database's device '" + Name +
             "' is a GPU, not a device profile; using the built-in '" +
             Profile + "' (`klaraptor device probe` measures this GPU; "
             "--device picks another)";
      return Profile;
    }
  return Name;
}

std::unique_ptr<profiledb::ProfileDb>
openProfileToFit(const std::string &DbPath,
                 std::vector<profiledb::KernelRow> &Rows, std::string &Device,
                 std::string &Note, std::string &Error) {
  Note.clear();
  struct stat St;
  if (::stat(DbPath.c_str(), &St) != 0) {
    Error = DbPath + ": cannot open the profile database: " +
            std::strerror(errno) +
            " (run 'klaraptor profile' first, or use --db FILE)";
    return nullptr;
  }
  if (S_ISDIR(St.st_mode)) {
    Error = DbPath + ": is a directory, not a profile database";
    return nullptr;
  }
  if (St.st_size == 0) {
    Error = DbPath + ": empty file, not a profile database";
    return nullptr;
  }
  std::unique_ptr<profiledb::ProfileDb> Db =
      profiledb::ProfileDb::open(DbPath, profiledb::MetaInfo(), Error);
  if (!Db || !Db->kernels(Rows, Error))
    return nullptr;
  if (Rows.empty()) {
    Error = DbPath + ": no kernels profiled (the database is empty)";
    return nullptr;
  }
  if (Device.empty())
    Device = deviceProfileFor(Db->meta("device"), Note,
                              Db->meta("device_profile"), DbPath);
  if (Device.empty()) {
    Error = DbPath + ": the database names no device; use --device PROFILE";
    return nullptr;
  }
  model::HardwareParams H;
  if (!model::loadHardwareParams(Device, H, Error))
    return nullptr;
  return Db;
}

bool fitKernel(profiledb::ProfileDb &Db, const profiledb::KernelRow &Kernel,
               const KernelFitOptions &Options, KernelFit &Fit,
               std::string &Error) {
  std::vector<profiledb::SampleRow> Samples;
  if (!Db.samplesOf(Kernel.Id, Samples, Error))
    return false;
  std::string Note;
  std::string Device = Options.Device.empty()
                           ? deviceProfileFor(Db.meta("device"), Note,
                                              Db.meta("device_profile"),
                                              Db.path())
                           : Options.Device;
  if (Device.empty()) {
    Error = Db.path() + ": the database names no device; use --device";
    return false;
  }
  // The kernel's fit cache (FitCache); a damaged one is dropped, one that
  // cannot be written back only costs the next run a fit.
  const std::string Key = profiledb::fitCacheKey(Kernel.Name);
  FitCache Cache;
  Cache.load(Db.meta(Key));
  if (!fitKernelSamples(Kernel, Samples, Device, Options, Fit, Error,
                        &Cache))
    return false;
  Fit.FitsReused = Cache.Hits;
  Fit.FitsMade = Cache.Misses;
  std::string Ignored;
  if (Cache.Changed)
    Db.setMeta(Key, Cache.save(), Ignored);
  return true;
}

// A cache's text: for each slot, three strings LENGTH:TEXT (slot, hash,
// report), each followed by a newline.
std::string FitCache::save() const {
  std::string Out;
  for (const auto &[Slot, E] : Slots)
    for (const std::string *T : {&Slot, &E.Hash, &E.Report}) {
      appendCounted(Out, *T);
      Out += '\n';
    }
  return Out;
}

bool FitCache::load(const std::string &Text) {
  Slots.clear();
  size_t Pos = 0;
  auto Next = [&](std::string &Out) {
    std::string Why;
    if (!readCounted(Text, Pos, Out, Why) || Pos >= Text.size() ||
        Text[Pos] != '\n')
      return false;
    ++Pos;
    return true;
  };
  while (Pos < Text.size()) {
    std::string Slot;
    Entry E;
    if (!Next(Slot) || !Next(E.Hash) || !Next(E.Report)) {
      Slots.clear();
      return false;
    }
    Slots[Slot] = std::move(E);
  }
  return true;
}

const std::string &FitCache::buildIdentity() {
  // The executable's file: device, inode, size and modification time (a
  // rebuilt or replaced klaraptor is another one). Reading its content
  // (30 MB) would cost more than most fits.
  static const std::string Id = []() -> std::string {
    struct stat St;
    if (::stat("/proc/self/exe", &St) != 0)
      return "";
    return std::to_string(St.st_dev) + ":" + std::to_string(St.st_ino) + ":" +
           std::to_string(St.st_size) + ":" + std::to_string(St.st_mtim.tv_sec) +
           "." + std::to_string(St.st_mtim.tv_nsec);
  }();
  return Id;
}

std::vector<const profiledb::KernelRow *>
newestKernelRows(const std::vector<profiledb::KernelRow> &Rows,
                 const std::vector<std::string> &Only,
                 std::vector<const profiledb::KernelRow *> *Older) {
  std::map<std::string, size_t> Newest;
  for (size_t I = 0; I < Rows.size(); ++I)
    Newest[Rows[I].Name] = I;
  std::vector<const profiledb::KernelRow *> Selected;
  for (size_t I = 0; I < Rows.size(); ++I) {
    if (!Only.empty() &&
        std::none_of(Only.begin(), Only.end(), [&](const std::string &Q) {
          return Rows[I].isNamed(Q);
        }))
      continue;
    if (Newest[Rows[I].Name] != I) {
      if (Older)
        Older->push_back(&Rows[I]);
      continue;
    }
    Selected.push_back(&Rows[I]);
  }
  return Selected;
}

static bool writeText(const std::string &Path, const std::string &Text,
                      std::string &Error) {
  FILE *F = std::fopen(Path.c_str(), "wb");
  if (!F) {
    Error = "cannot write '" + Path + "': " + std::strerror(errno);
    return false;
  }
  bool Ok = std::fwrite(Text.data(), 1, Text.size(), F) == Text.size();
  Ok = (std::fclose(F) == 0) && Ok;
  if (!Ok)
    Error = "cannot write '" + Path + "': " + std::strerror(errno);
  return Ok;
}

bool writeModels(const std::string &OutDir, const std::string &DbPath,
                 const std::string &Device, const std::vector<KernelFit> &Fits,
                 const std::vector<FitFailure> &Failed,
                 std::vector<std::string> &Files, std::string &Report,
                 std::string &Error) {
  Report = "{\"db\": " + jsonString(DbPath) +
           ", \"device\": " + jsonString(Device) + ",\n \"kernels\": [";
  Files.clear();
  for (size_t I = 0; I < Fits.size(); ++I) {
    const KernelFit &F = Fits[I];
    std::string Path = OutDir + "/" + F.fileStem() + ".c";
    if (!writeText(Path, F.emitC(), Error))
      return false;
    Files.push_back(Path);
    Report += std::string(I ? ",\n" : "\n") + F.json();
  }
  Report += "],\n \"failed\": [";
  for (size_t I = 0; I < Failed.size(); ++I)
    Report += std::string(I ? ", " : "") +
              "{\"kernel\": " + jsonString(Failed[I].Kernel) +
              ", \"error\": " + jsonString(Failed[I].Error) + "}";
  Report += "]}\n";
  return writeText(OutDir + "/fit-report.json", Report, Error);
}

} // namespace modelfit
} // namespace klaraptor
