#!/usr/bin/env python3
"""What a traced program's GPU did, run by run: bench/trace/CuptiTrace.cpp's CSV in, tables out.

  python3 bench/trace/timeline.py TRACE.csv                  # one row per kind of run
  python3 bench/trace/timeline.py TRACE.csv --detail "Streams 6 depth"   # + that run's operations

A run is what the tuner times once (tuner/tune/DescriptorRunner.cpp: the variant, then
cudaDeviceSynchronize), so runs end at each cudaDeviceSynchronize; a trace without runtime
calls (OVERLAP_TRACE_API=0) is cut where the GPU idles longer than --gap-us instead. A run is
named by what it did, not by the tuner's candidate name, which the trace does not hold:
Mapped (no copies), Hybrid (copies in only), Explicit (copies, one kernel, one stream) or
Streams, with its stream count, and for several streams the issue order: depth (a chunk's copy
in, kernel and copy out before the next chunk's) or breadth (all copies in before any kernel).
"""
import argparse
import csv
import statistics
import sys
from collections import defaultdict

SYNC_CALLS = ("cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize")


def call_name(name):
    """cudaMemcpyAsync_v3020 -> cudaMemcpyAsync."""
    base, _, version = name.rpartition("_v")
    return base if base and version.isdigit() else name


def read_trace(path):
    rows = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            rows.append({
                "what": row["what"],
                "start": int(row["start_ns"]),
                "end": int(row["end_ns"]),
                "stream": int(row["stream"]),
                "correlation": int(row["correlation"]),
                "bytes": int(row["bytes"]),
                "name": call_name(row["name"]) if row["what"] == "api" else row["name"],
            })
    rows.sort(key=lambda r: (r["start"], r["end"]))
    return rows


def split_runs(rows, gap_ns):
    calls = [r for r in rows if r["what"] == "api"]
    work = [r for r in rows if r["what"] != "api"]
    if calls:
        runs, current = [], []
        for call in calls:
            current.append(call)
            if call["name"] == "cudaDeviceSynchronize":
                runs.append({"calls": current, "work": []})
                current = []
        run_of = {c["correlation"]: i for i, run in enumerate(runs) for c in run["calls"]}
        for op in work:
            if op["correlation"] in run_of:
                runs[run_of[op["correlation"]]]["work"].append(op)
        return [run for run in runs if run["work"]]
    runs, last_end = [], None
    for op in work:
        if last_end is None or op["start"] - last_end > gap_ns:
            runs.append({"calls": [], "work": []})
            last_end = op["end"]
        runs[-1]["work"].append(op)
        last_end = max(last_end, op["end"])
    return runs


def busy_ns(intervals):
    """Time covered by the union of (start, end) intervals."""
    total, covered_to = 0, None
    for start, end in sorted(intervals):
        if covered_to is None or start > covered_to:
            total += end - start
            covered_to = end
        elif end > covered_to:
            total += end - covered_to
            covered_to = end
    return total


def describe(run):
    work = run["work"]
    copies_in = [op for op in work if op["what"] == "copy" and op["name"] == "HtoD"]
    copies_out = [op for op in work if op["what"] == "copy" and op["name"] == "DtoH"]
    kernels = [op for op in work if op["what"] == "kernel"]
    streams = len({op["stream"] for op in work})
    if not copies_in and not copies_out:
        variant = "Mapped"
    elif not copies_out:
        variant = "Hybrid"
    elif len(kernels) == 1 and streams == 1:
        variant = "Explicit"
    else:
        variant = "Streams"
    order = ""
    if streams > 1 and kernels and copies_in:
        # Correlation ids number the calls in issue order.
        order = "depth" if min(k["correlation"] for k in kernels) < max(
            c["correlation"] for c in copies_in) else "breadth"
    gpu_start = min(op["start"] for op in work)
    gpu_end = max(op["end"] for op in work)
    calls = run["calls"]
    first_call = calls[0]["start"] if calls else gpu_start
    issuing = [c for c in calls if c["name"] not in SYNC_CALLS]
    return {
        "signature": " ".join(filter(None, [variant, str(streams), order])),
        "kernels": len(kernels),
        "wall": (calls[-1]["end"] if calls else gpu_end) - first_call,
        "gpu": gpu_end - gpu_start,
        "first_op": gpu_start - first_call,
        "issue": (max(c["end"] for c in issuing) - first_call) if issuing else 0,
        "in_busy": busy_ns([(op["start"], op["end"]) for op in copies_in]),
        "out_busy": busy_ns([(op["start"], op["end"]) for op in copies_out]),
        "kernel_busy": busy_ns([(op["start"], op["end"]) for op in kernels]),
        "first_call": first_call,
    }


