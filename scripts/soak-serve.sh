#!/usr/bin/env bash
# Soak of one `pinhole serve` (with --cache-dir) under mixed wrk load for MINUTES: hot keys (a few thumbnails
# asked for again and again), cold keys (each thumbnail new, of a source URL not asked before), four output formats (f:jpg, f:png, f:webp and
# f:avif, and by Accept), and about 5 % bad sources (404, random bytes, an HTML page). Every 10 s it samples the
# server's RSS (VmRSS), open file descriptors and threads from /proc, and from its /metrics what the memory caches
# hold, what work in progress reserved and what freed memory glibc's arenas keep. Not run by CI.
#
#   scripts/soak-serve.sh MINUTES
#
# Prints the samples as a table on stderr and one JSON summary on stdout: requests and throughput, answers by
# status for good and for bad sources (from the server's access log) and wrk's socket errors, and RSS, FDs and
# threads (first sample, max, last, and the RSS change over the second half of the run; `peakVmHWM`, the server's
# highest RSS over its whole life, which sampling misses), and the memory goal: peakVmHWM within the server's
# --memory-budget + 64 MB. MB are 10^6 bytes throughout, as the budget is given in bytes.
# Environment: PINHOLE_BIN (default .build/release/pinhole, built when absent), SOAK_CONNECTIONS (default 4),
# SOAK_INTERVAL (seconds between samples, default 10), SOAK_MEMORY_BUDGET (bytes, default 256000000, the
# server's own default).
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-}
[[ "$minutes" =~ ^[0-9]+$ ]] && [ "$minutes" -ge 1 ] || { echo "usage: $0 MINUTES" >&2; exit 2; }
scripts/install-deps.sh
# shellcheck source=scripts/serve-lib.sh
. scripts/serve-lib.sh

