#!/usr/bin/env bash
# Three `pinhole serve` instances behind a real nginx (deploy/nginx/pinhole-cluster.conf: consistent hashing on
# the source part of the URL, proxy_next_upstream, proxy_cache), under wrk load; one instance is killed with
# SIGKILL at 1/3 of the run and restarted at 2/3. Prints one JSON summary on stdout (progress on stderr).
#
#   scripts/cluster.sh [SECONDS]        default 60; a one-instance baseline of SECONDS/4 (at least 10 s) first
#
# Environment: PINHOLE_BIN (a built pinhole; default .build/release/pinhole, built when absent),
# CLUSTER_SOURCES (photos used, default 16), CLUSTER_CONNECTIONS (wrk connections, default 8; one wrk thread).
#
# The summary: `clientErrors` (what clients saw that was not 2xx: wrk's socket errors and non-2xx statuses, and
# nginx's access log statuses), `served` (requests answered, by status), `retried` (requests nginx sent to a
# second instance), `throughput` (requests per second of the cluster and of one instance alone, and their
# ratio: all instances share this machine's cores, so the ratio shows the cost of the tier, not a scale-out),
# `originRequestsPerSource` (from the origin's access log: max and mean over the sources, per phase: `stable`
# before the kill, `degraded` while one instance is down, `restored` after its restart, and `total`),
# `downloadsReusedBeforeTheirStore` (each instance's downloads that another size took while their decode was under
# way, instead of asking the origin again: the killed instance's count just before the kill, then each one's at
# the end, the restarted one counting from its restart).
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-60}
[[ "$duration" =~ ^[0-9]+$ ]] && [ "$duration" -ge 9 ] || { echo "usage: $0 [SECONDS >= 9]" >&2; exit 2; }
scripts/install-deps.sh
# shellcheck source=scripts/serve-lib.sh
. scripts/serve-lib.sh

