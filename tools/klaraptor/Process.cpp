//===- Process.cpp - running a program from the klaraptor CLI -------------===//
#include "Process.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;

namespace klaraptor {
namespace cli {

ProcessResult
runProgram(const std::vector<std::string> &Argv,
           const std::vector<std::pair<std::string, std::string>> &Env,
           const std::string &StdoutFile) {
  ProcessResult R;
  if (Argv.empty()) {
    R.Error = "no command";
    return R;
  }
  auto Fail = [&](const std::string &Why) {
    R.Error = "cannot run '" + Argv[0] + "': " + Why;
    return R;
  };
  ErrorOr<std::string> Path = sys::findProgramByName(Argv[0]);
  if (!Path)
    return Fail(Path.getError().message());
  if (std::error_code EC = sys::fs::access(*Path, sys::fs::AccessMode::Execute))
    return Fail(EC.message());
  std::optional<StringRef> Redirects[3];
  if (!StdoutFile.empty()) {
    // ExecuteNoWait appends to a file that exists; a step's log starts empty.
    std::error_code EC;
    raw_fd_ostream Truncate(StdoutFile, EC);
    if (EC)
      return Fail(StdoutFile + ": " + EC.message());
    Redirects[1] = Redirects[2] = StdoutFile;
  }
  // The environment is ours with Env's variables set or unset.
  std::vector<std::string> Vars;
  for (char **E = environ; *E; ++E)
    if (none_of(Env, [&](const auto &V) {
          return V.first == StringRef(*E).split('=').first;
        }))
      Vars.push_back(*E);
  for (const auto &[Name, Value] : Env)
    if (!Value.empty())
      Vars.push_back(Name + "=" + Value);
  SmallVector<StringRef, 16> ArgRefs(Argv.begin(), Argv.end());
  SmallVector<StringRef, 64> EnvRefs(Vars.begin(), Vars.end());

  // Ctrl-C and Ctrl-\ reach the whole process group: the child stops, and
  // the CLI, which catches them and does nothing, records what happened.
  // Caught, not ignored: exec resets a caught signal, while the child would
  // inherit an ignored one. One ignored already (nohup) stays ignored.
  const int Held[2] = {SIGINT, SIGQUIT};
  struct sigaction Catch = {}, Old[2];
  Catch.sa_handler = [](int) {};
  Catch.sa_flags = SA_RESTART;
  for (int I = 0; I < 2; ++I)
    if (::sigaction(Held[I], nullptr, &Old[I]) == 0 &&
        Old[I].sa_handler != SIG_IGN)
      ::sigaction(Held[I], &Catch, nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  // Not ExecuteAndWait: it tells a signal only by its name, and an exit
  // status of 126 or 127 as a failure to start.
  std::string Why;
  sys::ProcessInfo Child = sys::ExecuteNoWait(
      *Path, ArgRefs, ArrayRef<StringRef>(EnvRefs), Redirects, 0, &Why);
  int Status = 0;
  while (Child.Pid && ::waitpid(Child.Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  for (int I = 0; I < 2; ++I)
    ::sigaction(Held[I], &Old[I], nullptr);
  if (!Child.Pid)
    return Fail(Why);
  R.Started = true;
  if (WIFEXITED(Status))
    R.ExitCode = WEXITSTATUS(Status);
  else if (WIFSIGNALED(Status))
    R.Signal = WTERMSIG(Status);
  return R;
}

std::string shellJoin(const std::vector<std::string> &Argv) {
  std::string Out;
  for (const std::string &A : Argv) {
    if (!Out.empty())
      Out += ' ';
    bool Plain = !A.empty();
    for (char C : A)
      if (!(std::isalnum((unsigned char)C) || std::strchr("@%_+=:,./-{}", C)))
        Plain = false;
    if (Plain) {
      Out += A;
      continue;
    }
    Out += '\'';
    for (char C : A)
      Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
    Out += '\'';
  }
  return Out;
}

bool makeDirs(const std::string &Path, std::string &Why) {
  std::error_code EC = sys::fs::create_directories(Path);
  if (!EC && sys::fs::is_directory(Path))
    return true;
  // A file where a folder must go: name it.
  for (StringRef P = Path; !P.empty(); P = sys::path::parent_path(P))
    if (sys::fs::exists(P) && !sys::fs::is_directory(P)) {
      Why = "'" + P.str() + "' is not a directory";
      return false;
    }
  Why = EC.message();
  return false;
}

std::string selfDirectory() {
  std::string Exe = sys::fs::getMainExecutable(
      "klaraptor", reinterpret_cast<void *>(&selfDirectory));
  StringRef Dir = sys::path::parent_path(Exe);
  return Dir.empty() ? "" : Dir.str() + "/";
}

void addEmulatorThreads(
    std::vector<std::pair<std::string, std::string>> &Env) {
  if (std::getenv("KLARAPTOR_EMU_THREADS"))
    return;
  unsigned N = std::thread::hardware_concurrency();
  Env.push_back({"KLARAPTOR_EMU_THREADS",
                 std::to_string(std::clamp(N, 1u, 1024u))});
}

std::string defaultBenchManifest() {
  // PREFIX/share/klaraptor/examples: installed, or in the build tree a link
  // to the source tree's examples/ (examples/CMakeLists.txt).
  std::string Dir = selfDirectory();
  return (Dir.empty() ? std::string("./") : Dir) +
         "../share/klaraptor/examples/bench.manifest";
}

} // namespace cli
} // namespace klaraptor
