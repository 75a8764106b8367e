#!/bin/sh
# Creates the private Python venv that `pinhole bench thumbnail --compare` runs Pillow and pyvips from, only if
# it is absent: ${XDG_CACHE_HOME:-~/.cache}/pinhole/bench-venv with Pillow and pyvips from PyPI (pyvips uses the
# system libvips, Debian libvips-dev/libvips42). Prints the venv's python3 path on success.
set -eu
cache="${XDG_CACHE_HOME:-$HOME/.cache}"
venv="$cache/pinhole/bench-venv"
if ! "$venv/bin/python3" -c 'import PIL, pyvips' >/dev/null 2>&1; then
    mkdir -p "$cache/pinhole"
    python3 -m venv "$venv" >&2
    "$venv/bin/pip" install --quiet --disable-pip-version-check pillow pyvips >&2
fi
echo "$venv/bin/python3"
