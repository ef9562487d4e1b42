#!/usr/bin/env python3
"""The benchmark's summary (issue 6): the tuner's raw reports -> PREFIX.md and PREFIX.json.

    bench/summarize.py RAW_DIR PREFIX [--apps A,B,...] [--profile FILE] [--command TEXT]

RAW_DIR holds <app>/{pruned,exhaustive}/<kernel>.tuning.json, as `scripts/bench.sh run` writes
them, and <app>/exhaustive-again/ where the exhaustive tuning ran twice (BENCH_EXHAUSTIVE_AGAIN=1). The definitions of every column are in bench/README.md and in the notes of the Markdown.
"""

import argparse
import glob
import json
import os
import statistics
import subprocess
import sys

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Issue 6's targets, the pruning's as issue 21 set them.
TARGET_PICK_VS_EXHAUSTIVE = 1.03
TARGET_PICK_VS_LIMIT = 1.05
TARGET_RUN_FRACTION = 0.35
TARGET_WALL_FRACTION = 0.30
TARGET_MODEL_MEDIAN = 0.05
TARGET_MODEL_MAX = 0.10
# Paper 000 Table 2 lists every stream count within 1 % of the best as an experimental optimum.
OPTIMUM_SPREAD = 0.01
# Tuning reports (schema 1) do not say which predictions are lower bounds; should a later schema
# carry this per-candidate flag, it is used instead of the rule below.
REPORT_LOWER_BOUND_FIELD = "predicted_is_lower_bound"
# Below 4 bytes a warp asks the link for partial lines: tuner/model/Workload.h,
# kMappedFullLineElementBytes.
MAPPED_FULL_LINE_ELEMENT_BYTES = 4


class Kernel:
    """What the summary needs to know about a kernel and the reports do not hold.

    traffic: arguments -> (bytes host->device, bytes device->host) that must cross the link once
    per call (each byte once: a halo or a section named twice counts once).
    narrowest_element_bytes and broadcast_inputs: the inputs of the tuner's rule that makes a
    Mapped prediction a lower bound (tuner/model/Workload.h, mapped_prediction_is_lower_bound).

    blocks: arguments -> the whole call's thread blocks, for kernels whose blocks each do a fixed
    piece of work and whose smallest chunk (one partition element) is one block; None where the
    grid does not follow the chunk (see copy_in_bound).
    """

    def __init__(self, traffic, narrowest_element_bytes, broadcast_inputs=False, blocks=None):
        self.traffic = traffic
        self.narrowest_element_bytes = narrowest_element_bytes
        self.broadcast_inputs = broadcast_inputs
        self.blocks = blocks

    def mapped_lower_bound_reason(self):
        if self.broadcast_inputs:
            return "broadcast inputs, re-reads unknown"
        if self.narrowest_element_bytes < MAPPED_FULL_LINE_ELEMENT_BYTES:
            return "%d-byte elements" % self.narrowest_element_bytes
        return None


