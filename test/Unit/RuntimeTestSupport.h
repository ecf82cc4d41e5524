//===- RuntimeTestSupport.h - shared pieces of the runtime's unit tests ---===//
///
/// \file
/// Device limits like the recording stand-in's (H100 SXM), hand-made kernel
/// descriptors, models whose predictions a test chooses, a capture of the
/// runtime's diagnostics and a small JSON reader for the decision log.
//===----------------------------------------------------------------------===//
#ifndef KLARAPTOR_TEST_UNIT_RUNTIMETESTSUPPORT_H
#define KLARAPTOR_TEST_UNIT_RUNTIMETESTSUPPORT_H

#include "Runtime.h"
#include "klaraptor/klaraptor_rt.h"

#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace klaraptor {
namespace test {

/// The limits of an H100 SXM, as the recording stand-in reports them.
inline klaraptor_device_info h100() {
  klaraptor_device_info D;
  std::memset(&D, 0, sizeof(D));
  D.size = sizeof(D);
  D.device = 0;
  std::snprintf(D.name, sizeof(D.name), "test H100");
  D.cc_major = 9;
  D.cc_minor = 0;
  D.sm_count = 132;
  D.max_threads_per_block = 1024;
  D.max_block_dim[0] = 1024;
  D.max_block_dim[1] = 1024;
  D.max_block_dim[2] = 64;
  D.max_grid_dim[0] = 2147483647;
  D.max_grid_dim[1] = 65535;
  D.max_grid_dim[2] = 65535;
  D.max_threads_per_sm = 2048;
  D.max_blocks_per_sm = 32;
  D.regs_per_sm = 65536;
  D.regs_per_block = 65536;
  D.warp_size = 32;
  D.shared_mem_per_sm = 233472;
  D.shared_mem_per_block = 49152;
  return D;
}

/// A kernel descriptor that owns its strings.
struct TestKernel {
  std::string Spec, DeviceName;
  char Stub = 0; ///< its address is the host handle
  klaraptor_kernel_desc Desc;

  TestKernel(std::string SpecText, std::string Device,
             klaraptor_data_fn DataFn = nullptr, uint32_t NumData = 0)
      : Spec(std::move(SpecText)), DeviceName(std::move(Device)) {
    std::memset(&Desc, 0, sizeof(Desc));
    Desc.size = sizeof(Desc);
    Desc.abi_version = KLARAPTOR_RT_ABI_VERSION;
    Desc.host_handle = &Stub;
    Desc.device_name = DeviceName.c_str();
    Desc.spec = Spec.c_str();
    Desc.data_fn = DataFn;
    Desc.num_data = NumData;
  }
  TestKernel(const TestKernel &) = delete;
};

/// "klaraptor v1 / kernel NAME / data N $0 / block bx / grid ceildiv(N, bx)
/// / candidates pow2", with extra lines before 'candidates'.
inline std::string oneDimSpec(const std::string &Name,
                              const std::string &Extra = "",
                              const std::string &Candidates = "pow2") {
  return "klaraptor v1\nkernel " + Name + "\nloc test.cu:1:1\n"
         "param 0 n i64\ndata N $0\nblock bx\n" + Extra +
         "grid ceildiv(N, bx)\ncandidates " + Candidates + "\n";
}

/// A launch with the given data, grid and block.
struct Launch {
  std::vector<int64_t> Data;
  klaraptor_launch_info Info;

  explicit Launch(std::vector<int64_t> D, Dim3 Grid = {1, 1, 1},
                  Dim3 Block = {256, 1, 1})
      : Data(std::move(D)) {
    std::memset(&Info, 0, sizeof(Info));
    Info.size = sizeof(Info);
    Info.num_data = uint32_t(Data.size());
    Info.data = Data.empty() ? nullptr : Data.data();
    for (int I = 0; I < 3; ++I) {
      Info.grid[I] = Grid[I];
      Info.block[I] = Block[I];
    }
  }
  Launch(const Launch &) = delete;
  Dim3 block() const { return {Info.block[0], Info.block[1], Info.block[2]}; }
  Dim3 grid() const { return {Info.grid[0], Info.grid[1], Info.grid[2]}; }
};

/// A model whose prediction is a test's function; counts its calls.
struct TestModel {
  using Fn = std::function<double(const int64_t *Data, uint32_t NumData,
                                  const klaraptor_candidate &C)>;
  Fn Predict;
  std::atomic<uint64_t> Calls{0};
  std::string Name;
  klaraptor_model Model;
  /// Models may be called from several threads (for different kernels).
  std::atomic<const klaraptor_device_info *> LastDevice{nullptr};

