#!/usr/bin/env bash
# The gallery's frame-time benchmark (BENCHMARKS.md, "Terminal gallery"): the scripted flick over the 200-item demo
# feed in every graphics mode and both layouts, each next to the reference (the same script over 200 items without
# images), with the machine's load average. Symbols and half blocks run in a 120×40 tmux pane; sixel, kitty and
# iTerm2 in xterm -ti vt340 (120×40) on an Xvfb display of this script's own (xterm draws sixel and ignores the kitty
# and iTerm2 sequences, so those two runs measure Pinhole's side only: drawing, caching, writing).
#
#   scripts/bench-gallery.sh [OUT_DIR]        (needs a release build: swift build -c release --product pinhole)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/pinhole-gallery-bench}
mkdir -p "$out"
binary=$PWD/.build/release/pinhole
export PINHOLE_CORPUS=${PINHOLE_CORPUS:-${XDG_CACHE_HOME:-$HOME/.cache}/pinhole/corpus}
list_script='ready,down:199,up:199,pgdn:28/300,ready,pgup:28/50,quit'
grid_script='ready,g,down:33,up:33,pgdn:11/300,ready,pgup:11/50,quit'

python3 -c 'import json; json.dump({"version": "https://jsonfeed.org/version/1.1", "title": "no images",
  "items": [{"id": str(i), "title": f"Item {i}", "date_published": "2026-03-04T10:20:30Z"} for i in range(200)]},
  open("'"$out"'/noimages.json", "w"))'

socket=pinhole-bench-$$
display_pid=""
cleanup() {
  tmux -L "$socket" kill-server 2>/dev/null || true
  [ -n "$display_pid" ] && kill "$display_pid" 2>/dev/null || true
}
trap cleanup EXIT

# run NAME MODE LAYOUT-SCRIPT [FEED]: one run in tmux (symbols, halfblocks) or xterm (the image protocols).
run() {
  local name=$1 mode=$2 script=$3 feed=${4:-}
  local stats=$out/$name.json
  rm -f "$stats"
  local command="$binary gallery $feed --graphics $mode --script '$script' --stats-json $stats"
  echo "$(date +%H:%M:%S) $name (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  case $mode in
    symbols|halfblocks)
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

for mode in symbols halfblocks sixel kitty iterm; do
  run "reference-$mode" "$mode" "$list_script" "$out/noimages.json"
  run "list-$mode" "$mode" "$list_script"
  run "grid-$mode" "$mode" "$grid_script"
done

python3 - "$out" <<'EOF'
import json, sys, glob, os
out = sys.argv[1]
print("| run | mode | frame p50 | frame p99 | max | hitches / frames | hangs | work p99 | shown | decodes | CPU s / wall s | peak RSS | load after |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for mode in ["symbols", "halfblocks", "sixel", "kitty", "iterm"]:
    for kind in ["reference", "list", "grid"]:
        path = f"{out}/{kind}-{mode}.json"
        if not os.path.exists(path): continue
        s = json.load(open(path))
        load = open(f"{out}/{kind}-{mode}.load").read().strip()
        print(f"| {kind} | {s['mode']} | {s['frameP50Ms']:.2f} ms | {s['frameP99Ms']:.1f} ms | {s['frameMaxMs']:.0f} ms | "
              f"{s['hitches']} / {s['frames']} | {s['hangs']} | {s['workP99Ms']:.2f} ms | {s['imagesShown']} | "
              f"{s['decodes']} | {s['cpuSeconds']:.1f} / {s['seconds']:.1f} | {s['peakRSSBytes'] / 1e6:.0f} MB | {load} |")
EOF
