# eous — the two commands a fresh machine needs:
#   make demo   set up, build, serve the Playground and run the benchmark (the main job)
#   make test   set up, build (-Werror) and run every test: under ASan+UBSan, the suites on the release build
JOBS ?= 2
BUILD ?= build
BUILD_ASAN ?= build-asan

.PHONY: setup setup-npm build build-asan site check test test-release test-asan test-fuzz demo install clean

setup:
	@bash scripts/setup

build:
	cmake -S . -B $(BUILD) -DEOUS_WERROR=ON -DEOUS_TESTS=ON >/dev/null
	cmake --build $(BUILD) -j$(JOBS)

build-asan:
	cmake -S . -B $(BUILD_ASAN) -DEOUS_WERROR=ON -DEOUS_TESTS=ON -DEOUS_SANITIZE=ON >/dev/null
	cmake --build $(BUILD_ASAN) -j$(JOBS)

site:
	@if [ -x scripts/build-site ]; then bash scripts/build-site; fi

# Every test runs once in `make test`: under ASan+UBSan, except the
# suite-level runs (the whole Playground and DokuWiki suites, the MCP SDK
# client, distilled jobs replayed after model runs), which drive the same
# library code as test_cli/test_e2e_*/test_distill_recorded at many times the
# length and run on the release build; under ASan they
# would take CI past an hour; test_readme, the README's runnable blocks, runs
# the CLI alone, as a user does.  The embedder check (it links the installed
# library without sanitizers) and the tokenizer data check run there too.  `make test-release SUITE_TESTS=.` runs every
# test on the release build, `make test-asan SUITE_TESTS=none` every test
# under ASan.
SUITE_TESTS ?= test_bench_site|test_wiki_site|test_mediawiki_site|test_model_path|test_planner_exec_suite|test_distill$$|test_readme|mcp_client|standin_unit|embedder_check|tokenizer_data_fresh

# test binaries run two at a time (each runs its tests two at a time, --jobs 2): one alone leaves a
# core idle while it waits on its browser (benchmarks/results/ci_time.md); the longest start first (COST in
# CMakeLists.txt), so none is left running alone at the end
TEST_JOBS ?= 2

# what the suite-level runs need on the release build (the CLI and the C suites): building the
# other test binaries there too cost CI a minute and ran none of them; SUITE_TESTS=. builds everything
SUITE_TARGETS ?= eous eous_cli eous_test_browser_hold test_bench_site test_wiki_site test_mediawiki_site test_model_path test_planner_exec_suite test_distill test_readme

# unit and module tests only (no browser, no suites, no fuzzing): the quick loop while working
check:
	cmake -S . -B $(BUILD) -DEOUS_WERROR=ON -DEOUS_TESTS=ON >/dev/null
	cmake --build $(BUILD) -j$(JOBS) --target eous_cli $$(cat $(BUILD)/unit_targets.txt)
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS) -L unit && ctest --output-on-failure -R '^(layers_check|circles_check)$$'

test-release:
	cmake -S . -B $(BUILD) -DEOUS_WERROR=ON -DEOUS_TESTS=ON >/dev/null
	cmake --build $(BUILD) -j$(JOBS) $(if $(filter .,$(SUITE_TESTS)),,--target $(SUITE_TARGETS))
	cd $(BUILD) && ctest --output-on-failure -j$(TEST_JOBS) -R '$(SUITE_TESTS)'

test-asan: build-asan
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest --output-on-failure -j$(TEST_JOBS) -E '$(SUITE_TESTS)'

# every libFuzzer target for its fixed inputs, at most FUZZ_SECONDS each (clang, ASan+UBSan); a crash fails with its
# reproducer.  Not part of `make test`: every committed corpus input (tests/fuzz/corpus, and each crash a fuzzer
# found, kept there) is replayed under ASan+UBSan by test_fuzz_corpus in test-asan, which keeps what the fuzz stage
# found covered at no clang build and no 170 s of fuzzing per CI run (benchmarks/results/ci_time.md)
FUZZ_SECONDS ?= 240

test-fuzz:
	bash scripts/fuzz-ci $(FUZZ_SECONDS)

# npm ci waits on the registry while the ASan tree compiles: the two side by side (each one's output whole, -O)
test:
	@bash scripts/setup apt
	$(MAKE) --no-print-directory -j2 -O setup-npm build-asan
	$(MAKE) --no-print-directory site
	$(MAKE) --no-print-directory test-asan
	$(MAKE) --no-print-directory test-release

setup-npm:
	@bash scripts/setup npm

# the demo runs the CLI alone: building every test binary first cost a newcomer minutes of silence
demo: setup site
	cmake -S . -B $(BUILD) -DEOUS_WERROR=ON -DEOUS_TESTS=ON >/dev/null
	cmake --build $(BUILD) -j$(JOBS) --target eous_cli
	bash scripts/demo

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD_ASAN)
