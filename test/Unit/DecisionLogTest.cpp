//===- DecisionLogTest.cpp - the JSON lines of KLARAPTOR_LOG --------------===//
#include "DecisionLog.h"
#include "RuntimeTestSupport.h"

#include <gtest/gtest.h>

using namespace klaraptor;
using namespace klaraptor::test;

namespace {

LogEntry sample() {
  LogEntry E;
  E.Kernel = "saxpy";
  E.DeviceName = "_Z5saxpyPfPKffi";
  E.Device = 0;
  E.Data = {{"N", 1000}, {"M", -5}};
  E.RequestedGrid = {4, 1, 1};
  E.RequestedBlock = {256, 1, 1};
  E.Grid = {8, 1, 1};
  E.Block = {128, 1, 1};
  E.Source = DecisionSource::Model;
  E.ModelName = "mwp-cwp";
  E.HavePrediction = true;
  E.Predicted = 0.1;
  E.Candidates = 6;
  E.Pid = 4242;
  return E;
}

} // namespace

TEST(DecisionLog, QuotesStrings) {
  EXPECT_EQ(DecisionLog::quote("a\"b\\c\nd\te\x01"),
            "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
}

TEST(DecisionLog, FormatIsOneJsonObject) {
  std::string Line = DecisionLog::format(sample());
  EXPECT_EQ(Line.find('\n'), std::string::npos);
  Json J;
  ASSERT_TRUE(Json::parse(Line, J)) << Line;
  EXPECT_EQ(J["kernel"].Str, "saxpy");
  EXPECT_EQ(J["device_name"].Str, "_Z5saxpyPfPKffi");
  EXPECT_EQ(J["device"].integer(), 0);
  EXPECT_EQ(J["data"]["N"].integer(), 1000);
  EXPECT_EQ(J["data"]["M"].integer(), -5);
  EXPECT_EQ(J["requested"]["grid"].integers(), (std::vector<int64_t>{4, 1, 1}));
  EXPECT_EQ(J["requested"]["block"].integers(),
            (std::vector<int64_t>{256, 1, 1}));
  EXPECT_EQ(J["block"].integers(), (std::vector<int64_t>{128, 1, 1}));
  EXPECT_EQ(J["grid"].integers(), (std::vector<int64_t>{8, 1, 1}));
  EXPECT_EQ(J["source"].Str, "model");
  EXPECT_EQ(J["model"].Str, "mwp-cwp");
  EXPECT_EQ(J["predicted"].Num, 0.1); // %.17g reads back exactly
  EXPECT_EQ(J["candidates"].integer(), 6);
  EXPECT_EQ(J["pid"].integer(), 4242);
  EXPECT_FALSE(J.has("reason"));
}

TEST(DecisionLog, FallbackHasAReasonAndNoPrediction) {
  LogEntry E = sample();
  E.Source = DecisionSource::Fallback;
  E.Reason = "no model";
  E.ModelName.clear();
  E.HavePrediction = false;
  Json J;
  ASSERT_TRUE(Json::parse(DecisionLog::format(E), J));
  EXPECT_EQ(J["source"].Str, "fallback");
  EXPECT_EQ(J["reason"].Str, "no model");
  EXPECT_FALSE(J.has("model"));
  EXPECT_FALSE(J.has("predicted"));
}

TEST(DecisionLog, AppendsLinesFromSeveralWriters) {
  TempFile F("log");
  Diagnostics D(LogLevel::Warn);
  {
    DecisionLog A(F.Path, D), B(F.Path, D);
    EXPECT_TRUE(A.enabled());
    A.write(sample());
    B.write(sample());
    A.write(sample());
  }
  {
    // Reopening appends.
    DecisionLog C(F.Path, D);
    C.write(sample());
  }
  auto Lines = F.lines();
  ASSERT_EQ(Lines.size(), 4u);
  for (const auto &L : Lines) {
    Json J;
    EXPECT_TRUE(Json::parse(L, J)) << L;
  }
}

TEST(DecisionLog, OpenFailureWarnsOnce) {
  Diagnostics D(LogLevel::Warn);
  DiagCapture Cap(D);
  DecisionLog L("/nonexistent-dir/klaraptor/log.jsonl", D);
  L.write(sample());
  L.write(sample());
  EXPECT_EQ(Cap.lines(),
            (std::vector<std::string>{
                "warn: cannot open KLARAPTOR_LOG "
                "'/nonexistent-dir/klaraptor/log.jsonl': No such file or "
                "directory; decisions are not logged"}));
}

TEST(DecisionLog, DisabledWithoutAPath) {
  Diagnostics D(LogLevel::Warn);
  DecisionLog L("", D);
  EXPECT_FALSE(L.enabled());
  L.write(sample()); // nothing happens
}
