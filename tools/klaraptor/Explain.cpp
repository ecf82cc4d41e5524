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
#include "Process.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>
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

int runExplain(const Args &A) {
  std::string Out;
  std::string Launch;
  size_t I = 0;
  for (; I < A.size(); ++I) {
    const std::string &S = A[I];
    if (S == "--") {
      ++I;
      break;
    }
    if (S == "--help" || S == "-h") {
      std::fputs(explainUsage(), stdout);
      return 0;
    }
    if ((S == "--out" || S == "--launch") && I + 1 < A.size()) {
      (S == "--out" ? Out : Launch) = A[++I];
      continue;
    }
    if (S == "--out" || S == "--launch") {
      error("missing value after '" + S + "'");
      return 1;
    }
    if (!S.empty() && S[0] == '-') {
      error("unknown option '" + S + "'");
      return 1;
    }
    break; // the command, without '--'
  }
  if (I >= A.size()) {
    error("no command to run (klaraptor explain [OPTIONS] -- COMMAND ...)");
    return 1;
  }
  if (!Launch.empty()) {
    char *End = nullptr;
    unsigned long long V = std::strtoull(Launch.c_str(), &End, 10);
    if (*End || V < 1 || Launch[0] == '-') {
      error("--launch: '" + Launch + "' is not a launch number (1, 2, ...)");
      return 1;
    }
  }

  const char *TmpDir = std::getenv("TMPDIR");
  std::string Template =
      std::string(TmpDir && *TmpDir ? TmpDir : "/tmp") + "/klaraptor-explain-XXXXXX";
  int Fd = ::mkstemp(Template.data());
  if (Fd < 0) {
    error("cannot create a temporary file: " + std::string(std::strerror(errno)));
    return 1;
  }
  ::close(Fd);
  const std::string Report = Template;

  std::vector<std::pair<std::string, std::string>> Env = {
      {"KLARAPTOR_EMU_EXPLAIN", Report}};
  if (!Launch.empty())
    Env.push_back({"KLARAPTOR_EMU_EXPLAIN_LAUNCH", Launch});
  ProcessResult P =
      runProgram(std::vector<std::string>(A.begin() + long(I), A.end()), Env);
  if (!P.Started) {
    error(P.Error);
    ::unlink(Report.c_str());
    return 1;
  }
  int Rc = P.status();

  std::string Text;
  {
    std::ifstream In(Report);
    std::stringstream SS;
    SS << In.rdbuf();
    Text = SS.str();
  }
  ::unlink(Report.c_str());
  if (Rc != 0)
    warning("'" + A[I] + "' exited with status " + std::to_string(Rc));
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
