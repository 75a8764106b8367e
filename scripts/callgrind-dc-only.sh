#!/usr/bin/env bash
# Instructions (valgrind callgrind, Ir) of a libjpeg 1/8-scale decode of every progressive JPEG of the corpus,
# whole file against the stream DC-only decoding gives libjpeg: a measure of the DC-only gain that no other load
# on the machine changes. Needs valgrind, a C compiler, libjpeg62-turbo-dev and a built pinhole.
#
#   scripts/callgrind-dc-only.sh [CORPUS] [PINHOLE]
#       CORPUS   default $PINHOLE_CORPUS, else ~/.cache/pinhole/corpus
#       PINHOLE  default .build/release/pinhole (build it with `swift build -c release --product pinhole`)
#
# Prints one line per file (whole-file Ir, DC-only Ir, ratio) and the totals. Files the DC-only path declines
# (nothing to leave out) are listed as such.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS="${1:-${PINHOLE_CORPUS:-${XDG_CACHE_HOME:-$HOME/.cache}/pinhole/corpus}}"
PINHOLE="${2:-.build/release/pinhole}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cc -O2 scripts/callgrind/jpeg-scaled-decode.c -ljpeg -o "$WORK/decode"

instructions() {  # total Ir of one run of the decoder on $1
    valgrind --tool=callgrind --callgrind-out-file="$WORK/out" "$WORK/decode" "$1" >/dev/null 2>&1
    awk '/^totals:/ {print $2}' "$WORK/out"
}

total_whole=0
total_dc=0
printf '%-34s %15s %15s %7s\n' file "whole file Ir" "DC-only Ir" "×"
for file in "$CORPUS"/*.jpg; do
    # Progressive (SOF2) only.
    python3 - "$file" <<'PY' || continue
import sys
data = open(sys.argv[1], 'rb').read(65536)
i = 2
while i + 4 <= len(data) and data[i] == 0xFF:
    marker = data[i + 1]
    if marker == 0xC2: sys.exit(0)
    if marker in (0xC0, 0xC1, 0xDA): sys.exit(1)
    i += 2 + (data[i + 2] << 8 | data[i + 3])
sys.exit(1)
PY
    name="$(basename "$file")"
    if ! "$PINHOLE" debug dc-only-stream "$file" "$WORK/stream.jpg" 2>/dev/null; then
        printf '%-34s declined by the DC-only path\n' "$name"
        continue
    fi
    whole=$(instructions "$file")
    dc=$(instructions "$WORK/stream.jpg")
    total_whole=$((total_whole + whole))
    total_dc=$((total_dc + dc))
    printf '%-34s %15d %15d %7.2f\n' "$name" "$whole" "$dc" "$(awk -v a="$whole" -v b="$dc" 'BEGIN { print a / b }')"
done
ratio=$(awk -v a="$total_whole" -v b="$total_dc" 'BEGIN { print (b > 0 ? a / b : 0) }')
printf '%-34s %15d %15d %7.2f\n' total "$total_whole" "$total_dc" "$ratio"
