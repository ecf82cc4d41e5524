//===- ConcurrencyTest.cpp - many threads launching at once ---------------===//
///
/// \file
/// Threads launch overlapping data while others register kernels, register
/// models and clear the history. Every key must be decided exactly once
/// while nothing is forgotten, every answer must be the model's, and the log
/// must hold one well-formed line per decision. (Run under ThreadSanitizer
/// with -DCMAKE_CXX_FLAGS=-fsanitize=thread for a race check.)
//===----------------------------------------------------------------------===//
#include "RuntimeTestSupport.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>

using namespace klaraptor;
using namespace klaraptor::test;

namespace {

/// Prefers 32 threads for even N, 1024 for odd N.
double parityModel(const int64_t *D, uint32_t, const klaraptor_candidate &C) {
  bool Even = D[0] % 2 == 0;
  return Even ? double(C.block[0]) : 2048.0 - double(C.block[0]);
}

constexpr unsigned NumThreads = 8;
constexpr unsigned LaunchesPerThread = 3000;
constexpr int64_t DistinctData = 50;

} // namespace

TEST(Concurrency, EachKeyIsDecidedOnceAndAnswersAgree) {
  TempFile F("concurrency");
  Runtime R(Config::parse(nullptr, F.Path.c_str(), nullptr), CudaApi::none());
  klaraptor_device_info D = h100();
  R.setDeviceOverride(&D);
  TestKernel K(oneDimSpec("k"), "k");
  TestModel M(parityModel);
  R.registerModel("k", &M.Model);

  std::atomic<unsigned> Wrong{0};
  std::vector<std::thread> Pool;
  for (unsigned T = 0; T < NumThreads; ++T)
    Pool.emplace_back([&, T] {
      for (unsigned I = 0; I < LaunchesPerThread; ++I) {
        int64_t N = 1000 + int64_t((I * 7 + T * 13) % DistinctData);
        // Two different requests per data value.
        Launch L({N}, {1, 1, 1}, {(I % 2) ? 128u : 256u, 1, 1});
        // The first launch registers the kernel, from several threads.
        if (R.launch(&K.Desc, &L.Info) != KLARAPTOR_OK)
          ++Wrong;
        uint32_t Want = N % 2 == 0 ? 32 : 1024;
        if (L.block()[0] != Want || L.grid()[0] != uint32_t((N + Want - 1) / Want))
          ++Wrong;
      }
    });
  for (auto &T : Pool)
    T.join();
  EXPECT_EQ(Wrong.load(), 0u);
  EXPECT_EQ(R.decisionCount(), uint64_t(DistinctData));
  EXPECT_EQ(M.Calls.load(), uint64_t(DistinctData) * 6);

  // One line per (data, request): 50 decisions, each seen with 2 requests.
  auto Lines = F.lines();
  EXPECT_EQ(Lines.size(), size_t(2 * DistinctData));
  std::set<std::pair<int64_t, int64_t>> Keys;
  unsigned Model = 0, History = 0;
  for (const auto &L : Lines) {
    Json J;
    ASSERT_TRUE(Json::parse(L, J)) << L;
    Keys.insert({J["data"]["N"].integer(), J["requested"]["block"][0].integer()});
    Model += J["source"].Str == "model";
    History += J["source"].Str == "history";
  }
  EXPECT_EQ(Keys.size(), size_t(2 * DistinctData));
  EXPECT_EQ(Model, unsigned(DistinctData));
  EXPECT_EQ(History, unsigned(DistinctData));
}

TEST(Concurrency, LaunchesRaceWithRegistrationAndForgetting) {
  Runtime R(Config(), CudaApi::none());
  klaraptor_device_info D = h100();
  R.setDeviceOverride(&D);
  std::vector<std::unique_ptr<TestKernel>> Kernels;
  for (int I = 0; I < 16; ++I)
    Kernels.push_back(std::make_unique<TestKernel>(
        oneDimSpec("k" + std::to_string(I)), "dev" + std::to_string(I)));
  TestModel M(parityModel);
  for (int I = 0; I < 16; ++I)
    R.registerModel(("k" + std::to_string(I)).c_str(), &M.Model);

  std::atomic<bool> Stop{false};
  std::atomic<unsigned> Wrong{0};
  std::vector<std::thread> Pool;
  for (unsigned T = 0; T < 4; ++T)
    Pool.emplace_back([&, T] {
      for (unsigned I = 0; I < 4000; ++I) {
        auto &K = *Kernels[(I + T) % Kernels.size()];
        int64_t N = 1 + int64_t(I % 37);
        Launch L({N});
        klaraptor_status S = (I % 3 == 0) ? R.launchHandle(&K.Stub, &L.Info)
                                          : R.launch(&K.Desc, &L.Info);
        if (S == KLARAPTOR_UNCHANGED)
          continue; // a handle launch before the kernel is registered
        uint32_t Want = N % 2 == 0 ? 32 : 1024;
        if (S != KLARAPTOR_OK || L.block()[0] != Want)
          ++Wrong;
      }
    });
  std::thread Churn([&] {
    unsigned I = 0;
    while (!Stop.load()) {
      R.registerKernel(&Kernels[I % Kernels.size()]->Desc);
      if (I % 5 == 0)
        R.clearHistory();
      if (I % 7 == 0)
        R.registerModel("k3", &M.Model);
      ++I;
      std::this_thread::yield();
    }
  });
  for (auto &T : Pool)
    T.join();
  Stop.store(true);
  Churn.join();
  EXPECT_EQ(Wrong.load(), 0u);
  EXPECT_GT(R.decisionCount(), 0u);
}
