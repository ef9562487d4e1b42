#include "overlap/Timing.h"

#include "GpuTestSupport.h"
#include "LinkBench.h"

#include <gtest/gtest.h>

namespace overlap {
namespace {

TEST(Timing, EventsTimeEachRepeat) {
  OVERLAP_SKIP_WITHOUT_GPU();
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  int calls = 0;
  std::vector<double> seconds;
  const StreamWork work = [&calls](cudaStream_t s) {
    ++calls;
    return calibration::launchEmpty(s);
  };
  OVERLAP_ASSERT_OK(timeWithEvents(stream, {3, 5}, work, &seconds));
  EXPECT_EQ(calls, 8) << "3 warm-up runs and 5 timed ones";
  ASSERT_EQ(seconds.size(), 5u);
  for (double s : seconds) {
    EXPECT_GE(s, 0.0);
    EXPECT_LT(s, 1.0);
  }
  const SampleStats stats = summarize(seconds);
  EXPECT_LE(stats.min, stats.median);
  EXPECT_LE(stats.median, stats.max);
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

TEST(Timing, HostClockIncludesTheSynchronization) {
  OVERLAP_SKIP_WITHOUT_GPU();
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  std::vector<double> seconds;
  OVERLAP_ASSERT_OK(timeWithHostClock(
      stream, {1, 4}, [](cudaStream_t s) { return calibration::launchEmpty(s); }, &seconds));
  ASSERT_EQ(seconds.size(), 4u);
  for (double s : seconds)
    EXPECT_GT(s, 0.0);
  EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

TEST(Timing, WorkErrorsStopTheTiming) {
  OVERLAP_SKIP_WITHOUT_GPU();
  std::vector<double> seconds;
  const Status failing{cudaErrorInvalidValue, "work()", __FILE__, __LINE__};
  const Status status =
      timeWithEvents(nullptr, {0, 3}, [&](cudaStream_t) { return failing; }, &seconds);
  EXPECT_EQ(status.code, cudaErrorInvalidValue);
  EXPECT_STREQ(status.call, "work()");
  EXPECT_TRUE(seconds.empty());
}

TEST(Event, MovesOwnership) {
  OVERLAP_SKIP_WITHOUT_GPU();
  Event a;
  OVERLAP_ASSERT_OK(Event::create(&a));
  cudaEvent_t raw = a.get();
  ASSERT_NE(raw, nullptr);
  Event b(std::move(a));
  EXPECT_EQ(b.get(), raw);
  EXPECT_EQ(a.get(), nullptr);
  Event c;
  c = std::move(b);
  EXPECT_EQ(c.get(), raw);
}

} // namespace
} // namespace overlap
