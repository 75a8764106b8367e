#!/usr/bin/env python3
"""Writes Tests/Fixtures/thumbhash/vectors.json: ThumbHashes of generated images made by thumbhash-python 1.0.1
(PyPI; a port of Evan Wallace's reference implementation), for ThumbHashReferenceTests.

    scripts/thumbhash-vectors.py            (installs thumbhash-python into the bench venv when absent)

Each image is a pattern of integer formulas that the Swift test computes the same way (see PATTERNS); the file
holds each one's size, its hash in base64, and the pixels thumbhash-python decodes from that hash (it rounds
where the reference truncates, so the test allows 1 level).
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "Tests", "Fixtures", "thumbhash", "vectors.json")


def ensure_thumbhash():
    python = subprocess.run(["/bin/sh", os.path.join(HERE, "bench-venv.sh")], check=True, capture_output=True,
                            text=True).stdout.strip()
    if subprocess.run([python, "-c", "import thumbhash"], capture_output=True).returncode != 0:
        subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        "thumbhash-python==1.0.1"], check=True)
    return python


def pixel(pattern, x, y, w, h):
    """One RGBA pixel of a pattern (integer arithmetic only)."""
    if pattern == "gradient":
        return (x * 255 // max(1, w - 1), y * 255 // max(1, h - 1), 128, 255)
    if pattern == "alpha-gradient":
        return (x * 255 // max(1, w - 1), 40, y * 255 // max(1, h - 1), (x + y) * 255 // max(1, w + h - 2))
    if pattern == "checker":
        return (220, 30, 30, 255) if (x // 8 + y // 8) % 2 == 0 else (20, 40, 200, 255)
    if pattern == "disc":
        inside = (2 * x + 1 - w) ** 2 + (2 * y + 1 - h) ** 2 <= min(w, h) ** 2
        return (250, 200, 20, 255) if inside else (0, 0, 0, 0)
    if pattern == "flat":
        return (90, 160, 60, 255)
    raise ValueError(pattern)


CASES = [("gradient", 100, 75), ("gradient", 40, 100), ("gradient", 100, 10), ("alpha-gradient", 64, 48),
         ("checker", 100, 100), ("checker", 33, 17), ("disc", 80, 80), ("disc", 100, 50), ("flat", 1, 1),
         ("flat", 7, 3)]


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--inside-venv":
        from thumbhash.encode import rgba_to_thumbhash
        from thumbhash.decode import thumbhash_to_rgba
        import base64
        vectors = []
        for pattern, w, h in CASES:
            rgba = [c for y in range(h) for x in range(w) for c in pixel(pattern, x, y, w, h)]
            digest = rgba_to_thumbhash(w, h, rgba)
            dw, dh, decoded = thumbhash_to_rgba(digest)
            vectors.append({"pattern": pattern, "width": w, "height": h,
                            "hash": base64.b64encode(digest).decode(), "decodedWidth": dw, "decodedHeight": dh,
                            "decoded": list(decoded)})
        document = {"generator": "thumbhash-python 1.0.1 (scripts/thumbhash-vectors.py)", "vectors": vectors}
        with open(OUT, "w") as out:
            json.dump(document, out, separators=(",", ":"))
            out.write("\n")
        print(f"{len(vectors)} vectors written to {os.path.normpath(OUT)}")
        return
    python = ensure_thumbhash()
    subprocess.run([python, os.path.abspath(__file__), "--inside-venv"], check=True)


if __name__ == "__main__":
    main()
