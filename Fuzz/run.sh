#!/usr/bin/env bash
# Runs each libFuzzer target of Logbook for a bounded time, one after the other, and prints the
# figures of each run. Build first with Fuzz/build.sh.
#
#   Fuzz/run.sh [SECONDS] [TARGET...]    SECONDS per target (default 60); targets: BatchReader,
#                                        EventDecoder, SchemaDecoder (default all three)
#
# New inputs go to Fuzz/corpus/TARGET, crashes to Fuzz/artifacts, each run's output to
# Fuzz/logs/TARGET.log.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(BatchReader EventDecoder SchemaDecoder)
mkdir -p artifacts logs
# Let a trap reach libFuzzer's handler, which saves the input, instead of Swift's backtracer.
export SWIFT_BACKTRACE=enable=no
status=0
for target in "${targets[@]}"; do
    binary=.build/fuzz-$target
    [ -x "$binary" ] || { echo "$binary is missing: run Fuzz/build.sh" >&2; exit 1; }
    mkdir -p "corpus/$target"
    dictionary=()
    [ -f "Dictionaries/$target.dict" ] && dictionary=(-dict="Dictionaries/$target.dict")
    echo "== $target: $seconds s"
    start=$(date +%s)
    set +e
    "$binary" "corpus/$target" "${dictionary[@]}" \
        -max_total_time="$seconds" -print_final_stats=1 -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="artifacts/$target-" >"logs/$target.log" 2>&1
    code=$?
    set -e
    end=$(date +%s)
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "logs/$target.log")
    peak=$(sed -n 's/^stat::peak_rss_mb: *//p' "logs/$target.log")
    echo "   exit $code, ${executions:-?} executions in $((end - start)) s, peak RSS ${peak:-?} MB," \
        "corpus $(find "corpus/$target" -type f | wc -l) files"
    if [ $code -ne 0 ]; then
        status=1
        grep -m1 -E "ERROR: |Fatal error|fuzz invariant" "logs/$target.log" || true
        ls -1 artifacts | grep "^$target-" || true
    fi
done
exit $status
