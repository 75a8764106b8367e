#!/usr/bin/env bash
# Runs the cancellation storm (`pinhole debug storm`, RELIABILITY.md section 4) N times, K at once, each with a
# fresh seed, and counts the storms that crashed: a run crashed when it exits non-zero or its JSON line does not
# say "passed":true. This is how the liborc race was counted, with and without the lock around ORC programs.
#
#   scripts/storm-loop.sh N [K] [BINARY]   N storms (default 100), K at once (default 2),
#                                          BINARY default .build/release/pinhole (built when missing)
#
# Each crashed storm's stderr is kept in .build/storm-loop/crash-SEED.err. Exit status 0 only when none crashed.
set -uo pipefail
cd "$(dirname "$0")/.."

storms=${1:-100}
concurrent=${2:-2}
binary=${3:-.build/release/pinhole}
out=.build/storm-loop
mkdir -p "$out"
[ -x "$binary" ] || swift build -c release --product pinhole || exit 1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

one_lane() {  # lane index: runs the storms whose number % concurrent == lane
    local lane=$1 crashed=0 seed
    for ((i = lane; i < storms; i += concurrent)); do
        seed=$((1000 + i))
        if "$binary" debug storm --seed "$seed" --requests 2000 >"$out/lane-$lane.out" 2>"$out/lane-$lane.err" \
            && grep -q '"passed":true' "$out/lane-$lane.out"; then
            :
        else
            crashed=$((crashed + 1))
            cp "$out/lane-$lane.err" "$out/crash-$seed.err"
            echo "storm seed $seed crashed (stderr: $out/crash-$seed.err)" >&2
        fi
    done
    echo "$crashed" >"$out/lane-$lane.crashed"
}

for ((lane = 0; lane < concurrent; lane++)); do one_lane "$lane" & done
wait
total=0
for ((lane = 0; lane < concurrent; lane++)); do total=$((total + $(cat "$out/lane-$lane.crashed"))); done
echo "storm-loop: $storms storms, $concurrent at once, $total crashed"
[ "$total" -eq 0 ]
