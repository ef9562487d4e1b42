#!/usr/bin/env python3
"""bench/pageable/summarize_registered.py on hand-made tuning reports: the pinned winner found on
registered memory and its cost there, a winner that differs, a missing report named.
Run by ctest as bench_registered_summary_test; needs only python3."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, "bench", "pageable", "summarize_registered.py")


def candidate(name, median_s, verification="passed", finalist=True):
    timing = {"median_s": median_s, "screening_s": [median_s] if finalist else []}
    return {"name": name, "verification": verification,
            "timing": timing if median_s is not None else None}


def report(candidates, winner, memory="pinned", noise=0.03):
    return {"kernel": {"name": "saxpy"}, "settings": {"noise": noise, "memory": memory},
            "candidates": candidates, "winner": winner}


def on_registered(candidates, winner):
    return report(candidates, winner, "registered")


class RegisteredSummary(unittest.TestCase):
    def summarize(self, tunings):
        with tempfile.TemporaryDirectory() as raw:
            for app, (pinned, registered) in tunings.items():
                os.makedirs(os.path.join(raw, app))
                for suffix, r in ((".tuning.json", pinned), (".registered.tuning.json", registered)):
                    if r is not None:
                        with open(os.path.join(raw, app, "saxpy" + suffix), "w") as f:
                            json.dump(r, f)
            prefix = os.path.join(raw, "summary")
            result = subprocess.run([sys.executable, SCRIPT, raw, prefix, "--apps",
                                     ",".join(tunings)], capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(prefix + ".json") as f:
                summary = json.load(f)
            with open(prefix + ".md") as f:
                return summary, f.read()

    def test_the_pinned_winner_is_timed_on_registered_memory(self):
        pinned = report([candidate("Explicit", 0.020), candidate("Mapped", 0.010),
                         candidate("Streams(8, depth-first)", 0.011)], 1)
        registered = on_registered([candidate("Explicit", 0.021),
                                    candidate("Mapped", 0.018, finalist=False),
                             candidate("Streams(8, depth-first)", 0.012)], 2)
        same = on_registered([candidate("Explicit", 0.021), candidate("Mapped", 0.0101)], 1)
        summary, markdown = self.summarize({
            "moved": (pinned, registered),
            "held": (report([candidate("Explicit", 0.02), candidate("Mapped", 0.01)], 1), same),
            "untuned": (pinned, None)})
        moved, held, untuned = summary["applications"]
        self.assertFalse(moved["same_winner"])
        self.assertAlmostEqual(moved["pinned_winner_cost"], 1.5)
        self.assertAlmostEqual(moved["registered_over_pinned"], 1.2)
        self.assertTrue(held["same_winner"])
        self.assertAlmostEqual(held["pinned_winner_cost"], 1.0)
        self.assertFalse(untuned["complete"])
        self.assertEqual(untuned["problem"], "no registered tuning")
        self.assertIn("another winner than the pinned one: **1 of 2**", markdown)
        self.assertIn("beyond the tuning's noise: **1 of 2** (moved 1.50x); of these, timed only "
                      "in screening, not beside the winner: moved", markdown)
        self.assertIn("| 1.50x ✗ (s) |", markdown)
        self.assertTrue(held["pinned_winner_in_final_round"])
        self.assertIn("| untuned | no registered tuning |", markdown)

    def test_wrong_results_are_named(self):
        registered = on_registered(
            [candidate("Explicit", 0.02), candidate("Mapped", None, "wrong-result")], 0)
        summary, markdown = self.summarize(
            {"bad": (report([candidate("Explicit", 0.02)], 0), registered)})
        self.assertEqual(summary["applications"][0]["wrong"], ["Mapped"])
        self.assertIn("bad: Mapped", markdown)

    def test_the_pinned_report_is_not_taken_from_another_memorys_file(self):
        with tempfile.TemporaryDirectory() as raw:
            os.makedirs(os.path.join(raw, "app"))
            for suffix, memory, median in ((".tuning.json", "pinned", 0.01),
                                           (".managed.tuning.json", "managed", 0.05),
                                           (".registered.tuning.json", "registered", 0.02)):
                with open(os.path.join(raw, "app", "saxpy" + suffix), "w") as f:
                    json.dump(report([candidate("Explicit", median)], 0, memory), f)
            prefix = os.path.join(raw, "summary")
            result = subprocess.run([sys.executable, SCRIPT, raw, prefix, "--apps", "app"],
                                    capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(prefix + ".json") as f:
                row = json.load(f)["applications"][0]
        self.assertTrue(row["complete"], row)
        self.assertAlmostEqual(row["pinned_winner_s"], 0.01)

    def test_a_report_of_other_memory_is_refused(self):
        pinned = report([candidate("Explicit", 0.02)], 0)
        summary, markdown = self.summarize({"mixed": (pinned, pinned)})
        self.assertFalse(summary["applications"][0]["complete"])
        self.assertIn("the registered report is of pinned memory", markdown)


if __name__ == "__main__":
    unittest.main()
