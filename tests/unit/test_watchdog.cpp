// The watchdog (ldruntime/src/watchdog.h): a launch that does not finish in LDCC_WATCHDOG seconds
// stops the program with an error naming it; one that finishes is forgotten. Host only: without a GPU,
// the stream query of a finished watch fails, which ends the watch as an idle stream does.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "watchdog.h"

namespace ldcc {
namespace {

TEST(WatchdogDeathTest, StopsALaunchThatDoesNotFinish) {
  // A fresh process: a fork would not have the watchdog thread an earlier test started.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        set_watchdog_seconds(1);
        const LaunchWatch watch("spin", "checked", nullptr);
        std::this_thread::sleep_for(std::chrono::seconds(30));
      },
      testing::ExitedWithCode(kWatchdogExitCode),
      "ldcc: error: the checked launch of 'spin' has not finished after 1 s\\..*LDCC_WATCHDOG");
}

TEST(Watchdog, ForgetsALaunchThatFinished) {
  // The runtime's start first (a second or more on a busy GPU machine): the watch's stream query would
  // otherwise start it while the launch is watched.
  (void)cudaStreamQuery(nullptr);
  set_watchdog_seconds(1);
  { const LaunchWatch watch("quick", "deterministic", nullptr); }
  // Alive after the limit has passed twice: the watch ended with its launch.
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  SUCCEED();
}

TEST(Watchdog, SecondsFromTheFlag) {
  EXPECT_EQ(watchdog_seconds_flag("0"), 0u);
  EXPECT_EQ(watchdog_seconds_flag("45"), 45u);
  testing::internal::CaptureStderr();
  EXPECT_EQ(watchdog_seconds_flag("soon"), 300u);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "ldcc: LDCC_WATCHDOG='soon' is not a number of seconds; using 300\n");
}

}  // namespace
}  // namespace ldcc
