//===- Fit.cpp - klaraptor fit --------------------------------------------===//
///
/// \file
/// USAGE: klaraptor fit [--db FILE] [--out DIR] [--device PROFILE] [--json]
///
/// Reads a profile database (docs/profile-db.md), fits each kernel's rational
/// program (model/fit, klaraptor/model/KernelFit.h) and writes it as DIR/<kernel>.c, with
/// DIR/fit-report.json and a table of the fits. `klaraptor-clang++
/// --klaraptor-models DIR` links the programs into a CUDA program.
/// docs/cli.md describes the options.
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Options.h"
#include "Process.h"
#include "klaraptor/model/KernelFit.h"

#include "klaraptor/fitting/Report.h"
#include "klaraptor/model/PerformanceModel.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <sys/stat.h>

using namespace klaraptor::modelfit;

namespace klaraptor {
namespace cli {

const char *fitUsage() {
  return R"(USAGE: klaraptor fit [--db FILE] [--out DIR] [--device PROFILE] [OPTIONS]

Fits each kernel of a profile database (written by 'klaraptor profile') as a
rational program: its metrics as rational functions of the pragma's data
parameters and free block dimensions, fed to a performance model (the lines
model, MWP-CWP times the L1 lines of a load request, by default;
docs/models.md). Writes
DIR/<device name>.c per kernel (its mangled name, e.g. _Z4gemmPfPKfS1_ffiii.c)
and DIR/fit-report.json, and prints a table of the
fits. Build the programs into an application with
'klaraptor-clang++ --klaraptor-models DIR'.

OPTIONS:
  --db FILE           the profile database (default klaraptor-profile.db)
  --out DIR           where the programs go (default klaraptor-models)
  --device PROFILE    the device profile whose MWP-CWP parameters the
                      programs embed (default: the database's device)
  --model NAME        the model the programs evaluate: mwp-cwp-lines (the
                      default: MWP-CWP times the L1 lines of a load request),
                      mwp-cwp, waves (MWP-CWP per wave on the busiest SM) or
                      roofline (the busiest SM's issue, DRAM, latency and
                      dispatch bounds)
  --kernel NAME       fit only this kernel (source or device name; a
                      template's name: each of its specializations; repeatable)
  --min-samples N     fewest usable samples a kernel needs (default 6)
  --json              print the fit report as JSON instead of the table
  --timings           record in fit-report.json how many host seconds each
                      quantity's fit took (fit_seconds, pieces_seconds);
                      without it the report is the same on every run
  --eval 'N=V,bx=W'   print the predicted time (ns) of each fitted kernel at
                      a point instead of writing files (repeatable)
)";
}

namespace {

std::string fmt(const char *Format, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof Buf, Format, V);
  return Buf;
}

/// "N=8192,bx=32,by=2" as a data tuple (names that are not block dims) and a
/// block shape (bx, by, bz; 1 when absent).
bool parsePoint(const std::string &Text, profiledb::DataTuple &Data,
                uint32_t Block[3], std::string &Err) {
  Block[0] = Block[1] = Block[2] = 1;
  size_t Start = 0;
  while (Start <= Text.size()) {
    size_t End = Text.find(',', Start);
    std::string Item = Text.substr(
        Start, End == std::string::npos ? std::string::npos : End - Start);
    size_t Eq = Item.find('=');
    char *Stop = nullptr;
    long long V = 0;
    if (Eq != std::string::npos) {
      errno = 0;
      V = std::strtoll(Item.c_str() + Eq + 1, &Stop, 10);
    }
    if (Eq == std::string::npos || Eq == 0 || !Stop || *Stop ||
        Stop == Item.c_str() + Eq + 1 || errno) {
      Err = "--eval: expected NAME=INTEGER, found '" + Item + "'";
      return false;
    }
    std::string Name = Item.substr(0, Eq);
    int Dim = Name == "bx" ? 0 : Name == "by" ? 1 : Name == "bz" ? 2 : -1;
    if (Dim >= 0) {
      if (V < 1 || V > 65535) {
        Err = "--eval: block dimension '" + Item + "' out of range";
        return false;
      }
      Block[Dim] = uint32_t(V);
    } else {
      Data[Name] = V;
    }
    if (End == std::string::npos)
      break;
    Start = End + 1;
  }
  return true;
}


void printTable(const KernelFit &F, const std::string &File) {
  std::string Vs;
  for (size_t V = 0; V < F.Vars.size(); ++V)
    Vs += (V ? ", " : "") + F.Vars[V];
  std::string Name = F.SourceName.empty() || F.SourceName == F.Kernel
                         ? F.Kernel
                         : F.SourceName + " (" + F.Kernel + ")";
  std::printf("kernel %s, variables %s: %u samples (%u failed), device %s, "
              "model %s\n",
              Name.c_str(), Vs.c_str(), F.SamplesUsed, F.SamplesFailed,
              F.Device.c_str(), F.modelName().c_str());
  // Every column as wide as its widest entry (forms cut at MaxFormWidth),
  // so the columns stay aligned.
  size_t NameW = 22, FormW = 8, DegW = 8;
  for (const FittedQuantity &Q : F.Quantities) {
    NameW = std::max(NameW, Q.Name.size());
    FormW = std::max(FormW, cutForm(Q.form()).size());
    DegW = std::max(DegW, Q.degrees().size());
  }
  FormW = std::max({FormW, cutForm(F.Blocks->str()).size(),
                    cutForm(F.Threads->str()).size()});
  auto row = [&](const std::string &Name, const std::string &Form,
                 const std::string &Deg, const std::string &Res,
                 const std::string &Held, const char *Exact) {
    std::printf("  %s %s %s %-10s %-10s %s\n", pad(Name, NameW).c_str(),
                pad(Form, FormW).c_str(), pad(Deg, DegW).c_str(), Res.c_str(),
                Held.c_str(), Exact);
  };
  row("quantity", "form", "degrees", "residual", "held-out", "exact");
  for (const FittedQuantity &Q : F.Quantities)
    row(Q.Name, cutForm(Q.form()), Q.degrees(), fmt("%.3g", Q.residual()),
        fmt("%.3g", Q.heldOut()), Q.exact() ? "yes" : "no");
  row("blocks", cutForm(F.Blocks->str()), "computed", "-", "-", "yes");
  row("threads_per_block", cutForm(F.Threads->str()), "computed", "-", "-",
      "yes");
  if (F.Agree.Samples)
    std::printf("  %s\n", F.Agree.str().c_str());
  else
    std::printf("  agreement: no sample with a positive measured and "
                "predicted time\n");
  for (const FittedQuantity &Q : F.Quantities)
    if (!Q.MultipleOf.empty())
      std::printf("  note: %s is %.6g times %s in every sample: its fit is "
                  "that one's, scaled\n",
                  Q.Name.c_str(), Q.Factor, Q.MultipleOf.c_str());
  for (const std::string &W : F.Warnings)
    std::printf("  note: %s\n", W.c_str());
  if (!File.empty())
    std::printf("  wrote %s\n", File.c_str());
}

const Syntax CommandSyntax = {
    fitUsage, "fit: unknown {1} '{0}' (see 'klaraptor fit --help')",
    "option '{0}' needs a value"};
#define KLARAPTOR_OPTIONS_INC "FitOptions.inc"
#include "OptionTable.def"

} // namespace

int runFit(const Args &A) {
  llvm::opt::InputArgList Opts;
  if (int Status = options().parse(A, Opts); Status >= 0)
    return Status;
  const std::string DbPath =
      Opts.getLastArgValue(OPT_db, "klaraptor-profile.db").str();
  const std::string OutDir =
      Opts.getLastArgValue(OPT_out, "klaraptor-models").str();
  const std::vector<std::string> Kernels = Opts.getAllArgValues(OPT_kernel),
                                 Evals = Opts.getAllArgValues(OPT_eval);
  const bool Json = Opts.hasArg(OPT_json);
  KernelFitOptions O;
  O.RecordTimes = Opts.hasArg(OPT_timings);
  O.Device = Opts.getLastArgValue(OPT_device).str();
  if (const llvm::opt::Arg *Model = Opts.getLastArg(OPT_model)) {
    O.Model = Model->getValue();
    std::string Known;
    if (!isFitModel(O.Model, &Known)) {
      error("--model: unknown model '" + O.Model + "' (known: " + Known + ")");
      return 1;
    }
  }
  if (!minSamplesOption(Opts.getLastArg(OPT_min_samples), O.MinSamples))
    return 1;
  if (OutDir.empty()) {
    error("--out: empty directory name");
    return 1;
  }

  std::string Err, Note;
  std::vector<profiledb::KernelRow> Rows;
  std::unique_ptr<profiledb::ProfileDb> Db =
      openProfileToFit(DbPath, Rows, O.Device, Note, Err);
  if (!Note.empty())
    warning(Note);
  if (!Db) {
    error(Err);
    return 1;
  }
  for (const std::string &K : Kernels) {
    bool Found = false;
    for (const auto &R : Rows)
      Found |= R.isNamed(K);
    if (!Found) {
      error(profiledb::noSuchKernelText(K, DbPath, Rows));
      return 1;
    }
  }

  // A kernel whose pragma changed has several rows: the newest spec wins.
  std::vector<const profiledb::KernelRow *> Older;
  std::vector<const profiledb::KernelRow *> Selected =
      newestKernelRows(Rows, Kernels, &Older);
  for (const profiledb::KernelRow *R : Older)
    warning("kernel " + R->displayName() + ": samples of an older pragma (kernel row " +
            std::to_string(R->Id) + ") are not used");

  if (Evals.empty() && !makeDirs(OutDir, Err)) {
    error("cannot create output directory '" + OutDir + "': " + Err);
    return 1;
  }

  std::vector<KernelFit> Fits;
  std::vector<FitFailure> Failed;
  for (const profiledb::KernelRow *R : Selected) {
    KernelFit F;
    if (!fitKernel(*Db, *R, O, F, Err)) {
      error(Err);
      Failed.push_back({R->Name, Err});
      continue;
    }
    Fits.push_back(std::move(F));
  }

  if (!Evals.empty()) {
    for (const KernelFit &F : Fits)
      for (const std::string &E : Evals) {
        profiledb::DataTuple Data;
        uint32_t Block[3];
        if (!parsePoint(E, Data, Block, Err)) {
          error(Err);
          return 1;
        }
        double Ns;
        std::string Why;
        if (!F.predictNs(Data, Block, Ns, Why)) {
          std::printf("%s %s: cannot predict: %s\n", F.Kernel.c_str(),
                      E.c_str(), Why.c_str());
          continue;
        }
        std::printf("%s %s: %.17g\n", F.Kernel.c_str(), E.c_str(), Ns);
      }
    return Failed.empty() ? 0 : 1;
  }

  std::string Report, ReportPath = OutDir + "/fit-report.json";
  std::vector<std::string> Files;
  if (!writeModels(OutDir, DbPath, O.Device, Fits, Failed, Files, Report,
                   Err)) {
    error(Err);
    return 1;
  }
  if (Json) {
    std::printf("%s", Report.c_str());
  } else {
    for (size_t I = 0; I < Fits.size(); ++I) {
      printTable(Fits[I], Files[I]);
      std::printf("\n");
    }
    unsigned Reused = 0, Made = 0;
    for (const KernelFit &F : Fits) {
      Reused += F.FitsReused;
      Made += F.FitsMade;
    }
    std::printf("%zu of %zu kernels fitted; report in %s\n", Fits.size(),
                Selected.size(), ReportPath.c_str());
    if (Reused)
      std::printf("%u of %u fits reused from the database's fit cache "
                  "(same samples, options and klaraptor)\n",
                  Reused, Reused + Made);
  }
  return Failed.empty() ? 0 : 1;
}

} // namespace cli
} // namespace klaraptor