work=$(mktemp -d "${TMPDIR:-/tmp}/pinhole-cluster.XXXXXX")
chmod 755 "$work"  # nginx's workers (nobody, when started by root) read and write under it
NGINX_PID=""
pids=()
cleanup() {
    kill_all "${pids[@]}"
    stop_nginx
    [ -n "${KEEP_WORK:-}" ] && echo "[cluster] kept $work" >&2 || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

PINHOLE=$(pinhole_binary)
read -r -d '' ORIGIN_PORT FRONT_PORT PORT1 PORT2 PORT3 BASE_PORT < <(free_ports 6; printf '\0') || true
ports=("$PORT1" "$PORT2" "$PORT3")
corpus=${PINHOLE_CORPUS:-$HOME/.cache/pinhole/corpus}
connections=${CLUSTER_CONNECTIONS:-8}

# The sources: the corpus's JPEGs of 150 KB to 1.2 MB (1 to 6 megapixels), sorted, copied for the origin.
mapfile -t sources < <(find "$corpus" -maxdepth 1 -name '*.jpg' -size +150k -size -1200k -printf '%f\n' | sort \
    | head -n "${CLUSTER_SOURCES:-16}")
[ ${#sources[@]} -ge 4 ] || { echo "[cluster] fewer than 4 JPEGs in $corpus (scripts/make-corpus.sh)" >&2; exit 1; }
mkdir -m 755 "$work/origin"
for name in "${sources[@]}"; do install -m 644 "$corpus/$name" "$work/origin/$name"; done
echo ok > "$work/origin/probe.txt" && chmod 644 "$work/origin/probe.txt"  # asked for to know nginx is up

# Requests: every source at 500 widths (fit in W × W), interleaved (source 1..N at width 100, then at 101, …):
# each thumbnail is new, each source is asked for again and again at other sizes.
paths=$work/paths.txt
for width in $(seq 100 599); do
    for name in "${sources[@]}"; do
        echo "/_/rs:fit:$width:$width/plain/http%3A%2F%2F127.0.0.1%3A$ORIGIN_PORT%2F$name"
    done
done > "$paths"

# nginx: the origin and the front (the template with its placeholders filled in).
mkdir -p "$work/nginx" "$work/proxy-cache"
origin_server_block "$ORIGIN_PORT" "$work/origin" "$work/origin.log" > "$work/nginx/origin.conf"
upstreams=""
for port in "${ports[@]}"; do upstreams+="    server 127.0.0.1:$port max_fails=1 fail_timeout=5s;\n"; done
sed -e "/^#/d" -e "s|@LISTEN@|127.0.0.1:$FRONT_PORT|" -e "s|@CACHE_PATH@|$work/proxy-cache|" \
    -e "s|@ACCESS_LOG@|$work/front.log|" -e "s|@UPSTREAM_SERVERS@|${upstreams%\\n}|" \
    deploy/nginx/pinhole-cluster.conf > "$work/nginx/front.conf"
printf 'include %s;\ninclude %s;\n' "$work/nginx/origin.conf" "$work/nginx/front.conf" > "$work/nginx/servers.conf"
start_nginx "$work/nginx" "$work/nginx/servers.conf"
wait_for "http://127.0.0.1:$ORIGIN_PORT/probe.txt"
wait_for "http://127.0.0.1:$FRONT_PORT/health"

run_wrk() {  # $1 origin URL, $2 seconds, $3 output file
    wrk -t 1 -c "$connections" -d "$2s" --timeout 30s -s scripts/wrk-paths.lua "$1" -- "$paths" 1 > "$3" 2>&1
}

# 1. The baseline: one instance alone, wrk straight at it.
baseline_seconds=$((duration / 4 < 10 ? 10 : duration / 4))
echo "[cluster] baseline: one instance, ${baseline_seconds} s" >&2
start_serve "$BASE_PORT" "$work/cache-baseline" "$work/baseline"
pids+=("$SERVE_PID")
wait_for "http://127.0.0.1:$BASE_PORT/health"
run_wrk "http://127.0.0.1:$BASE_PORT" "$baseline_seconds" "$work/baseline.wrk"
kill -TERM "$SERVE_PID"
wait "$SERVE_PID" || true
baseline_origin_requests=$(grep -vc ' /probe.txt$' "$work/origin.log" || true)
: > "$work/origin.log"  # nginx appends (O_APPEND): the cluster's lines start at 0

# 2. The cluster: three instances behind the front.
serve_pids=()
for i in 0 1 2; do
    start_serve "${ports[$i]}" "$work/cache-$i" "$work/serve-$i"
    serve_pids[i]=$SERVE_PID
    pids+=("$SERVE_PID")
done
for port in "${ports[@]}"; do wait_for "http://127.0.0.1:$port/health"; done

echo "[cluster] cluster: three instances behind nginx, ${duration} s; instance 2 killed at $((duration / 3)) s," \
    "restarted at $((2 * duration / 3)) s" >&2
load_before=$(cut -d' ' -f1 /proc/loadavg)
started=$(date +%s.%N)
run_wrk "http://127.0.0.1:$FRONT_PORT" "$duration" "$work/cluster.wrk" &
wrk_pid=$!
pids+=("$wrk_pid")
sleep $((duration / 3))
reused_metric='pinhole_cache_hits_total{tier="source_unstored_download"}'
scrape_reused() {  # $1 port: the instance's count of downloads reused before their disk store
    curl -fsS "http://127.0.0.1:$1/metrics" | awk -v name="$reused_metric" '$1 == name { print $2 }'
}
killed_reused=$(scrape_reused "$PORT2" || echo null)
killed_at=$(date +%s.%N)
kill -KILL "${serve_pids[1]}"
wait "${serve_pids[1]}" 2>/dev/null || true
echo "[cluster] killed instance 2 (port $PORT2)" >&2
sleep $((2 * duration / 3 - duration / 3))
restarted_at=$(date +%s.%N)
start_serve "$PORT2" "$work/cache-1" "$work/serve-1"
pids+=("$SERVE_PID")
echo "[cluster] restarted instance 2" >&2
wait "$wrk_pid" || { echo "[cluster] wrk failed:" >&2; cat "$work/cluster.wrk" >&2; exit 1; }
ended=$(date +%s.%N)
sleep 1  # nginx writes its access log line after the answer
reused="{\"127.0.0.1:$PORT2 before the kill\": ${killed_reused:-null}"
for port in "${ports[@]}"; do reused+=", \"127.0.0.1:$port\": $(scrape_reused "$port" || echo null)"; done
echo "$reused}" > "$work/reused.json"

python3 - "$work" "$started" "$killed_at" "$restarted_at" "$ended" "$baseline_seconds" "$duration" \
    "$baseline_origin_requests" "127.0.0.1:$PORT2" "${#sources[@]}" "$load_before $(cut -d' ' -f1 /proc/loadavg)" \
    "$(nproc)" <<'PY'
import collections, json, re, sys

work, started, killed, restarted, ended = sys.argv[1], *map(float, sys.argv[2:6])
baseline_seconds, duration, baseline_origin, killed_address, source_count = (
    int(sys.argv[6]), int(sys.argv[7]), int(sys.argv[8]), sys.argv[9], int(sys.argv[10]))

def wrk_summary(path):
    for line in open(path):
        if line.startswith("WRK-SUMMARY "):
            return json.loads(line[len("WRK-SUMMARY "):])
    sys.exit(f"no WRK-SUMMARY in {path}: {open(path).read()}")

base, cluster = wrk_summary(f"{work}/baseline.wrk"), wrk_summary(f"{work}/cluster.wrk")

def phase(t):
    return "stable" if t < killed else "degraded" if t < restarted else "restored"

# The front's access log: $msec $status $upstream_status "$upstream_addr" $upstream_cache_status $request_uri
statuses, by_phase, retried, cache, per_instance = (collections.Counter(), collections.Counter(),
                                                    collections.Counter(), collections.Counter(),
                                                    collections.Counter())
for line in open(f"{work}/front.log"):
    m = re.match(r'(\S+) (\d+) (.*?) "(.*?)" (\S+) (\S+)$', line.strip())
    if not m or not m.group(6).startswith("/_/"):
        continue
    t, status, upstream_status, addresses = float(m.group(1)), m.group(2), m.group(3), m.group(4)
    statuses[status] += 1
    if not status.startswith("2"):
        by_phase[phase(t)] += 1
    if "," in addresses:
        retried[phase(t)] += 1
    cache[m.group(5)] += 1
    for address in addresses.replace(" : ", ", ").split(", "):
        if address and address != "-":
            per_instance[address] += 1

# The origin's access log: $msec $status $uri
per_source = collections.defaultdict(collections.Counter)
for line in open(f"{work}/origin.log"):
    t, _, uri = line.split()
    if uri == "/probe.txt":
        continue
    per_source[uri][phase(float(t))] += 1

def spread(key):
    counts = [per_source[s][key] if key != "total" else sum(per_source[s].values()) for s in per_source]
    counts += [0] * (source_count - len(counts))
    return {"max": max(counts), "mean": round(sum(counts) / source_count, 2), "sum": sum(counts)}

wrk_errors = {k: cluster[k] for k in ("connectErrors", "readErrors", "writeErrors", "timeouts", "statusErrors")}
non2xx = {s: n for s, n in cluster["statuses"].items() if not s.startswith("2")}
cluster_rps = cluster["requests"] / (cluster["durationMicroseconds"] / 1e6)
base_rps = base["requests"] / (base["durationMicroseconds"] / 1e6)
print(json.dumps({
    "seconds": duration, "sources": source_count, "instances": 3,
    "killedInstance": killed_address,
    "killedAtSeconds": round(killed - started, 1), "restartedAtSeconds": round(restarted - started, 1),
    "clientErrors": {
        "wrk": {**wrk_errors, "non2xxStatuses": non2xx},
        "nginxNon2xx": {s: n for s, n in statuses.items() if not s.startswith("2")},
        "nginxNon2xxByPhase": dict(by_phase),
    },
    "served": {"requests": cluster["requests"], "byStatus": cluster["statuses"]},
    "retried": dict(retried),
    "proxyCache": dict(cache),
    "requestsPerInstance": dict(sorted(per_instance.items())),
    "throughput": {
        "clusterRequestsPerSecond": round(cluster_rps, 1),
        "oneInstanceRequestsPerSecond": round(base_rps, 1),
        "ratio": round(cluster_rps / base_rps, 2) if base_rps else None,
        "oneInstanceSeconds": baseline_seconds,
        "clusterP99Milliseconds": round(cluster["p99Microseconds"] / 1000, 1),
        "oneInstanceP99Milliseconds": round(base["p99Microseconds"] / 1000, 1),
    },
    "originRequestsPerSource": {key: spread(key) for key in ("stable", "degraded", "restored", "total")},
    "oneInstanceOriginRequests": baseline_origin,
    "downloadsReusedBeforeTheirStore": json.load(open(f"{work}/reused.json")),
    "wrapped": cluster["wrapped"],
    "cores": int(sys.argv[12]), "loadAverageAtStartAndEnd": list(map(float, sys.argv[11].split())),
}, indent=2))
PY