  explicit TestModel(Fn F, std::string ModelName = "test-model")
      : Predict(std::move(F)), Name(std::move(ModelName)) {
    std::memset(&Model, 0, sizeof(Model));
    Model.size = sizeof(Model);
    Model.abi_version = KLARAPTOR_RT_ABI_VERSION;
    Model.name = Name.c_str();
    Model.predict = &TestModel::call;
    Model.ctx = this;
  }
  TestModel(const TestModel &) = delete;

  static double call(void *Ctx, const int64_t *Data, uint32_t NumData,
                     const klaraptor_candidate *C,
                     const klaraptor_device_info *Device) {
    auto *Self = static_cast<TestModel *>(Ctx);
    Self->Calls.fetch_add(1);
    Self->LastDevice = Device;
    return Self->Predict(Data, NumData, *C);
  }
};

/// The runtime's diagnostics, captured.
class DiagCapture {
public:
  explicit DiagCapture(Diagnostics &D) {
    D.setSink([this](LogLevel L, const std::string &M) {
      std::lock_guard<std::mutex> G(Mu);
      Lines.push_back(std::string(spelling(L)) + ": " + M);
    });
  }
  std::vector<std::string> lines() const {
    std::lock_guard<std::mutex> G(Mu);
    return Lines;
  }
  /// How many captured lines contain \p Text.
  size_t count(const std::string &Text) const {
    size_t N = 0;
    for (const auto &L : lines())
      N += L.find(Text) != std::string::npos;
    return N;
  }
  std::string all() const {
    std::string S;
    for (const auto &L : lines())
      S += L + "\n";
    return S;
  }

private:
  mutable std::mutex Mu;
  std::vector<std::string> Lines;
};

/// A file name in the test's temporary directory, removed at the end.
class TempFile {
public:
  explicit TempFile(const std::string &Stem) {
    const char *Dir = std::getenv("TMPDIR");
    Path = std::string(Dir && *Dir ? Dir : "/tmp") + "/klaraptor-" + Stem +
           "-" + std::to_string(::getpid()) + "-" +
           std::to_string(Counter++) + ".jsonl";
    std::remove(Path.c_str());
  }
  ~TempFile() { std::remove(Path.c_str()); }
  std::vector<std::string> lines() const {
    std::ifstream In(Path);
    std::vector<std::string> Out;
    for (std::string L; std::getline(In, L);)
      Out.push_back(L);
    return Out;
  }
  std::string Path;

private:
  static inline int Counter = 0;
};

/// A JSON value: enough of JSON to read the decision log back.
struct Json {
  enum Kind { Null, Bool, Number, String, Array, Object } K = Null;
  bool B = false;
  double Num = 0;
  std::string Str;
  std::vector<Json> Items;
  std::map<std::string, Json> Fields;

  bool has(const std::string &Key) const { return Fields.count(Key) != 0; }
  const Json &operator[](const std::string &Key) const {
    static const Json Missing;
    auto It = Fields.find(Key);
    return It == Fields.end() ? Missing : It->second;
  }
  const Json &operator[](size_t I) const { return Items.at(I); }
  int64_t integer() const { return int64_t(Num); }
  std::vector<int64_t> integers() const {
    std::vector<int64_t> V;
    for (const auto &I : Items)
      V.push_back(I.integer());
    return V;
  }

