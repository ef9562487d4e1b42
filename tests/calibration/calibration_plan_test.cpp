#include "calibration_plan.h"

#include <gtest/gtest.h>

namespace overlap::calibration {
namespace {

TEST(CalibrationPlan, TheBusyLinkStepsRepeatMoreThanTheOthers) {
  const CalibrationPlan plan = CalibrationPlan::standard();
  EXPECT_GT(plan.busy_link_repeat_count(), plan.repeats);
  EXPECT_EQ(plan.busy_link_repeat_count(), plan.busy_link_repeats);
}

TEST(CalibrationPlan, TheQuickPlanStaysQuickOnTheBusyLink) {
  const CalibrationPlan quick = CalibrationPlan::quick();
  const CalibrationPlan standard = CalibrationPlan::standard();
  EXPECT_GE(quick.busy_link_repeat_count(), quick.repeats);
  EXPECT_LE(quick.busy_link_repeat_count(), quick.repeats + 2);
  EXPECT_LT(quick.busy_link_repeat_count(), standard.busy_link_repeat_count());
}

TEST(CalibrationPlan, MoreRepeatsAskedForRaiseTheBusyLinkRepeatsToo) {
  CalibrationPlan plan = CalibrationPlan::standard();
  plan.repeats = plan.busy_link_repeats + 10; // what --repeats sets
  EXPECT_EQ(plan.busy_link_repeat_count(), plan.repeats);
}

TEST(AccuracyPlan, TheBusyLinkCasesRepeatMoreThanTheOneWayCases) {
  const AccuracyPlan plan = AccuracyPlan::standard();
  EXPECT_TRUE(plan.bidirectional);
  EXPECT_TRUE(plan.simultaneous);
  EXPECT_GT(plan.busy_link_repeat_count(), plan.repeats);
  EXPECT_EQ(plan.busy_link_repeat_count(), plan.busy_link_repeats);
}

TEST(AccuracyPlan, TheQuickPlanStaysQuickOnTheBusyLink) {
  const AccuracyPlan quick = AccuracyPlan::quick();
  EXPECT_GE(quick.busy_link_repeat_count(), quick.repeats);
  EXPECT_LE(quick.busy_link_repeat_count(), quick.repeats + 2);
  EXPECT_LT(quick.busy_link_repeat_count(), AccuracyPlan::standard().busy_link_repeat_count());
}

TEST(AccuracyPlan, BusyLinkRepeatsNeverFallBelowTheRepeats) {
  AccuracyPlan plan = AccuracyPlan::standard();
  plan.busy_link_repeats = 1;
  EXPECT_EQ(plan.busy_link_repeat_count(), plan.repeats);
}

} // namespace
} // namespace overlap::calibration
