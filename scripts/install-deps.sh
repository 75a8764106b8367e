#!/usr/bin/env bash
# Installs, with apt-get and only when absent, the Debian packages Pinhole needs to build, test and run
# its demo: libvips (decoder), its command-line tools (the benchmark's reference), TurboJPEG and libjpeg (JPEG
# fast paths), giflib, libwebp and libheif (truncation evidence), libcurl (the HTTP transport), libmicrohttpd and
# OpenSSL's libcrypto (`pinhole serve`: the HTTP server, HMAC signatures), libchafa (the
# gallery's pictures), tmux and a real sixel terminal under a virtual X server (xvfb, xterm, x11-apps' xwd,
# x11-utils' xwininfo, a monospace font: the gallery's terminal tests), and the packages that carry the real
# photographs of the corpus and the tools that derive from them; nginx, wrk and curl (the serving benchmark,
# scripts/cluster.sh and scripts/soak-serve.sh) and PyYAML for Debian's python3 (scripts/check-manifests.py).
set -euo pipefail

PACKAGES=(
  pkg-config libvips-dev libvips-tools libturbojpeg0-dev libcurl4-openssl-dev libgif-dev libwebp-dev libheif-dev
  libjpeg62-turbo-dev libmicrohttpd-dev libssl-dev
  lomiri-wallpapers-16.04 lomiri-wallpapers-20.04 mate-backgrounds plasma-workspace-wallpapers
  imagemagick webp libjpeg-turbo-progs libimage-exiftool-perl unzip python3 python3-pip tmux
  libchafa-dev xvfb xterm x11-apps x11-utils fonts-dejavu-core
  wrk nginx libnginx-mod-http-image-filter curl python3-yaml
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "[install-deps] apt-get install ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
