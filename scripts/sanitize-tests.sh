#!/usr/bin/env bash
# Runs the whole test suite under a sanitizer, one test target at a time, for `make test-asan` / `make test-tsan`.
#
#   scripts/sanitize-tests.sh address|thread
#
# Why one target at a time: started all at once (~450 test cases) under a sanitizer on a loaded 2-core machine,
# the run can stall for good within its first second: every test "started", none finishes, and no thread of
# libdispatch's global pool is left (only the dispatch manager in epoll_wait, our idle WorkerThreadPool threads,
# Foundation's socket/Process threads and the main thread parked in dispatch_main). Not even Swift Testing's
# `.timeLimit` tasks run, so Swift's executor itself is starved; nothing of ours is blocked. See RELIABILITY.md,
# "Sanitizers". Each target runs under a watchdog; a stall is retried once, a failure never is.
set -uo pipefail
cd "$(dirname "$0")/.."

sanitizer=${1:?usage: scripts/sanitize-tests.sh address|thread}
case "$sanitizer" in
    address) scratch=.build-asan ;;
    thread) scratch=.build-tsan ;;
    *) echo "unknown sanitizer '$sanitizer' (address or thread)" >&2; exit 2 ;;
esac
# A target takes 1-2 minutes under a sanitizer; 15 minutes (900 s) means it stalled.
watchdog=${PINHOLE_SANITIZER_WATCHDOG:-900}
# Sanitized code runs 2-15 times slower without raising the load average, which is what the tests' bounded waits
# scale with (Tests/Support/LoadFactor.swift): give them a floor of 4 (a 10 s wait may take 40 s). Seen needed:
# under TSan a queued load took more than 10 s to reach the queue in PriorityOrderingTests.
export PINHOLE_TEST_MIN_LOAD_FACTOR=${PINHOLE_TEST_MIN_LOAD_FACTOR:-4}
# PINHOLE_SANITIZER_TARGETS="PinholeTests PinholeVipsTests" runs only those targets.
targets=${PINHOLE_SANITIZER_TARGETS:-$(grep -o 'name: "[A-Za-z]*Tests"' Package.swift | sed 's/name: "\(.*\)"/\1/' | sort -u)}

# Each sanitizer report goes to a file of its own (log_path), from the test process and from the children it starts
# alike: printed in full after its target, and digested with the target's failed tests at the very end
# (scripts/failure-digest.py), where a CI log read from its tail shows them.
reports=$(mktemp -d "${TMPDIR:-/tmp}/pinhole-sanitizer.XXXXXX")
options_variable=$([ "$sanitizer" = thread ] && echo TSAN_OPTIONS || echo ASAN_OPTIONS)
base_options=${!options_variable:-}

failed=()
for target in $targets; do
    for attempt in 1 2; do
        echo "=== $target under --sanitize=$sanitizer (attempt $attempt) ==="
        start=$(date +%s)
        rm -rf "${reports:?}/$target" && mkdir -p "$reports/$target"
        export "$options_variable=${base_options:+$base_options:}log_path=$reports/$target/report"
        # scripts/run-tests.sh: the watchdog of `make test` (a stall prints the tests that never ended and kills
        # the run's whole session, the test binary included). Every target runs with leak detection on: the CLI
        # tests start their children with posix_spawn now (SpawnedProcess), not Foundation.Process, which is
        # never freed after its child exits (RELIABILITY.md, "Sanitizers").
        # PinholeTestServerTests and PinholeServerTests use URLSession as a client. FoundationNetworking leaks libcurl URL handles on
        # every request (scripts/lsan.supp, CFURLSessionCurlHostIsEqual), but libcurl has no frame pointers, so
        # the fast unwinder never reaches that frame, and the slow one makes the target exceed its time limits.
        # So for this target only, libcurl's module is suppressed too; every other target calls libcurl through
        # Pinhole's HTTPDataLoader, and there its leaks are reported.
        # libcrypto is suppressed for these two targets too: a thread that touched OpenSSL's error queue (libcurl,
        # or the server's one-shot HMAC()) and exits after OPENSSL_cleanup has run at process exit loses its
        # 904-byte ERR_STATE (the key's destructor is gone with the key); seen once in PinholeServerTests, its
        # stack ending in CRYPTO_zalloc (libcrypto has no frame pointers). Pinhole's own OpenSSL calls there,
        # HMAC() and CRYPTO_memcmp, hold no memory once they return.
        lsan_options=${LSAN_OPTIONS:-}
        if [ "$sanitizer" = address ] && { [ "$target" = PinholeTestServerTests ] || [ "$target" = PinholeServerTests ]; }; then
            supp_file=$(mktemp)
            { cat scripts/lsan.supp; echo "leak:libcurl.so.4"; echo "leak:libcrypto.so.3"; } > "$supp_file"
            lsan_options="suppressions=$supp_file:print_suppressions=0"
        fi
        LSAN_OPTIONS="$lsan_options" TEST_TIMEOUT="$watchdog" TEST_IDLE_TIMEOUT="$watchdog" \
            TEST_EVENTS="$reports/$target/events.jsonl" \
            SWIFT_TEST_FLAGS="--scratch-path $scratch --sanitize=$sanitizer" scripts/run-tests.sh --filter "^$target\\."
        status=$?
        [ -z "${supp_file:-}" ] || rm -f "$supp_file"
        supp_file=""
        # A report fails the target even when every test passed: a child's race or leak (a `pinhole` the CLI
        # tests start) reaches no test's expectations.
        for report in "$reports/$target"/report*; do
            [ -e "$report" ] || continue
            echo "=== $target: sanitizer report $(basename "$report") ===" >&2
            cat "$report" >&2
            [ "$status" -eq 0 ] && status=1
        done
        echo "=== $target: exit status $status after $(( $(date +%s) - start )) s ==="
        [ "$status" -eq 124 ] || break
        echo "=== $target stalled (no result within $watchdog s); retrying once ===" >&2
    done
    [ "$status" -eq 0 ] || failed+=("$target")
done

if [ "${#failed[@]}" -gt 0 ]; then
    for target in "${failed[@]}"; do
        echo "==== $target under --sanitize=$sanitizer" >&2
        scripts/failure-digest.py "$reports/$target/events.jsonl" "$reports/$target"/report* >&2
    done
    rm -rf "$reports"
    echo "Sanitizer ($sanitizer) failures in: ${failed[*]}" >&2
    exit 1
fi
rm -rf "$reports"
echo "All test targets pass under --sanitize=$sanitizer."
