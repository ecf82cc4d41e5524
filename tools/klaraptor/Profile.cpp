//===- Profile.cpp - klaraptor profile: sweep block shapes at small sizes -===//
///
/// \file
/// `klaraptor profile [--sizes LIST]... [--db FILE] [--device NAME] [--fresh]
/// [--quiet] -- COMMAND [ARGS...]` runs COMMAND once per combination of data
/// sizes: each `{NAME}` in the arguments is replaced by a value of NAME's
/// list. The program runs with KLARAPTOR_MODE=profile, so that at each
/// annotated launch libklaraptor_rt hands the launch to the profiler
/// plug-in, which measures every admissible block shape and records the
/// sweep in the profile database (profiler/session/ProfilePlugin.cpp,
/// docs/profile-db.md).
///
/// Resuming: a command line whose run ended "ok" is not run again, and in a
/// run that is, shapes already measured for the same kernel and data are
/// skipped, so an interrupted profile continues where it stopped.
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "Options.h"
#include "Process.h"
#include "DeviceProfile.h"
#include "ProfileDb.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unistd.h>

#ifndef KLARAPTOR_VERSION
#define KLARAPTOR_VERSION "unknown"
#endif

namespace klaraptor {
namespace cli {

const char *profileUsage() {
  return "USAGE: klaraptor profile [OPTIONS] -- COMMAND [ARGS...]\n\n"
         "Runs COMMAND at small data sizes with KLARAPTOR_MODE=profile: at "
         "each annotated\nlaunch every admissible block shape is measured "
         "(on the emulator for programs\nbuilt with --klaraptor-emulate) and "
         "recorded in the profile database.\nEach {NAME} in ARGS is replaced "
         "by the values of NAME's size list; with several\nnames every "
         "combination runs.\n\n"
         "OPTIONS:\n"
         "  --sizes LIST       values for the only placeholder, e.g. "
         "32,64,128\n"
         "  --sizes NAME=LIST  values for {NAME}; repeat for several names\n"
         "                     (default for each placeholder: 32,64,128,256)\n"
         "  --db FILE          the profile database (default "
         "klaraptor-profile.db)\n"
         "  --device NAME      emulated device profile "
         "(KLARAPTOR_EMU_DEVICE), e.g. h100-sxm\n"
         "  --fresh            delete FILE first instead of resuming\n"
         "  --quiet            no per-launch progress from the program\n";
}

namespace {

bool isIdentStart(char C) { return std::isalpha((unsigned char)C) || C == '_'; }
bool isIdent(char C) { return std::isalnum((unsigned char)C) || C == '_'; }

/// The placeholders {NAME} in \p S, in order of appearance.
void placeholders(const std::string &S, std::vector<std::string> &Out) {
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] != '{' || I + 1 >= S.size() || !isIdentStart(S[I + 1]))
      continue;
    size_t J = I + 1;
    while (J < S.size() && isIdent(S[J]))
      ++J;
    if (J < S.size() && S[J] == '}') {
      std::string Name = S.substr(I + 1, J - I - 1);
      bool Seen = false;
      for (const std::string &N : Out)
        Seen |= N == Name;
      if (!Seen)
        Out.push_back(Name);
      I = J;
    }
  }
}

std::string substitute(const std::string &S,
                       const std::map<std::string, int64_t> &Values) {
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] == '{' && I + 1 < S.size() && isIdentStart(S[I + 1])) {
      size_t J = I + 1;
      while (J < S.size() && isIdent(S[J]))
        ++J;
      auto It = J < S.size() && S[J] == '}'
                    ? Values.find(S.substr(I + 1, J - I - 1))
                    : Values.end();
      if (It != Values.end()) {
        Out += std::to_string(It->second);
        I = J;
        continue;
      }
    }
    Out += S[I];
  }
  return Out;
}

} // namespace

bool parseList(const std::string &Text, std::vector<int64_t> &Out,
               std::string &Error, const std::string &Quoted) {
  Out.clear();
  size_t Pos = 0;
  while (true) {
    size_t Comma = Text.find(',', Pos);
    std::string Item = Text.substr(Pos, Comma == std::string::npos
                                            ? std::string::npos
                                            : Comma - Pos);
    char *End = nullptr;
    errno = 0;
    long long V = std::strtoll(Item.c_str(), &End, 10);
    if (Item.empty() || *End || errno || V <= 0) {
      Error = "'" + Item + "' in '" + (Quoted.empty() ? Text : Quoted) +
              "' is not a positive integer";
      return false;
    }
    Out.push_back(V);
    if (Comma == std::string::npos)
      break;
    Pos = Comma + 1;
  }
  return true;
}

