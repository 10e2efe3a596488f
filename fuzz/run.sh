#!/usr/bin/env bash
# Runs fuzz targets, each for FUZZ_SECONDS (default 60), starting from the seeds in
# fuzz/corpus/TARGET and keeping what they learn in fuzz/out/corpus/TARGET. A crash is
# written to fuzz/out/findings/TARGET/ and ends the run with a non-zero status; turn it into
# a unit test (Tests/UTQTests/FuzzFindingTests.swift) and fix it.
#
#   fuzz/run.sh              every target
#   fuzz/run.sh csv nvdb     only these
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH="${FUZZ_SECONDS:-60}"
OUT=fuzz/out
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in fuzz/targets/*.swift; do targets+=("$(basename "$f" .swift)"); done
fi
# FUZZ_NO_BUILD=1 runs the binaries as they are (while the sources are being edited).
[ -n "${FUZZ_NO_BUILD:-}" ] || fuzz/build.sh "${targets[@]}"
status=0
for t in "${targets[@]}"; do
  mkdir -p "$OUT/corpus/$t" "$OUT/findings/$t" "$OUT/logs"
  dict=()
  [ -f "fuzz/dict/$t.dict" ] && dict=(-dict="fuzz/dict/$t.dict")
  # Whole zips and whole lessons are larger than a script or a CSV; FUZZ_MAX_LEN overrides.
  case "$t" in gtfs|xlsx|parquet) len=20000 ;; lesson) len=16000 ;; kernel) len=8192 ;; *) len=4096 ;; esac
  echo "fuzzing $t for $SECONDS_EACH s (log: $OUT/logs/$t.log) ..."
  # detect_leaks=0: caches that live for the whole process are not leaks worth a finding.
  if ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 "$OUT/bin/$t" "${dict[@]}" \
      -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=4096 -max_len="${FUZZ_MAX_LEN:-$len}" \
      -print_final_stats=1 -artifact_prefix="$OUT/findings/$t/" \
      "$OUT/corpus/$t" "fuzz/corpus/$t" >"$OUT/logs/$t.log" 2>&1; then
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|^Done" "$OUT/logs/$t.log" | sed "s/^/  $t: /"
  else
    status=1
    echo "  $t FOUND A PROBLEM: see $OUT/logs/$t.log and $OUT/findings/$t/"
    grep -E -A6 "crashed:|^==[0-9]+==ERROR|Fatal error|SUMMARY" "$OUT/logs/$t.log" | head -12 | sed "s/^/  /"
  fi
done
exit $status
