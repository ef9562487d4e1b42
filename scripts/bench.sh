#!/usr/bin/env bash
# The papers' applications as a benchmark (issue 6, bench/README.md).
#
#   scripts/pregenerate.sh .gpu-carry/generated   # here (Clang), before the device call
#   OUT=... scripts/bench.sh run                  # on the GPU machine: build, test, tune, summarize
#   scripts/bench.sh summarize RAW_DIR PREFIX     # anywhere: RAW_DIR's reports -> PREFIX.{md,json}
#
# `run` builds the benchmark's tuner, checks every variant of every application against its CPU
# reference (bench_apps_gpu_tests), then tunes each application and size twice, pruned and
# --exhaustive, with the profile of this GPU. Everything comes back as $OUT/bench.tar.gz (the raw
# reports) with the summary beside it when python3 is there.
set -uo pipefail
cd "$(dirname "$0")/.."

# app | kernel | --arg list (space separated NAME=VALUE)
APPS=(
  "scalar-add-1|scalar_add|n=33554432 iterations=1"
  "scalar-add-256|scalar_add|n=33554432 iterations=256"
  "scalar-add-4096|scalar_add|n=33554432 iterations=4096"
  "histogram-176x144|frame_histogram|frames=64 pixels=25344"
  "histogram-352x288|frame_histogram|frames=64 pixels=101376"
  "histogram-704x576|frame_histogram|frames=64 pixels=405504"
  "gray-histogram-176x144|gray_histogram|frames=32 pixels=25344"
  "gray-histogram-352x288|gray_histogram|frames=32 pixels=101376"
  "gray-histogram-704x576|gray_histogram|frames=32 pixels=405504"
  "pop-state|pop_state|levels=42 plane=1048576"
  "pop-buoydiff|buoydiff|levels=42 plane=1048576"
  "sepia-8k|sepia|pixels=33554432"
  "saxpy-64M|saxpy|n=67108864"
  "matmul-4096|matmul|m=4096 n=1024 k=1024"
)

run_benchmark() {
  local final_out=${OUT:-$PWD/out}
  mkdir -p "$final_out"
  local raw
  raw=$(mktemp -d)/bench
  mkdir -p "$raw"
  local build=build-bench
  nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv \
    >"$raw/device.txt" 2>&1
  cat "$raw/device.txt"
  echo "== build"
  cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DOVERLAP_PREGENERATED_DIR="$PWD/.gpu-carry/generated" >"$raw/configure.log" 2>&1 &&
    cmake --build $build -j "$(nproc)" --target bench_apps_gpu_tests bench_apps_gpu_tests_tune \
      >"$raw/build.log" 2>&1 || {
    tail -40 "$raw/configure.log" "$raw/build.log"
    tar -czf "$final_out/bench.tar.gz" -C "$(dirname "$raw")" bench
    return 1
  }
  echo "== every variant of every application against its CPU reference"
  $build/bench/bench_apps_gpu_tests --gtest_brief=1 >"$raw/apps-test.log" 2>&1
  echo "bench_apps_gpu_tests: rc $?" | tee -a "$raw/summary.txt"
  tail -3 "$raw/apps-test.log"

  # The profile of this GPU: the shipped H100 profile, or the H200's measured one; otherwise the
  # tuner's own choice (its report says which).
  local gpu profile=()
  gpu=$(sed -n 2p "$raw/device.txt")
  case "$gpu" in
  *H100*) profile=(--profile runtime/profile/builtin/h100-pcie5.json) ;;
  *H200*) profile=(--profile bench/results/h200-2026-11-21-final/profile.json) ;;
  esac
  echo "profile: ${profile[*]:-the tuner chooses}" | tee -a "$raw/summary.txt"
  local entry name kernel args mode
  for entry in "${APPS[@]}"; do
    IFS='|' read -r name kernel args <<<"$entry"
    local arg_flags=()
    for a in $args; do arg_flags+=(--arg "$a"); done
    for mode in pruned exhaustive; do
      local extra=()
      [ $mode = exhaustive ] && extra=(--exhaustive)
      local start=$SECONDS rc
      mkdir -p "$raw/$name"
      $build/bench/bench_apps_gpu_tests_tune --kernel "$kernel" "${arg_flags[@]}" "${profile[@]}" \
        --no-cache --quiet "${extra[@]}" --output-dir "$raw/$name/$mode" >"$raw/$name/$mode.log" 2>&1
      rc=$?
      echo "$name $mode: rc $rc, $((SECONDS - start)) s" | tee -a "$raw/summary.txt"
    done
    # Packed after every application: a run cut short by the time limit still brings back its part.
    tar -czf "$final_out/bench.tar.gz" -C "$(dirname "$raw")" bench
  done
  if command -v python3 >/dev/null; then
    summarize "$raw" "$raw/summary" && cp "$raw/summary.md" "$raw/summary.json" "$final_out/"
  fi
  cp "$raw/summary.txt" "$final_out/"
  tar -czf "$final_out/bench.tar.gz" -C "$(dirname "$raw")" bench
}

