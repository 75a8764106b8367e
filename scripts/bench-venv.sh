#!/bin/sh
# Creates the private Python venv that `pinhole bench thumbnail --compare` runs Pillow and pyvips from,
# `pinhole bench serve --overload` runs scripts/open-loop-load.py (aiohttp) from, and the test suite runs
# scripts/check-manifest-schema.py (the Kubernetes Python client) from, only if it is absent or lacks one of them:
# ${XDG_CACHE_HOME:-~/.cache}/pinhole/bench-venv with Pillow, pyvips, aiohttp and kubernetes from PyPI (pyvips
# uses the system libvips, Debian libvips-dev/libvips42). Prints the venv's python3 path on success.
set -eu
cache="${XDG_CACHE_HOME:-$HOME/.cache}"
venv="$cache/pinhole/bench-venv"
if ! "$venv/bin/python3" -c 'import PIL, pyvips, aiohttp, kubernetes' >/dev/null 2>&1; then
    mkdir -p "$cache/pinhole"
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install --quiet --disable-pip-version-check pillow pyvips aiohttp kubernetes >&2
fi
echo "$venv/bin/python3"
