//===- Process.h - running a program from the klaraptor CLI -----*- C++ -*-===//
///
/// \file
/// The CLI's subcommands run the user's program (explain, profile) and
/// klaraptor's own tools (bench, device) with llvm::sys (findProgramByName,
/// ExecuteNoWait with an explicit environment and redirected output). While
/// the child runs, the CLI catches SIGINT and SIGQUIT and does nothing with
/// them, so that Ctrl-C stops the program and the CLI records what happened.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_TOOLS_KLARAPTOR_PROCESS_H
#define KLARAPTOR_TOOLS_KLARAPTOR_PROCESS_H

#include <string>
#include <utility>
#include <vector>

namespace klaraptor {
namespace cli {

/// How a child ended.
struct ProcessResult {
  bool Started = false; ///< false: it could not be run (Error says why)
  int ExitCode = 0;     ///< when it exited
  int Signal = 0;       ///< when a signal killed it
  std::string Error;
  /// The shell's convention: the exit code, or 128 + the signal.
  int status() const { return Signal ? 128 + Signal : ExitCode; }
};

/// Runs \p Argv (searched in PATH) with \p Env added to the environment
/// (an empty value unsets the variable). When \p StdoutFile is not empty
/// the child's stdout and stderr go there (truncated).
ProcessResult
runProgram(const std::vector<std::string> &Argv,
           const std::vector<std::pair<std::string, std::string>> &Env,
           const std::string &StdoutFile = "");

/// \p Argv as one line a POSIX shell would split back into \p Argv.
std::string shellJoin(const std::vector<std::string> &Argv);

/// Creates \p Path and its missing parents, like `mkdir -p`; false with
/// \p Why ("'a/b' is not a directory", or the system's reason) when one
/// cannot be created.
bool makeDirs(const std::string &Path, std::string &Why);

/// The folder of the running klaraptor executable, with a trailing '/';
/// "" when unknown.
std::string selfDirectory();

/// Adds KLARAPTOR_EMU_THREADS=<this machine's hardware threads> to \p Env
/// unless the environment sets it: the emulator then runs a launch's blocks
/// on every core (its counts and time estimates do not depend on it, only
/// the host time does). For the programs `profile` and `bench` run.
void addEmulatorThreads(std::vector<std::pair<std::string, std::string>> &Env);

/// The examples' manifest `bench` and `dataset bench` read by default:
/// PREFIX/share/klaraptor/examples/bench.manifest beside the executable's
/// bin/, in an install tree (a moved one finds its own) and in the build
/// tree (a link to the source tree's examples/) alike.
std::string defaultBenchManifest();

} // namespace cli
} // namespace klaraptor

#endif // KLARAPTOR_TOOLS_KLARAPTOR_PROCESS_H
