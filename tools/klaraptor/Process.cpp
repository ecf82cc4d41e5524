//===- Process.cpp - running a program from the klaraptor CLI -------------===//
#include "Process.h"

#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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
  // The child reports a failed exec through this pipe (closed on exec).
  int Pipe[2];
  if (::pipe2(Pipe, O_CLOEXEC) != 0) {
    R.Error = std::string("cannot create a pipe: ") + std::strerror(errno);
    return R;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  struct sigaction Ignore = {}, OldInt = {}, OldQuit = {};
  Ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGINT, &Ignore, &OldInt);
  ::sigaction(SIGQUIT, &Ignore, &OldQuit);
  pid_t Pid = ::fork();
  if (Pid == 0) {
    ::sigaction(SIGINT, &OldInt, nullptr);
    ::sigaction(SIGQUIT, &OldQuit, nullptr);
    ::close(Pipe[0]);
    for (const auto &[Name, Value] : Env) {
      if (Value.empty())
        ::unsetenv(Name.c_str());
      else
        ::setenv(Name.c_str(), Value.c_str(), 1);
    }
    if (!StdoutFile.empty()) {
      int Fd = ::open(StdoutFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (Fd < 0 || ::dup2(Fd, 1) < 0 || ::dup2(Fd, 2) < 0) {
        int E = errno;
        (void)!::write(Pipe[1], &E, sizeof(E));
        ::_exit(127);
      }
      ::close(Fd);
    }
    std::vector<char *> V;
    for (const std::string &S : Argv)
      V.push_back(const_cast<char *>(S.c_str()));
    V.push_back(nullptr);
    ::execvp(V[0], V.data());
    int E = errno;
    (void)!::write(Pipe[1], &E, sizeof(E));
    ::_exit(127);
  }
  ::close(Pipe[1]);
  if (Pid < 0) {
    R.Error = "cannot run '" + Argv[0] + "': " + std::strerror(errno);
    ::close(Pipe[0]);
  } else {
    int ChildErrno = 0;
    ssize_t N;
    while ((N = ::read(Pipe[0], &ChildErrno, sizeof(ChildErrno))) < 0 &&
           errno == EINTR) {
    }
    ::close(Pipe[0]);
    int Status = 0;
    while (::waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
    }
    if (N == sizeof(ChildErrno)) {
      R.Error = "cannot run '" + Argv[0] + "': " + std::strerror(ChildErrno);
    } else {
      R.Started = true;
      if (WIFEXITED(Status))
        R.ExitCode = WEXITSTATUS(Status);
      else if (WIFSIGNALED(Status))
        R.Signal = WTERMSIG(Status);
    }
  }
  ::sigaction(SIGINT, &OldInt, nullptr);
  ::sigaction(SIGQUIT, &OldQuit, nullptr);
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
  std::string Cur;
  size_t Pos = 0;
  while (Pos != std::string::npos) {
    size_t Next = Path.find('/', Pos + 1);
    Cur = Path.substr(0, Next);
    Pos = Next;
    if (Cur.empty() || Cur == "/")
      continue;
    struct stat St;
    if (::stat(Cur.c_str(), &St) == 0) {
      if (!S_ISDIR(St.st_mode)) {
        Why = "'" + Cur + "' is not a directory";
        return false;
      }
      continue;
    }
    if (::mkdir(Cur.c_str(), 0777) != 0 && errno != EEXIST) {
      Why = std::strerror(errno);
      return false;
    }
  }
  return true;
}

std::string selfDirectory() {
  char Buf[4096];
  ssize_t N = ::readlink("/proc/self/exe", Buf, sizeof(Buf) - 1);
  if (N <= 0)
    return "";
  std::string S(Buf, size_t(N));
  size_t Slash = S.rfind('/');
  return Slash == std::string::npos ? "" : S.substr(0, Slash + 1);
}

} // namespace cli
} // namespace klaraptor
