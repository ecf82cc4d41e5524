//===- ConfigTest.cpp - environment settings and diagnostics --------------===//
#include "Config.h"
#include "Diagnostics.h"
#include "RuntimeTestSupport.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace klaraptor;

TEST(Config, Defaults) {
  Config C = Config::parse(nullptr, nullptr, nullptr);
  EXPECT_EQ(C.TheMode, Mode::Tune);
  EXPECT_EQ(C.Level, LogLevel::Warn);
  EXPECT_TRUE(C.LogPath.empty());
  EXPECT_TRUE(C.Warnings.empty());
  Config E = Config::parse("", "", "");
  EXPECT_EQ(E.TheMode, Mode::Tune);
  EXPECT_TRUE(E.Warnings.empty());
}

TEST(Config, Values) {
  EXPECT_EQ(Config::parse("off", nullptr, nullptr).TheMode, Mode::Off);
  EXPECT_EQ(Config::parse(" OFF ", nullptr, nullptr).TheMode, Mode::Off);
  EXPECT_EQ(Config::parse("tune", nullptr, nullptr).TheMode, Mode::Tune);
  EXPECT_EQ(Config::parse("Profile", nullptr, nullptr).TheMode, Mode::Profile);
  EXPECT_EQ(Config::parse(nullptr, nullptr, "error").Level, LogLevel::Error);
  EXPECT_EQ(Config::parse(nullptr, nullptr, "warning").Level, LogLevel::Warn);
  EXPECT_EQ(Config::parse(nullptr, nullptr, "info").Level, LogLevel::Info);
  EXPECT_EQ(Config::parse(nullptr, nullptr, "DEBUG").Level, LogLevel::Debug);
  EXPECT_EQ(Config::parse(nullptr, "/tmp/x.jsonl", nullptr).LogPath,
            "/tmp/x.jsonl");
}

TEST(Config, UnknownValuesWarnAndKeepDefaults) {
  Config C = Config::parse("fast", nullptr, "loud");
  EXPECT_EQ(C.TheMode, Mode::Tune);
  EXPECT_EQ(C.Level, LogLevel::Warn);
  ASSERT_EQ(C.Warnings.size(), 2u);
  EXPECT_EQ(C.Warnings[0], "unknown KLARAPTOR_MODE 'fast' (expected off, tune "
                           "or profile); using tune");
  EXPECT_EQ(C.Warnings[1], "unknown KLARAPTOR_LOG_LEVEL 'loud' (expected "
                           "error, warn, info or debug); using warn");
}

TEST(Config, ReadsTheEnvironment) {
  ::setenv("KLARAPTOR_MODE", "off", 1);
  ::setenv("KLARAPTOR_LOG", "/dev/null", 1);
  ::setenv("KLARAPTOR_LOG_LEVEL", "debug", 1);
  Config C = Config::fromEnvironment();
  ::unsetenv("KLARAPTOR_MODE");
  ::unsetenv("KLARAPTOR_LOG");
  ::unsetenv("KLARAPTOR_LOG_LEVEL");
  EXPECT_EQ(C.TheMode, Mode::Off);
  EXPECT_EQ(C.LogPath, "/dev/null");
  EXPECT_EQ(C.Level, LogLevel::Debug);
}

TEST(Config, Margin) {
  Config C;
  EXPECT_DOUBLE_EQ(C.Margin, 0.02);
  C.parseMargin(" 0.05 ");
  EXPECT_DOUBLE_EQ(C.Margin, 0.05);
  C.parseMargin("0");
  EXPECT_DOUBLE_EQ(C.Margin, 0);
  C.parseMargin(nullptr);
  C.parseMargin("");
  EXPECT_DOUBLE_EQ(C.Margin, 0);
  EXPECT_TRUE(C.Warnings.empty());
  for (const char *Bad : {"1", "-0.1", "x", "0.1x", "nan", "inf"}) {
    Config B;
    B.parseMargin(Bad);
    EXPECT_DOUBLE_EQ(B.Margin, 0.02) << Bad;
    ASSERT_EQ(B.Warnings.size(), 1u) << Bad;
    EXPECT_EQ(B.Warnings[0], std::string("KLARAPTOR_MARGIN '") + Bad +
                                 "' is not a fraction in [0, 1); using 0.02");
  }
  ::setenv("KLARAPTOR_MARGIN", "0.1", 1);
  Config E = Config::fromEnvironment();
  ::unsetenv("KLARAPTOR_MARGIN");
  EXPECT_DOUBLE_EQ(E.Margin, 0.1);
}

TEST(Config, RuntimeReportsConfigWarningsOnce) {
  // The runtime writes the warnings to stderr when it is built.
  testing::internal::CaptureStderr();
  Runtime R(Config::parse("fast", nullptr, nullptr), CudaApi::none());
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(Err, "klaraptor: warning: unknown KLARAPTOR_MODE 'fast' (expected "
                 "off, tune or profile); using tune\n");
  EXPECT_EQ(R.mode(), Mode::Tune);
}

TEST(Diagnostics, FormatAndLevels) {
  EXPECT_EQ(Diagnostics::format(LogLevel::Warn, "x y"),
            "klaraptor: warning: x y\n");
  EXPECT_EQ(Diagnostics::format(LogLevel::Error, "e"), "klaraptor: error: e\n");
  EXPECT_EQ(Diagnostics::format(LogLevel::Info, "i"), "klaraptor: info: i\n");
  EXPECT_EQ(Diagnostics::format(LogLevel::Debug, "d"), "klaraptor: debug: d\n");
  Diagnostics D(LogLevel::Warn);
  EXPECT_TRUE(D.enabled(LogLevel::Error));
  EXPECT_TRUE(D.enabled(LogLevel::Warn));
  EXPECT_FALSE(D.enabled(LogLevel::Info));
  testing::internal::CaptureStderr();
  D.report(LogLevel::Info, "hidden");
  D.report(LogLevel::Error, "shown");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "klaraptor: error: shown\n");
}

TEST(Diagnostics, ReportOnce) {
  Diagnostics D(LogLevel::Debug);
  test::DiagCapture Cap(D);
  EXPECT_TRUE(D.reportOnce(LogLevel::Warn, "a"));
  EXPECT_FALSE(D.reportOnce(LogLevel::Warn, "a"));
  EXPECT_TRUE(D.reportOnce(LogLevel::Warn, "b first", "key"));
  EXPECT_FALSE(D.reportOnce(LogLevel::Warn, "b second", "key"));
  EXPECT_EQ(Cap.lines(), (std::vector<std::string>{"warn: a", "warn: b first"}));
}
