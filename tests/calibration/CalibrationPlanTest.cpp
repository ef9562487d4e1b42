#include "CalibrationPlan.h"

#include <gtest/gtest.h>

namespace overlap::calibration {
namespace {

TEST(CalibrationPlan, TheBusyLinkStepsRepeatMoreThanTheOthers) {
  const CalibrationPlan plan = CalibrationPlan::standard();
  EXPECT_GT(plan.busyLinkRepeats, plan.repeats);
  EXPECT_GT(plan.accuracy.busyLinkRepeats, plan.accuracy.repeats);
}

TEST(CalibrationPlan, TheQuickPlanStaysQuickOnTheBusyLink) {
  const CalibrationPlan quick = CalibrationPlan::quick();
  const CalibrationPlan standard = CalibrationPlan::standard();
  EXPECT_GE(quick.busyLinkRepeats, quick.repeats);
  EXPECT_LE(quick.busyLinkRepeats, quick.repeats + 2);
  EXPECT_LT(quick.busyLinkRepeats, standard.busyLinkRepeats);
  EXPECT_LE(quick.accuracy.busyLinkRepeats, quick.accuracy.repeats + 2);
  EXPECT_LT(quick.accuracy.busyLinkRepeats, standard.accuracy.busyLinkRepeats);
}

TEST(CalibrationPlan, MoreRepeatsAskedForRaiseTheBusyLinkRepeatsToo) {
  CalibrationPlan plan = CalibrationPlan::standard();
  const int more = plan.busyLinkRepeats + 10; // what --repeats sets
  plan.setRepeats(more);
  EXPECT_EQ(plan.repeats, more);
  EXPECT_EQ(plan.accuracy.repeats, more);
  EXPECT_EQ(plan.busyLinkRepeats, more);
  EXPECT_EQ(plan.accuracy.busyLinkRepeats, more);
}

TEST(CalibrationPlan, FewerRepeatsLeaveTheBusyLinkRepeats) {
  CalibrationPlan plan = CalibrationPlan::standard();
  const int busy = plan.busyLinkRepeats;
  plan.setRepeats(2);
  EXPECT_EQ(plan.repeats, 2);
  EXPECT_EQ(plan.busyLinkRepeats, busy);
}

} // namespace
} // namespace overlap::calibration
