#include "CalibrationPlan.h"

#include <gtest/gtest.h>

namespace overlap::calibration {
namespace {

TEST(CalibrationPlan, TheBusyLinkStepsRepeatMoreThanTheOthers) {
  const CalibrationPlan plan = CalibrationPlan::standard();
  EXPECT_GT(plan.busyLinkRepeatCount(), plan.repeats);
  EXPECT_EQ(plan.busyLinkRepeatCount(), plan.busyLinkRepeats);
}

TEST(CalibrationPlan, TheQuickPlanStaysQuickOnTheBusyLink) {
  const CalibrationPlan quick = CalibrationPlan::quick();
  const CalibrationPlan standard = CalibrationPlan::standard();
  EXPECT_GE(quick.busyLinkRepeatCount(), quick.repeats);
  EXPECT_LE(quick.busyLinkRepeatCount(), quick.repeats + 2);
  EXPECT_LT(quick.busyLinkRepeatCount(), standard.busyLinkRepeatCount());
}

TEST(CalibrationPlan, MoreRepeatsAskedForRaiseTheBusyLinkRepeatsToo) {
  CalibrationPlan plan = CalibrationPlan::standard();
  plan.repeats = plan.busyLinkRepeats + 10; // what --repeats sets
  EXPECT_EQ(plan.busyLinkRepeatCount(), plan.repeats);
}

TEST(AccuracyPlan, TheBusyLinkCasesRepeatMoreThanTheOneWayCases) {
  const AccuracyPlan plan = AccuracyPlan::standard();
  EXPECT_TRUE(plan.bidirectional);
  EXPECT_TRUE(plan.simultaneous);
  EXPECT_GT(plan.busyLinkRepeatCount(), plan.repeats);
  EXPECT_EQ(plan.busyLinkRepeatCount(), plan.busyLinkRepeats);
}

TEST(AccuracyPlan, TheQuickPlanStaysQuickOnTheBusyLink) {
  const AccuracyPlan quick = AccuracyPlan::quick();
  EXPECT_GE(quick.busyLinkRepeatCount(), quick.repeats);
  EXPECT_LE(quick.busyLinkRepeatCount(), quick.repeats + 2);
  EXPECT_LT(quick.busyLinkRepeatCount(), AccuracyPlan::standard().busyLinkRepeatCount());
}

TEST(AccuracyPlan, BusyLinkRepeatsNeverFallBelowTheRepeats) {
  AccuracyPlan plan = AccuracyPlan::standard();
  plan.busyLinkRepeats = 1;
  EXPECT_EQ(plan.busyLinkRepeatCount(), plan.repeats);
}

} // namespace
} // namespace overlap::calibration
