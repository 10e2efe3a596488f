# utq — the two commands a new user needs are `make demo` and `make test`.
SWIFT ?= swift
UTQ_RELEASE := .build/release/utq

.PHONY: demo test build release deps oracle-deps oracle tour datasets bench clean fuzz fuzz-build sanitize sanitize-address sanitize-thread

# libedit (line editing) comes from the system; install it when pkg-config cannot find it.
deps:
	@pkg-config --exists libedit zlib 2>/dev/null || { \
	  echo "installing libedit-dev (line editing) and zlib1g-dev (zip files) ..."; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq libedit-dev zlib1g-dev pkg-config; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq libedit-dev zlib1g-dev pkg-config; fi; }

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --static-swift-stdlib --product utq

# Opens utq with the market-square study loaded; without a terminal, runs the tour instead.
demo: release
	@if [ -t 0 ] && [ -t 1 ]; then \
	  $(UTQ_RELEASE) --interactive -c 'load datasets/market.json' -c 'help tour'; \
	else \
	  $(UTQ_RELEASE) --echo examples/tour.utq; \
	fi

tour: release
	$(UTQ_RELEASE) --echo examples/tour.utq

test: deps oracle-deps
	$(SWIFT) test

# The differential oracle runs DuckDB from Python, and .ipynb files are validated with
# nbformat: use the system's Python when it has them, else a virtual environment of our own
# in .build (not committed).
ORACLE_VENV := .build/oracle-venv
oracle-deps:
	@python3 -c "import duckdb, pytz, nbformat" 2>/dev/null || $(ORACLE_VENV)/bin/python -c "import duckdb, pytz, nbformat" 2>/dev/null || { \
	  echo "installing duckdb and nbformat into $(ORACLE_VENV) for the differential oracle and the notebook checks ..."; \
	  python3 -m venv $(ORACLE_VENV) && $(ORACLE_VENV)/bin/python -m pip install -q duckdb pytz nbformat; }

# Any number of oracle cases from any seed: make oracle SEED=7 CASES=10000
SEED ?= 1
CASES ?= 1000
oracle: deps oracle-deps
	UTQ_ORACLE_SEED=$(SEED) UTQ_ORACLE_CASES=$(CASES) $(SWIFT) test --filter OracleTests

# Rebuilds the shipped datasets from their generators (the files are committed).
datasets: deps
	$(SWIFT) run -c release utq-datagen all datasets

# The test suite under AddressSanitizer and ThreadSanitizer, each in a scratch path of its own
# so the normal build stays as it is. The thread run reads in two parts with small chunks, so
# the parallel load paths run with more than one worker on the tests' small files.
sanitize: sanitize-address sanitize-thread

sanitize-address: deps
	LSAN_OPTIONS=suppressions=$(CURDIR)/.lsan-suppressions UTQ_TIME_SCALE=4 $(SWIFT) test --sanitize=address --scratch-path .build-asan

sanitize-thread: deps
	UTQ_THREADS=2 UTQ_PART_BYTES=65536 UTQ_TIME_SCALE=10 $(SWIFT) test --sanitize=thread --scratch-path .build-tsan

# libFuzzer targets (fuzz/targets/): each runs FUZZ_SECONDS (default 60); see fuzz/README.md.
FUZZ_SECONDS ?= 60
fuzz-build:
	PATH="$$(dirname $$(command -v $(SWIFT))):$$PATH" fuzz/build.sh

fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) PATH="$$(dirname $$(command -v $(SWIFT))):$$PATH" fuzz/run.sh $(FUZZ_TARGETS)

clean:
	rm -rf .build .build-asan .build-tsan fuzz/out
