//===- DeviceProfile.cpp - parse device profile files ---------------------===//
///
/// \file
/// The parser of the device profile format and the table of built-in
/// profiles (BuiltinProfiles.inc, generated at build time from the
/// *.device files next to this one).
//===----------------------------------------------------------------------===//
#include "DeviceProfile.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>

namespace klaraptor::devices {

namespace {

struct BuiltinProfile {
  const char *Id;
  const char *Text;
};

const BuiltinProfile BuiltinProfiles[] = {
#include "BuiltinProfiles.inc"
};

enum class Kind { Int, Int3, IntList, String, Granularity };

struct Key {
  const char *Name;
  Kind K;
  bool Required;
  int64_t DeviceProfile::*Int = nullptr;
  int64_t (DeviceProfile::*Int3)[3] = nullptr;
};

#define INT(N, F, R)                                                           \
  { N, Kind::Int, R, &DeviceProfile::F, nullptr }
const Key Keys[] = {
    {"id", Kind::String, true},
    {"name", Kind::String, true},
    {"regAllocGranularity", Kind::Granularity, true},
    {"sharedMemCarveoutKiB", Kind::IntList, true},
    {"maxThreadsDim", Kind::Int3, true, nullptr, &DeviceProfile::MaxThreadsDim},
    {"maxGridSize", Kind::Int3, true, nullptr, &DeviceProfile::MaxGridSize},
    INT("major", Major, true),
    INT("minor", Minor, true),
    INT("multiProcessorCount", MultiProcessorCount, true),
    INT("totalGlobalMem", TotalGlobalMem, true),
    INT("totalConstMem", TotalConstMem, true),
    INT("sharedMemPerBlock", SharedMemPerBlock, true),
    INT("sharedMemPerBlockOptin", SharedMemPerBlockOptin, true),
    INT("sharedMemPerMultiprocessor", SharedMemPerMultiprocessor, true),
    INT("reservedSharedMemPerBlock", ReservedSharedMemPerBlock, true),
    INT("regsPerBlock", RegsPerBlock, true),
    INT("regsPerMultiprocessor", RegsPerMultiprocessor, true),
    INT("warpSize", WarpSize, true),
    INT("maxThreadsPerBlock", MaxThreadsPerBlock, true),
    INT("maxThreadsPerMultiProcessor", MaxThreadsPerMultiProcessor, true),
    INT("maxBlocksPerMultiProcessor", MaxBlocksPerMultiProcessor, true),
    INT("regAllocUnitSize", RegAllocUnitSize, true),
    INT("maxRegsPerThread", MaxRegsPerThread, true),
    INT("smSubPartitions", SmSubPartitions, true),
    INT("sharedMemAllocUnitSize", SharedMemAllocUnitSize, true),
    INT("l2CacheSize", L2CacheSize, false),
    INT("persistingL2CacheMaxSize", PersistingL2CacheMaxSize, false),
    INT("memoryBusWidth", MemoryBusWidth, false),
    INT("clockRate", ClockRate, false),
    INT("memoryClockRate", MemoryClockRate, false),
    INT("memPitch", MemPitch, false),
    INT("textureAlignment", TextureAlignment, false),
    INT("texturePitchAlignment", TexturePitchAlignment, false),
    INT("asyncEngineCount", AsyncEngineCount, false),
    INT("concurrentKernels", ConcurrentKernels, false),
    INT("ECCEnabled", ECCEnabled, false),
    INT("unifiedAddressing", UnifiedAddressing, false),
    INT("managedMemory", ManagedMemory, false),
    INT("concurrentManagedAccess", ConcurrentManagedAccess, false),
    INT("cooperativeLaunch", CooperativeLaunch, false),
    INT("clusterLaunch", ClusterLaunch, false),
    INT("computePreemptionSupported", ComputePreemptionSupported, false),
    INT("globalL1CacheSupported", GlobalL1CacheSupported, false),
    INT("localL1CacheSupported", LocalL1CacheSupported, false),
    INT("streamPrioritiesSupported", StreamPrioritiesSupported, false),
    INT("canMapHostMemory", CanMapHostMemory, false),
    INT("integrated", Integrated, false),
    INT("memoryPoolsSupported", MemoryPoolsSupported, false),
    INT("accessPolicyMaxWindowSize", AccessPolicyMaxWindowSize, false),
};
#undef INT

const BuiltinProfile *findBuiltin(std::string_view Id) {
  for (const BuiltinProfile &B : BuiltinProfiles)
    if (Id == B.Id)
      return &B;
  return nullptr;
}

std::string_view trim(std::string_view S) {
  while (!S.empty() &&
         (S.front() == ' ' || S.front() == '\t' || S.front() == '\r'))
    S.remove_prefix(1);
  while (!S.empty() &&
         (S.back() == ' ' || S.back() == '\t' || S.back() == '\r'))
    S.remove_suffix(1);
  return S;
}

bool parseInt(std::string_view S, int64_t &V) {
  if (S.empty())
    return false;
  std::string Str(S);
  errno = 0;
  char *End = nullptr;
  long long X = std::strtoll(Str.c_str(), &End, 10);
  if (errno || *End || X < 0)
    return false;
  V = X;
  return true;
}

bool parseInts(std::string_view S, std::vector<int64_t> &Out) {
  Out.clear();
  while (true) {
    S = trim(S);
    if (S.empty())
      return !Out.empty();
    size_t E = S.find_first_of(" \t");
    int64_t V;
    if (!parseInt(S.substr(0, E), V))
      return false;
    Out.push_back(V);
    if (E == std::string_view::npos)
      return true;
    S.remove_prefix(E);
  }
}

/// Removes a '#' comment that is not inside a quoted string.
std::string_view stripComment(std::string_view Line) {
  bool Quoted = false;
  for (size_t I = 0; I < Line.size(); ++I) {
    if (Line[I] == '"')
      Quoted = !Quoted;
    else if (Line[I] == '#' && !Quoted)
      return Line.substr(0, I);
  }
  return Line;
}

} // namespace

const std::vector<std::string> &timingKeys() {
  static const std::vector<std::string> Keys = [] {
    std::vector<std::string> K;
    for (const char *R : {"int", "fp32", "fp64", "sfu", "lsu", "shared", "l2",
                          "dram", "branch"}) {
      K.push_back(std::string(R) + ".latency");
      K.push_back(std::string(R) + ".gap");
    }
    for (const char *G : {"schedulers", "issue_gap", "barrier_latency",
                          "l2_hit_rate", "clock_ghz", "launch_overhead_ns",
                          "block_launch_cycles", "l1_bytes", "l1_latency",
                          "l1_sectors_per_cycle", "atomic_same_address_cycles",
                          "l2_request_cycles", "l2_store_gap"})
      K.push_back(G);
    return K;
  }();
  return Keys;
}

const std::vector<std::string> &mwpKeys() {
  static const std::vector<std::string> Keys = {
      "departure_del_coal", "departure_del_uncoal", "issue_cycles",
      "mem_bandwidth_gbs", "load_bytes_per_warp"};
  return Keys;
}

const char *defaultDeviceProfile() { return "h100-sxm"; }

std::vector<std::string> builtinDeviceProfiles() {
  std::vector<std::string> Names;
  for (const BuiltinProfile &B : BuiltinProfiles)
    Names.push_back(B.Id);
  std::sort(Names.begin(), Names.end());
  return Names;
}

bool DeviceProfile::parse(std::string_view Text, const std::string &Origin,
                          std::string &Error) {
  std::vector<std::string> Seen;
  bool HaveFormat = false, Inherited = false;
  unsigned LineNo = 0;
  auto Fail = [&](const std::string &Message) {
    Error = Origin + ":" + std::to_string(LineNo) + ": " + Message;
    return false;
  };
  while (!Text.empty()) {
    ++LineNo;
    size_t NL = Text.find('\n');
    std::string_view Line = Text.substr(0, NL);
    Text.remove_prefix(NL == std::string_view::npos ? Text.size() : NL + 1);
    Line = trim(stripComment(Line));
    if (Line.empty())
      continue;
    size_t Eq = Line.find('=');
    if (Eq == std::string_view::npos)
      return Fail("expected 'key = value'");
    std::string K(trim(Line.substr(0, Eq)));
    std::string_view V = trim(Line.substr(Eq + 1));
    if (K.empty())
      return Fail("expected a key before '='");
    if (V.empty())
      return Fail("expected a value for '" + K + "'");
    if (!HaveFormat) {
      if (K != "format")
        return Fail("expected 'format = 1' first");
      if (V != "1")
        return Fail("unsupported profile format '" + std::string(V) +
                    "' (this klaraptor reads format 1)");
      HaveFormat = true;
      continue;
    }
    if (K == "format")
      return Fail("'format' set twice");
    if (K == "inherit") {
      if (!Seen.empty() || Inherited)
        return Fail("'inherit' must come right after 'format'");
      const BuiltinProfile *B = findBuiltin(V);
      if (!B)
        return Fail("'inherit' names no built-in profile: '" + std::string(V) +
                    "'");
      std::string Sub;
      // A built-in profile may inherit too; built-ins cannot form a cycle
      // longer than the table, so recursion is bounded by the table size.
      static thread_local unsigned Depth = 0;
      if (++Depth > sizeof(BuiltinProfiles) / sizeof(BuiltinProfiles[0])) {
        --Depth;
        return Fail("'inherit' cycle through '" + std::string(V) + "'");
      }
      bool Ok = parse(B->Text, std::string("built-in:") + B->Id, Sub);
      --Depth;
      if (!Ok)
        return Fail(Sub);
      Inherited = true;
      continue;
    }
    bool IsMwp = K.compare(0, 4, "mwp.") == 0;
    if (IsMwp || K.compare(0, 7, "timing.") == 0) {
      std::string TK = K.substr(IsMwp ? 4 : 7);
      const std::vector<std::string> &TKeys = IsMwp ? mwpKeys() : timingKeys();
      if (std::find(TKeys.begin(), TKeys.end(), TK) == TKeys.end())
        return Fail(std::string(IsMwp ? "unknown mwp key '"
                                      : "unknown timing key '") +
                    K + "'");
      if (std::find(Seen.begin(), Seen.end(), K) != Seen.end())
        return Fail("'" + K + "' set twice");
      Seen.push_back(K);
      std::string Str(V);
      errno = 0;
      char *End = nullptr;
      double D = std::strtod(Str.c_str(), &End);
      if (errno || *End || !(D >= 0) || D > 1e12)
        return Fail("'" + K + "' expects a non-negative number, not '" + Str +
                    "'");
      (IsMwp ? Mwp : Timing)[TK] = D;
      continue;
    }
    const Key *Found = nullptr;
    for (const Key &Candidate : Keys)
      if (K == Candidate.Name)
        Found = &Candidate;
    if (!Found)
      return Fail("unknown key '" + K + "'");
    if (std::find(Seen.begin(), Seen.end(), K) != Seen.end())
      return Fail("'" + K + "' set twice");
    Seen.push_back(K);
    switch (Found->K) {
    case Kind::Int:
      if (!parseInt(V, this->*(Found->Int)))
        return Fail("'" + K + "' expects a non-negative integer, not '" +
                    std::string(V) + "'");
      break;
    case Kind::Int3: {
      std::vector<int64_t> L;
      if (!parseInts(V, L) || L.size() != 3)
        return Fail("'" + K + "' expects three integers");
      for (int I = 0; I < 3; ++I)
        (this->*(Found->Int3))[I] = L[I];
      break;
    }
    case Kind::IntList: {
      std::vector<int64_t> L;
      if (!parseInts(V, L) || !std::is_sorted(L.begin(), L.end()))
        return Fail("'" + K + "' expects ascending integers");
      SharedMemCarveoutKiB = L;
      break;
    }
    case Kind::String: {
      std::string S;
      if (V.size() >= 2 && V.front() == '"' && V.back() == '"')
        S = std::string(V.substr(1, V.size() - 2));
      else if (V.find_first_of(" \t\"") == std::string_view::npos)
        S = std::string(V);
      else
        return Fail("'" + K + "' expects a word or a \"quoted string\"");
      (K == "id" ? Id : Name) = S;
      break;
    }
    case Kind::Granularity:
      if (V == "warp")
        RegAllocPerWarp = true;
      else if (V == "block")
        RegAllocPerWarp = false;
      else
        return Fail("'" + K + "' expects 'warp' or 'block'");
      break;
    }
  }
  if (!HaveFormat) {
    LineNo = 0;
    return Fail("empty profile: expected 'format = 1'");
  }
  if (!Inherited)
    for (const Key &Candidate : Keys)
      if (Candidate.Required &&
          std::find(Seen.begin(), Seen.end(), Candidate.Name) == Seen.end())
        return Fail(std::string("missing required key '") + Candidate.Name +
                    "'");
  if (WarpSize <= 0 || MaxThreadsPerBlock <= 0 || MultiProcessorCount <= 0 ||
      RegAllocUnitSize <= 0 || SmSubPartitions <= 0 ||
      SharedMemAllocUnitSize <= 0)
    return Fail("warpSize, maxThreadsPerBlock, multiProcessorCount, "
                "regAllocUnitSize, smSubPartitions and sharedMemAllocUnitSize "
                "must be positive");
  this->Origin = Origin;
  return true;
}

namespace {
/// Profiles registered at run time (registerDeviceProfile): id -> (text,
/// origin). Consulted before the built-in ones.
struct Registered {
  std::mutex Lock;
  std::map<std::string, std::pair<std::string, std::string>> Profiles;
};
Registered &registered() {
  static Registered R;
  return R;
}
} // namespace

bool registerDeviceProfile(const std::string &Text, const std::string &Origin,
                           std::string &Id, std::string &Error) {
  DeviceProfile P;
  if (!P.parse(Text, Origin, Error))
    return false;
  if (P.Id.empty()) {
    Error = Origin + ": the device profile has no 'id'";
    return false;
  }
  Id = P.Id;
  Registered &R = registered();
  std::lock_guard<std::mutex> G(R.Lock);
  R.Profiles[P.Id] = {Text, Origin};
  return true;
}

bool loadDeviceProfile(std::string_view NameOrPath, DeviceProfile &P,
                       std::string &Error) {
  std::string_view Spec = trim(NameOrPath);
  if (Spec.empty())
    Spec = defaultDeviceProfile();
  bool IsPath = Spec.find('/') != std::string_view::npos ||
                (Spec.size() > 7 && Spec.substr(Spec.size() - 7) == ".device");
  P = DeviceProfile();
  if (!IsPath) {
    std::pair<std::string, std::string> Found;
    {
      Registered &R = registered();
      std::lock_guard<std::mutex> G(R.Lock);
      auto It = R.Profiles.find(std::string(Spec));
      if (It != R.Profiles.end())
        Found = It->second;
    }
    if (!Found.first.empty())
      return P.parse(Found.first, Found.second, Error);
    const BuiltinProfile *B = findBuiltin(Spec);
    if (!B) {
      Error = "unknown device profile '" + std::string(Spec) +
              "' (built-in profiles:";
      for (const std::string &N : builtinDeviceProfiles())
        Error += " " + N;
      Error += "; or give a file path)";
      return false;
    }
    if (!P.parse(B->Text, std::string("built-in:") + B->Id, Error))
      return false;
    P.Origin = "built-in";
    return true;
  }
  std::string Path(Spec);
  std::ifstream In(Path);
  if (!In) {
    Error = "cannot read device profile '" + Path + "'";
    return false;
  }
  std::stringstream SS;
  SS << In.rdbuf();
  return P.parse(SS.str(), Path, Error);
}

} // namespace klaraptor::devices