# RAW_DIR/<app>/{pruned,exhaustive}/<kernel>.tuning.json -> PREFIX.md and PREFIX.json.
summarize() {
  local app_lines
  app_lines=$(printf '%s\n' "${APPS[@]}")
  BENCH_APPS=$app_lines python3 - "$1" "$2" <<'PYTHON'
import glob, json, os, statistics, sys

raw, prefix, app_lines = sys.argv[1], sys.argv[2], os.environ["BENCH_APPS"].splitlines()

def load(app, mode):
    found = glob.glob(os.path.join(raw, app, mode, "*.tuning.json"))
    return json.load(open(found[0])) if found else None

# Bytes each application moves host->device and device->host, from its arguments: the physical
# limit needs them and the reports do not hold them.
def traffic(kernel, a):
    if kernel == "scalar_add": return 4 * a["n"], 4 * a["n"]
    if kernel == "frame_histogram": return a["frames"] * a["pixels"], a["frames"] * 1024
    if kernel == "gray_histogram":
        return 3 * a["frames"] * a["pixels"], a["frames"] * a["pixels"] + a["frames"] * 1024
    if kernel == "pop_state": return 8 * a["levels"] * a["plane"], 4 * a["levels"] * a["plane"]
    if kernel == "buoydiff": return 4 * a["levels"] * a["plane"], 4 * a["levels"] * a["plane"]
    if kernel == "sepia": return 3 * a["pixels"], 3 * a["pixels"]
    if kernel == "saxpy": return 8 * a["n"], 4 * a["n"]
    if kernel == "matmul": return 4 * (a["m"] * a["k"] + a["k"] * a["n"]), 4 * a["m"] * a["n"]
    return None

def profile_link(report):
    origin = report["profile"]["origin"]
    path = origin if os.path.isfile(origin) else None
    if path is None and origin.startswith("<built-in "):
        path = "runtime/profile/builtin/%s.json" % origin[len("<built-in "):-1]
    if path is None or not os.path.isfile(path):
        return None
    return json.load(open(path))["link"]

def transfer(link, bytes_):
    g = link["bidirectional_seconds_per_byte"] or link["seconds_per_byte"]
    return link["latency_s"] + bytes_ * g

def timed(c):
    return c["timing"]["median_s"] if c.get("timing") else None

rows, errors = [], {}
for line in app_lines:
    app, kernel, _ = line.split("|")
    pruned, exhaustive = load(app, "pruned"), load(app, "exhaustive")
    row = {"app": app, "kernel": kernel}
    rows.append(row)
    if not pruned or not exhaustive or pruned.get("winner") is None or exhaustive.get("winner") is None:
        row["missing"] = "no complete pruned and exhaustive reports"
        continue
    cands = exhaustive["candidates"]
    by_name = {c["name"]: c for c in cands}
    explicit = timed(cands[0]) if cands[0]["variant"] == "Explicit" else None
    best = cands[exhaustive["winner"]]
    pick_name = pruned["winner_name"]
    pick_pruned = timed(pruned["candidates"][pruned["winner"]])
    pick_in_exh = timed(by_name[pick_name]) if pick_name in by_name else None
    fastest = min((timed(c) for c in cands if timed(c)), default=None)
    row.update(device=exhaustive["device"], profile=exhaustive["profile"]["name"],
               arguments=exhaustive["arguments"], explicit_s=explicit,
               best_name=best["name"], best_s=timed(best), fastest_s=fastest,
               pick_name=pick_name, pick_s=pick_pruned, pick_in_exhaustive_s=pick_in_exh,
               candidates_run=pruned["candidates_run"], candidates_total=pruned["candidates_total"],
               pruned_wall_s=pruned["wall_s"], exhaustive_wall_s=exhaustive["wall_s"],
               kernel_s=exhaustive["kernel_seconds"]["value_s"],
               kernel_source=exhaustive["kernel_seconds"]["source"])
    row["speedup_pick"] = explicit / pick_pruned if explicit and pick_pruned else None
    row["pick_vs_exhaustive"] = pick_in_exh / fastest if pick_in_exh and fastest else None
    # Best per variant (time and stream count), and the model's error where both exist.
    per_variant = {}
    for c in cands:
        t = timed(c)
        if t is None:
            continue
        v = per_variant.setdefault(c["variant"], {"best_s": t, "name": c["name"], "streams": c["streams"]})
        if t < v["best_s"]:
            v.update(best_s=t, name=c["name"], streams=c["streams"])
        if c["predicted_s"] is not None and c["variant"] != "Explicit":
            errors.setdefault(c["variant"], []).append((c["predicted_s"] - t) / t)
    row["per_variant"] = per_variant
    # Paper 000 Table 2 in spirit: the Streams count the model thinks best vs the measured best.
    streams = [c for c in cands if c["variant"] == "Streams" and timed(c) and c["predicted_s"]]
    if streams:
        row["streams_predicted_best"] = min(streams, key=lambda c: c["predicted_s"])["streams"]
        row["streams_measured_best"] = min(streams, key=timed)["streams"]
    # Paper 001 §VII in spirit: the variant the model predicts fastest vs the measured fastest.
    modelled = [c for c in cands if c["predicted_s"] and timed(c)]
    if modelled:
        row["predicted_best_variant"] = min(modelled, key=lambda c: c["predicted_s"])["variant"]
        row["measured_best_variant"] = min(modelled, key=timed)["variant"]
    link, moved = profile_link(exhaustive), traffic(kernel, exhaustive["arguments"])
    if link and moved:
        h2d = transfer(link["host_to_device"], moved[0])
        d2h = transfer(link["device_to_host"], moved[1])
        row["limit_s"] = max(h2d, row["kernel_s"], d2h)
        row["limit_parts_s"] = {"h2d": h2d, "kernel": row["kernel_s"], "d2h": d2h}
        row["pick_vs_limit"] = pick_pruned / row["limit_s"]

def ms(x): return "-" if x is None else "%.3f" % (x * 1e3)
def ratio(x): return "-" if x is None else "%.3f" % x

summary_errors = {v: {"median_abs": statistics.median(abs(e) for e in es),
                      "max_abs": max(abs(e) for e in es), "count": len(es)}
                  for v, es in errors.items()}
done = [r for r in rows if "missing" not in r]
out = {"schema": "overlap-bench-summary", "schema_version": 1, "rows": rows,
       "model_error_per_variant": summary_errors}
json.dump(out, open(prefix + ".json", "w"), indent=2)

md = []
device = done[0]["device"] if done else "?"
md.append("# Benchmark: the papers' applications on %s\n" % device)
md.append("Profile: %s. Times are medians of whole calls (transfers included), pinned host memory. "
          "Pick: the pruned tuning's winner; exhaustive: every candidate run.\n"
          % (done[0]["profile"] if done else "?"))
md.append("## Summary\n")
md.append("| app | Explicit [ms] | pick | pick [ms] | speed-up | pick/exhaustive best | pick/limit | limit [ms] (h2d, kernel, d2h) | run/total | wall pruned/exh. [s] |")
md.append("| --- | ---: | --- | ---: | ---: | ---: | ---: | --- | ---: | --- |")
for r in rows:
    if "missing" in r:
        md.append("| %s | %s |  |  |  |  |  |  |  |  |" % (r["app"], r["missing"]))
        continue
    parts = r.get("limit_parts_s")
    limit = "%s (%s, %s, %s)" % (ms(r.get("limit_s")), ms(parts["h2d"]), ms(parts["kernel"]), ms(parts["d2h"])) if parts else "-"
    md.append("| %s | %s | %s | %s | %s | %s | %s | %s | %d/%d | %.1f/%.1f |" % (
        r["app"], ms(r["explicit_s"]), r["pick_name"], ms(r["pick_s"]), ratio(r["speedup_pick"]),
        ratio(r["pick_vs_exhaustive"]), ratio(r.get("pick_vs_limit")), limit,
        r["candidates_run"], r["candidates_total"], r["pruned_wall_s"], r["exhaustive_wall_s"]))
md.append("\npick/exhaustive best: the exhaustive run's median of the pruned pick over the exhaustive "
          "run's fastest median (same run, so tuning noise does not enter). Limit: max of the "
          "host->device copy and the device->host copy with the profile's bidirectional G, and t_E "
          "(inferred from Explicit, see the reports). Targets (issue 6): pick <= 1.03x exhaustive, "
          "<= 1.05x limit, <= 30 % of candidates run.\n")
md.append("## Best measured per variant (exhaustive)\n")
md.append("| app | Explicit | Mapped | Streams (count) | Hybrid (count) | Streams count: model / measured | best variant: model / measured |")
md.append("| --- | ---: | ---: | ---: | ---: | --- | --- |")
for r in done:
    pv = r["per_variant"]
    def cell(v, with_streams=False):
        if v not in pv: return "-"
        return ms(pv[v]["best_s"]) + (" (%d)" % pv[v]["streams"] if with_streams else "")
    md.append("| %s | %s | %s | %s | %s | %s / %s | %s / %s |" % (
        r["app"], cell("Explicit"), cell("Mapped"), cell("Streams", True), cell("Hybrid", True),
        r.get("streams_predicted_best", "-"), r.get("streams_measured_best", "-"),
        r.get("predicted_best_variant", "-"), r.get("measured_best_variant", "-")))
hits = sum(1 for r in done if r.get("predicted_best_variant") == r.get("measured_best_variant"))
md.append("\nBest variant predicted right on %d of %d applications.\n" % (hits, len(done)))
md.append("## Model error per variant (all candidates of the exhaustive runs; (predicted - measured)/measured)\n")
md.append("| variant | candidates | median abs | max abs |")
md.append("| --- | ---: | ---: | ---: |")
for v, e in sorted(summary_errors.items()):
    md.append("| %s | %d | %.1f %% | %.1f %% |" % (v, e["count"], 100 * e["median_abs"], 100 * e["max_abs"]))
md.append("\nExplicit is left out: its t_E is inferred from its own measurement.\n")
open(prefix + ".md", "w").write("\n".join(md) + "\n")
print("wrote %s.md and %s.json (%d of %d applications complete)" % (prefix, prefix, len(done), len(rows)))
PYTHON
}

case "${1:-}" in
run) run_benchmark ;;
summarize) summarize "${2:?raw dir}" "${3:?output prefix}" ;;
*)
  echo "usage: $0 run | summarize RAW_DIR OUTPUT_PREFIX" >&2
  exit 2
  ;;
esac
