#!/usr/bin/env python3
"""Thumbnails FILES in this one process with Pillow or pyvips, for `pinhole bench thumbnail --compare`.

Usage: bench-thumbnail.py pillow|pyvips SIZE QUALITY OUTDIR FILE...

Each file becomes OUTDIR/<stem>.jpg: longest side at most SIZE pixels, JPEG QUALITY, upright (EXIF orientation
applied), metadata stripped. Set up the way each library gives right pictures fast:
- pillow: `draft` (JPEG DCT scaling to at least twice the box, as `thumbnail`'s reducing_gap does) before
  loading, `ImageOps.exif_transpose`, `thumbnail` (its default filter), RGB, saved without EXIF.
- pyvips: `Image.thumbnail` (shrink-on-load, autorotate, sRGB export) and `jpegsave(strip=True)`; the
  operation cache off, as in Pinhole.
Exits 1 at the first failure, with the file name on stderr.
"""
import os
import sys


def pillow_thumbnail(path, size, quality, out):
    from PIL import Image, ImageOps

    with Image.open(path) as image:
        if image.format == "JPEG":
            image.draft("RGB", (2 * size, 2 * size))
        image = ImageOps.exif_transpose(image)
        if image.mode not in ("RGB", "L"):
            image = image.convert("RGB")
        image.thumbnail((size, size))
        image.save(out, "JPEG", quality=quality)


def pyvips_thumbnail(path, size, quality, out):
    import pyvips

    image = pyvips.Image.thumbnail(path, size, height=size, size="down", export_profile="srgb")
    if image.hasalpha():
        image = image.flatten(background=[255, 255, 255])
    image.jpegsave(out, Q=quality, strip=True)


def main(argv):
    if len(argv) < 5 or argv[0] not in ("pillow", "pyvips"):
        print(__doc__, file=sys.stderr)
        return 2
    tool, size, quality, outdir, files = argv[0], int(argv[1]), int(argv[2]), argv[3], argv[4:]
    if tool == "pyvips":
        import pyvips

        pyvips.cache_set_max(0)
        thumbnail = pyvips_thumbnail
    else:
        thumbnail = pillow_thumbnail
    for path in files:
        stem = os.path.splitext(os.path.basename(path))[0]
        try:
            thumbnail(path, size, quality, os.path.join(outdir, stem + ".jpg"))
        except Exception as error:  # noqa: BLE001 - report which file failed, then stop
            print(f"{tool}: {path}: {error}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
