#!/usr/bin/env bash
# Fuzzes the decode path (sniffing, container and header checks, VipsDecoder) with libFuzzer + AddressSanitizer.
#
#   scripts/fuzz.sh [SECONDS]      default 90; CI runs `scripts/fuzz.sh 90`
#
# Seeds: Tests/Fixtures/cases/inputs, the fuzz regression inputs (Tests/Fixtures/fuzz), the progressive JPEGs of
# Tests/Fixtures/progressive (the DC-only scan filter and decode), and the three smallest
# photos of $PINHOLE_CORPUS (copied at run time, never committed). The working corpus lives in
# .build-fuzz/corpus and grows across runs. A crash, leak or hang (over 10 s for one input) makes libFuzzer
# save the input as .build-fuzz/artifacts/crash-* (or timeout-*, oom-*, leak-*) and this script exit non-zero;
# replay one with `swift build --product PinholeFuzz && .build/debug/PinholeFuzz FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN="${1:-90}"
SCRATCH=.build-fuzz
CORPUS_DIR="$SCRATCH/corpus"
SEEDS="$SCRATCH/seeds"
ARTIFACTS="$SCRATCH/artifacts"
PHOTOS="${PINHOLE_CORPUS:-${XDG_CACHE_HOME:-$HOME/.cache}/pinhole/corpus}"

swift build -c debug --product PinholeFuzz --scratch-path "$SCRATCH" \
    -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -DPINHOLE_FUZZ -Xlinker -u -Xlinker LLVMFuzzerRunDriver -Xlinker --export-dynamic-symbol=LLVMFuzzerRunDriver 2>&1 | grep -E 'error|warning: [^p]|Compiling|Build' | grep -v 'Cannot export local symbol' || true
BINARY="$(swift build -c debug --product PinholeFuzz --scratch-path "$SCRATCH" --show-bin-path \
    -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -DPINHOLE_FUZZ -Xlinker -u -Xlinker LLVMFuzzerRunDriver -Xlinker --export-dynamic-symbol=LLVMFuzzerRunDriver 2>/dev/null)/PinholeFuzz"
[ -x "$BINARY" ] || { echo "fuzz.sh: build failed" >&2; exit 1; }

mkdir -p "$CORPUS_DIR" "$SEEDS" "$ARTIFACTS"
cp Tests/Fixtures/cases/inputs/* "$SEEDS/"
[ -d Tests/Fixtures/fuzz ] && cp Tests/Fixtures/fuzz/* "$SEEDS/"
# Small progressive JPEGs (5-10 KB, 960 px) that the 64 px thumbnails decode at 1/8 from their DC scans.
cp Tests/Fixtures/progressive/*.jpg "$SEEDS/"
if [ -d "$PHOTOS" ]; then
    # The three smallest photos: real camera JPEGs (EXIF, ICC) without making every mutation megabytes long.
    find "$PHOTOS" -maxdepth 1 -type f \( -name '*.jpg' -o -name '*.png' -o -name '*.webp' -o -name '*.heic' \) \
        -printf '%s %p\n' | sort -n | head -3 | while read -r _ path; do cp "$path" "$SEEDS/"; done
fi

# libvips threads and caches off, quiet; leaks are checked (ASan's LeakSanitizer) at the end of each run.
export VIPS_CONCURRENCY=1 VIPS_WARNING=0
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
exec "$BINARY" "$CORPUS_DIR" "$SEEDS" \
    -dict=scripts/fuzz-magic.dict \
    -max_total_time="$SECONDS_TO_RUN" -timeout=10 -rss_limit_mb=3072 -max_len=262144 \
    -artifact_prefix="$ARTIFACTS/" -print_final_stats=1