  /// Parses \p Text; false on any syntax error or trailing garbage.
  static bool parse(const std::string &Text, Json &Out) {
    size_t Pos = 0;
    if (!value(Text, Pos, Out))
      return false;
    skip(Text, Pos);
    return Pos == Text.size();
  }

private:
  static void skip(const std::string &T, size_t &P) {
    while (P < T.size() && std::isspace((unsigned char)T[P]))
      ++P;
  }
  static bool literal(const std::string &T, size_t &P, const char *W) {
    size_t N = std::strlen(W);
    if (T.compare(P, N, W) != 0)
      return false;
    P += N;
    return true;
  }
  static bool string(const std::string &T, size_t &P, std::string &Out) {
    if (P >= T.size() || T[P] != '"')
      return false;
    ++P;
    while (P < T.size() && T[P] != '"') {
      char C = T[P++];
      if ((unsigned char)C < 0x20)
        return false;
      if (C != '\\') {
        Out += C;
        continue;
      }
      if (P >= T.size())
        return false;
      char E = T[P++];
      switch (E) {
      case '"': Out += '"'; break;
      case '\\': Out += '\\'; break;
      case '/': Out += '/'; break;
      case 'n': Out += '\n'; break;
      case 'r': Out += '\r'; break;
      case 't': Out += '\t'; break;
      case 'b': Out += '\b'; break;
      case 'f': Out += '\f'; break;
      case 'u': {
        if (P + 4 > T.size())
          return false;
        unsigned V = std::stoul(T.substr(P, 4), nullptr, 16);
        P += 4;
        if (V >= 0x80)
          return false; // not needed here
        Out += char(V);
        break;
      }
      default:
        return false;
      }
    }
    if (P >= T.size())
      return false;
    ++P;
    return true;
  }
  static bool value(const std::string &T, size_t &P, Json &Out) {
    skip(T, P);
    if (P >= T.size())
      return false;
    char C = T[P];
    if (C == '{') {
      Out.K = Object;
      ++P;
      skip(T, P);
      if (P < T.size() && T[P] == '}') {
        ++P;
        return true;
      }
      while (true) {
        skip(T, P);
        std::string Key;
        if (!string(T, P, Key))
          return false;
        skip(T, P);
        if (P >= T.size() || T[P] != ':')
          return false;
        ++P;
        Json V;
        if (!value(T, P, V) || Out.Fields.count(Key))
          return false;
        Out.Fields[Key] = std::move(V);
        skip(T, P);
        if (P < T.size() && T[P] == ',') {
          ++P;
          continue;
        }
        if (P < T.size() && T[P] == '}') {
          ++P;
          return true;
        }
        return false;
      }
    }
    if (C == '[') {
      Out.K = Array;
      ++P;
      skip(T, P);
      if (P < T.size() && T[P] == ']') {
        ++P;
        return true;
      }
      while (true) {
        Json V;
        if (!value(T, P, V))
          return false;
        Out.Items.push_back(std::move(V));
        skip(T, P);
        if (P < T.size() && T[P] == ',') {
          ++P;
          continue;
        }
        if (P < T.size() && T[P] == ']') {
          ++P;
          return true;
        }
        return false;
      }
    }
    if (C == '"') {
      Out.K = String;
      return string(T, P, Out.Str);
    }
    if (literal(T, P, "true")) {
      Out.K = Bool;
      Out.B = true;
      return true;
    }
    if (literal(T, P, "false")) {
      Out.K = Bool;
      return true;
    }
    if (literal(T, P, "null"))
      return true;
    size_t Start = P;
    if (P < T.size() && T[P] == '-')
      ++P;
    while (P < T.size() && (std::isdigit((unsigned char)T[P]) || T[P] == '.' ||
                            T[P] == 'e' || T[P] == 'E' || T[P] == '+' ||
                            T[P] == '-'))
      ++P;
    if (P == Start)
      return false;
    Out.K = Number;
    char *End = nullptr;
    std::string N = T.substr(Start, P - Start);
    Out.Num = std::strtod(N.c_str(), &End);
    return End && *End == 0;
  }
};

/// A runtime without CUDA whose device is \p Device (null: no device).
inline std::unique_ptr<Runtime>
makeRuntime(Config C = Config(),
            const klaraptor_device_info *Device = nullptr) {
  auto R = std::make_unique<Runtime>(C, CudaApi::none());
  if (Device)
    R->setDeviceOverride(Device);
  return R;
}

} // namespace test
} // namespace klaraptor

#endif // KLARAPTOR_TEST_UNIT_RUNTIMETESTSUPPORT_H
