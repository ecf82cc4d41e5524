//===- DatasetFile.cpp - the validation dataset's format ------------------===//
///
/// \file
/// The dataset reader and the helpers of DatasetFile.h.
//===----------------------------------------------------------------------===//
#include "DatasetFile.h"
#include "JsonLine.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace klaraptor {
namespace cli {

namespace {

using llvm::json::Object;
using llvm::json::Value;

/// An integer member; JSON numbers of any spelling (8, 8.0, 8e0).
std::optional<int64_t> getInt(const Object &J, llvm::StringRef Key) {
  const Value *V = J.get(Key);
  return V ? V->getAsInteger() : std::nullopt;
}

bool getDims(const Object &J, llvm::StringRef Key, int64_t Out[3]) {
  const llvm::json::Array *A = J.getArray(Key);
  if (!A || A->size() != 3)
    return false;
  for (size_t I = 0; I < 3; ++I) {
    std::optional<int64_t> V = (*A)[I].getAsInteger();
    if (!V || *V < 1)
      return false;
    Out[I] = *V;
  }
  return true;
}

bool getData(const Object &J, llvm::StringRef Key, std::string &Canon,
             profiledb::DataTuple &T) {
  const Object *O = J.getObject(Key);
  if (!O)
    return false;
  T.clear();
  for (const auto &[K, X] : *O) {
    std::optional<int64_t> N = X.getAsInteger();
    if (!N)
      return false;
    T[K.str()] = *N;
  }
  Canon = profiledb::dataToJson(T);
  return true;
}

/// A string member, or "" when there is none.
std::string getStr(const Object &J, llvm::StringRef Key) {
  return J.getString(Key).value_or("").str();
}

} // namespace

bool readDataset(const std::string &Path, Dataset &D, std::string &Error) {
  std::ifstream In(Path);
  if (!In) {
    Error = "cannot read the dataset '" + Path + "': " + std::strerror(errno);
    return false;
  }
  return readDatasetFrom(In, Path, D, Error);
}

bool readDatasetFrom(std::istream &In, const std::string &Path, Dataset &D,
                     std::string &Error) {
  D.Path = Path;
  std::string Line;
  unsigned N = 0;
  bool Header = false;
  while (std::getline(In, Line)) {
    ++N;
    std::string Where = Path + ":" + std::to_string(N) + ": ";
    if (Line.empty())
      continue;
    llvm::Expected<Value> Parsed = parseJsonLine(Line);
    if (!Parsed) {
      Error = Where + "malformed JSON: " + llvm::toString(Parsed.takeError());
      return false;
    }
    const Object *JP = Parsed->getAsObject();
    if (!JP) {
      Error = Where + "expected a JSON object";
      return false;
    }
    const Object &J = *JP;
    const std::string Type = getStr(J, "type");
    auto Bad = [&](const std::string &What) {
      Error = Where + What;
      return false;
    };
    if (!Header) {
      if (Type != "header" || getStr(J, "format") != "klaraptor-dataset")
        return Bad("expected the header line {\"type\":\"header\","
                   "\"format\":\"klaraptor-dataset\",...}");
      if (getInt(J, "format_version") != 1)
        return Bad("unsupported dataset format_version (this klaraptor "
                   "reads 1)");
      const Object *Meta = J.getObject("meta");
      if (!Meta)
        return Bad("the header has no 'meta' object");
      for (const auto &[K, X] : sortedMembers(*Meta)) {
        std::optional<llvm::StringRef> V = X->getAsString();
        if (!V)
          return Bad("meta '" + K.str() + "' is not a string");
        D.Meta[K.str()] = V->str();
      }
      D.Program = getStr(J, "program");
      if (D.Program.empty())
        D.Program = stemOf(Path);
      Header = true;
      continue;
    }
    if (Type == "run") {
      DsRun R;
      if (getInt(J, "id") != int64_t(D.Runs.size()) + 1)
        return Bad("run 'id' must be " + std::to_string(D.Runs.size() + 1));
      if (!J.getString("command_line") || !J.getString("start_time") ||
          !J.getString("status"))
        return Bad("a run needs 'command_line', 'start_time' and 'status' "
                   "strings");
      if (!getData(J, "sizes", R.Sizes, R.SizeTuple))
        return Bad("run 'sizes' must be an object of integers");
      R.CommandLine = getStr(J, "command_line");
      R.Start = getStr(J, "start_time");
      R.Status = getStr(J, "status");
      R.HasEnd = J.getString("end_time").has_value();
      R.End = getStr(J, "end_time");
      D.Runs.push_back(std::move(R));
    } else if (Type == "kernel") {
      if (getInt(J, "id") != int64_t(D.Kernels.size()) + 1)
        return Bad("kernel 'id' must be " +
                   std::to_string(D.Kernels.size() + 1));
      if (!J.getString("name") || !J.getString("spec"))
        return Bad("a kernel needs 'name' and 'spec' strings");
      D.Kernels.push_back({getStr(J, "name"), getStr(J, "spec")});
    } else if (Type == "launch") {
      DsLaunch L;
      if (getInt(J, "id") != int64_t(D.Launches.size()) + 1)
        return Bad("launch 'id' must be " +
                   std::to_string(D.Launches.size() + 1));
      std::optional<int64_t> Run = getInt(J, "run"),
                             Kernel = getInt(J, "kernel");
      if (!Run || *Run < 1 || *Run > int64_t(D.Runs.size()))
        return Bad("launch 'run' names no run above it");
      if (!Kernel || *Kernel < 1 || *Kernel > int64_t(D.Kernels.size()))
        return Bad("launch 'kernel' names no kernel above it");
      if (!getData(J, "data", L.Data, L.DataTuple))
        return Bad("launch 'data' must be an object of integers");
      if (!getDims(J, "grid", L.Grid) || !getDims(J, "block", L.Block))
        return Bad("launch 'grid' and 'block' must be three positive "
                   "integers");
      L.Run = size_t(*Run - 1);
      L.Kernel = size_t(*Kernel - 1);
      D.Launches.push_back(std::move(L));
    } else if (Type == "sample") {
      DsSample S;
      if (D.Launches.empty() ||
          getInt(J, "launch") != int64_t(D.Launches.size()))
        return Bad("a sample must follow its launch ('launch' is the id of "
                   "the launch line above)");
      if (!getDims(J, "block", S.Block) || !getDims(J, "grid", S.Grid))
        return Bad("sample 'block' and 'grid' must be three positive "
                   "integers");
      std::optional<int64_t> Registers = getInt(J, "registers"),
                             Shared = getInt(J, "shared_bytes");
      if (!Registers || !Shared)
        return Bad("sample 'registers' and 'shared_bytes' must be integers");
      S.Registers = *Registers;
      S.SharedBytes = *Shared;
      std::optional<double> TimeNs = J.getNumber("time_ns");
      if (!TimeNs)
        return Bad("sample 'time_ns' must be a number");
      if (!J.getString("status"))
        return Bad("sample 'status' must be a string");
      const Object *Metrics = J.getObject("metrics");
      if (!Metrics)
        return Bad("sample 'metrics' must be an object");
      S.TimeNs = *TimeNs;
      S.Status = getStr(J, "status");
      for (const auto &[K, X] : sortedMembers(*Metrics)) {
        std::optional<double> V = X->getAsNumber();
        // As the profile database's reader: every metric is a count, a
        // size, a time or a rate.
        if (!V || *V < 0)
          return Bad("metric '" + K.str() + "' must be a number >= 0");
        S.Metrics.push_back({K.str(), *V});
      }
      D.Launches.back().Samples.push_back(std::move(S));
    } else {
      return Bad("unknown line type '" + Type +
                 "' (expected run, kernel, launch or sample)");
    }
  }
  if (!Header) {
    Error = Path + ": empty dataset (no header line)";
    return false;
  }
  return true;
}

/// The shortest %g form that reads back as exactly \p V; "null" when not
/// finite (JSON has no NaN).
std::string jsonNumber(double V) {
  if (!std::isfinite(V))
    return "null";
  char B[40];
  for (int P = 15; P <= 17; ++P) {
    std::snprintf(B, sizeof(B), "%.*g", P, V);
    if (std::strtod(B, nullptr) == V)
      break;
  }
  return B;
}

std::string jsonQuote(const std::string &S) {
  std::string O = "\"";
  for (unsigned char C : S) {
    switch (C) {
    case '"': O += "\\\""; break;
    case '\\': O += "\\\\"; break;
    case '\n': O += "\\n"; break;
    case '\t': O += "\\t"; break;
    case '\r': O += "\\r"; break;
    default:
      if (C < 0x20) {
        char B[8];
        std::snprintf(B, sizeof(B), "\\u%04x", C);
        O += B;
      } else {
        O += char(C);
      }
    }
  }
  return O + "\"";
}

std::string jsonDims(const int64_t D[3]) {
  return "[" + std::to_string(D[0]) + "," + std::to_string(D[1]) + "," +
         std::to_string(D[2]) + "]";
}

std::string stemOf(const std::string &Path) {
  size_t Slash = Path.rfind('/');
  std::string Base = Slash == std::string::npos ? Path : Path.substr(Slash + 1);
  size_t Dot = Base.rfind('.');
  return Dot == std::string::npos || Dot == 0 ? Base : Base.substr(0, Dot);
}

bool parseSizes(const std::string &Text, std::set<int64_t> &Out) {
  Out.clear();
  std::stringstream SS(Text);
  for (std::string Item; std::getline(SS, Item, ',');) {
    char *End = nullptr;
    long long V = std::strtoll(Item.c_str(), &End, 10);
    if (Item.empty() || *End || V <= 0)
      return false;
    Out.insert(V);
  }
  return !Out.empty();
}

std::string dimText(const int64_t D[3]) {
  return std::to_string(D[0]) + "x" + std::to_string(D[1]) + "x" +
         std::to_string(D[2]);
}

std::string dataText(const profiledb::DataTuple &D) {
  std::string S;
  for (const auto &[K, V] : D)
    S += (S.empty() ? "" : ",") + K + "=" + std::to_string(V);
  return S;
}

bool usable(const DsSample &S) {
  return S.Status == "ok" && std::isfinite(S.TimeNs) && S.TimeNs > 0;
}

/// The one size of a run (the manifest's {N}); false when the run has not
/// exactly one.
bool runSize(const DsRun &R, int64_t &N) {
  if (R.SizeTuple.size() != 1)
    return false;
  N = R.SizeTuple.begin()->second;
  return true;
}

namespace {
/// The JSON string of meta \p Key, or null.
std::string metaOr(const std::map<std::string, std::string> &M,
                   const std::string &Key) {
  auto It = M.find(Key);
  return It == M.end() ? "null" : jsonQuote(It->second);
}
} // namespace

std::string datasetText(const Dataset &D, const std::string *Date) {
  const auto &Meta = D.Meta;
  std::string Text =
      "{\"type\":\"header\",\"format\":\"klaraptor-dataset\","
      "\"format_version\":1,\"program\":" +
      jsonQuote(D.Program) + ",\"device\":" + metaOr(Meta, "device") +
      ",\"backend\":" + metaOr(Meta, "backend") +
      ",\"cuda_driver_version\":" + metaOr(Meta, "cuda_driver_version") +
      ",\"cuda_runtime_version\":" + metaOr(Meta, "cuda_runtime_version") +
      ",\"klaraptor_version\":" + metaOr(Meta, "klaraptor_version") +
      ",\"date\":" + (Date ? jsonQuote(*Date) : std::string("null")) +
      ",\"meta\":{";
  bool First = true;
  for (const auto &[K, V] : Meta) {
    Text += (First ? "" : ",") + jsonQuote(K) + ":" + jsonQuote(V);
    First = false;
  }
  Text += "}}\n";
  for (size_t I = 0; I < D.Runs.size(); ++I) {
    const DsRun &R = D.Runs[I];
    Text += "{\"type\":\"run\",\"id\":" + std::to_string(I + 1) +
            ",\"command_line\":" + jsonQuote(R.CommandLine) +
            ",\"sizes\":" + R.Sizes + ",\"start_time\":" + jsonQuote(R.Start) +
            ",\"end_time\":" + (R.HasEnd ? jsonQuote(R.End) : "null") +
            ",\"status\":" + jsonQuote(R.Status) + "}\n";
  }
  for (size_t I = 0; I < D.Kernels.size(); ++I)
    Text += "{\"type\":\"kernel\",\"id\":" + std::to_string(I + 1) +
            ",\"name\":" + jsonQuote(D.Kernels[I].Name) +
            ",\"spec\":" + jsonQuote(D.Kernels[I].Spec) + "}\n";
  for (size_t I = 0; I < D.Launches.size(); ++I) {
    const DsLaunch &L = D.Launches[I];
    const std::string Id = std::to_string(I + 1);
    Text += "{\"type\":\"launch\",\"id\":" + Id +
            ",\"run\":" + std::to_string(L.Run + 1) +
            ",\"kernel\":" + std::to_string(L.Kernel + 1) +
            ",\"name\":" + jsonQuote(D.Kernels[L.Kernel].Name) +
            ",\"data\":" + L.Data + ",\"grid\":" + jsonDims(L.Grid) +
            ",\"block\":" + jsonDims(L.Block) + "}\n";
    for (const DsSample &S : L.Samples) {
      std::map<std::string, double> Keys(S.Metrics.begin(), S.Metrics.end());
      std::string Metrics;
      for (const auto &[K, V] : Keys)
        Metrics += (Metrics.empty() ? "" : ",") + jsonQuote(K) + ":" +
                   jsonNumber(V);
      std::string Spread;
      // Convenience copies of the cupti backend's spread keys
      // (docs/cupti.md); `metrics` stays the authority.
      for (auto [Key, Field] :
           {std::pair<const char *, const char *>{"gpu_time_ns_min",
                                                  "time_ns_min"},
            {"gpu_time_ns_max", "time_ns_max"},
            {"gpu_time_repeats", "repeats"}})
        if (Keys.count(Key))
          Spread += ",\"" + std::string(Field) + "\":" + jsonNumber(Keys[Key]);
      Text += "{\"type\":\"sample\",\"launch\":" + Id +
              ",\"block\":" + jsonDims(S.Block) +
              ",\"grid\":" + jsonDims(S.Grid) +
              ",\"registers\":" + std::to_string(S.Registers) +
              ",\"shared_bytes\":" + std::to_string(S.SharedBytes) +
              ",\"time_ns\":" + jsonNumber(S.TimeNs) + Spread +
              ",\"status\":" + jsonQuote(S.Status) + ",\"metrics\":{" +
              Metrics + "}}\n";
    }
  }
  return Text;
}

bool hasCountedMetrics(
    const std::vector<std::pair<std::string, double>> &Metrics) {
  for (const auto &[Key, V] : Metrics)
    if (Key.rfind("gpu_time_", 0) != 0)
      return true;
  return false;
}

bool isTimesOnly(const Dataset &D) {
  for (const DsLaunch &L : D.Launches)
    for (const DsSample &S : L.Samples)
      if (hasCountedMetrics(S.Metrics))
        return false;
  return true;
}

} // namespace cli
} // namespace klaraptor
