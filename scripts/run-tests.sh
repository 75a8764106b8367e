#!/usr/bin/env bash
# Runs the test suite (already built) in parallel under a watchdog, for `make test` and scripts/stress-tests.sh.
#
#   scripts/run-tests.sh [swift test options…]      e.g. --filter ImagePipelineCoalescingTests
#
# Environment:
#   TEST_TIMEOUT       seconds for the whole run (default 1500)
#   TEST_IDLE_TIMEOUT  seconds without a single test event before the run counts as hung (default 600; a
#                      stalled run shows no event at all, a slow one keeps reporting)
#   TEST_WIDTH         test cases running at once (default 4 per core); unbounded, all ~350 start together and
#                      every one of them waits on the others (a run took 240-250 s instead of ~150 s, and
#                      timing-bounded tests failed)
#   TEST_EVENTS        where to keep Swift Testing's event stream (default: a temporary file, removed after)
#   SWIFT_TEST_FLAGS   more options for `swift test` (e.g. --scratch-path .build-asan --sanitize=address)
#
# The run lives in a session of its own (setsid) under `timeout -k`. A hang (TEST_TIMEOUT, or TEST_IDLE_TIMEOUT
# without an event) prints the tests that started and never ended, read from the event stream
# (`--event-stream-output-path`, JSON Lines, version 0), then kills every process of the session: `swift test`
# starts the test binary in a process group of its own, so killing `timeout`'s group alone would leave it
# running (it did, with parent 1). Exit status: the run's, or 124 on a hang.
set -uo pipefail
[ -f Package.swift ] || cd "$(dirname "$0")/.."  # from the repository (scripts/stress-tests.sh runs a copy)

total=${TEST_TIMEOUT:-1500}
width=${TEST_WIDTH:-$((4 * $(nproc)))}
idle=${TEST_IDLE_TIMEOUT:-600}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pinhole-tests.XXXXXX")
events=${TEST_EVENTS:-$scratch/events.jsonl}
: > "$events"

# Test cases that started and never ended: what was running when the run hung (with a parallelization width,
# a test function "starts" long before its cases get a slot, so functions alone would list half the suite).
unfinished() {
    awk '
        /"kind":"testCaseStarted"/ || /"kind":"testCaseEnded"/ {
            if (!match($0, /"testID":"[^"]*"/)) next
            test = substr($0, RSTART + 10, RLENGTH - 11)
            gsub(/\\\//, "/", test)
            name = ""
            if (match($0, /"_testCase":\{"displayName":"([^"\\]|\\.)*"/)) {
                name = substr($0, RSTART + 28, RLENGTH - 29)
                if (match($0, /"id":"[^"]*"/)) key = test " " substr($0, RSTART, RLENGTH)
            } else key = test
            if ($0 ~ /"kind":"testCaseEnded"/) { ended[key] = 1; next }
            if (!(key in started)) { order[++n] = key; label[key] = test (name == "" ? "" : "  [" name "]") }
            started[key] = 1
        }
        END { for (i = 1; i <= n; i++) if (!(order[i] in ended)) print "  " label[order[i]] }
    ' "$events"
}

# Every process of the run's session (the session id is the first process's pid).
kill_session() {
    local sid=$1 pids
    pids=$(ps -e -o pid=,sid= | awk -v sid="$sid" '$2 == sid { print $1 }')
    [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
}

start=$(date +%s)
# shellcheck disable=SC2086  # SWIFT_TEST_FLAGS is a list of options
setsid --wait bash -c 'echo $$ > "$0"; exec timeout -k 30 "$1" swift test --skip-build --parallel \
    --experimental-maximum-parallelization-width "$2" --event-stream-output-path "$3" --event-stream-version 0 \
    "${@:4}"' "$scratch/sid" "$total" "$width" "$events" ${SWIFT_TEST_FLAGS:-} "$@" &
runner=$!
while [ ! -s "$scratch/sid" ]; do sleep 0.1; done
sid=$(cat "$scratch/sid")

hung=""
while kill -0 "$runner" 2>/dev/null; do
    sleep 5
    now=$(date +%s)
    last=$(stat -c %Y "$events" 2>/dev/null || echo "$start")
    [ "$last" -lt "$start" ] && last=$start
    if [ $((now - start)) -ge "$total" ]; then hung="no result after ${total} s"; fi
    if [ $((now - last)) -ge "$idle" ]; then hung="no test event for ${idle} s"; fi
    [ -n "$hung" ] && break
done

if [ -n "$hung" ]; then
    status=124
else
    wait "$runner"
    status=$?
    # timeout's own verdict (124/137) is a hang too
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then hung="no result after ${total} s (timeout)"; fi
fi

if [ -n "$hung" ]; then
    echo >&2
    echo "==== HANG: $hung. Test cases that started and never ended:" >&2
    unfinished >&2
    kill_session "$sid"
    status=124
fi
# Even a run that ended leaves nothing behind (a child a test forgot).
kill_session "$sid"
# A failed run ends with why (scripts/failure-digest.py): CI logs are often read from the tail only.
if [ "$status" -ne 0 ] && [ "$status" -ne 124 ] && [ -x scripts/failure-digest.py ]; then
    scripts/failure-digest.py "$events" >&2
fi
[ -z "${TEST_EVENTS:-}" ] && rm -rf "$scratch"
[ -n "${TEST_EVENTS:-}" ] && rm -f "$scratch/sid" && rmdir "$scratch" 2>/dev/null
echo "scripts/run-tests.sh: exit status $status after $(( $(date +%s) - start )) s" >&2
exit "$status"