namespace {

/// "R=32 C=16": the sizes in the order of \p Names, the command's
/// placeholders (as the user wrote them), not alphabetically.
std::string tupleText(const std::map<std::string, int64_t> &T,
                      const std::vector<std::string> &Names) {
  std::string S;
  for (const std::string &K : Names)
    if (auto It = T.find(K); It != T.end())
      S += (S.empty() ? "" : " ") + K + "=" + std::to_string(It->second);
  return S;
}

std::string absolutePath(const std::string &P) {
  if (!P.empty() && P[0] == '/')
    return P;
  char Buf[4096];
  if (!::getcwd(Buf, sizeof(Buf)))
    return P;
  return std::string(Buf) + "/" + P;
}

const Syntax CommandSyntax = {profileUsage,
                              "unknown option '{0}' (klaraptor profile --help)",
                              "missing value after '{0}'"};
#define KLARAPTOR_OPTIONS_INC "ProfileOptions.inc"
#include "OptionTable.def"

} // namespace

int runProfile(const Args &A) {
  llvm::opt::InputArgList Opts;
  Args Program;
  if (int Status = options().parse(A, Opts, &Program); Status >= 0)
    return Status;
  if (Program.empty()) {
    error("no command to run (klaraptor profile [OPTIONS] -- COMMAND ...)");
    return 1;
  }
  const std::vector<std::string> SizeArgs = Opts.getAllArgValues(OPT_sizes);
  const std::string DbPath =
      Opts.getLastArgValue(OPT_db, "klaraptor-profile.db").str();
  const std::string Device = Opts.getLastArgValue(OPT_device).str();
  const bool Fresh = Opts.hasArg(OPT_fresh);
  const bool Quiet = Opts.hasArg(OPT_quiet);
  const std::vector<std::string> Command(Program.begin(), Program.end());
  std::string DeviceId;

  // Placeholders and their lists.
  std::vector<std::string> Names;
  for (const std::string &Arg : Command)
    placeholders(Arg, Names);
  std::map<std::string, std::vector<int64_t>> Lists;
  for (const std::string &SA : SizeArgs) {
    std::string Name, List = SA;
    size_t Eq = SA.find('=');
    if (Eq != std::string::npos) {
      Name = SA.substr(0, Eq);
      List = SA.substr(Eq + 1);
      bool Valid = !Name.empty() && isIdentStart(Name[0]);
      for (char C : Name)
        Valid &= isIdent(C);
      if (!Valid) {
        error("--sizes '" + SA + "': '" + Name + "' is not a placeholder name");
        return 1;
      }
    } else if (Names.size() == 1) {
      Name = Names[0];
    } else {
      error("--sizes '" + SA + "': the command has " +
            std::to_string(Names.size()) +
            " placeholders; name one (--sizes NAME=" + SA + ")");
      return 1;
    }
    bool Known = false;
    for (const std::string &N : Names)
      Known |= N == Name;
    if (!Known) {
      error("--sizes '" + SA + "': the command has no placeholder {" + Name +
            "}");
      return 1;
    }
    if (Lists.count(Name)) {
      error("--sizes: {" + Name + "} is given twice");
      return 1;
    }
    std::string Why;
    if (!parseList(List, Lists[Name], Why)) {
      error("--sizes: " + Why);
      return 1;
    }
  }
  for (const std::string &N : Names)
    if (!Lists.count(N))
      Lists[N] = {32, 64, 128, 256};

  // Every combination, the first name varying slowest.
  std::vector<std::map<std::string, int64_t>> Tuples(1);
  for (const std::string &N : Names) {
    std::vector<std::map<std::string, int64_t>> Next;
    for (const auto &T : Tuples)
      for (int64_t V : Lists[N]) {
        auto U = T;
        U[N] = V;
        Next.push_back(std::move(U));
      }
    Tuples = std::move(Next);
  }

  if (Fresh) {
    for (const char *Suffix : {"", "-wal", "-shm"})
      if (::unlink((DbPath + Suffix).c_str()) != 0 && errno != ENOENT) {
        error("--fresh: cannot delete '" + DbPath + Suffix +
              "': " + std::strerror(errno));
        return 1;
      }
  }
  std::string Error;
  // A profile file's text, stored in the database so that fit and report
  // need not find the file again.
  std::string DeviceText;
  if (!Device.empty()) {
    // The database and the emulated runtime name a device by its profile's
    // id, also when --device gives a .device file.
    devices::DeviceProfile P;
    if (!devices::loadDeviceProfile(Device, P, Error)) {
      error("--device: " + Error);
      return 1;
    }
    DeviceId = P.Id;
    if (P.Origin != "built-in") {
      std::ifstream In(Device);
      std::stringstream SS;
      SS << In.rdbuf();
      DeviceText = SS.str();
    }
  }
  profiledb::MetaInfo Meta{KLARAPTOR_VERSION, DeviceId, ""};
  auto Db = profiledb::ProfileDb::open(DbPath, Meta, Error);
  if (!Db) {
    error(Error);
    return 1;
  }
  if (!DeviceId.empty() && !Db->meta("device").empty() &&
      Db->meta("device") != DeviceId) {
    error(DbPath + " holds measurements of device '" + Db->meta("device") +
          "', not '" + DeviceId + "'; use another --db or --fresh");
    return 1;
  }
  if (!DeviceText.empty()) {
    const std::string Stored = Db->meta("device_profile");
    if (!Stored.empty() && Stored != DeviceText) {
      error(DbPath + " was profiled with another version of the device "
            "profile '" + DeviceId + "' than " + Device +
            "; use another --db or --fresh");
      return 1;
    }
    if (Stored.empty() && !Db->setMeta("device_profile", DeviceText, Error)) {
      error(Error);
      return 1;
    }
  }
  const std::string AbsDb = absolutePath(DbPath);

  // The program the database was profiled with: a rebuilt one (new code, a
  // changed pragma or candidates) would mix two builds' measurements, and
  // its completed runs would be skipped as profiled before. Refused.
  if (llvm::ErrorOr<std::string> Found =
          llvm::sys::findProgramByName(Command[0]);
      Found && llvm::sys::fs::can_execute(*Found)) {
    const std::string &Prog = *Found;
    std::string Id = profiledb::fileIdentity(Prog, Error);
    const std::string Key = profiledb::programIdentityKey(absolutePath(Prog));
    const std::string Stored = Db->meta(Key);
    if (!Id.empty() && !Stored.empty() && Stored != Id) {
      error(Prog + " changed since it was profiled into " + DbPath + " (" +
            Stored + " then, " + Id + " now): its measurements would mix "
            "two builds; use --fresh to profile this build, or another --db");
      return 1;
    }
    if (!Id.empty() && Stored.empty() && !Db->setMeta(Key, Id, Error)) {
      error(Error);
      return 1;
    }
  }

  std::printf("klaraptor profile: %zu run%s of %s into %s\n", Tuples.size(),
              Tuples.size() == 1 ? "" : "s", shellJoin(Command).c_str(),
              DbPath.c_str());
  unsigned Done = 0, Skipped = 0, Failed = 0;
  const auto Start = std::chrono::steady_clock::now();
  for (size_t T = 0; T < Tuples.size(); ++T) {
    std::vector<std::string> Argv;
    for (const std::string &Arg : Command)
      Argv.push_back(substitute(Arg, Tuples[T]));
    const std::string Line = shellJoin(Argv);
    std::string Head = "[" + std::to_string(T + 1) + "/" +
                       std::to_string(Tuples.size()) + "]" +
                       (Tuples[T].empty() ? "" : " " + tupleText(Tuples[T], Names));
    if (Db->hasCompletedRun(Line)) {
      std::printf("%s: profiled before, skipped\n", Head.c_str());
      ++Skipped;
      continue;
    }
    std::printf("%s: %s\n", Head.c_str(), Line.c_str());
    profiledb::DataTuple Sizes(Tuples[T].begin(), Tuples[T].end());
    int64_t Run = Db->beginRun(Line, Sizes, Error);
    if (Run < 0) {
      error(Error);
      return 1;
    }
    std::vector<std::pair<std::string, std::string>> Env = {
        {"KLARAPTOR_MODE", "profile"},
        {"KLARAPTOR_PROFILE_DB", AbsDb},
        {"KLARAPTOR_PROFILE_RUN", std::to_string(Run)},
        {"KLARAPTOR_PROFILE_QUIET", Quiet ? "1" : ""}};
    if (!Device.empty())
      Env.push_back({"KLARAPTOR_EMU_DEVICE", Device});
    addEmulatorThreads(Env);
    const auto T0 = std::chrono::steady_clock::now();
    ProcessResult P = runProgram(Argv, Env);
    double Secs = std::chrono::duration<double>(
                      std::chrono::steady_clock::now() - T0)
                      .count();
    const bool Interrupted =
        P.Signal == SIGINT || P.Signal == SIGTERM || P.Signal == SIGHUP;
    const char *Status = !P.Started        ? "failed"
                         : Interrupted     ? "interrupted"
                         : P.status() == 0 ? "ok"
                                           : "failed";
    if (!Db->endRun(Run, Status, Error))
      warning(Error);
    if (Interrupted) {
      std::printf("%s: interrupted after %.1f s; run the same command again "
                  "to resume\n",
                  Head.c_str(), Secs);
      return 130;
    }
    if (!P.Started) {
      error(P.Error);
      return 1;
    }
    if (P.status() != 0) {
      ++Failed;
      warning(Head + ": '" + Line + "' exited with status " +
              std::to_string(P.status()) +
              "; its measurements are kept, the run will be tried again");
      continue;
    }
    ++Done;
    std::printf("%s: done in %.1f s\n", Head.c_str(), Secs);
  }

  // What the database holds now.
  std::vector<profiledb::KernelRow> Kernels;
  if (!Db->kernels(Kernels, Error)) {
    error(Error);
    return 1;
  }
  double Total = std::chrono::duration<double>(
                     std::chrono::steady_clock::now() - Start)
                     .count();
  std::printf("klaraptor profile: %u run%s done, %u skipped, %u failed in "
              "%.1f s; %s holds:\n",
              Done, Done == 1 ? "" : "s", Skipped, Failed, Total,
              DbPath.c_str());
  size_t AllSamples = 0;
  // Columns as wide as the longest names (a template's specializations have
  // long ones), at least 20 and 32 characters.
  int SourceWidth = 20, DeviceWidth = 32;
  for (const profiledb::KernelRow &K : Kernels) {
    SourceWidth = std::max(SourceWidth, int(K.sourceName().size()));
    DeviceWidth = std::max(DeviceWidth, int(K.Name.size()));
  }
  for (const profiledb::KernelRow &K : Kernels) {
    std::vector<profiledb::SampleRow> Rows;
    if (!Db->samplesOf(K.Id, Rows, Error)) {
      error(Error);
      return 1;
    }
    std::set<std::string> Data;
    size_t Ok = 0;
    for (const profiledb::SampleRow &R : Rows) {
      Data.insert(profiledb::dataToJson(R.Data));
      Ok += R.Status == "ok";
    }
    AllSamples += Rows.size();
    // The source name first, the device name as the second field.
    std::printf("  %-*s %-*s %4zu data sizes, %5zu samples (%zu ok)\n",
                SourceWidth, K.sourceName().c_str(), DeviceWidth,
                K.Name.c_str(), Data.size(), Rows.size(), Ok);
    const profiledb::FailedShapes Failed = profiledb::failedShapes(Rows);
    if (!Failed.Blocks.empty()) {
      const bool One = Failed.Blocks.size() == 1;
      std::fflush(stdout); // after its kernel's line, also into one file
      warning(K.sourceName() + " failed with block" + (One ? " " : "s ") +
              Failed.list() + " (the first: " + Failed.First +
              "): the kernel does not handle " +
              (One ? "that shape" : "these shapes") +
              "; the fit never chooses them, and the pragma should not admit "
              "them (where(...), candidates(...), shared(...))");
    }
  }
  if (Kernels.empty())
    warning("no annotated launch was profiled: is the program built with "
            "klaraptor-clang++ (and --klaraptor-emulate without a GPU)? "
            "Launches the runtime keeps as they are (its warnings above: a "
            "grid formula or shared memory the pragma does not describe) "
            "are not profiled either");
  else
    std::printf("next: klaraptor fit --db %s\n", DbPath.c_str());
  return Failed || Kernels.empty() || !AllSamples ? 1 : 0;
}

} // namespace cli
} // namespace klaraptor