work=$(mktemp -d "${TMPDIR:-/tmp}/pinhole-soak.XXXXXX")
chmod 755 "$work"  # nginx's workers (nobody, when started by root) read under it
NGINX_PID=""
pids=()
cleanup() {
    kill_all "${pids[@]}"
    stop_nginx
    [ -n "${KEEP_WORK:-}" ] && echo "[soak] kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

PINHOLE=$(pinhole_binary)
read -r -d '' ORIGIN_PORT SERVE_PORT < <(free_ports 2; printf '\0') || true
corpus=${PINHOLE_CORPUS:-$HOME/.cache/pinhole/corpus}
interval=${SOAK_INTERVAL:-10}
budget=${SOAK_MEMORY_BUDGET:-256000000}
seconds=$((minutes * 60))

# The origin: 16 corpus JPEGs, two corpus PNGs with alpha or not, and the bad sources (a missing file is the
# 404; bad-garbage.jpg is random bytes, bad-page.jpg an HTML page).
mkdir -m 755 "$work/origin"
mapfile -t good < <( (find "$corpus" -maxdepth 1 -name '*.jpg' -size +150k -size -1200k -printf '%f\n' | sort \
    | head -n 16; find "$corpus" -maxdepth 1 -name '*.png' -size -1000k -printf '%f\n' | sort | head -n 2))
[ ${#good[@]} -ge 4 ] || { echo "[soak] fewer than 4 photos in $corpus (scripts/make-corpus.sh)" >&2; exit 1; }
for name in "${good[@]}"; do install -m 644 "$corpus/$name" "$work/origin/$name"; done
head -c 200000 /dev/urandom > "$work/origin/bad-garbage.jpg"
echo ok > "$work/origin/probe.txt"  # asked for to know nginx is up
printf '<!doctype html><html><body><h1>Not an image</h1></body></html>\n' > "$work/origin/bad-page.jpg"
chmod 644 "$work/origin/"*
origin_server_block "$ORIGIN_PORT" "$work/origin" "$work/origin.log" > "$work/servers.conf"
start_nginx "$work/nginx" "$work/servers.conf"
wait_for "http://127.0.0.1:$ORIGIN_PORT/probe.txt"

# The requests, shuffled with a fixed seed: 45 % hot (8 thumbnails), 50 % cold (each one new: a photo at one
# of 400 widths in one of the four formats, its URL made new by a query the origin ignores, so that every cold
# request downloads, decodes and stores, and the disk cache fills and evicts), 5 % bad (a bad source at a new
# width). 400,000 of them, more than 10 minutes take on this machine: wrk wraps around (`wrapped`) only in a
# longer run, and the cold ones asked for again then are cached.
python3 - "$work/paths.txt" "$ORIGIN_PORT" "${good[@]}" <<'PY'
import random, sys
out, port, names = sys.argv[1], sys.argv[2], sys.argv[3:]
rng = random.Random(27)
source = lambda name: f"plain/http%3A%2F%2F127.0.0.1%3A{port}%2F{name}"
formats = [("f:jpg/", ""), ("f:png/", ""), ("f:webp/", ""), ("f:avif/", ""),
           ("", "image/avif,image/webp,*/*"), ("", "image/webp,*/*")]
hot = [(f"/_/rs:fit:{w}:{w}/{opt}{source(name)}", accept)
       for (name, w, (opt, accept)) in zip(names[:8], [160, 320] * 4, formats * 2)]
bad_names = ["bad-missing.jpg", "bad-garbage.jpg", "bad-page.jpg"]
lines = []
for i in range(400_000):
    roll = rng.random()
    if roll < 0.45:
        path, accept = rng.choice(hot)
    elif roll < 0.95:
        opt, accept = rng.choice(formats[:4])
        w = rng.randrange(100, 500)
        path = f"/_/rs:fit:{w}:{w}/{opt}{source(rng.choice(names))}%3Fsoak%3D{i}"
    else:
        path, accept = f"/_/rs:fit:{rng.randrange(100, 2000)}:0/{source(rng.choice(bad_names))}", ""
    lines.append(path + ("\t" + accept if accept else ""))
open(out, "w").write("\n".join(lines) + "\n")
PY

start_serve "$SERVE_PORT" "$work/cache" "$work/serve" --memory-budget "$budget"
serve_pid=$SERVE_PID
pids+=("$serve_pid")
wait_for "http://127.0.0.1:$SERVE_PORT/health"

sample() {  # $1: 1 under load, 0 idle; appends: elapsed seconds, RSS kB, FDs, threads, $1, then from /metrics the
    # bytes the memory caches hold, the work in progress reserves and the allocator keeps freed (0 when unread)
    local rss threads fds figures
    rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$serve_pid/status")
    threads=$(awk '/^Threads:/ { print $2 }' "/proc/$serve_pid/status")
    fds=$(find "/proc/$serve_pid/fd" -mindepth 1 -maxdepth 1 | wc -l)
    figures=$(curl -s --max-time 5 "http://127.0.0.1:$SERVE_PORT/metrics" | awk '
        $1 == "pinhole_memory_budget_in_use_bytes" { c = $2 }
        $1 == "pinhole_admission_memory_reserved_bytes" { r = $2 }
        $1 == "pinhole_malloc_arena_free_bytes" { f = $2 }
        END { printf "%d %d %d", c, r, f }') || figures="0 0 0"
    echo "$(( $(date +%s) - started )) $rss $fds $threads $1 $figures" >> "$work/samples.txt"
}

echo "[soak] ${minutes} min of mixed load on one instance (port $SERVE_PORT), a sample every ${interval} s" >&2
started=$(date +%s)
sample 1
wrk -t 1 -c "${SOAK_CONNECTIONS:-4}" -d "${seconds}s" --timeout 60s -s scripts/wrk-paths.lua \
    "http://127.0.0.1:$SERVE_PORT" -- "$work/paths.txt" 1 > "$work/wrk.txt" 2>&1 &
wrk_pid=$!
pids+=("$wrk_pid")
while kill -0 "$wrk_pid" 2>/dev/null; do
    sleep "$interval"
    kill -0 "$serve_pid" 2>/dev/null || { echo "[soak] the server died" >&2; cat "$work/serve.stderr" >&2; exit 1; }
    if kill -0 "$wrk_pid" 2>/dev/null; then sample 1; fi
done
wait "$wrk_pid" || { echo "[soak] wrk failed:" >&2; cat "$work/wrk.txt" >&2; exit 1; }
sleep 30  # idle: does RSS come back down?
sample 0
# The highest RSS over the server's life: the 10-s samples miss peaks that last a fraction of a second.
awk '/^VmHWM:/ { print $2 }' "/proc/$serve_pid/status" > "$work/hwm.txt"

python3 - "$work" "$seconds" "$budget" <<'PY'
import collections, json, sys
work, seconds, budget = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
wrk = next(json.loads(l[12:]) for l in open(f"{work}/wrk.txt") if l.startswith("WRK-SUMMARY "))
samples = [tuple(map(int, l.split())) for l in open(f"{work}/samples.txt")]
print(f"{'seconds':>8} {'RSS MB':>8} {'FDs':>5} {'threads':>7} {'caches MB':>9} {'reserved MB':>11} "
      f"{'malloc free MB':>14}", file=sys.stderr)
for t, rss, fds, threads, loaded, cached, reserved, free in samples:
    print(f"{t:>8} {rss * 1024 / 1e6:>8.1f} {fds:>5} {threads:>7} {cached / 1e6:>9.1f} {reserved / 1e6:>11.1f} "
          f"{free / 1e6:>14.1f}{'' if loaded else '  (idle 30 s)'}", file=sys.stderr)
by_class = {"good": collections.Counter(), "bad": collections.Counter()}
codes = collections.Counter()
for line in open(f"{work}/serve.access.jsonl"):
    entry = json.loads(line)
    if not entry["target"].startswith("/_/"):
        continue
    bad = "bad-" in entry["target"]
    by_class["bad" if bad else "good"][str(entry["status"])] += 1
    if bad or entry["status"] >= 300:
        codes[f'{"bad" if bad else "good"} {entry["status"]} {entry.get("error", entry.get("code", ""))}'] += 1
during = [s for s in samples if s[4]]
half = [s for s in during if s[0] >= seconds / 2]
mb = lambda kb: round(kb * 1024 / 1e6, 1)  # /proc's kB are KiB
peak = mb(int(open(f"{work}/hwm.txt").read()))
bound = round(budget / 1e6 + 64, 1)
print(json.dumps({
    "minutes": seconds / 60, "requests": wrk["requests"],
    "requestsPerSecond": round(wrk["requests"] / (wrk["durationMicroseconds"] / 1e6), 1),
    "p50Milliseconds": round(wrk["p50Microseconds"] / 1000, 1),
    "p99Milliseconds": round(wrk["p99Microseconds"] / 1000, 1),
    "wrkSocketErrors": {k: wrk[k] for k in ("connectErrors", "readErrors", "writeErrors", "timeouts")},
    "statusesByClient": wrk["statuses"],
    "statusesBySource": {k: dict(sorted(v.items())) for k, v in by_class.items()},
    "nonSuccessDetail": dict(sorted(codes.items())),
    "rssMB": {"first": mb(during[0][1]), "max": mb(max(s[1] for s in during)), "last": mb(during[-1][1]),
              "secondHalfChange": mb(half[-1][1] - half[0][1]) if half else None,
              "after30sIdle": mb(samples[-1][1]), "peakVmHWM": peak},
    "memoryGoal": f"{'PASS' if peak <= bound else 'MISS'} peakVmHWM {peak} MB <= budget + 64 MB = {bound} MB",
    "fds": {"first": during[0][2], "max": max(s[2] for s in during), "last": during[-1][2],
            "after30sIdle": samples[-1][2]},
    "threads": {"first": during[0][3], "max": max(s[3] for s in during), "last": during[-1][3]},
    "mallocFreeMB": {"max": round(max(s[7] for s in during) / 1e6, 1), "after30sIdle": round(samples[-1][7] / 1e6, 1)},
    "cachesMB": {"max": round(max(s[5] for s in during) / 1e6, 1), "after30sIdle": round(samples[-1][5] / 1e6, 1)},
    "samples": len(samples), "wrapped": wrk["wrapped"],
}, indent=2))
PY
