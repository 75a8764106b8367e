#!/usr/bin/env bash
# Runs the whole test suite N times, in parallel mode, K runs at a time, while this script loads the machine
# with busy processes that it starts and stops itself; counts passes, failures and hangs.
#
#   scripts/stress-tests.sh N [K]        N runs (default 10), K at once (default 2)
#
# Environment: STRESS_BUSY (busy processes at the peak, default 2 per core), TEST_TIMEOUT / TEST_IDLE_TIMEOUT
# (per run, see scripts/run-tests.sh; 3600 / 900 here), PINHOLE_TEST_LOAD_FACTOR (left to the tests' own
# measure of the load average unless set).
#
# Each run is scripts/run-tests.sh (the watchdog `make test` uses), with its log and event stream kept in
# .build/stress/run-I.{log,events.jsonl}. The busy processes are `sh` loops that spin, started and stopped in
# waves (all of them for 20 s, half for 10 s, none for 5 s, again), so the load both stays high and changes
# under the tests. Exit status 0 only when every run passed; a summary line says how many failed or hung, the
# wall time of each run and the load averages seen.
set -uo pipefail
cd "$(dirname "$0")/.."

runs=${1:-10}
concurrent=${2:-2}
cores=$(nproc)
busy=${STRESS_BUSY:-$((2 * cores))}
export TEST_TIMEOUT=${TEST_TIMEOUT:-3600}
export TEST_IDLE_TIMEOUT=${TEST_IDLE_TIMEOUT:-900}
export PINHOLE_CORPUS=${PINHOLE_CORPUS:-${XDG_CACHE_HOME:-$HOME/.cache}/pinhole/corpus}
out=.build/stress
mkdir -p "$out"

swift build --build-tests || exit 1
# Runs use a copy of the watchdog: bash reads a script as it runs it, so editing (or checking out) the file
# during a long stress run would break the runs in flight.
cp scripts/run-tests.sh "$out/run-tests.sh"

# The load: busy loops this script starts and stops, in waves, until it is told to end.
load_pids=()
stop_load() {
    [ "${#load_pids[@]}" -gt 0 ] && kill "${load_pids[@]}" 2>/dev/null
    load_pids=()
}
start_load() {
    local count=$1
    for _ in $(seq "$count"); do
        sh -c 'while :; do :; done' &
        load_pids+=($!)
    done
}
load_waves() {
    trap 'stop_load; exit 0' TERM INT
    while :; do
        start_load "$busy"; sleep 20; stop_load
        start_load $((busy / 2)); sleep 10; stop_load
        sleep 5
    done
}
load_waves &
loader=$!
loads_file="$out/loads.txt"
: > "$loads_file"
( while :; do cut -d' ' -f1 /proc/loadavg >> "$loads_file"; sleep 10; done ) &
sampler=$!
cleanup() {
    pkill -KILL -P "$loader" 2>/dev/null  # the busy loops and the wave's sleep (children of the loader, by pid)
    kill "$loader" "$sampler" 2>/dev/null
    pkill -KILL -P "$loader" 2>/dev/null
    wait "$loader" "$sampler" 2>/dev/null
}
trap 'cleanup; exit 130' INT TERM

passed=0 failed=0 hung=0
summary=()
run_one() {
    local index=$1 start status
    start=$(date +%s)
    TEST_EVENTS="$out/run-$index.events.jsonl" "$out/run-tests.sh" > "$out/run-$index.log" 2>&1
    status=$?
    echo "$index $status $(( $(date +%s) - start ))" > "$out/run-$index.result"
}

echo "stress: $runs runs of the whole suite, $concurrent at a time, up to $busy busy processes on $cores cores"
index=0
while [ "$index" -lt "$runs" ]; do
    batch=()
    for _ in $(seq "$concurrent"); do
        [ "$index" -ge "$runs" ] && break
        index=$((index + 1))
        run_one "$index" &
        batch+=($!)
    done
    wait "${batch[@]}"
done
cleanup

for number in $(seq "$runs"); do
    result="$out/run-$number.result"
    read -r _ status seconds < "$result"
    case "$status" in
        0) passed=$((passed + 1)); verdict=passed ;;
        124) hung=$((hung + 1)); verdict=HUNG ;;
        *) failed=$((failed + 1)); verdict="FAILED ($status)" ;;
    esac
    summary+=("run $number: $verdict in ${seconds} s")
    [ "$status" -ne 0 ] && grep -E "✘|HANG|^  " "$out/run-$number.log" | head -40
    rm -f "$result"
done
printf '%s\n' "${summary[@]}"
loads=$(sort -n "$loads_file" |
    awk '{ a[NR] = $1 } END { if (NR) printf "%s–%s (median %s)", a[1], a[NR], a[int((NR + 1) / 2)] }')
echo "stress: $passed of $runs passed, $failed failed, $hung hung; load average (1 min) $loads on $cores cores"
[ "$passed" -eq "$runs" ]