def blocks_of_256(elements):
    """A launch of ceil(elements / 256) blocks of 256 threads, one element a thread."""
    return lambda a: -(-a[elements] // 256)


# From the annotations in bench/apps/*.cu and examples/*/*.cu.
KERNELS = {
    # copy(values[lo:hi]), unsigned int
    "scalar_add": Kernel(lambda a: (4 * a["n"], 4 * a["n"]), 4, blocks=blocks_of_256("n")),
    # copyin(video[lo*pixels:hi*pixels]) uchar; copyout(histograms[lo*256:hi*256]) unsigned int
    # One block per frame.
    "frame_histogram": Kernel(lambda a: (a["frames"] * a["pixels"], a["frames"] * 256 * 4), 1,
                              blocks=lambda a: a["frames"]),
    # copyin(rgb, 3 bytes a pixel); copyout(gray, 1 byte a pixel; histograms, 256 unsigned int)
    "gray_histogram": Kernel(
        lambda a: (3 * a["frames"] * a["pixels"],
                   a["frames"] * a["pixels"] + a["frames"] * 256 * 4), 1,
        blocks=lambda a: a["frames"]),
    # copyin(temperature, salinity) float; copyout(density) float
    "pop_state": Kernel(
        lambda a: (8 * a["levels"] * a["plane"], 4 * a["levels"] * a["plane"]), 4),
    # copyin(rho[0:plane], rho[(lo-1)*plane:hi*plane]): the surface plane and the halo level are
    # sections of rho, which crosses once (Explicit sends the surface plane twice; the limit does
    # not charge that); copyout(dbloc) float.
    "buoydiff": Kernel(
        lambda a: (4 * a["levels"] * a["plane"], 4 * a["levels"] * a["plane"]), 4),
    # copyin(rgb) copyout(sepia), 3 bytes a pixel each
    "sepia": Kernel(lambda a: (3 * a["pixels"], 3 * a["pixels"]), 1,
                    blocks=blocks_of_256("pixels")),
    # copyin(x) copy(y) float
    "saxpy": Kernel(lambda a: (8 * a["n"], 4 * a["n"]), 4, blocks=blocks_of_256("n")),
    # copyin(a[lo*k:hi*k], b) copyout(c[lo*n:hi*n]) float; b is broadcast
    "matmul": Kernel(
        lambda a: (4 * (a["m"] * a["k"] + a["k"] * a["n"]), 4 * a["m"] * a["n"]), 4,
        broadcast_inputs=True),
}


def median_of(candidate):
    timing = candidate.get("timing")
    return timing["median_s"] if timing else None


def load_report(raw, app, mode):
    found = sorted(glob.glob(os.path.join(raw, app, mode, "*.tuning.json")))
    if not found:
        return None
    with open(found[0]) as f:
        return json.load(f)


def find_apps(raw):
    return sorted(d for d in os.listdir(raw)
                  if os.path.isdir(os.path.join(raw, d, "pruned"))
                  or os.path.isdir(os.path.join(raw, d, "exhaustive")))


def resolve_profile_path(origin):
    """A report's profile origin -> a file: a path (as given, or from the repository root), or
    the repository's copy of a built-in profile."""
    if origin.startswith("<built-in ") and origin.endswith(">"):
        origin = "calibrate/profile/builtin/%s.json" % origin[len("<built-in "):-1]
    for path in (origin, os.path.join(REPO_ROOT, origin)):
        if os.path.isfile(path):
            return path
    return None


def physical_limit(profile, h2d_bytes, d2h_bytes, kernel_s):
    """What no variant can beat: the longest of the three resources a call must use, each with the
    fixed cost it cannot avoid, then the host's wake-up after the last of them.

    Copies: L+o once per direction that moves data, then every byte at G; when both directions
    move data they share the link, so G is the profile's bidirectional G (the optimistic bound
    uses the one-way G). The kernel: t_E plus one launch. Then one synchronize.
    """
    link, overheads = profile["link"], profile.get("overheads", {})
    both = h2d_bytes > 0 and d2h_bytes > 0

    def copy_seconds(direction, moved, bidirectional):
        if moved <= 0:
            return 0.0
        g = direction["seconds_per_byte"]
        if bidirectional and direction.get("bidirectional_seconds_per_byte"):
            g = direction["bidirectional_seconds_per_byte"]
        return direction["latency_s"] + moved * g

    kernel = kernel_s + overheads.get("kernel_launch_s", 0.0)
    sync = overheads.get("stream_sync_s", 0.0)
    result = {"both_directions": both, "kernel_s": kernel, "sync_s": sync}
    for key, bidirectional in (("bidirectional", both), ("one_way", False)):
        h2d = copy_seconds(link["host_to_device"], h2d_bytes, bidirectional)
        d2h = copy_seconds(link["device_to_host"], d2h_bytes, bidirectional)
        result[key] = {"h2d_s": h2d, "d2h_s": d2h, "limit_s": max(h2d, kernel, d2h) + sync}
    result["limit_s"] = result["bidirectional"]["limit_s"]
    result["one_way_limit_s"] = result["one_way"]["limit_s"]
    return result


def copy_in_bound(profile, limit, h2d_bytes, kernel_s, blocks):
    """What no variant that copies its inputs (Explicit, Streams, Hybrid) can beat: the last
    chunk's kernel runs after every input byte has arrived, and it takes at least the kernel time
    of the smallest chunk. A kernel that fits in one wave (a block per frame, 64 frames on 132
    multiprocessors) takes as long for one frame as for all, so chunking cannot hide it. The
    smallest chunk is one block; a wave is one block per multiprocessor (the model's value when
    occupancy is unknown, and the optimistic one). The input at the one-way G, as the limit's
    one-way copy. None when the kernel's grid is not known; Mapped reads while it computes, so
    only `limit` bounds it."""
    sms = profile.get("device", {}).get("multiprocessors")
    if blocks is None or not sms or h2d_bytes <= 0:
        return None
    smallest_chunk_kernel = kernel_s * sms / max(blocks, sms)
    launch = profile.get("overheads", {}).get("kernel_launch_s", 0.0)
    return max(limit["limit_s"], limit["one_way"]["h2d_s"] + smallest_chunk_kernel + launch
               + limit["sync_s"])


def paper000_estimate(model_cli, profile_path, h2d_bytes, d2h_bytes, kernel_s):
    """Paper 000's closed-form optimal stream count (eqs. 2/4 or 6/8), from the tuner's own code:
    `overlap-model` prints it; the tuning report does not hold it. The workload is the traffic
    table's, so halo and broadcast sections are not told apart (paper 000 sums them anyway)."""
    result = subprocess.run(
        [model_cli, "--profile", profile_path, "--h2d-bytes", "%d" % h2d_bytes,
         "--d2h-bytes", "%d" % d2h_bytes, "--kernel-ms", repr(kernel_s * 1e3)],
        capture_output=True, text=True)
    for line in result.stdout.splitlines():
        line = line.strip()
        if line.startswith("paper 000") and "optimal nStreams" in line:
            label, value = line.rsplit(None, 1)
            return {"source": label, "streams": float(value)}
    raise RuntimeError("%s printed no paper 000 estimate (rc %d): %s"
                       % (model_cli, result.returncode, result.stderr.strip()))


def is_lower_bound(candidate, mapped_is_lower_bound):
    """Whether a candidate's prediction is only a lower bound: the report's own flag where it
    has one (REPORT_LOWER_BOUND_FIELD), else the tuner's rule on the annotation's facts."""
    if REPORT_LOWER_BOUND_FIELD in candidate:
        return bool(candidate[REPORT_LOWER_BOUND_FIELD])
    return mapped_is_lower_bound and candidate["variant"] == "Mapped"


def model_choice(candidates, mapped_is_lower_bound):
    """The candidate the tuner's pruning takes as the predicted best: the smallest prediction,
    skipping a prediction that is only a lower bound (unless nothing else is predicted), simpler
    first among equals (tuner/model/CandidateSet.cpp, select_pruned_set)."""
    predicted = [c for c in candidates if c.get("predicted_s") is not None]
    usable = [c for c in predicted
              if not is_lower_bound(c, mapped_is_lower_bound)] or predicted
    variant_rank = {"Explicit": 0, "Mapped": 1, "Streams": 2, "Hybrid": 3}
    order_rank = {"depth-first": 0, "breadth-first": 1}
    return min(usable, key=lambda c: (c["predicted_s"], variant_rank.get(c["variant"], 9),
                                      c["streams"], order_rank.get(c["order"], 9)), default=None)


def relative_error(predicted, measured):
    return (predicted - measured) / measured


def relative_spread(candidate):
    timing = candidate.get("timing") or {}
    if "q1_s" not in timing or not timing.get("median_s"):
        return 0.0
    return (timing["q3_s"] - timing["q1_s"]) / timing["median_s"]


def exhaustive_agreement(first, again):
    """Whether two exhaustive tunings of one call agree: the same winner, or in each run the other
    run's winner within that run's noise of this run's, the noise as the tuner takes it for two
    medians (tuner/tune/WinnerChoice.h): the noise setting or either one's spread (IQR / median),
    whichever is larger."""
    def compare(report, winner, other):
        by_name = {c["name"]: c for c in report["candidates"] if median_of(c) is not None}
        if winner not in by_name or other not in by_name:
            return None, None
        a, b = by_name[other], by_name[winner]
        noise = max(report["settings"]["noise"], relative_spread(a), relative_spread(b))
        return median_of(a) / median_of(b), noise
    w1, w2 = first["winner_name"], again["winner_name"]
    in_first, noise_first = compare(first, w1, w2)
    in_again, noise_again = compare(again, w2, w1)
    agree = w1 == w2 or (in_first is not None and in_again is not None
                         and in_first <= 1 + noise_first and in_again <= 1 + noise_again)
    return {"winner": w1, "winner_again": w2, "again_winner_in_first": in_first,
            "first_noise": noise_first, "first_winner_in_again": in_again,
            "again_noise": noise_again, "agree": agree}


def summarize_app(app, pruned, exhaustive, profile, kernel_info, estimate_streams=None,
                  exhaustive_again=None):
    row = {"app": app}
    if not pruned or not exhaustive or pruned.get("winner") is None \
            or exhaustive.get("winner") is None:
        row["missing"] = "no complete pruned and exhaustive reports"
        return row
    kernel = exhaustive["kernel"]["name"]
    row["kernel"] = kernel
    cands = exhaustive["candidates"]
    by_name = {c["name"]: c for c in cands}
    timed = [c for c in cands if median_of(c) is not None]
    explicit = next((c for c in cands if c["variant"] == "Explicit"), None)
    fastest = min(timed, key=median_of)
    pick = pruned["candidates"][pruned["winner"]]
    pruned_explicit = next((c for c in pruned["candidates"] if c["variant"] == "Explicit"), None)
    pick_in_exhaustive = median_of(by_name[pick["name"]]) if pick["name"] in by_name else None
    row.update(
        device=exhaustive["device"], profile=exhaustive["profile"]["name"],
        arguments=exhaustive["arguments"], noise=exhaustive["settings"]["noise"],
        explicit_s=median_of(explicit) if explicit else None,
        fastest_name=fastest["name"], fastest_s=median_of(fastest),
        exhaustive_winner_name=exhaustive["winner_name"],
        pick_name=pick["name"], pick_s=median_of(pick), pick_in_exhaustive_s=pick_in_exhaustive,
        candidates_run=pruned["candidates_run"], candidates_total=pruned["candidates_total"],
        pruned_wall_s=pruned["wall_s"], exhaustive_wall_s=exhaustive["wall_s"],
        kernel_s=exhaustive["kernel_seconds"]["value_s"],
        kernel_source=exhaustive["kernel_seconds"]["source"])
    row["run_fraction"] = pruned["candidates_run"] / pruned["candidates_total"]
    row["wall_fraction"] = (pruned["wall_s"] / exhaustive["wall_s"]
                            if exhaustive["wall_s"] > 0 else None)
    if exhaustive_again and exhaustive_again.get("winner") is not None:
        row["exhaustive_agreement"] = exhaustive_agreement(exhaustive, exhaustive_again)
    # Both from the pruned run, as a user of the tuner sees them.
    row["speedup_pick"] = (median_of(pruned_explicit) / row["pick_s"]
                           if pruned_explicit and median_of(pruned_explicit) else None)
    # Both from the exhaustive run, so that the two runs' noise does not enter.
    row["pick_vs_exhaustive"] = (pick_in_exhaustive / row["fastest_s"]
                                 if pick_in_exhaustive else None)

    lower_bound_reason = kernel_info.mapped_lower_bound_reason() if kernel_info else None
    row["mapped_lower_bound"] = lower_bound_reason

    # Every candidate: predicted, measured, error (exhaustive run).
    row["candidates"] = []
    for c in cands:
        measured, predicted = median_of(c), c.get("predicted_s")
        row["candidates"].append({
            "name": c["name"], "variant": c["variant"], "streams": c["streams"],
            "order": c["order"], "predicted_s": predicted, "measured_s": measured,
            "error": relative_error(predicted, measured) if predicted and measured else None,
            "lower_bound": is_lower_bound(c, bool(lower_bound_reason)),
            "kept_by_model": by_name_kept(pruned, c["name"]),
            "verification": c["verification"]})

    per_variant = {}
    for c in timed:
        best = per_variant.get(c["variant"])
        if best is None or median_of(c) < best["best_s"]:
            per_variant[c["variant"]] = {"best_s": median_of(c), "name": c["name"],
                                         "streams": c["streams"], "order": c["order"]}
    row["per_variant"] = per_variant

    row["streams_count"] = streams_count_row(cands)
    row["chunks"] = chunks_row(cands)
    row["implementation"] = implementation_row(pruned, by_name, fastest, per_variant,
                                               lower_bound_reason, row["noise"])

    if profile is not None and kernel_info is not None:
        h2d_bytes, d2h_bytes = kernel_info.traffic(exhaustive["arguments"])
        limit = physical_limit(profile, h2d_bytes, d2h_bytes, row["kernel_s"])
        limit.update(h2d_bytes=h2d_bytes, d2h_bytes=d2h_bytes)
        row["limit"] = limit
        row["pick_vs_limit"] = row["pick_s"] / limit["limit_s"]
        row["fastest_vs_limit"] = row["fastest_s"] / limit["limit_s"]
        row["pick_vs_one_way_limit"] = row["pick_s"] / limit["one_way_limit_s"]
        blocks = kernel_info.blocks(exhaustive["arguments"]) if kernel_info.blocks else None
        bound = copy_in_bound(profile, limit, h2d_bytes, row["kernel_s"], blocks)
        limit["copy_in_bound_s"] = bound
        row["pick_vs_copy_in_bound"] = (
            row["pick_s"] / bound if bound and not row["pick_name"].startswith("Mapped")
            else None)
        if estimate_streams and row["streams_count"]:
            row["streams_count"]["paper000"] = estimate_streams(h2d_bytes, d2h_bytes,
                                                                row["kernel_s"])
        # A check of the traffic table against the tuner's own model: Explicit's predicted
        # transfers (its prediction less t_E) should exceed the bytes at the one-way G only by the
        # fixed costs (L+o, a gap per extra copy, a launch), a few microseconds.
        if explicit and explicit.get("predicted_s") is not None:
            link = profile["link"]
            row["traffic_check"] = {
                "model_explicit_transfers_s": explicit["predicted_s"] - row["kernel_s"],
                "bytes_at_one_way_g_s":
                    h2d_bytes * link["host_to_device"]["seconds_per_byte"]
                    + d2h_bytes * link["device_to_host"]["seconds_per_byte"]}
    return row


def by_name_kept(report, name):
    for c in report["candidates"]:
        if c["name"] == name:
            return c.get("kept_by_model")
    return None


def streams_count_row(cands):
    """Paper 000 Table 2 in spirit: among the Streams candidates that ran, the one the model
    predicts fastest against the measured fastest."""
    streams = [c for c in cands if c["variant"] == "Streams" and median_of(c) is not None
               and c.get("predicted_s") is not None]
    if not streams:
        return None
    model = min(streams, key=lambda c: (c["predicted_s"], c["streams"]))
    measured = min(streams, key=lambda c: (median_of(c), c["streams"]))
    optimum = sorted({c["streams"] for c in streams
                      if median_of(c) <= median_of(measured) * (1 + OPTIMUM_SPREAD)})
    return {"model_streams": model["streams"], "model_name": model["name"],
            "model_measured_s": median_of(model),
            "measured_streams": measured["streams"], "measured_name": measured["name"],
            "measured_s": median_of(measured), "measured_optimum_within_1pc": optimum,
            "loss": median_of(model) / median_of(measured),
            "hit": model["streams"] in optimum}


def chunks_row(cands):
    """Issue 22: the fastest pipeline (Streams or Hybrid) with chunks apart from streams against
    the fastest with one chunk per stream, both measured in the same exhaustive run."""
    pipelines = [c for c in cands if c["variant"] in ("Streams", "Hybrid")
                 and median_of(c) is not None]
    apart = [c for c in pipelines if c.get("chunks", 0) not in (0, c["streams"])]
    one_per_stream = [c for c in pipelines if c.get("chunks", 0) in (0, c["streams"])]
    if not apart or not one_per_stream:
        return None
    best_apart = min(apart, key=median_of)
    best_one = min(one_per_stream, key=median_of)
    return {"one_per_stream_name": best_one["name"], "one_per_stream_s": median_of(best_one),
            "apart_name": best_apart["name"], "apart_s": median_of(best_apart),
            "apart_candidates": len(apart),
            "gain": median_of(best_one) / median_of(best_apart)}


def implementation_row(pruned, by_name, fastest, per_variant, lower_bound_reason, noise):
    """Paper 001 §VII in spirit: the implementation the tuner's model predicts best (as the
    pruning sees it, from the pruned run's predictions) against the measured fastest."""
    choice = model_choice(pruned["candidates"], bool(lower_bound_reason))
    if choice is None:
        return None
    measured_choice = by_name.get(choice["name"])
    choice_s = median_of(measured_choice) if measured_choice else None
    fastest_s = median_of(fastest)
    variant_best_s = per_variant.get(choice["variant"], {}).get("best_s")
    return {
        "model_name": choice["name"], "model_variant": choice["variant"],
        "model_kept_by_pruning": choice.get("kept_by_model"),
        "smallest_raw_prediction_variant": min(
            (c for c in pruned["candidates"] if c.get("predicted_s") is not None),
            key=lambda c: c["predicted_s"])["variant"],
        "measured_name": fastest["name"], "measured_variant": fastest["variant"],
        "model_choice_measured_s": choice_s,
        "loss": choice_s / fastest_s if choice_s else None,
        "hit": choice["variant"] == fastest["variant"],
        # The model's variant at its best stream count ties the fastest within the tuner's noise.
        "hit_within_noise": variant_best_s is not None
        and variant_best_s <= fastest_s * (1 + noise)}


def error_summary(rows):
    """Model error per variant over every measured candidate of the exhaustive runs; Mapped
    predictions that the tuner treats as lower bounds are a group of their own."""
    groups = {}
    for r in rows:
        for c in r.get("candidates", []):
            if c["error"] is None or c["variant"] == "Explicit":
                continue
            key = c["variant"] + (" (lower bound)" if c["lower_bound"] else "")
            groups.setdefault(key, []).append(c["error"])
    return {k: {"count": len(es), "median_abs": statistics.median(abs(e) for e in es),
                "max_abs": max(abs(e) for e in es),
                "median_signed": statistics.median(es)}
            for k, es in sorted(groups.items())}


def headline(done, errors):
    """The numbers issue 6 asks for at the top, with its targets."""
    def count(pred):
        return sum(1 for r in done if pred(r))
    with_limit = [r for r in done if "pick_vs_limit" in r]
    impl = [r["implementation"] for r in done if r.get("implementation")]
    streams = [r["streams_count"] for r in done if r.get("streams_count")]
    return {
        "applications": len(done),
        "speedup_over_explicit": {r["app"]: r["speedup_pick"] for r in done},
        "pick_within_exhaustive_target": count(
            lambda r: r["pick_vs_exhaustive"] is not None
            and r["pick_vs_exhaustive"] <= TARGET_PICK_VS_EXHAUSTIVE),
        "pick_within_limit_target": sum(
            1 for r in with_limit if r["pick_vs_limit"] <= TARGET_PICK_VS_LIMIT),
        "applications_with_limit": len(with_limit),
        # The misses of the limit that the kernel's shape explains: the pick is within the
        # target of the copy-in bound although not of the limit.
        "limit_misses_within_copy_in_bound": sum(
            1 for r in with_limit if r["pick_vs_limit"] > TARGET_PICK_VS_LIMIT
            and r.get("pick_vs_copy_in_bound") is not None
            and r["pick_vs_copy_in_bound"] <= TARGET_PICK_VS_LIMIT),
        "run_fraction_within_target": count(lambda r: r["run_fraction"] <= TARGET_RUN_FRACTION),
        "wall_fraction_within_target": count(
            lambda r: r["wall_fraction"] is not None
            and r["wall_fraction"] <= TARGET_WALL_FRACTION),
        "exhaustive_runs_agreeing": count(
            lambda r: r.get("exhaustive_agreement", {}).get("agree", False)),
        "exhaustive_runs_compared": count(lambda r: "exhaustive_agreement" in r),
        "model_error_within_target": {
            k: e["median_abs"] <= TARGET_MODEL_MEDIAN and e["max_abs"] <= TARGET_MODEL_MAX
            for k, e in errors.items()},
        "implementation_hits": sum(1 for i in impl if i["hit"]),
        "implementation_hits_within_noise": sum(1 for i in impl if i["hit_within_noise"]),
        "implementation_rows": len(impl),
        "stream_count_hits": sum(1 for s in streams if s["hit"]),
        "stream_count_rows": len(streams),
    }


def ms(x):
    return "-" if x is None else "%.3f" % (x * 1e3)


def ratio(x):
    return "-" if x is None else "%.3f" % x


def pct(x):
    return "-" if x is None else "%+.1f %%" % (100 * x)


def mark(ok):
    return "" if ok else " ✗"


def render_markdown(summary):
    rows, errors, head = summary["rows"], summary["model_error_per_variant"], summary["headline"]
    done = [r for r in rows if "missing" not in r]
    md = []
    device = done[0]["device"] if done else "?"
    md.append("# Benchmark: %s on %s\n" % (summary.get("title", "the papers' applications"), device))
    md.append("Written by `bench/summarize.py` from the tuner's raw reports in `%s`. Command: `%s`. "
              "Profile: %s. Times are medians of whole calls (transfers included), pinned host "
              "memory. Pick: the pruned tuning's winner; exhaustive: every candidate run.\n"
              % (summary["raw_dir"], summary["command"], done[0]["profile"] if done else "?"))

    md.append("## At a glance (issue 6's targets)\n")
    speedups = ", ".join("%s %s×" % (app, ratio(s))
                         for app, s in head["speedup_over_explicit"].items())
    md.append("- Speed-up of the pick over Explicit: %s." % speedups)
    md.append("- Pick within %.2f× of the exhaustive best: %d of %d applications." % (
        TARGET_PICK_VS_EXHAUSTIVE, head["pick_within_exhaustive_target"], len(done)))
    md.append("- Pick within %.2f× of the physical limit: %d of %d (of the misses, %d are within "
              "%.2f× of the copy-in bound: kernels that chunking cannot shorten; see the limit's "
              "table)." % (
                  TARGET_PICK_VS_LIMIT, head["pick_within_limit_target"],
                  head["applications_with_limit"], head["limit_misses_within_copy_in_bound"],
                  TARGET_PICK_VS_LIMIT))
    md.append("- At most %d %% of the candidates run: %d of %d." % (
        100 * TARGET_RUN_FRACTION, head["run_fraction_within_target"], len(done)))
    md.append("- Pruned tuning's wall time at most %d %% of the exhaustive one's: %d of %d." % (
        100 * TARGET_WALL_FRACTION, head["wall_fraction_within_target"], len(done)))
    if head["exhaustive_runs_compared"]:
        md.append("- Two exhaustive tunings agree (the same winner, or each within its run's "
                  "noise of the other's): %d of %d." % (head["exhaustive_runs_agreeing"],
                                                        head["exhaustive_runs_compared"]))
    md.append("- Model error (median / max |error| per variant; targets %d %% / %d %%): %s." % (
        100 * TARGET_MODEL_MEDIAN, 100 * TARGET_MODEL_MAX, "; ".join(
            "%s %.1f %% / %.1f %%%s" % (k, 100 * e["median_abs"], 100 * e["max_abs"],
                                        mark(head["model_error_within_target"][k]))
            for k, e in errors.items())))
    md.append("- Classification (paper 001 §VII in spirit): the model's best implementation is "
              "the measured fastest on %d of %d applications (%d of %d counting ties within the "
              "tuner's noise)." % (head["implementation_hits"], head["implementation_rows"],
                                   head["implementation_hits_within_noise"],
                                   head["implementation_rows"]))
    md.append("- Stream count (paper 000 Table 2 in spirit): the model's best Streams count is "
              "among the measured optima (within 1 %%) on %d of %d applications.\n"
              % (head["stream_count_hits"], head["stream_count_rows"]))

    md.append("## Summary\n")
    md.append("| app | Explicit [ms] | pick | pick [ms] | speed-up | pick/exhaustive best | "
              "pick/limit | run/total | wall pruned/exh. [s] |")
    md.append("| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for r in rows:
        if "missing" in r:
            md.append("| %s | %s |  |  |  |  |  |  |  |" % (r["app"], r["missing"]))
            continue
        md.append("| %s | %s | %s | %s | %s | %s%s | %s%s | %d/%d%s | %.1f/%.1f%s |" % (
            r["app"], ms(r["explicit_s"]), r["pick_name"], ms(r["pick_s"]),
            ratio(r["speedup_pick"]), ratio(r["pick_vs_exhaustive"]),
            mark(r["pick_vs_exhaustive"] is not None
                 and r["pick_vs_exhaustive"] <= TARGET_PICK_VS_EXHAUSTIVE),
            ratio(r.get("pick_vs_limit")),
            mark(r.get("pick_vs_limit") is not None
                 and r["pick_vs_limit"] <= TARGET_PICK_VS_LIMIT),
            r["candidates_run"], r["candidates_total"],
            mark(r["run_fraction"] <= TARGET_RUN_FRACTION),
            r["pruned_wall_s"], r["exhaustive_wall_s"],
            mark(r["wall_fraction"] is not None and r["wall_fraction"] <= TARGET_WALL_FRACTION)))
    md.append("\n✗: misses its target. Speed-up: the pruned run's Explicit over its pick. "
              "pick/exhaustive best: the exhaustive run's median of the pick over that run's "
              "fastest median (same run, so the two runs' noise does not enter). pick/limit: the "
              "pruned run's pick over the physical limit below.\n")

    compared = [r for r in done if "exhaustive_agreement" in r]
    if compared:
        md.append("## Two exhaustive tunings of each call\n")
        md.append("| app | winner | winner again | again's winner in the first run (noise) | "
                  "first's winner in the second run (noise) | agree |")
        md.append("| --- | --- | --- | ---: | ---: | --- |")
        for r in compared:
            a = r["exhaustive_agreement"]
            md.append("| %s | %s | %s | %s (%s) | %s (%s) | %s |" % (
                r["app"], a["winner"], a["winner_again"], ratio(a["again_winner_in_first"]),
                pct(a["first_noise"]), ratio(a["first_winner_in_again"]), pct(a["again_noise"]),
                "yes" if a["agree"] else "no ✗"))
        md.append("\nThe ratios: the other run's winner over this run's, both medians of this run; "
                  "they agree when the winners are the same or both ratios are within their run's "
                  "noise: the tuner's noise setting or either median's spread (IQR / median), "
                  "whichever is larger.\n")

    md.append("## The physical limit\n")
    md.append("| app | h2d [MB] | d2h [MB] | h2d copy [ms] | kernel [ms] | d2h copy [ms] | sync [ms] "
              "| limit [ms] | one-way-G limit [ms] | bidir./one-way | fastest/limit | pick/limit "
              "| pick/one-way limit | copy-in bound [ms] | pick/copy-in bound |")
    md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
              "| ---: | ---: | ---: |")
    for r in done:
        lim = r.get("limit")
        if not lim:
            md.append("| %s | no profile or traffic for this kernel |  |  |  |  |  |  |  |  |  |"
                      "  |  |  |  |" % r["app"])
            continue
        bi = lim["bidirectional"]
        inferred = "" if r["kernel_source"].startswith("Explicit's measured median") else " †"
        bound = lim.get("copy_in_bound_s")
        md.append("| %s | %.1f | %.1f | %s | %s%s | %s | %s | %s | %s | %s | %s | %s | %s | %s "
                  "| %s |" % (
                      r["app"], lim["h2d_bytes"] / 1e6, lim["d2h_bytes"] / 1e6, ms(bi["h2d_s"]),
                      ms(lim["kernel_s"]), inferred, ms(bi["d2h_s"]), ms(lim["sync_s"]),
                      ms(lim["limit_s"]), ms(lim["one_way_limit_s"]),
                      ratio(lim["limit_s"] / lim["one_way_limit_s"]),
                      ratio(r["fastest_vs_limit"]), ratio(r["pick_vs_limit"]),
                      ratio(r["pick_vs_one_way_limit"]), ms(bound) if bound else "-",
                      ratio(r.get("pick_vs_copy_in_bound"))))
    md.append("\nLimit = max(h2d copy, kernel, d2h copy) + sync: what no variant can beat. A copy is "
              "L+o once (one call per direction at least) plus its bytes at G, the bytes being "
              "those the annotation says must cross, each once (`KERNELS` in bench/summarize.py); "
              "when both directions move data, G is the profile's bidirectional G of that "
              "direction (the link carries both at once in an overlapped call), else the one-way "
              "G. Kernel: t_E (inferred by the tuner from Explicit's measurement less the model's "
              "transfers; †: the tuner's 1 %-of-the-call fallback, so the kernel part is only a "
              "guess) plus one kernel launch (kernel_launch_s). Sync: one stream synchronize "
              "(stream_sync_s), after everything. The one-way-G limit is the same with the "
              "one-way G: the optimistic bound, for how much the bidirectional assumption "
              "matters. Mapped reads and writes cross the same link, so they are bounded alike. "
              "Copy-in bound: what Explicit, Streams and Hybrid cannot beat: every input byte at "
              "the one-way G, then the kernel of the smallest chunk (one partition element, one "
              "block; at least one wave of one block per multiprocessor), a launch and a "
              "synchronize. Where the whole kernel fits in one wave (the histograms: a block per "
              "frame, 32 or 64 frames on 132 multiprocessors), a chunk's kernel takes as long as "
              "the whole, so no pipeline hides it and the pick's ratio to the limit above is not "
              "reachable; -: the kernel's grid does not follow the chunk (bench/summarize.py, "
              "`KERNELS`). Not applied to a Mapped pick, which reads while it computes.\n")

    md.append("## Chunks apart from streams (exhaustive)\n")
    md.append("| app | best, one chunk per stream | [ms] | best, chunks apart | [ms] | gain | "
              "candidates with chunks apart |")
    md.append("| --- | --- | ---: | --- | ---: | ---: | ---: |")
    for r in done:
        ch = r.get("chunks")
        if not ch:
            md.append("| %s | no candidate with chunks apart (chunks under 1 MiB) |  |  |  |  |"
                      "  |" % r["app"])
            continue
        md.append("| %s | %s | %s | %s | %s | %s | %d |" % (
            r["app"], ch["one_per_stream_name"], ms(ch["one_per_stream_s"]), ch["apart_name"],
            ms(ch["apart_s"]), ratio(ch["gain"]), ch["apart_candidates"]))
    md.append("\nGain: the best pipeline with one chunk per stream over the best with more chunks "
              "than streams (> 1: more chunks win), both Streams or Hybrid medians of the same "
              "exhaustive run. The tuner offers 2, 4 and 8 chunks per stream where each chunk "
              "keeps at least 1 MiB.\n")

    md.append("## Best measured per variant (exhaustive)\n")
    md.append("| app | Explicit | Mapped | Streams (count) | Hybrid (count) | fastest | "
              "tuner's exhaustive winner |")
    md.append("| --- | ---: | ---: | ---: | ---: | --- | --- |")
    for r in done:
        pv = r["per_variant"]

        def cell(v, with_streams=False):
            if v not in pv:
                return "-"
            return ms(pv[v]["best_s"]) + (" (%d)" % pv[v]["streams"] if with_streams else "")
        md.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            r["app"], cell("Explicit"), cell("Mapped"), cell("Streams", True),
            cell("Hybrid", True), r["fastest_name"], r["exhaustive_winner_name"]))
    md.append("\nTimes in ms. The tuner's winner is the simplest candidate within its noise of the "
              "fastest, so it may differ from the fastest.\n")

    md.append("## Paper 000 Table 2 in spirit: the model's best stream count against the "
              "measured\n")
    md.append("| app | model's count | measured optimum (within 1 %) | measured at the model's "
              "count [ms] | measured best [ms] | loss | paper 000 closed form |")
    md.append("| --- | ---: | --- | ---: | ---: | ---: | --- |")
    for r in done:
        s = r.get("streams_count")
        if not s:
            md.append("| %s | no Streams candidate measured |  |  |  |  |  |" % r["app"])
            continue
        paper000 = s.get("paper000")
        md.append("| %s | %d | %s | %s | %s | %s%s | %s |" % (
            r["app"], s["model_streams"], "–".join(str(n) for n in (
                [s["measured_optimum_within_1pc"][0], s["measured_optimum_within_1pc"][-1]]
                if len(s["measured_optimum_within_1pc"]) > 1
                else s["measured_optimum_within_1pc"])) +
            (" (%s)" % ", ".join(map(str, s["measured_optimum_within_1pc"]))
             if len(s["measured_optimum_within_1pc"]) > 2 else ""),
            ms(s["model_measured_s"]), ms(s["measured_s"]), ratio(s["loss"]),
            "" if s["hit"] else " ✗",
            "%.1f" % paper000["streams"] if paper000 else "not in the report"))
    md.append("\nAmong the Streams candidates (every count and issue order the tuner enumerates) "
              "of the exhaustive run: the count the model (the tuner's pipeline simulation) "
              "predicts fastest, and the counts measured within 1 % of the fastest (paper 000 "
              "lists both ends when they differ by less than 1 %). Loss: the measured time at the "
              "model's count over the best measured. ✗: the model's count is not a measured "
              "optimum. Paper 000 closed form: the paper's own optimum (eqs. 2/4 without implicit "
              "synchronization: min(T/(T − t_E), √(T/t_sc)) for transfers T = h2d + d2h > t_E, "
              "else √(T/t_sc)), as `overlap-model` computes it on the profile and the traffic "
              "table (`--model-cli`; \"not in the report\" without it: the tuning report, schema 1, "
              "does not hold it). Where T ≫ t_E, eq. 2 gives about 1.\n")

    md.append("## Paper 001 §VII in spirit: the implementation the model predicts best against "
              "the measured best\n")
    md.append("| app | model's best | measured fastest | hit | hit within noise | loss | "
              "Mapped prediction | smallest raw prediction |")
    md.append("| --- | --- | --- | --- | --- | ---: | --- | --- |")
    for r in done:
        i = r.get("implementation")
        if not i:
            continue
        md.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["app"], i["model_name"], i["measured_name"], "yes" if i["hit"] else "no",
            "yes" if i["hit_within_noise"] else "no", ratio(i["loss"]),
            "lower bound (%s)" % r["mapped_lower_bound"] if r["mapped_lower_bound"] else "used",
            i["smallest_raw_prediction_variant"]))
    md.append("\nModel's best: the candidate with the smallest prediction in the pruned run, as the "
              "tuner's pruning takes it: a Mapped prediction that is only a lower bound (arrays "
              "with elements under %d bytes, or broadcast inputs whose re-reads are unknown) is "
              "skipped (tuner/model/Workload.h `mapped_prediction_is_lower_bound`; the report has "
              "no field for it, so the summary applies the same rule to the element sizes and "
              "broadcast inputs of the annotations). Hit: same variant as the measured fastest; "
              "within noise: the model's variant, at its best measured stream count, is within "
              "the tuner's noise of the fastest. Loss: measured time of the model's candidate over "
              "the fastest. Smallest raw prediction: what a reader of the raw predictions would "
              "pick (the old summary's column).\n" % MAPPED_FULL_LINE_ELEMENT_BYTES)

    md.append("## Model error per variant (every candidate of the exhaustive runs)\n")
    md.append("| variant | candidates | median abs | max abs | median signed |")
    md.append("| --- | ---: | ---: | ---: | ---: |")
    for k, e in errors.items():
        md.append("| %s | %d | %.1f %% | %.1f %% | %+.1f %% |" % (
            k, e["count"], 100 * e["median_abs"], 100 * e["max_abs"], 100 * e["median_signed"]))
    md.append("\nError: (predicted − measured) / measured; negative: the model is optimistic. "
              "Explicit is left out: its t_E is inferred from its own measurement. Lower-bound "
              "Mapped predictions are a group of their own: the tuner knows they are not "
              "estimates.\n")

    md.append("## Appendix: every candidate\n")
    for r in done:
        md.append("### %s (%s)\n" % (r["app"], ", ".join(
            "%s=%s" % kv for kv in sorted(r["arguments"].items()))))
        check = r.get("traffic_check")
        if check:
            md.append("Traffic check: the model's Explicit transfers %s ms, the traffic table's "
                      "bytes at the one-way G %s ms (the difference is L+o, copy gaps and the "
                      "launch%s).\n" % (
                          ms(check["model_explicit_transfers_s"]),
                          ms(check["bytes_at_one_way_g_s"]),
                          "; buoydiff's Explicit also sends the surface plane twice"
                          if r["kernel"] == "buoydiff" else ""))
        md.append("| candidate | predicted [ms] | measured [ms] | error | kept by pruning |")
        md.append("| --- | ---: | ---: | ---: | --- |")
        for c in r["candidates"]:
            md.append("| %s%s | %s | %s | %s | %s |" % (
                c["name"], " (lower bound)" if c["lower_bound"] else "", ms(c["predicted_s"]),
                ms(c["measured_s"]), pct(c["error"]),
                "yes" if c["kept_by_model"] else "no"))
        md.append("")
    return "\n".join(md) + "\n"


