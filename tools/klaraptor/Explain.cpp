//===- Explain.cpp - klaraptor explain: timing reports of a program -------===//
///
/// \file
/// `klaraptor explain [--out FILE] [--launch N] -- COMMAND [ARGS...]` runs
/// COMMAND (a program built with `klaraptor-clang++ --klaraptor-emulate`)
/// with KLARAPTOR_EMU_EXPLAIN pointing at a temporary file, then prints
/// what the emulated CUDA runtime wrote there: per launch, the estimated
/// time, occupancy, bottleneck, sensitivity table and busiest regions of
/// the launch's own block shape and, for annotated kernels, of the fastest
/// admissible candidate (profiler/emu/cudart/Explain.cpp, docs/cli.md).
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Options.h"
#include "Process.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

namespace klaraptor {
namespace cli {

const char *explainUsage() {
  return "USAGE: klaraptor explain [--out FILE] [--launch N] -- COMMAND "
         "[ARGS...]\n\n"
         "Runs COMMAND (built with 'klaraptor-clang++ --klaraptor-emulate') "
         "and prints, per kernel\nlaunch, the estimated time, occupancy, "
         "bottleneck and sensitivity table of the\nlaunch's block shape and "
         "of the best candidate shape (annotated kernels).\n\n"
         "OPTIONS:\n"
         "  --out FILE   write the report to FILE instead of stdout\n"
         "  --launch N   explain only the N-th launch (1, 2, ...)\n";
}

namespace {
const Syntax CommandSyntax = {explainUsage, "unknown option '{0}'",
                              "missing value after '{0}'"};
#define KLARAPTOR_OPTIONS_INC "ExplainOptions.inc"
#include "OptionTable.def"
} // namespace

int runExplain(const Args &A) {
  llvm::opt::InputArgList Opts;
  Args Program;
  if (int Status = options().parse(A, Opts, &Program); Status >= 0)
    return Status;
  if (Program.empty()) {
    error("no command to run (klaraptor explain [OPTIONS] -- COMMAND ...)");
    return 1;
  }
  const std::string Out = Opts.getLastArgValue(OPT_out).str();
  const std::string Launch = Opts.getLastArgValue(OPT_launch).str();
  if (!Launch.empty()) {
    char *End = nullptr;
    unsigned long long V = std::strtoull(Launch.c_str(), &End, 10);
    if (*End || V < 1 || Launch[0] == '-') {
      error("--launch: '" + Launch + "' is not a launch number (1, 2, ...)");
      return 1;
    }
  }
  const std::vector<std::string> Command(Program.begin(), Program.end());

  llvm::SmallString<128> Report;
  if (std::error_code EC =
          llvm::sys::fs::createTemporaryFile("klaraptor-explain", "", Report)) {
    error("cannot create a temporary file: " + EC.message());
    return 1;
  }

  std::vector<std::pair<std::string, std::string>> Env = {
      {"KLARAPTOR_EMU_EXPLAIN", Report.str().str()}};
  if (!Launch.empty())
    Env.push_back({"KLARAPTOR_EMU_EXPLAIN_LAUNCH", Launch});
  // Every core for the emulator, as profile and bench do (the same
  // estimates: test/Profile/emu-threads.test).
  addEmulatorThreads(Env);
  ProcessResult P = runProgram(Command, Env);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Written =
      llvm::MemoryBuffer::getFile(Report);
  const std::string Text = Written ? (*Written)->getBuffer().str() : "";
  llvm::sys::fs::remove(Report);
  if (!P.Started) {
    error(P.Error);
    return 1;
  }
  int Rc = P.status();
  if (Rc != 0)
    warning("'" + Command[0] + "' exited with status " + std::to_string(Rc));
  if (Text.empty()) {
    error("no launch was explained: is the program built with "
          "'klaraptor-clang++ --klaraptor-emulate'?");
    return 1;
  }
  if (Out.empty()) {
    std::fputs("\n", stdout);
    std::fputs(Text.c_str(), stdout);
  } else {
    std::ofstream F(Out);
    F << Text;
    if (!F) {
      error("cannot write '" + Out + "'");
      return 1;
    }
  }
  return Rc;
}

} // namespace cli
} // namespace klaraptor
