//===- ProfileDbTest.cpp - Tests of the profile database ------------------===//
///
/// \file
/// The profile database: kernels' names; a round trip of runs, kernels,
/// sweeps and metrics; the resume query; the schema version check; a corrupt file; two writers
/// with separate connections.
///
//===----------------------------------------------------------------------===//

#include "ProfileDb.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdio>
#include <fstream>
#include <thread>
#include <unistd.h>

using namespace klaraptor::profiledb;

namespace {

/// A fresh database path, removed (with its WAL files) on exit.
struct TempDb {
  std::string Path;
  TempDb() {
    char Buf[] = "/tmp/klaraptor-profiledb-XXXXXX";
    int Fd = mkstemp(Buf);
    close(Fd);
    std::remove(Buf);
    Path = std::string(Buf) + ".db";
  }
  ~TempDb() {
    std::remove(Path.c_str());
    std::remove((Path + "-wal").c_str());
    std::remove((Path + "-shm").c_str());
  }
};

MetaInfo meta() { return {"0.1-test", "emu-default", "emu"}; }

Sample sample(uint32_t Bx, uint32_t By, double Time) {
  Sample S;
  S.Block[0] = Bx;
  S.Block[1] = By;
  S.Grid[0] = 64 / Bx;
  S.Registers = 32;
  S.SharedBytes = 1024;
  S.TimeNs = Time;
  S.Metrics = {{"inst_executed", Bx * 10.0}, {"dram_read_bytes", 4096}};
  return S;
}

TEST(ProfileDb, JsonCanonical) {
  DataTuple D = {{"N", 128}, {"M", -3}};
  EXPECT_EQ(dataToJson(D), "{\"M\":-3,\"N\":128}");
  DataTuple Back;
  ASSERT_TRUE(dataFromJson(dataToJson(D), Back));
  EXPECT_EQ(Back, D);
  EXPECT_TRUE(dataFromJson("{}", Back));
  EXPECT_TRUE(Back.empty());
  EXPECT_FALSE(dataFromJson("{\"N\":}", Back));
  EXPECT_FALSE(dataFromJson("{\"N\":1", Back));
  EXPECT_EQ(specHash("abc").size(), 16u);
  EXPECT_NE(specHash("abc"), specHash("abd"));
}

TEST(ProfileDb, KernelNames) {
  KernelRow Plain{1, "_Z5saxpyPfPKffi", "klaraptor v1\nkernel saxpy\n"};
  EXPECT_EQ(Plain.sourceName(), "saxpy");
  EXPECT_EQ(Plain.displayName(), "saxpy (_Z5saxpyPfPKffi)");
  EXPECT_TRUE(Plain.isNamed("saxpy"));
  EXPECT_TRUE(Plain.isNamed("_Z5saxpyPfPKffi"));
  EXPECT_FALSE(Plain.isNamed("sax"));
  EXPECT_FALSE(Plain.isNamed(""));

  // A specialization of a kernel template: its own name, and the
  // template's name without the arguments.
  KernelRow Spec{2, "_ZN2ns4axpyIfEEvPT_PKS1_S1_i",
                 "klaraptor v1\nkernel ns::axpy<float>\nloc a.cu:1:9\n"};
  EXPECT_EQ(Spec.sourceName(), "ns::axpy<float>");
  EXPECT_TRUE(Spec.isNamed("ns::axpy<float>"));
  EXPECT_TRUE(Spec.isNamed("ns::axpy"));
  EXPECT_TRUE(Spec.isNamed("_ZN2ns4axpyIfEEvPT_PKS1_S1_i"));
  EXPECT_FALSE(Spec.isNamed("axpy"));
  EXPECT_FALSE(Spec.isNamed("ns::axpy<double>"));
  EXPECT_FALSE(Spec.isNamed("ns::axpy<"));

  // Nested arguments: only the outermost list is dropped.
  KernelRow Nested{3, "_Z1kI4pairIiiEEvv",
                   "klaraptor v1\nkernel k<pair<int, int>, 3>\n"};
  EXPECT_TRUE(Nested.isNamed("k"));
  EXPECT_FALSE(Nested.isNamed("k<pair"));
  EXPECT_FALSE(Nested.isNamed("k<pair<int, int>"));

  // No `kernel` line: the device name is the source name.
  KernelRow Bare{4, "foo", "klaraptor v1\n"};
  EXPECT_EQ(Bare.sourceName(), "foo");
  EXPECT_EQ(Bare.displayName(), "foo");
}

TEST(ProfileDb, RoundTrip) {
  TempDb T;
  std::string Error;
  int64_t Kernel;
  {
    auto Db = ProfileDb::open(T.Path, meta(), Error);
    ASSERT_TRUE(Db) << Error;
    EXPECT_EQ(Db->meta("schema_version"), "1");
    EXPECT_EQ(Db->meta("device"), "emu-default");
    EXPECT_EQ(Db->meta("backend"), "emu");
    EXPECT_EQ(Db->meta("klaraptor_version"), "0.1-test");
    int64_t Run = Db->beginRun("./prog 128", {{"N", 128}}, Error);
    ASSERT_GT(Run, 0) << Error;
    Kernel = Db->recordKernel("_Z5saxpyPfS_fi", "spec text", Error);
    ASSERT_GT(Kernel, 0) << Error;
    EXPECT_EQ(Db->recordKernel("_Z5saxpyPfS_fi", "spec text", Error), Kernel);
    EXPECT_NE(Db->recordKernel("_Z5saxpyPfS_fi", "other", Error), Kernel);
    uint32_t Grid[3] = {2, 1, 1}, Block[3] = {32, 1, 1};
    std::vector<Sample> Sweep = {sample(32, 1, 10.5), sample(64, 1, 8.25)};
    Sweep[1].Status = "launch failed";
    ASSERT_GT(Db->recordSweep(Run, Kernel, {{"N", 128}}, Grid, Block, Sweep,
                              Error),
              0)
        << Error;
    ASSERT_TRUE(Db->endRun(Run, "ok", Error)) << Error;
    EXPECT_FALSE(Db->endRun(Run + 100, "ok", Error));
    EXPECT_NE(Error.find("no run"), std::string::npos);
  }
  // Reopen: everything is there.
  auto Db = ProfileDb::open(T.Path, MetaInfo(), Error);
  ASSERT_TRUE(Db) << Error;
  EXPECT_EQ(Db->meta("device"), "emu-default");
  std::vector<SampleRow> Rows;
  ASSERT_TRUE(Db->samplesOf(Kernel, Rows, Error)) << Error;
  ASSERT_EQ(Rows.size(), 2u);
  EXPECT_EQ(Rows[0].Data, (DataTuple{{"N", 128}}));
  EXPECT_EQ(Rows[0].Block[0], 32u);
  EXPECT_EQ(Rows[0].Grid[0], 2u);
  EXPECT_EQ(Rows[0].Registers, 32);
  EXPECT_EQ(Rows[0].SharedBytes, 1024);
  EXPECT_DOUBLE_EQ(Rows[0].TimeNs, 10.5);
  EXPECT_EQ(Rows[0].Status, "ok");
  EXPECT_DOUBLE_EQ(Rows[0].Metrics.at("inst_executed"), 320);
  EXPECT_DOUBLE_EQ(Rows[1].Metrics.at("dram_read_bytes"), 4096);
  EXPECT_EQ(Rows[1].Status, "launch failed");
  sqlite3_stmt *S;
  ASSERT_EQ(sqlite3_prepare_v2(Db->handle(),
                               "SELECT status, end_time IS NOT NULL FROM runs",
                               -1, &S, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(S), SQLITE_ROW);
  EXPECT_STREQ((const char *)sqlite3_column_text(S, 0), "ok");
  EXPECT_EQ(sqlite3_column_int(S, 1), 1);
  sqlite3_finalize(S);
}

TEST(ProfileDb, Resume) {
  TempDb T;
  std::string Error;
  auto Db = ProfileDb::open(T.Path, meta(), Error);
  ASSERT_TRUE(Db) << Error;
  int64_t Run = Db->beginRun("./prog {N}", {{"N", 64}}, Error);
  int64_t K = Db->recordKernel("k", "s", Error);
  uint32_t G[3] = {1, 1, 1}, B32[3] = {32, 1, 1}, B64[3] = {64, 1, 1},
           B16x2[3] = {16, 2, 1};
  ASSERT_GT(Db->recordSweep(Run, K, {{"N", 64}, {"M", 8}}, G, B32,
                            {sample(32, 1, 1), sample(16, 2, 2)}, Error),
            0)
      << Error;
  EXPECT_TRUE(Db->hasSample(K, {{"M", 8}, {"N", 64}}, B32));
  EXPECT_TRUE(Db->hasSample(K, {{"N", 64}, {"M", 8}}, B16x2));
  EXPECT_FALSE(Db->hasSample(K, {{"N", 64}, {"M", 8}}, B64));
  EXPECT_FALSE(Db->hasSample(K, {{"N", 128}, {"M", 8}}, B32));
  EXPECT_FALSE(Db->hasSample(K, {{"N", 64}}, B32));
  EXPECT_FALSE(Db->hasSample(K + 1, {{"N", 64}, {"M", 8}}, B32));
  // A failed sweep (bad name) records nothing: all or nothing.
  EXPECT_LT(Db->recordSweep(Run, K, {{"bad name", 1}}, G, B64,
                            {sample(64, 1, 1)}, Error),
            0);
  EXPECT_NE(Error.find("not an identifier"), std::string::npos);
  // A sweep that fails half way (unknown run: foreign key) leaves no launch.
  EXPECT_LT(Db->recordSweep(Run + 99, K, {{"N", 32}}, G, B64,
                            {sample(64, 1, 1)}, Error),
            0);
  EXPECT_NE(Error.find(T.Path), std::string::npos);
  EXPECT_FALSE(Db->hasSample(K, {{"N", 32}}, B64));

  // A command is done once a run of it ended "ok", not before.
  EXPECT_FALSE(Db->hasCompletedRun("./prog {N}"));
  ASSERT_TRUE(Db->endRun(Run, "interrupted", Error)) << Error;
  EXPECT_FALSE(Db->hasCompletedRun("./prog {N}"));
  int64_t Again = Db->beginRun("./prog {N}", {{"N", 64}}, Error);
  ASSERT_TRUE(Db->endRun(Again, "ok", Error)) << Error;
  EXPECT_TRUE(Db->hasCompletedRun("./prog {N}"));
  EXPECT_FALSE(Db->hasCompletedRun("./prog 64"));

  std::vector<KernelRow> Ks;
  ASSERT_TRUE(Db->kernels(Ks, Error)) << Error;
  ASSERT_EQ(Ks.size(), 1u);
  EXPECT_EQ(Ks[0].Id, K);
  EXPECT_EQ(Ks[0].Name, "k");
  EXPECT_EQ(Ks[0].Spec, "s");
}

TEST(ProfileDb, NewerSchemaRefused) {
  TempDb T;
  std::string Error;
  {
    auto Db = ProfileDb::open(T.Path, meta(), Error);
    ASSERT_TRUE(Db) << Error;
    ASSERT_EQ(sqlite3_exec(Db->handle(), "PRAGMA user_version = 2", nullptr,
                           nullptr, nullptr),
              SQLITE_OK);
  }
  auto Db = ProfileDb::open(T.Path, meta(), Error);
  EXPECT_FALSE(Db);
  EXPECT_EQ(Error, T.Path + ": profile database schema version 2 is newer "
                            "than this klaraptor supports (1)");
}

TEST(ProfileDb, ForeignSqliteRefused) {
  TempDb T;
  sqlite3 *Raw;
  ASSERT_EQ(sqlite3_open(T.Path.c_str(), &Raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(Raw, "CREATE TABLE other (x)", nullptr, nullptr,
                         nullptr),
            SQLITE_OK);
  sqlite3_close(Raw);
  std::string Error;
  EXPECT_FALSE(ProfileDb::open(T.Path, meta(), Error));
  EXPECT_NE(Error.find("not a klaraptor profile database"), std::string::npos)
      << Error;
}

TEST(ProfileDb, CorruptFile) {
  TempDb T;
  {
    std::ofstream Out(T.Path, std::ios::binary);
    for (int I = 0; I < 512; ++I)
      Out << "this is not a database, just garbage bytes \x01\x02\xff";
  }
  std::string Error;
  auto Db = ProfileDb::open(T.Path, meta(), Error);
  EXPECT_FALSE(Db);
  EXPECT_EQ(Error.rfind(T.Path + ": not a readable profile database: ", 0), 0u)
      << Error;
  EXPECT_NE(Error.find("not a database"), std::string::npos) << Error;
}

TEST(ProfileDb, UnopenablePath) {
  std::string Error;
  EXPECT_FALSE(ProfileDb::open("/nonexistent-dir/x/p.db", meta(), Error));
  EXPECT_EQ(Error.rfind("/nonexistent-dir/x/p.db: cannot open profile "
                        "database: ",
                        0),
            0u)
      << Error;
}

TEST(ProfileDb, ConcurrentWriters) {
  TempDb T;
  constexpr int PerWriter = 40;
  std::string Errors[2];
  auto Writer = [&](int W) {
    std::string &Error = Errors[W];
    // Each writer opens (and maybe creates) the database itself.
    auto Db = ProfileDb::open(T.Path, meta(), Error);
    if (!Db)
      return;
    int64_t Run = Db->beginRun("writer " + std::to_string(W), {}, Error);
    int64_t K = Db->recordKernel("k", "spec", Error);
    if (Run < 0 || K < 0)
      return;
    uint32_t G[3] = {1, 1, 1}, B[3] = {32, 1, 1};
    for (int I = 0; I < PerWriter; ++I)
      if (Db->recordSweep(Run, K, {{"N", W * 1000 + I}}, G, B,
                          {sample(32, 1, I), sample(64, 1, I)}, Error) < 0)
        return;
    Db->endRun(Run, "ok", Error);
  };
  std::thread A(Writer, 0), B(Writer, 1);
  A.join();
  B.join();
  EXPECT_EQ(Errors[0], "");
  EXPECT_EQ(Errors[1], "");
  std::string Error;
  auto Db = ProfileDb::open(T.Path, meta(), Error);
  ASSERT_TRUE(Db) << Error;
  int64_t K = Db->findKernel("k", "spec");
  ASSERT_GT(K, 0);
  std::vector<SampleRow> Rows;
  ASSERT_TRUE(Db->samplesOf(K, Rows, Error)) << Error;
  EXPECT_EQ(Rows.size(), 2u * 2 * PerWriter);
  for (const SampleRow &R : Rows)
    EXPECT_EQ(R.Metrics.size(), 2u);
}

} // namespace
