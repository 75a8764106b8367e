#!/usr/bin/env bash
# Makes the small synthetic animations of Tests/Fixtures/animation (issue 28) with ImageMagick 6 and libwebp's
# tools (Debian: imagemagick, webp). Colours and geometry are what Tests/PinholeVipsTests/Animation checks.
set -euo pipefail
out="$(cd "$(dirname "$0")/.." && pwd)/Tests/Fixtures/animation"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# disposal.gif: 8x8 canvas, 4 frames, loop 0. Frame 0: full red, disposal none. Frame 1: green 4x4 at (0,0),
# disposal background (its area is cleared after it shows). Frame 2: blue 4x4 at (4,4), disposal previous
# (frame 3 sees the canvas as before frame 2). Frame 3: yellow 2x2 at (6,0), disposal none.
# Delays (1/100 s): 10, 20, 5 (50 ms), 1 (10 ms, shown as 100 ms).
convert -size 8x8 xc:red "$tmp/f0.png"
convert -size 4x4 xc:lime "$tmp/f1.png"
convert -size 4x4 xc:blue "$tmp/f2.png"
convert -size 2x2 xc:yellow "$tmp/f3.png"
convert -loop 0 \
  -dispose none -delay 10 -page 8x8+0+0 "$tmp/f0.png" \
  -dispose background -delay 20 -page 8x8+0+0 "$tmp/f1.png" \
  -dispose previous -delay 5 -page 8x8+4+4 "$tmp/f2.png" \
  -dispose none -delay 1 -page 8x8+6+0 "$tmp/f3.png" \
  "$out/disposal.gif"

# truncated.gif: the same GIF cut in the middle of frame 2's pixel data (frames 0 and 1 are whole).
python3 - "$out/disposal.gif" "$out/truncated.gif" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
pos = 13 + (3 << ((data[10] & 7) + 1) if data[10] & 0x80 else 0)
images = []
while data[pos] != 0x3B:
    if data[pos] == 0x21:  # extension: label, then sub-blocks
        pos += 2
    else:  # image descriptor, local colour table, LZW code size, then sub-blocks
        images.append(pos)
        flags = data[pos + 9]
        pos += 10 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0) + 1
    while data[pos]:
        pos += data[pos] + 1
    pos += 1
flags = data[images[2] + 9]
cut = images[2] + 10 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0) + 3  # into frame 2's first sub-block
open(sys.argv[2], 'wb').write(data[:cut])
PY

# blend.webp: 8x8 lossless, loop 3. Frame 0: opaque red. Frame 1: half-transparent blue 4x4 at (0,0), blended
# onto frame 0. Frame 2: the same half-transparent blue 4x4 at (4,4), not blended (replaces what was there).
# Durations 100, 200, 300 ms.
convert -size 8x8 xc:red "$tmp/w0.png"
convert -size 4x4 xc:'rgba(0,0,255,0.5)' "$tmp/w1.png"
cwebp -quiet -lossless -exact "$tmp/w0.png" -o "$tmp/w0.webp"
cwebp -quiet -lossless -exact "$tmp/w1.png" -o "$tmp/w1.webp"
webpmux -frame "$tmp/w0.webp" +100+0+0+0-b -frame "$tmp/w1.webp" +200+0+0+0+b \
  -frame "$tmp/w1.webp" +300+4+4+0-b -loop 3 -bgcolor 0,0,0,0 -o "$out/blend.webp"

# bomb.gif: a 1x1 GIF declaring 10,000 frames (each frame a few bytes); the frame limit must refuse it from the
# header before any frame is decoded.
python3 - "$out/bomb.gif" <<'PY'
import struct, sys
frame = bytes([0x21, 0xF9, 4, 0, 1, 0, 0, 0]) + bytes([0x2C]) + struct.pack('<HHHH', 0, 0, 1, 1) + bytes([0])
frame += bytes([2, 2, 0x44, 0x01, 0])  # LZW min code size 2, one sub-block: clear, 0, end
head = b'GIF89a' + struct.pack('<HH', 1, 1) + bytes([0x80, 0, 0]) + bytes([0, 0, 0, 255, 255, 255])
loop = bytes([0x21, 0xFF, 11]) + b'NETSCAPE2.0' + bytes([3, 1, 0, 0, 0])
open(sys.argv[1], 'wb').write(head + loop + frame * 10000 + b';')
PY

# sixty.gif: 60 frames of 64x64, each a different grey, a moving white bar (for the frame-cost measurement
# and the range tests).
args=()
for i in $(seq 0 59); do
  convert -size 64x64 "xc:rgb($((i * 4)),$((i * 4)),$((i * 4)))" -fill white -draw "rectangle $i,0 $((i + 3)),63" \
    "$tmp/s$i.png"
  args+=(-delay 4 "$tmp/s$i.png")
done
convert -loop 0 "${args[@]}" "$out/sixty.gif"
img2webp -loop 0 -lossless -d 40 $(for i in $(seq 0 59); do echo "$tmp/s$i.png"; done) -o "$out/sixty.webp" \
  >/dev/null
ls -l "$out"