def summarize(raw, apps=None, profile_file=None, command="", model_cli=None):
    apps = apps or find_apps(raw)
    rows = []
    profiles = {}
    for app in apps:
        pruned, exhaustive = load_report(raw, app, "pruned"), load_report(raw, app, "exhaustive")
        profile, path = None, None
        if exhaustive:
            path = profile_file or resolve_profile_path(exhaustive["profile"]["origin"])
            if path:
                if path not in profiles:
                    with open(path) as f:
                        profiles[path] = json.load(f)
                profile = profiles[path]
        kernel_info = KERNELS.get(exhaustive["kernel"]["name"]) if exhaustive else None
        estimate = None
        if model_cli and path:
            def estimate(h2d, d2h, kernel_s, path=path):
                return paper000_estimate(model_cli, path, h2d, d2h, kernel_s)
        rows.append(summarize_app(app, pruned, exhaustive, profile, kernel_info, estimate,
                                  load_report(raw, app, "exhaustive-again")))
    done = [r for r in rows if "missing" not in r]
    errors = error_summary(done)
    return {"schema": "overlap-bench-summary", "schema_version": 2, "raw_dir": raw,
            "command": command, "rows": rows, "model_error_per_variant": errors,
            "headline": headline(done, errors)}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("raw_dir")
    parser.add_argument("prefix")
    parser.add_argument("--apps", help="comma-separated application folders, in table order "
                        "(default: every folder of RAW_DIR with reports, sorted)")
    parser.add_argument("--profile", help="hardware profile JSON (default: each report's origin)")
    parser.add_argument("--command", help="the command to record (default: this one)")
    parser.add_argument("--model-cli", help="overlap-model executable, for paper 000's "
                        "closed-form stream count (the reports lack it)")
    parser.add_argument("--title", default="the papers' applications",
                        help="what was benchmarked, for the heading")
    args = parser.parse_args(argv)
    command = args.command or " ".join(["bench/summarize.py"] + argv)
    summary = summarize(args.raw_dir, args.apps.split(",") if args.apps else None, args.profile,
                        command, args.model_cli)
    summary["title"] = args.title
    with open(args.prefix + ".json", "w") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    with open(args.prefix + ".md", "w") as f:
        f.write(render_markdown(summary))
    done = sum(1 for r in summary["rows"] if "missing" not in r)
    print("wrote %s.md and %s.json (%d of %d applications complete)"
          % (args.prefix, args.prefix, done, len(summary["rows"])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
