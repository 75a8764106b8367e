# Pinhole: the two entry points of the README, plus benchmarks.
#   make demo   install what is missing, build (release), build the real-photo corpus, thumbnail it
#   make test   install what is missing, build the corpus (tests need real photos), run the whole test suite
#               in parallel under a watchdog (scripts/run-tests.sh)
#   make test-asan / test-tsan   the whole suite again under AddressSanitizer+LeakSanitizer / ThreadSanitizer
#               (own scratch paths .build-asan / .build-tsan; see RELIABILITY.md, "Sanitizers")
SHELL := /bin/bash
CORPUS ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/pinhole/corpus
# Tests and benchmarks find the corpus through this variable (default: the path above).
export PINHOLE_CORPUS := $(CORPUS)
OUT    ?= out
SWIFT_BUILD_FLAGS ?=

.PHONY: demo test test-asan test-tsan lint deps corpus build release bench clean

deps:
	@scripts/install-deps.sh
	@scripts/bench-venv.sh >/dev/null

# swift format lint --strict (.swift-format) and no Swift line over 120 columns.
lint:
	scripts/lint.sh

build: deps
	swift build $(SWIFT_BUILD_FLAGS)

release: deps
	swift build -c release $(SWIFT_BUILD_FLAGS)

corpus: deps
	@scripts/make-corpus.sh "$(CORPUS)"

demo: release corpus
	@mkdir -p "$(OUT)"
	.build/release/pinhole thumbnail "$(CORPUS)" --size 360 --format jpeg --quality 80 \
	    --out "$(OUT)/thumbnails" --contact-sheet "$(OUT)/contact-sheet.jpg"

# The whole suite runs in parallel under scripts/run-tests.sh, a watchdog: after TEST_TIMEOUT seconds (or
# TEST_IDLE_TIMEOUT without a test event) it prints the tests that started and never ended and kills the run's
# whole session (setsid, timeout -k). Every wait inside a test is bounded and scaled by the load (Tests/README.md).
TEST_TIMEOUT ?= 1500
test: deps corpus
	swift build --build-tests $(SWIFT_BUILD_FLAGS)
	TEST_TIMEOUT=$(TEST_TIMEOUT) scripts/run-tests.sh

# Leaks are errors; scripts/lsan.supp lists the toolchain's and system libraries' one-time allocations, each
# with the reason it is not ours. Symbolized stacks need llvm-symbolizer (shipped with the toolchain).
ASAN_ENV := ASAN_OPTIONS=detect_leaks=1:malloc_context_size=30 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp:print_suppressions=0
test-asan: deps corpus
	swift build --build-tests --scratch-path .build-asan --sanitize=address $(SWIFT_BUILD_FLAGS)
	$(ASAN_ENV) scripts/sanitize-tests.sh address

# Races are errors (halt_on_error=0 still fails the run at exit); scripts/tsan.supp documents each suppression.
TSAN_ENV := TSAN_OPTIONS=suppressions=$(CURDIR)/scripts/tsan.supp:halt_on_error=0:exitcode=66:history_size=4
test-tsan: deps corpus
	swift build --build-tests --scratch-path .build-tsan --sanitize=thread $(SWIFT_BUILD_FLAGS)
	$(TSAN_ENV) scripts/sanitize-tests.sh thread

bench: release corpus
	.build/release/pinhole bench thumbnail "$(CORPUS)"

clean:
	rm -rf .build .build-asan .build-tsan "$(OUT)"
