# Shared by scripts/cluster.sh and scripts/soak-serve.sh (sourced, not run): the pinhole binary, free loopback
# ports, bounded waits, an nginx origin over the photo corpus, and `pinhole serve` children that the caller's
# trap ends. Needs $work (a temporary directory) set by the caller.

# The release binary: $PINHOLE_BIN, else .build/release/pinhole (built when absent).
pinhole_binary() {
    if [ -n "${PINHOLE_BIN:-}" ]; then
        echo "$PINHOLE_BIN"
        return
    fi
    if [ ! -x .build/release/pinhole ]; then
        echo "[serve-lib] swift build -c release --product pinhole" >&2
        swift build -c release --product pinhole >&2
    fi
    echo "$PWD/.build/release/pinhole"
}

# N distinct free loopback ports, one a line (bound and released at once: free when this returns).
free_ports() {
    python3 - "$1" <<'PY'
import socket, sys
sockets = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    sockets.append(s)
print("\n".join(str(s.getsockname()[1]) for s in sockets))
PY
}

# Waits (at most $2 seconds, default 20) until URL $1 answers 200.
wait_for() {
    local deadline=$(($(date +%s) + ${2:-20}))
    until curl -sf -o /dev/null --max-time 2 "$1"; do
        [ "$(date +%s)" -lt "$deadline" ] || { echo "[serve-lib] $1 did not answer" >&2; return 1; }
        sleep 0.2
    done
}

# nginx's main configuration around the server blocks in $2, everything under prefix $1 (daemon off).
nginx_main_conf() {
    cat <<CONF
daemon off;
master_process on;
worker_processes 1;
pid $1/nginx.pid;
error_log $1/error.log warn;
events { worker_connections 4096; }
http {
    types { image/jpeg jpg jpeg; image/png png; image/webp webp; text/html html; }
    default_type application/octet-stream;
    sendfile on;
    keepalive_requests 1000000;
    access_log off;
    client_body_temp_path $1/body;
    proxy_temp_path $1/proxy;
    fastcgi_temp_path $1/fastcgi;
    uwsgi_temp_path $1/uwsgi;
    scgi_temp_path $1/scgi;
    include $2;
}
CONF
}

# Starts nginx with prefix $1 and the server blocks in file $2; sets NGINX_PID.
start_nginx() {
    mkdir -p "$1"
    nginx_main_conf "$1" "$2" > "$1/nginx.conf"
    # Output to files: a worker holding the caller's stdout would keep a pipe reading it open.
    /usr/sbin/nginx -p "$1/" -c "$1/nginx.conf" -e "$1/error.log" > "$1/stdout.log" 2> "$1/stderr.log" &
    NGINX_PID=$!
}

# Stops the nginx of NGINX_PID: SIGTERM (the master ends its workers; SIGKILL would leave them running),
# SIGKILL after 10 s.
stop_nginx() {
    [ -n "${NGINX_PID:-}" ] || return 0
    kill -TERM "$NGINX_PID" 2>/dev/null || return 0
    local i
    for i in $(seq 100); do
        kill -0 "$NGINX_PID" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$NGINX_PID" 2>/dev/null || true
    wait "$NGINX_PID" 2>/dev/null || true
}

# An origin server block on port $1 serving directory $2, one line per request (`$msec $status $uri`) in $3.
# Its answers say `Cache-Control: max-age=86400`, as an image store's do: without it a cached source would be
# revalidated (304) at every request, its copies being new (heuristic freshness from Last-Modified is ~0).
origin_server_block() {
    cat <<CONF
log_format origin '\$msec \$status \$uri';
server {
    listen 127.0.0.1:$1;
    root $2;
    expires 1d;
    access_log $3 origin;
}
CONF
}

# Starts `pinhole serve` on port $1 with cache directory $2 and logs under $3 (more arguments follow); sets
# SERVE_PID. Stdout (the access log) goes to $3.access.jsonl, stderr to $3.stderr (appended: restarts add to it).
start_serve() {
    local port=$1 cache=$2 log=$3
    shift 3
    "$PINHOLE" serve --listen "127.0.0.1:$port" --cache-dir "$cache" --allow-unsigned \
        --allow-source "http://127.0.0.1:$ORIGIN_PORT/" "$@" >> "$log.access.jsonl" 2>> "$log.stderr" &
    SERVE_PID=$!
}

# Sends SIGKILL to every pid given that is still running, and waits for them.
kill_all() {
    local pid
    for pid in "$@"; do
        [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null || true
    done
    for pid in "$@"; do
        [ -n "$pid" ] && wait "$pid" 2>/dev/null || true
    done
}
