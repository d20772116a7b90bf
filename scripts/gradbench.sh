#!/usr/bin/env bash
# The GradBench yardstick (issue 13): builds the suite, checks every derivative, times the
# primal, unfad, hand-written and ADOL-C at the given size classes, and writes the results as
# JSON, a Markdown table and an SVG plot (derivative time / primal time per workload and tool;
# min, median, max over the repetitions).
#
#   bash scripts/gradbench.sh                  # small and large
#   bash scripts/gradbench.sh small            # one size class (tiny, small, large)
#   GRADBENCH_REPS=7 GRADBENCH_MIN_SECONDS=0.2 bash scripts/gradbench.sh large
#
# Output: $BUILD_DIR/gradbench/{<size>.json, report.md, report.svg}.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD_DIR=${UNFAD_BUILD_DIR:-build}
SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(small large)
if [ ! -f "$BUILD_DIR/build.ninja" ] && [ ! -f "$BUILD_DIR/Makefile" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja >/dev/null
fi
cmake --build "$BUILD_DIR" --target unfad_gradbench_suite -j"${UNFAD_JOBS:-2}"
OUT="$BUILD_DIR/gradbench"
mkdir -p "$OUT"
SUITE=$(realpath "$BUILD_DIR/bin/unfad_gradbench_suite")
# One process per workload: ADOL-C's drivers slow down with the tapes taped before them in the
# same process (ba's 182072 jacobian() calls took minutes after the other workloads' tapes,
# 1.5 s alone). ADOL-C writes large tapes to files in the working directory: run in $OUT.
WORKLOADS=(lse llsq kmeans gmm ode det ba lstm ht)
results=()
for size in "${SIZES[@]}"; do
  echo "== size class $size"
  parts=()
  for w in "${WORKLOADS[@]}"; do
    (cd "$OUT" && "$SUITE" --size "$size" --only "$w" --reps "${GRADBENCH_REPS:-5}" \
      --min-seconds "${GRADBENCH_MIN_SECONDS:-0.1}" --json "$size.$w.json") | { [ "$w" = lse ] && cat || tail -n +2; }
    parts+=("$OUT/$size.$w.json")
  done
  python3 -c 'import json, sys
runs = [json.load(open(p)) for p in sys.argv[2:]]
merged = dict(runs[0], results=[r for run in runs for r in run["results"]])
json.dump(merged, open(sys.argv[1], "w"), indent=1)' "$OUT/$size.json" "${parts[@]}"
  rm -f "${parts[@]}" "$OUT"/ADOLC-*.tap
  results+=("$OUT/$size.json")
done
python3 test/bench/gradbench/report.py --markdown "$OUT/report.md" --svg "$OUT/report.svg" "${results[@]}" >/dev/null
echo "== wrote $OUT/report.md and $OUT/report.svg"
cat "$OUT/report.md"