COLUMNS = [("wall", "wall"), ("gpu", "GPU span"), ("first_op", "to 1st op"),
           ("issue", "host issue"), ("in_busy", "in busy"), ("kernel_busy", "kernels busy"),
           ("out_busy", "out busy")]


def summary_table(described):
    groups = defaultdict(list)
    for d in described:
        groups[(d["signature"], d["kernels"])].append(d)
    lines = ["| run | kernels | runs | " + " | ".join(title + " (us)" for _, title in COLUMNS) + " |",
             "|---|---:|---:|" + "---:|" * len(COLUMNS)]
    for (signature, kernels), group in sorted(groups.items(), key=lambda g: sort_key(g[0][0])):
        medians = [statistics.median(d[key] for d in group) / 1e3 for key, _ in COLUMNS]
        lines.append(f"| {signature} | {kernels} | {len(group)} | " +
                     " | ".join(f"{m:.1f}" for m in medians) + " |")
    return "\n".join(lines)


def sort_key(signature):
    parts = signature.split()
    return (parts[0], int(parts[1]), parts[2] if len(parts) > 2 else "")


def detail_table(run, described):
    """Every operation of one run: when it started and ended after the run's first call, and how
    long its engine (copies in, kernels, copies out) had been idle before it."""
    t0 = described["first_call"]
    lines = ["| op | stream | bytes | start (us) | end (us) | took (us) | engine idle before (us) |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    engine_free = {}
    for op in sorted(run["work"], key=lambda o: o["start"]):
        engine = op["name"] if op["what"] == "copy" else "kernel"
        idle = (op["start"] - engine_free[engine]) / 1e3 if engine in engine_free else None
        engine_free[engine] = max(engine_free.get(engine, 0), op["end"])
        label = op["name"] if op["what"] == "copy" else "kernel"
        lines.append(f"| {label} | {op['stream']} | {op['bytes']} | {(op['start'] - t0) / 1e3:.1f} | "
                     f"{(op['end'] - t0) / 1e3:.1f} | {(op['end'] - op['start']) / 1e3:.1f} | " +
                     ("" if idle is None else f"{idle:.1f}") + " |")
    return "\n".join(lines)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace")
    parser.add_argument("--detail", action="append", default=[],
                        help='a run kind as the summary names it, e.g. "Streams 6 depth"; '
                        "prints its median run's operations")
    parser.add_argument("--gap-us", type=float, default=50.0,
                        help="without runtime calls, an idle GPU this long starts a new run")
    args = parser.parse_args(argv)
    runs = split_runs(read_trace(args.trace), args.gap_us * 1e3)
    if not runs:
        print(f"{args.trace}: no GPU work in the trace", file=sys.stderr)
        return 1
    described = [describe(run) for run in runs]
    print(summary_table(described))
    for wanted in args.detail:
        matching = sorted((d["wall"], i) for i, d in enumerate(described)
                          if d["signature"] == wanted)
        if not matching:
            print(f"\nno run is {wanted!r}", file=sys.stderr)
            continue
        _, median_index = matching[len(matching) // 2]
        print(f"\n### {wanted}: its median run ({described[median_index]['wall'] / 1e3:.1f} us of "
              f"{len(matching)} runs)\n")
        print(detail_table(runs[median_index], described[median_index]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
