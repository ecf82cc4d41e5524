//===- DatasetFile.cpp - the validation dataset's format ------------------===//
///
/// \file
/// The dataset reader and the helpers of DatasetFile.h.
//===----------------------------------------------------------------------===//
#include "DatasetFile.h"
#include "Json.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace klaraptor {
namespace cli {

namespace {

bool getInt(const JsonValue &V, int64_t &Out) {
  if (V.K != JsonValue::Number || V.N != std::floor(V.N) ||
      std::fabs(V.N) > 9007199254740992.0)
    return false;
  Out = int64_t(V.N);
  return true;
}

bool getDims(const JsonValue &V, int64_t Out[3]) {
  if (V.K != JsonValue::Array || V.A.size() != 3)
    return false;
  for (size_t I = 0; I < 3; ++I)
    if (!getInt(V.A[I], Out[I]) || Out[I] < 1)
      return false;
  return true;
}

bool getData(const JsonValue &V, std::string &Canon, profiledb::DataTuple &T) {
  if (V.K != JsonValue::Object)
    return false;
  T.clear();
  for (const auto &[K, X] : V.O) {
    int64_t N;
    if (!getInt(X, N))
      return false;
    T[K] = N;
  }
  Canon = profiledb::dataToJson(T);
  return true;
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
    JsonValue J;
    std::string Why;
    if (!parseJson(Line, J, Why)) {
      Error = Where + "malformed JSON: " + Why;
      return false;
    }
    if (J.K != JsonValue::Object) {
      Error = Where + "expected a JSON object";
      return false;
    }
    const std::string &Type = J["type"].str();
    auto Bad = [&](const std::string &What) {
      Error = Where + What;
      return false;
    };
    if (!Header) {
      if (Type != "header" || J["format"].str() != "klaraptor-dataset")
        return Bad("expected the header line {\"type\":\"header\","
                   "\"format\":\"klaraptor-dataset\",...}");
      int64_t V = 0;
      if (!getInt(J["format_version"], V) || V != 1)
        return Bad("unsupported dataset format_version (this klaraptor "
                   "reads 1)");
      if (J["meta"].K != JsonValue::Object)
        return Bad("the header has no 'meta' object");
      for (const auto &[K, X] : J["meta"].O) {
        if (X.K != JsonValue::String)
          return Bad("meta '" + K + "' is not a string");
        D.Meta[K] = X.S;
      }
      D.Program = J["program"].str().empty() ? stemOf(Path) : J["program"].str();
      Header = true;
      continue;
    }
    int64_t Id = 0;
    if (Type == "run") {
      DsRun R;
      if (!getInt(J["id"], Id) || Id != int64_t(D.Runs.size()) + 1)
        return Bad("run 'id' must be " + std::to_string(D.Runs.size() + 1));
      if (J["command_line"].K != JsonValue::String ||
          J["start_time"].K != JsonValue::String ||
          J["status"].K != JsonValue::String)
        return Bad("a run needs 'command_line', 'start_time' and 'status' "
                   "strings");
      if (!getData(J["sizes"], R.Sizes, R.SizeTuple))
        return Bad("run 'sizes' must be an object of integers");
      R.CommandLine = J["command_line"].S;
      R.Start = J["start_time"].S;
      R.Status = J["status"].S;
      R.HasEnd = J["end_time"].K == JsonValue::String;
      R.End = J["end_time"].str();
      D.Runs.push_back(std::move(R));
    } else if (Type == "kernel") {
      if (!getInt(J["id"], Id) || Id != int64_t(D.Kernels.size()) + 1)
        return Bad("kernel 'id' must be " +
                   std::to_string(D.Kernels.size() + 1));
      if (J["name"].K != JsonValue::String || J["spec"].K != JsonValue::String)
        return Bad("a kernel needs 'name' and 'spec' strings");
      D.Kernels.push_back({J["name"].S, J["spec"].S});
    } else if (Type == "launch") {
      DsLaunch L;
      int64_t Run = 0, Kernel = 0;
      if (!getInt(J["id"], Id) || Id != int64_t(D.Launches.size()) + 1)
        return Bad("launch 'id' must be " +
                   std::to_string(D.Launches.size() + 1));
      if (!getInt(J["run"], Run) || Run < 1 || Run > int64_t(D.Runs.size()))
        return Bad("launch 'run' names no run above it");
      if (!getInt(J["kernel"], Kernel) || Kernel < 1 ||
          Kernel > int64_t(D.Kernels.size()))
        return Bad("launch 'kernel' names no kernel above it");
      if (!getData(J["data"], L.Data, L.DataTuple))
        return Bad("launch 'data' must be an object of integers");
      if (!getDims(J["grid"], L.Grid) || !getDims(J["block"], L.Block))
        return Bad("launch 'grid' and 'block' must be three positive "
                   "integers");
      L.Run = size_t(Run - 1);
      L.Kernel = size_t(Kernel - 1);
      D.Launches.push_back(std::move(L));
    } else if (Type == "sample") {
      DsSample S;
      if (!getInt(J["launch"], Id) || Id != int64_t(D.Launches.size()) ||
          D.Launches.empty())
        return Bad("a sample must follow its launch ('launch' is the id of "
                   "the launch line above)");
      if (!getDims(J["block"], S.Block) || !getDims(J["grid"], S.Grid))
        return Bad("sample 'block' and 'grid' must be three positive "
                   "integers");
      if (!getInt(J["registers"], S.Registers) ||
          !getInt(J["shared_bytes"], S.SharedBytes))
        return Bad("sample 'registers' and 'shared_bytes' must be integers");
      if (J["time_ns"].K != JsonValue::Number)
        return Bad("sample 'time_ns' must be a number");
      if (J["status"].K != JsonValue::String)
        return Bad("sample 'status' must be a string");
      if (J["metrics"].K != JsonValue::Object)
        return Bad("sample 'metrics' must be an object");
      S.TimeNs = J["time_ns"].N;
      S.Status = J["status"].S;
      for (const auto &[K, X] : J["metrics"].O) {
        if (X.K != JsonValue::Number)
          return Bad("metric '" + K + "' must be a number");
        S.Metrics.push_back({K, X.N});
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

bool takeValues(const std::vector<std::string> &A, size_t &I,
                std::vector<std::string> &Out) {
  size_t J = I + 1;
  for (; J < A.size() && A[J].rfind("--", 0) != 0; ++J)
    Out.push_back(A[J]);
  if (J == I + 1)
    return false;
  I = J - 1;
  return true;
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
