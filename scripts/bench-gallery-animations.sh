#!/usr/bin/env bash
# The gallery's frame times while 12 animations play (BENCHMARKS.md, "Animations in the gallery"): a grid of 40
# items whose pictures are the corpus script's animated pans and cross-fades (3 URLs each of the 4 files, so every
# cell on screen is its own animation), held still for SECONDS after every visible cell is drawn; next to the
# reference, the same grid and wait with the animations' first frames as still PNGs. Symbols in a 120×40 tmux
# pane, then sixel in xterm -ti vt340 on an Xvfb display of this script's own. Prints one table row per run.
#
#   scripts/bench-gallery-animations.sh [SECONDS] [OUT_DIR]   (needs a release build and scripts/make-corpus.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
out=${2:-/tmp/pinhole-gallery-animations}
mkdir -p "$out/www"
binary=$PWD/.build/release/pinhole
animated=${PINHOLE_ANIMATED:-${XDG_CACHE_HOME:-$HOME/.cache}/pinhole/animated}
files=(pan-1.gif pan-2.gif fade-1.webp fade-2.webp)
for file in "${files[@]}"; do
  [ -s "$animated/$file" ] || { echo "no $animated/$file: run scripts/make-corpus.sh" >&2; exit 1; }
  cp "$animated/$file" "$out/www/$file"
  vips copy "$animated/$file[page=0]" "$out/www/${file%.*}-still.png"
done

socket=pinhole-anim-bench-$$
display_pid=""
origin_pid=""
cleanup() {
  tmux -L "$socket" kill-server 2>/dev/null || true
  [ -n "$display_pid" ] && kill "$display_pid" 2>/dev/null || true
  [ -n "$origin_pid" ] && kill "$origin_pid" 2>/dev/null || true
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$out/www" > "$out/origin.log" 2>&1 &
origin_pid=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/${files[0]}" -o /dev/null && break; sleep 0.1; done

# feed NAME STILL: 40 items, item i showing file i mod 4 (as a URL of its own: ?copy=i), or its still first frame.
feed() {
  python3 - "$out/$1.json" "$port" "$2" "${files[@]}" <<'EOF'
import json, sys
path, port, still, files = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4:]
def image(i):
    name = files[i % len(files)]
    if still: name = name.rsplit(".", 1)[0] + "-still.png"
    return f"http://127.0.0.1:{port}/{name}?copy={i}"
items = [{"id": str(i), "title": f"Item {i}", "date_published": "2026-03-04T10:20:30Z", "image": image(i)}
         for i in range(40)]
json.dump({"version": "https://jsonfeed.org/version/1.1", "title": sys.argv[1], "items": items}, open(path, "w"))
EOF
}
feed animated 0
feed still 1
script="ready,wait:$((seconds * 1000)),quit"

run() {
  local name=$1 mode=$2 feed=$3
  local stats=$out/$name.json
  rm -f "$stats"
  local command="$binary gallery $out/$feed.json --layout grid --graphics $mode --script '$script' --stats-json $stats"
  echo "$(date +%H:%M:%S) $name (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  case $mode in
    symbols)
      tmux -L "$socket" -f /dev/null new-session -d -x 120 -y 40 "$command"
      while tmux -L "$socket" has-session 2>/dev/null; do sleep 1; done ;;
    *)
      if [ -z "$display_pid" ]; then
        Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$out/display" 2>/dev/null &
        display_pid=$!
        for _ in $(seq 100); do [ -s "$out/display" ] && break; sleep 0.1; done
      fi
      LANG=C.UTF-8 xterm -display ":$(cat "$out/display")" -ti vt340 -fa 'DejaVu Sans Mono' -fs 10 \
        -geometry 120x40+0+0 -b 0 +sb -u8 -e sh -c "$command" ;;
  esac
  echo "$(cut -d' ' -f1-3 /proc/loadavg)" > "$out/$name.load"
}

for mode in symbols sixel; do
  run "still-$mode" "$mode" still
  run "animated-$mode" "$mode" animated
done

python3 - "$out" <<'EOF'
import json, sys, os
out = sys.argv[1]
print("| run | mode | frame p50 | frame p99 | max | hitches / frames | hangs | frames drawn | work p99 | animation frames shown / skipped / decoded | tick mean / max | frame memory peak | CPU s / wall s | peak RSS | load after |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for mode in ["symbols", "sixel"]:
    for kind in ["still", "animated"]:
        path = f"{out}/{kind}-{mode}.json"
        if not os.path.exists(path): continue
        s = json.load(open(path))
        a = s.get("animation") or {}
        load = open(f"{out}/{kind}-{mode}.load").read().strip()
        print(f"| {kind} | {s['mode']} | {s['frameP50Ms']:.2f} ms | {s['frameP99Ms']:.1f} ms | {s['frameMaxMs']:.0f} ms | "
              f"{s['hitches']} / {s['frames']} | {s['hangs']} | {s['framesDrawn']} | {s['workP99Ms']:.2f} ms | "
              f"{a.get('framesShown', 0)} / {a.get('framesSkipped', 0)} / {a.get('framesDecoded', 0)} | "
              f"{a.get('tickMeanMs', 0):.3f} / {a.get('tickMaxMs', 0):.2f} ms | {a.get('peakFrameBytes', 0) / 1e6:.1f} MB | "
              f"{s['cpuSeconds']:.1f} / {s['seconds']:.1f} | {s['peakRSSBytes'] / 1e6:.0f} MB | {load} |")
EOF
