#!/usr/bin/env python3
"""bench/pageable/summarize_memory.py on hand-made tuning reports: the pinned winner found on
registered memory and its cost there, a winner that differs, a missing report named; on pageable
memory each way of handling the arrays at its best against the pinned winner.
Run by ctest as bench_memory_summary_test; needs only python3."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, "bench", "pageable", "summarize_memory.py")


def candidate(name, median_s, verification="passed", finalist=True, pageable="default"):
    timing = {"median_s": median_s, "screening_s": [median_s] if finalist else []}
    return {"name": name, "variant": name.split("(")[0], "pageable": pageable,
            "verification": verification, "timing": timing if median_s is not None else None}


def report(candidates, winner, memory="pinned", noise=0.03):
    return {"kernel": {"name": "saxpy"}, "settings": {"noise": noise, "memory": memory},
            "candidates": candidates, "winner": winner}


def on_registered(candidates, winner):
    return report(candidates, winner, "registered")


class RegisteredSummary(unittest.TestCase):
    def summarize(self, tunings, memory="registered"):
        with tempfile.TemporaryDirectory() as raw:
            for app, (pinned, other) in tunings.items():
                os.makedirs(os.path.join(raw, app))
                for suffix, r in ((".tuning.json", pinned), (".%s.tuning.json" % memory, other)):
                    if r is not None:
                        with open(os.path.join(raw, app, "saxpy" + suffix), "w") as f:
                            json.dump(r, f)
            prefix = os.path.join(raw, "summary")
            result = subprocess.run([sys.executable, SCRIPT, raw, prefix, "--memory", memory,
                                     "--apps", ",".join(tunings)], capture_output=True, text=True)
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
        self.assertAlmostEqual(moved["other_over_pinned"], 1.2)
        self.assertTrue(held["same_winner"])
        self.assertAlmostEqual(held["pinned_winner_cost"], 1.0)
        self.assertFalse(untuned["complete"])
        self.assertEqual(untuned["problem"], "no registered tuning")
        self.assertIn("another winner than the pinned one: **1 of 2**", markdown)
        self.assertIn("beyond the tuning's noise: **1 of 2** timed there (moved 1.50x); of these, timed only "
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

    def test_each_pageable_way_at_its_best_against_the_pinned_winner(self):
        pinned = report([candidate("Explicit", 0.020), candidate("Streams(8, depth-first)", 0.010)],
                        1)
        pageable = report([
            candidate("Explicit", 0.060),
            candidate("Streams(8, depth-first)", 0.030),
            candidate("Mapped(registered per call)", 0.050, pageable="registered per call"),
            candidate("Streams(8, depth-first, registered per call)", 0.040,
                      pageable="registered per call"),
            candidate("Streams(8, depth-first, cached registration)", 0.0104,
                      pageable="cached registration"),
            candidate("Streams(4, depth-first, staged)", 0.014, pageable="staged"),
            candidate("Streams(8, depth-first, staged)", 0.012, pageable="staged")], 4, "pageable")
        summary, markdown = self.summarize({"saxpy": (pinned, pageable)}, "pageable")
        row = summary["applications"][0]
        self.assertTrue(row["complete"], row)
        self.assertAlmostEqual(row["explicit_s"], 0.060)
        self.assertAlmostEqual(row["modes"]["registered per call"]["median_s"], 0.040)
        self.assertAlmostEqual(row["modes"]["cached registration"]["over_pinned"], 1.04)
        self.assertEqual(row["modes"]["staged"]["candidate"], "Streams(8, depth-first, staged)")
        self.assertAlmostEqual(row["modes"]["staged"]["over_pinned"], 1.2)
        self.assertAlmostEqual(row["pinned_winner_cost"], 0.030 / 0.0104)
        self.assertIn("Cached registration within 1.05x of the pinned winner: **1 of 1**", markdown)
        self.assertIn("Staged within 1.30x of the pinned winner: **1 of 1**", markdown)
        self.assertIn("| saxpy | 10.0 | 60.0 | 40.0 (4.00x) | 10.4 (1.04x) | 12.0 (1.20x) |",
                      markdown)

    def test_cached_registration_comes_from_a_registered_tuning(self):
        with tempfile.TemporaryDirectory() as raw, tempfile.TemporaryDirectory() as loop:
            for folder, suffix, r in (
                    (raw, ".tuning.json", report([candidate("Explicit", 0.010)], 0)),
                    (raw, ".pageable.tuning.json", report(
                        [candidate("Explicit", 0.030)], 0, "pageable")),
                    (loop, ".tuning.json", report([candidate("Explicit", 0.020)], 0)),
                    (loop, ".registered.tuning.json", report(
                        [candidate("Explicit", 0.025), candidate("Mapped", 0.021)], 1,
                        "registered"))):
                os.makedirs(os.path.join(folder, "app"), exist_ok=True)
                with open(os.path.join(folder, "app", "k" + suffix), "w") as f:
                    json.dump(r, f)
            prefix = os.path.join(raw, "summary")
            result = subprocess.run([sys.executable, SCRIPT, raw, prefix, "--memory", "pageable",
                                     "--registered-raw", loop, "--apps", "app"],
                                    capture_output=True, text=True)
            self.assertEqual(result.returncode, 0, result.stderr)
            with open(prefix + ".json") as f:
                cached = json.load(f)["applications"][0]["modes"]["cached registration"]
        self.assertEqual(cached["candidate"], "Mapped")
        self.assertAlmostEqual(cached["over_pinned"], 1.05)

    def test_a_way_beyond_its_target_is_marked(self):
        pinned = report([candidate("Explicit", 0.010)], 0)
        pageable = report([candidate("Explicit", 0.030),
                           candidate("Streams(2, depth-first, staged)", 0.020, pageable="staged")],
                          1, "pageable")
        summary, markdown = self.summarize({"slow": (pinned, pageable)}, "pageable")
        self.assertIn("Staged within 1.30x of the pinned winner: **0 of 1**", markdown)
        self.assertIn("20.0 (2.00x ✗)", markdown)
        self.assertIsNone(summary["applications"][0]["modes"]["cached registration"])


if __name__ == "__main__":
    unittest.main()
