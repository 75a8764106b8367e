#!/usr/bin/env bash
# Makes the demo feed's animated items from real photos of the corpus (no animation is committed): two pans
# across a photo as animated GIF (ImageMagick) and two cross-fades between photos as animated WebP (img2webp).
#
# Usage:  scripts/make-animations.sh CORPUS [OUTDIR]
#         OUTDIR defaults to CORPUS/../animated (outside the corpus, whose file count the tests and
#         `make demo` know). Run by scripts/make-corpus.sh.
# Fast path: OUTDIR/.animations-version equal to ANIMATIONS_VERSION and every file present: exit at once.
# The files carry the licence of their source photos (the corpus' MANIFEST.tsv).
set -euo pipefail

# Bump when the files, their names or the way they are made change.
ANIMATIONS_VERSION="pinhole-animations 1 (24-frame pans at 50 ms, 24-frame fades at 80 ms)"
CORPUS=${1:?usage: make-animations.sh CORPUS [OUTDIR]}
OUT=${2:-$(dirname "$CORPUS")/animated}
STAMP=.animations-version
FILES=(pan-1.gif pan-2.gif fade-1.webp fade-2.webp)

log() { printf '[make-animations] %s\n' "$*" >&2; }

complete() {
    [ -f "$OUT/$STAMP" ] && [ "$(cat "$OUT/$STAMP")" = "$ANIMATIONS_VERSION" ] || return 1
    for file in "${FILES[@]}"; do [ -s "$OUT/$file" ] || return 1; done
}
complete && exit 0

# Four photos, the same ones for a given corpus: its plain JPEGs (no derived variant), sorted.
mapfile -t PHOTOS < <(ls "$CORPUS" | grep -E '\.jpg$' | grep -vE 'cmyk|exif|progressive|baseline|portrait' \
    | sort | head -4)
[ "${#PHOTOS[@]}" -eq 4 ] || { log "error: fewer than 4 photos in $CORPUS"; exit 1; }

STAGE=$(mktemp -d "$(dirname "$OUT")/.animated-stage.XXXXXX")
trap 'rm -rf "$STAGE"' EXIT

# A window of two thirds of the photo (shrunk to 480 px) moved from the top-left corner to the bottom-right one.
pan() {
    local photo=$1 out=$2 frames=24 i
    convert "$CORPUS/$photo" -auto-orient -resize 480x480 "$STAGE/base.png"
    read -r width height < <(identify -format '%w %h\n' "$STAGE/base.png")
    local w=$((width * 2 / 3)) h=$((height * 2 / 3))
    for i in $(seq 0 $((frames - 1))); do
        convert "$STAGE/base.png" -crop "${w}x${h}+$(((width - w) * i / (frames - 1)))+$(((height - h) * i / (frames - 1)))" \
            +repage "$STAGE/pan-$(printf %02d "$i").png"
    done
    convert -delay 5 -loop 0 "$STAGE"/pan-*.png -layers Optimize "$STAGE/$out"
    rm -f "$STAGE"/pan-*.png "$STAGE/base.png"
}

# Photo a → b → a: 12 frames a crossing, 24 in all (the closing a left out), 360×240, 80 ms a frame.
fade() {
    local a=$1 b=$2 out=$3
    for photo in "$a" "$b"; do
        convert "$CORPUS/$photo" -auto-orient -resize 360x240^ -gravity center -extent 360x240 "$STAGE/$photo.png"
    done
    convert "$STAGE/$a.png" "$STAGE/$b.png" "$STAGE/$a.png" -morph 11 "$STAGE/fade-%02d.png"
    img2webp -loop 0 -lossy -q 70 -d 80 $(ls "$STAGE"/fade-*.png | head -n -1) -o "$STAGE/$out" >/dev/null 2>&1
    rm -f "$STAGE"/fade-*.png "$STAGE/$a.png" "$STAGE/$b.png"
}

log "pans (GIF) and cross-fades (WebP) of ${PHOTOS[*]}"
pan "${PHOTOS[0]}" pan-1.gif
pan "${PHOTOS[1]}" pan-2.gif
fade "${PHOTOS[2]}" "${PHOTOS[3]}" fade-1.webp
fade "${PHOTOS[0]}" "${PHOTOS[1]}" fade-2.webp

mkdir -p "$OUT"
rm -f "$OUT/$STAMP"
for file in "${FILES[@]}"; do mv "$STAGE/$file" "$OUT/$file"; done
echo "$ANIMATIONS_VERSION" > "$OUT/$STAMP"
log "done: ${#FILES[@]} animations in $OUT ($(du -sh "$OUT" | cut -f1))"
