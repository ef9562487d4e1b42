#!/usr/bin/env python3
"""bench/summarize.py on a hand-computed synthetic run and on three applications of the H200's
run 2 (tests/fixtures/bench). Run by ctest as bench_summarize_test; needs only python3."""

import copy
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, "bench", "summarize.py")
FIXTURE = os.path.join(os.path.dirname(HERE), "fixtures", "bench", "h200-2026-11-21-run2")
FIXTURE_APPS = ["saxpy-64M", "gray-histogram-352x288", "matmul-4096"]


def run_summary(raw, prefix, *extra):
    result = subprocess.run([sys.executable, SCRIPT, raw, prefix, *extra],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise AssertionError("summarize.py failed: %s%s" % (result.stdout, result.stderr))
    with open(prefix + ".json") as f:
        summary = json.load(f)
    with open(prefix + ".md") as f:
        markdown = f.read()
    return summary, markdown


# Round numbers, so that every expected value below is worked out by hand.
PROFILE = {
    "name": "synthetic",
    "link": {
        "host_to_device": {"latency_s": 0.5e-3, "seconds_per_byte": 1e-9,
                           "bidirectional_seconds_per_byte": 2e-9},
        "device_to_host": {"latency_s": 1.0e-3, "seconds_per_byte": 1e-9,
                           "bidirectional_seconds_per_byte": 2e-9},
    },
    "overheads": {"kernel_launch_s": 0.1e-3, "stream_sync_s": 0.2e-3},
}


def candidate(variant, streams, predicted, measured, kept=True):
    name = variant if variant in ("Explicit", "Mapped") else "%s(%d, depth-first)" % (
        variant, streams)
    return {"variant": variant, "streams": streams, "order": "depth-first", "name": name,
            "predicted_s": predicted, "kept_by_model": kept, "run": measured is not None,
            "verification": "passed" if measured is not None else "not-run", "error": "",
            "timing": {"median_s": measured} if measured is not None else None}


def report(kernel, arguments, candidates, winner, exhaustive):
    return {"schema": "overlap-tuning-report", "schema_version": 1,
            "kernel": {"name": kernel}, "arguments": arguments, "device": "Synthetic GPU",
            "profile": {"name": "synthetic", "origin": "profile.json"},
            "settings": {"exhaustive": exhaustive, "noise": 0.02},
            "kernel_seconds": {"value_s": 0.7e-3,
                               "source": "Explicit's measured median minus its transfers"},
            "candidates": candidates, "candidates_total": len(candidates),
            "candidates_run": sum(1 for c in candidates if c["run"]),
            "winner": winner, "winner_name": candidates[winner]["name"], "wall_s": 1.0}


def synthetic_run(raw, app, kernel, arguments, mapped_flag=None):
    """Exhaustive: Explicit 3.0 ms; Mapped predicted 1.0, measured 2.0; Streams(2) 2.0 / 1.6;
    Streams(4) 1.5 / 1.5; Streams(8) 1.8 / 1.505. Pruned: Explicit 3.1, Streams(4) 1.55."""
    exhaustive = [candidate("Explicit", 1, 3.0e-3, 3.0e-3),
                  candidate("Mapped", 1, 1.0e-3, 2.0e-3),
                  candidate("Streams", 2, 2.0e-3, 1.6e-3, kept=False),
                  candidate("Streams", 4, 1.5e-3, 1.5e-3),
                  candidate("Streams", 8, 1.8e-3, 1.505e-3, kept=False)]
    if mapped_flag is not None:  # a report that says itself whether Mapped is a lower bound
        exhaustive[1]["predicted_is_lower_bound"] = mapped_flag
    pruned = copy.deepcopy(exhaustive)
    pruned[0]["timing"]["median_s"] = 3.1e-3
    pruned[1]["timing"] = None
    pruned[1]["run"] = False
    pruned[3]["timing"]["median_s"] = 1.55e-3
    for c in (pruned[2], pruned[4]):
        c["timing"], c["run"] = None, False
    for mode, cands in (("pruned", pruned), ("exhaustive", exhaustive)):
        os.makedirs(os.path.join(raw, app, mode))
        with open(os.path.join(raw, app, mode, kernel + ".tuning.json"), "w") as f:
            json.dump(report(kernel, arguments, cands, 3, mode == "exhaustive"), f)


def exhaustive_again(raw, app, kernel, arguments, medians, winner):
    """A second exhaustive run of `app`: `medians` by candidate name, the winner by index."""
    with open(glob_one(os.path.join(raw, app, "exhaustive"))) as f:
        again = json.load(f)
    for c in again["candidates"]:
        c["timing"]["median_s"] = medians[c["name"]]
    again["winner"], again["winner_name"] = winner, again["candidates"][winner]["name"]
    os.makedirs(os.path.join(raw, app, "exhaustive-again"))
    with open(os.path.join(raw, app, "exhaustive-again", kernel + ".tuning.json"), "w") as f:
        json.dump(again, f)


def glob_one(folder):
    [name] = os.listdir(folder)
    return os.path.join(folder, name)


class HandComputed(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        raw = os.path.join(cls.tmp.name, "raw")
        # saxpy n=1000: 8000 bytes in, 4000 out; 4-byte floats, so Mapped's prediction counts.
        synthetic_run(raw, "saxpy-small", "saxpy", {"n": 1000})
        # sepia, 1-byte pixels: the same numbers, but Mapped's prediction is a lower bound.
        synthetic_run(raw, "sepia-small", "sepia", {"pixels": 1000})
        # The reports' own flag, where present, overrides the rule both ways.
        synthetic_run(raw, "saxpy-flagged", "saxpy", {"n": 1000}, mapped_flag=True)
        synthetic_run(raw, "sepia-flagged", "sepia", {"pixels": 1000}, mapped_flag=False)
        # Exhaustive again: Streams(8) wins by 0.7 %, within the 2 % noise of both runs; then
        # Mapped wins, 25 % slower than Streams(4) in the first run.
        exhaustive_again(raw, "saxpy-small", "saxpy", {"n": 1000},
                         {"Explicit": 3.0e-3, "Mapped": 2.0e-3, "Streams(2, depth-first)": 1.6e-3,
                          "Streams(4, depth-first)": 1.51e-3,
                          "Streams(8, depth-first)": 1.5e-3}, 4)
        exhaustive_again(raw, "sepia-small", "sepia", {"pixels": 1000},
                         {"Explicit": 3.0e-3, "Mapped": 1.4e-3, "Streams(2, depth-first)": 1.6e-3,
                          "Streams(4, depth-first)": 1.5e-3,
                          "Streams(8, depth-first)": 1.5e-3}, 1)
        os.makedirs(os.path.join(raw, "broken", "pruned"))  # no reports at all
        profile = os.path.join(cls.tmp.name, "profile.json")
        with open(profile, "w") as f:
            json.dump(PROFILE, f)
        # Stands in for overlap-model: logs its arguments, prints an estimate the way it does.
        cls.model_log = os.path.join(cls.tmp.name, "model-args.log")
        fake_model = os.path.join(cls.tmp.name, "fake-overlap-model")
        with open(fake_model, "w") as f:
            f.write("#!/bin/sh\necho \"$@\" >> '%s'\n"
                    "echo 'papers stream-count estimates:'\n"
                    "echo '  paper 000 eq. (2)/(4): optimal nStreams     3.5'\n" % cls.model_log)
        os.chmod(fake_model, 0o755)
        cls.summary, cls.md = run_summary(
            raw, os.path.join(cls.tmp.name, "out"), "--apps",
            "saxpy-small,sepia-small,saxpy-flagged,sepia-flagged,broken", "--profile", profile,
            "--model-cli", fake_model)
        cls.rows = {r["app"]: r for r in cls.summary["rows"]}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_rows_in_the_given_order_and_an_incomplete_one_marked(self):
        self.assertEqual([r["app"] for r in self.summary["rows"]],
                         ["saxpy-small", "sepia-small", "saxpy-flagged", "sepia-flagged",
                          "broken"])
        self.assertIn("missing", self.rows["broken"])
        self.assertEqual(self.summary["headline"]["applications"], 4)

    def test_pick_against_explicit_and_exhaustive(self):
        r = self.rows["saxpy-small"]
        self.assertEqual(r["pick_name"], "Streams(4, depth-first)")
        self.assertAlmostEqual(r["speedup_pick"], 3.1 / 1.55)  # both from the pruned run
        self.assertAlmostEqual(r["pick_vs_exhaustive"], 1.0)  # Streams(4) is the fastest
        self.assertAlmostEqual(r["run_fraction"], 2 / 5)

    def test_wall_fraction_and_the_two_exhaustive_runs(self):
        self.assertAlmostEqual(self.rows["saxpy-small"]["wall_fraction"], 1.0)
        agreement = self.rows["saxpy-small"]["exhaustive_agreement"]
        self.assertEqual(agreement["winner_again"], "Streams(8, depth-first)")
        self.assertAlmostEqual(agreement["again_winner_in_first"], 1.505 / 1.5)
        self.assertAlmostEqual(agreement["first_winner_in_again"], 1.51 / 1.5)
        self.assertTrue(agreement["agree"])
        disagreement = self.rows["sepia-small"]["exhaustive_agreement"]
        self.assertAlmostEqual(disagreement["again_winner_in_first"], 2.0 / 1.5)
        self.assertFalse(disagreement["agree"])
        self.assertNotIn("exhaustive_agreement", self.rows["saxpy-flagged"])
        head = self.summary["headline"]
        self.assertEqual((head["exhaustive_runs_agreeing"], head["exhaustive_runs_compared"]),
                         (1, 2))
        self.assertEqual(head["wall_fraction_within_target"], 0)
        self.assertIn("Two exhaustive tunings agree (the same winner, or each within its run's "
                      "noise of the other's): 1 of 2.", self.md)
        self.assertIn("| sepia-small | Streams(4, depth-first) | Mapped | 1.333 (+2.0 %) | "
                      "1.071 (+2.0 %) | no ✗ |", self.md)

    def test_agreement_within_the_measured_spread(self):
        # Streams(4) 8 % slower than Streams(8), but its samples spread by 10 %: within noise.
        def report(winner, medians, q):
            cands = [{"name": n, "timing": {"median_s": m, "q1_s": m * (1 - q / 2),
                                            "q3_s": m * (1 + q / 2)}} for n, m in medians]
            return {"winner_name": winner, "candidates": cands, "settings": {"noise": 0.02}}
        sys.path.insert(0, os.path.dirname(SCRIPT))
        import summarize
        first = report("S8", [("S4", 1.08), ("S8", 1.0)], 0.10)
        again = report("S4", [("S4", 1.0), ("S8", 1.01)], 0.01)
        agreement = summarize.exhaustive_agreement(first, again)
        self.assertAlmostEqual(agreement["first_noise"], 0.10)
        self.assertTrue(agreement["agree"])
        first = report("S8", [("S4", 1.08), ("S8", 1.0)], 0.05)
        self.assertFalse(summarize.exhaustive_agreement(first, again)["agree"])

    def test_chunks_apart_from_streams(self):
        # The synthetic runs have one chunk per stream only: no comparison, said so.
        self.assertIsNone(self.rows["saxpy-small"]["chunks"])
        self.assertIn("| saxpy-small | no candidate with chunks apart", self.md)
        sys.path.insert(0, os.path.dirname(SCRIPT))
        import summarize

        def pipeline(variant, streams, chunks, measured):
            c = candidate(variant, streams, None, measured)
            c["chunks"] = chunks
            return c
        row = summarize.chunks_row([
            candidate("Mapped", 1, None, 0.5e-3),  # faster, but not a pipeline
            pipeline("Streams", 4, 0, 2.0e-3), pipeline("Hybrid", 2, 2, 1.8e-3),
            pipeline("Streams", 4, 16, 1.5e-3), pipeline("Streams", 2, 8, 1.6e-3),
            pipeline("Hybrid", 8, 32, None)])  # not timed
        self.assertEqual((row["one_per_stream_s"], row["apart_s"]), (1.8e-3, 1.5e-3))
        self.assertAlmostEqual(row["gain"], 1.2)
        self.assertEqual(row["apart_candidates"], 2)

    def test_physical_limit_with_fixed_costs_and_bidirectional_g(self):
        limit = self.rows["saxpy-small"]["limit"]
        self.assertEqual((limit["h2d_bytes"], limit["d2h_bytes"]), (8000, 4000))
        # h2d 0.5 ms + 8000 B x 2 ns; kernel 0.7 + 0.1 launch; d2h 1.0 ms + 4000 B x 2 ns.
        self.assertAlmostEqual(limit["bidirectional"]["h2d_s"], 0.516e-3)
        self.assertAlmostEqual(limit["kernel_s"], 0.8e-3)
        self.assertAlmostEqual(limit["bidirectional"]["d2h_s"], 1.008e-3)
        self.assertAlmostEqual(limit["limit_s"], 1.008e-3 + 0.2e-3)
        # One-way G: 1 ns a byte; d2h 1.004 ms still dominates.
        self.assertAlmostEqual(limit["one_way_limit_s"], 1.004e-3 + 0.2e-3)
        self.assertAlmostEqual(self.rows["saxpy-small"]["pick_vs_limit"], 1.55e-3 / 1.208e-3)

    def test_model_choice_skips_a_lower_bound_mapped_only(self):
        saxpy = self.rows["saxpy-small"]["implementation"]
        self.assertEqual(saxpy["model_variant"], "Mapped")
        self.assertFalse(saxpy["hit"])
        self.assertFalse(saxpy["hit_within_noise"])  # Mapped measured 2.0 against 1.5
        self.assertAlmostEqual(saxpy["loss"], 2.0 / 1.5)
        sepia = self.rows["sepia-small"]["implementation"]
        self.assertEqual(self.rows["sepia-small"]["mapped_lower_bound"], "1-byte elements")
        self.assertEqual(sepia["model_name"], "Streams(4, depth-first)")
        self.assertEqual(sepia["smallest_raw_prediction_variant"], "Mapped")
        self.assertTrue(sepia["hit"])
        self.assertAlmostEqual(sepia["loss"], 1.0)
        self.assertEqual(self.summary["headline"]["implementation_hits"], 2)

    def test_a_reports_lower_bound_flag_overrides_the_rule(self):
        self.assertEqual(self.rows["saxpy-flagged"]["implementation"]["model_variant"],
                         "Streams")
        self.assertEqual(self.rows["sepia-flagged"]["implementation"]["model_variant"], "Mapped")

    def test_stream_count_table(self):
        s = self.rows["saxpy-small"]["streams_count"]
        self.assertEqual(s["model_streams"], 4)
        self.assertEqual(s["measured_streams"], 4)
        self.assertEqual(s["measured_optimum_within_1pc"], [4, 8])  # 1.505 <= 1.5 x 1.01
        self.assertTrue(s["hit"])
        self.assertAlmostEqual(s["loss"], 1.0)

    def test_paper000_estimate_from_the_model_cli(self):
        estimate = self.rows["saxpy-small"]["streams_count"]["paper000"]
        self.assertEqual(estimate["streams"], 3.5)
        self.assertEqual(estimate["source"], "paper 000 eq. (2)/(4): optimal nStreams")
        with open(self.model_log) as f:
            first_call = f.readline().split()
        self.assertEqual(first_call[first_call.index("--h2d-bytes") + 1], "8000")
        self.assertEqual(first_call[first_call.index("--d2h-bytes") + 1], "4000")
        self.assertAlmostEqual(float(first_call[first_call.index("--kernel-ms") + 1]), 0.7)
        self.assertIn("| 1.000 | 3.5 |", self.md)

    def test_model_error_per_variant(self):
        errors = self.summary["model_error_per_variant"]
        # Each application contributes Streams +25 %, 0 % and (1.8 - 1.505) / 1.505.
        streams = errors["Streams"]
        self.assertEqual(streams["count"], 12)
        self.assertAlmostEqual(streams["median_abs"], (1.8 - 1.505) / 1.505)
        self.assertAlmostEqual(streams["max_abs"], 0.25)
        self.assertEqual(errors["Mapped"]["count"], 2)  # saxpy's and sepia-flagged's
        self.assertAlmostEqual(errors["Mapped"]["median_signed"], -0.5)
        self.assertEqual(errors["Mapped (lower bound)"]["count"], 2)
        self.assertNotIn("Explicit", errors)

    def test_markdown_has_every_table(self):
        for heading in ("## At a glance", "## Summary", "## The physical limit",
                        "## Best measured per variant", "## Paper 000 Table 2 in spirit",
                        "## Paper 001 §VII in spirit", "## Model error per variant",
                        "### saxpy-small", "### sepia-small"):
            self.assertIn(heading, self.md)
        self.assertIn("| broken | no complete pruned and exhaustive reports |", self.md)


class H200Fixture(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.summary, cls.md = run_summary(
            FIXTURE, os.path.join(cls.tmp.name, "out"), "--apps", ",".join(FIXTURE_APPS),
            "--profile", os.path.join(FIXTURE, "profile.json"))
        cls.rows = {r["app"]: r for r in cls.summary["rows"]}
        cls.raw = {}
        for app in FIXTURE_APPS:
            folder = os.path.join(FIXTURE, app, "exhaustive")
            with open(os.path.join(folder, os.listdir(folder)[0])) as f:
                cls.raw[app] = json.load(f)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_every_row_complete(self):
        self.assertEqual([r["app"] for r in self.summary["rows"]], FIXTURE_APPS)
        for r in self.summary["rows"]:
            self.assertNotIn("missing", r)
            self.assertEqual(len(r["candidates"]), len(self.raw[r["app"]]["candidates"]))

    def test_the_models_choice_is_one_the_tuners_pruning_kept(self):
        # The summary re-applies the tuner's lower-bound rule; the pruned reports say what the
        # tuner kept, and its predicted best is always kept.
        for r in self.summary["rows"]:
            self.assertTrue(r["implementation"]["model_kept_by_pruning"], r["app"])

    def test_lower_bound_rule_per_application(self):
        self.assertIsNone(self.rows["saxpy-64M"]["mapped_lower_bound"])
        self.assertEqual(self.rows["gray-histogram-352x288"]["mapped_lower_bound"],
                         "1-byte elements")
        self.assertIn("broadcast", self.rows["matmul-4096"]["mapped_lower_bound"])
        gray = self.rows["gray-histogram-352x288"]["implementation"]
        self.assertEqual(gray["model_name"], "Streams(4, depth-first)")
        self.assertEqual(gray["measured_name"], "Hybrid(2, depth-first)")
        self.assertFalse(gray["hit"])
        self.assertEqual(gray["smallest_raw_prediction_variant"], "Mapped")
        self.assertNotEqual(self.rows["matmul-4096"]["implementation"]["model_variant"], "Mapped")

    def test_traffic_agrees_with_the_tuners_explicit_prediction(self):
        # Explicit's predicted transfers exceed the traffic's bytes at the one-way G only by the
        # fixed costs: L+o per direction, a gap per extra copy and a launch, under 25 us here.
        for r in self.summary["rows"]:
            check = r["traffic_check"]
            extra = check["model_explicit_transfers_s"] - check["bytes_at_one_way_g_s"]
            self.assertGreater(extra, 0, r["app"])
            self.assertLess(extra, 25e-6, r["app"])

    def test_limit_parts(self):
        for r in self.summary["rows"]:
            limit = r["limit"]
            parts = limit["bidirectional"]
            self.assertAlmostEqual(limit["limit_s"], max(parts["h2d_s"], limit["kernel_s"],
                                                         parts["d2h_s"]) + limit["sync_s"])
            self.assertGreaterEqual(limit["limit_s"], limit["one_way_limit_s"])
            self.assertGreaterEqual(r["fastest_vs_limit"], 1.0, r["app"])  # nothing beats it

    def test_copy_in_bound(self):
        with open(os.path.join(FIXTURE, "profile.json")) as f:
            profile = json.load(f)
        sms = profile["device"]["multiprocessors"]
        link, overheads = profile["link"]["host_to_device"], profile["overheads"]
        # 32 frames, a block each, fewer than the H200's multiprocessors: one frame's kernel
        # takes the whole t_E, after the whole input.
        gray = self.rows["gray-histogram-352x288"]
        self.assertLess(32, sms)
        expected = (link["latency_s"] + gray["limit"]["h2d_bytes"] * link["seconds_per_byte"]
                    + gray["kernel_s"] + overheads["kernel_launch_s"] + overheads["stream_sync_s"])
        self.assertAlmostEqual(gray["limit"]["copy_in_bound_s"], expected)
        self.assertGreater(gray["limit"]["copy_in_bound_s"], gray["limit"]["limit_s"])
        self.assertAlmostEqual(gray["pick_vs_copy_in_bound"],
                               gray["pick_s"] / gray["limit"]["copy_in_bound_s"])
        # 64 M elements in blocks of 256: the smallest chunk's kernel is t_E * sms / 262144, so
        # the bound is the input's time, below the limit, which stands.
        saxpy = self.rows["saxpy-64M"]
        self.assertAlmostEqual(saxpy["limit"]["copy_in_bound_s"], saxpy["limit"]["limit_s"])
        # A broadcast matrix and a 2-D grid: no bound.
        self.assertIsNone(self.rows["matmul-4096"]["limit"]["copy_in_bound_s"])
        self.assertIsNone(self.rows["matmul-4096"]["pick_vs_copy_in_bound"])

    def test_errors_cover_every_measured_candidate(self):
        measured = sum(1 for app in FIXTURE_APPS for c in self.raw[app]["candidates"]
                       if c["variant"] != "Explicit" and c["timing"] and c["predicted_s"])
        counted = sum(e["count"] for e in self.summary["model_error_per_variant"].values())
        self.assertEqual(counted, measured)
        streams16 = next(c for c in self.rows["saxpy-64M"]["candidates"]
                         if c["name"] == "Streams(16, depth-first)")
        raw16 = next(c for c in self.raw["saxpy-64M"]["candidates"]
                     if c["name"] == "Streams(16, depth-first)")
        self.assertAlmostEqual(streams16["error"], raw16["predicted_s"] /
                               raw16["timing"]["median_s"] - 1)

    def test_markdown_rows(self):
        for app in FIXTURE_APPS:
            # Summary, limit, best per variant, the two papers' tables, the appendix heading.
            self.assertGreaterEqual(self.md.count("| %s |" % app), 5, app)
            self.assertIn("### %s" % app, self.md)
        # Without --model-cli the closed form is missing, and the table says why.
        self.assertIn("| not in the report |", self.md)


if __name__ == "__main__":
    unittest.main()
