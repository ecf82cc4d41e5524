//===- Main.cpp - the klaraptor command-line tool -------------------------===//
///
/// \file
/// USAGE: klaraptor COMMAND [ARGS...]
///
/// A table-driven dispatcher: each row names a subcommand, a one-line
/// summary for `klaraptor --help`, and the function that runs it
/// (Commands.h). Of LLVM the tool uses Support and Option: the subcommands'
/// option tables (llvm::opt, Options.h), the JSON they read (llvm::json,
/// JsonLine.h) and the programs they run (llvm::sys, Process.h); the
/// libraries it calls (fitting, model, profiler) have no LLVM dependency.
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include <cstdio>
#include <cstring>

#ifndef KLARAPTOR_VERSION
#define KLARAPTOR_VERSION "unknown"
#endif

namespace klaraptor {
namespace cli {

void error(const std::string &Message) {
  std::fprintf(stderr, "klaraptor: error: %s\n", Message.c_str());
}

void warning(const std::string &Message) {
  std::fprintf(stderr, "klaraptor: warning: %s\n", Message.c_str());
}

namespace {

struct Command {
  const char *Name;
  const char *Summary;
  int (*Run)(const Args &);
};

const Command Commands[] = {
    // The loop, in the order a user runs it.
    {"profile", "measure every block shape of a program's launches at small "
                "sizes",
     runProfile},
    {"fit", "fit a profile database's kernels as rational programs (C)",
     runFit},
    {"report", "how well the fitted models predict a profile database's times",
     runReport},
    {"bench", "the tuning loop on example programs against exhaustive search",
     runBench},
    // Around it.
    {"explain", "time estimates and bottlenecks of a program's launches",
     runExplain},
    {"device", "'device probe': measure this GPU into a device profile",
     runDevice},
    {"dataset", "profile databases as plain-text datasets: export, import, "
                "bench",
     runDataset},
    {"fit-table", "fit a rational function to one column of a CSV file",
     runFitTable},
};

void printHelp(std::FILE *Out) {
  std::fprintf(Out, "USAGE: klaraptor COMMAND [ARGS...]\n\n"
                    "klaraptor: CUDA programs that pick their own launch "
                    "parameters.\n\nCOMMANDS:\n");
  for (const Command &C : Commands)
    std::fprintf(Out, "  %-12s %s\n", C.Name, C.Summary);
  std::fprintf(Out, "\nOPTIONS:\n"
                    "  --help       print this help (COMMAND --help: the "
                    "command's own)\n"
                    "  --version    print the version\n");
}

} // namespace
} // namespace cli
} // namespace klaraptor

int main(int Argc, char **Argv) {
  using namespace klaraptor::cli;
  if (Argc < 2) {
    printHelp(stderr);
    return 1;
  }
  std::string Name = Argv[1];
  if (Name == "--help" || Name == "-h" || Name == "help") {
    printHelp(stdout);
    return 0;
  }
  if (Name == "--version") {
    std::printf("klaraptor %s\n", KLARAPTOR_VERSION);
    return 0;
  }
  for (const Command &C : Commands)
    if (Name == C.Name)
      return C.Run(Args(Argv + 2, Argv + Argc));
  if (!Name.empty() && Name[0] == '-')
    error("unknown option '" + Name + "'");
  else
    error("unknown command '" + Name + "'");
  std::fprintf(stderr, "run 'klaraptor --help' for the commands\n");
  return 1;
}
