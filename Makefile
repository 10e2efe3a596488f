# utq — the two commands a new user needs are `make demo` and `make test`.
SWIFT ?= swift
UTQ_RELEASE := .build/release/utq
# SwiftPM gives the compiler -color-diagnostics when its output is a terminal and not in a
# pipe, and any change of flags rebuilds everything (swift-package-manager#8253): `make demo`
# at a terminal and then `make jupyter` compiled the whole package twice. Builds always write
# into a pipe, so their flags never change; pipefail keeps a failed build failed.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
PIPE := 2>&1 | cat

.PHONY: demo test build release deps pg-deps geo-deps oracle-deps oracle oracle-pg tour datasets bench clean fuzz fuzz-build sanitize sanitize-address sanitize-thread install dist jupyter

# libedit (line editing) comes from the system; install it when pkg-config cannot find it.
deps:
	@pkg-config --exists libedit zlib libzstd libpq 2>/dev/null && [ -f /usr/include/snappy-c.h ] || { \
	  echo "installing libedit-dev (line editing), zlib1g-dev (zip files) and libpq-dev (attached PostgreSQL) ..."; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq libedit-dev zlib1g-dev libzstd-dev libsnappy-dev libpq-dev pkg-config; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq libedit-dev zlib1g-dev libzstd-dev libsnappy-dev libpq-dev pkg-config; fi; }

# The tests start PostgreSQL servers of their own (attached databases), with PostGIS for
# geometry in the database (Debian's postgresql-NN-postgis-3, NN the server's version).
pg-deps:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ -x /usr/bin/psql ] || { \
	  echo "installing postgresql (the tests start throwaway servers) ..."; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq postgresql; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq postgresql; fi; }
	@ls /usr/share/postgresql/*/extension/postgis.control >/dev/null 2>&1 || { \
	  v=$$(ls /usr/lib/postgresql | sort -n | tail -1); \
	  echo "installing postgresql-$$v-postgis-3 (the tests of geometry in PostgreSQL) ..."; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq postgresql-$$v-postgis-3; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq postgresql-$$v-postgis-3; fi; }

build: deps
	$(SWIFT) build $(PIPE)

release: deps
	$(SWIFT) build -c release --static-swift-stdlib --product utq $(PIPE)

# Opens utq with the market-square study loaded; without a terminal, runs the tour instead.
demo: release
	@if [ -t 0 ] && [ -t 1 ]; then \
	  $(UTQ_RELEASE) --interactive -c 'load datasets/market.json' -c 'help tour'; \
	else \
	  $(UTQ_RELEASE) --echo examples/tour.utq; \
	fi

tour: release
	$(UTQ_RELEASE) --echo examples/tour.utq

test: deps pg-deps geo-deps oracle-deps
	$(SWIFT) test $(PIPE)

# GDAL's ogrinfo reads what save writes as GeoJSON, as QGIS does (a test compares them).
geo-deps:
	@[ -x /usr/bin/ogrinfo ] || { \
	  echo "installing gdal-bin (ogrinfo reads the GeoJSON files the tests write) ..."; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq gdal-bin; \
	  else sudo apt-get update -qq && sudo apt-get install -y -qq gdal-bin; fi; }

# The binary, its man page (made from its help) and shell completions under PREFIX.
PREFIX ?= /usr/local
install: release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 $(UTQ_RELEASE) $(DESTDIR)$(PREFIX)/bin/utq
	$(UTQ_RELEASE) manual > $(DESTDIR)$(PREFIX)/share/man/man1/utq.1
	$(UTQ_RELEASE) --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/utq
	$(UTQ_RELEASE) --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_utq
	$(UTQ_RELEASE) --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/utq.fish
	@# The shipped data and lessons, from git only, where load datasets/… finds them from any folder.
	install -d $(DESTDIR)$(PREFIX)/share/utq
	git archive --format=tar HEAD datasets examples | tar -x -C $(DESTDIR)$(PREFIX)/share/utq
	@echo "installed utq in $(DESTDIR)$(PREFIX)/bin (man utq for the manual)"

# utq and its Jupyter kernel into the active Python environment (a virtual environment,
# conda, or the user's own site): then JupyterLab offers a utq kernel.
jupyter:
	@python3 -c "import sys" || { echo "make jupyter needs python3"; exit 1; }
	$(MAKE) install PREFIX="$$(python3 -c 'import sys; print(sys.prefix)')"
	@# JupyterLab itself when the environment has none, so jupyter lab opens with the kernel.
	python3 -c "import jupyterlab" 2>/dev/null || python3 -m pip install -q jupyterlab
	python3 -m pip install -q ./jupyter
	python3 -m utq_kernel.install --utq "$$(python3 -c 'import sys; print(sys.prefix)')/bin/utq" \
	  $$(python3 -c 'import sys; print("--sys-prefix" if sys.prefix != sys.base_prefix else "--user")')

# A tarball that runs on a Linux x86_64 without Swift or libedit: the Swift runtime, libedit
# (with what it needs), zlib, zstd and snappy linked in; ldd shows only the C library and the
# C++ runtime.
# pkg-config is pointed at a libedit.pc of our own that names static archives only.
VERSION := $(shell sed -n 's/.*version: "\(.*\)",/\1/p' Sources/utq/main.swift)
DIST := utq-$(VERSION)-linux-x86_64
STATIC_LIBS := $(CURDIR)/.build/static-libs
dist: deps
	@mkdir -p $(STATIC_LIBS)
	@for l in edit tinfo bsd md z zstd snappy; do \
	  a=$$(find /usr/lib /lib -name "lib$$l.a" 2>/dev/null | head -1); \
	  [ -n "$$a" ] || { echo "make dist needs lib$$l.a (apt-get install libedit-dev libncurses-dev libbsd-dev libmd-dev zlib1g-dev libzstd-dev libsnappy-dev)"; exit 1; }; \
	  ln -sf "$$a" $(STATIC_LIBS)/lib$$l.a; done
	@printf 'Name: libedit\nDescription: libedit and what it needs, linked statically\nVersion: 3.1\nLibs: -L%s -ledit -ltinfo -lbsd -lmd\nCflags: -I/usr/include/editline\n' $(STATIC_LIBS) > $(STATIC_LIBS)/libedit.pc
	PKG_CONFIG_PATH=$(STATIC_LIBS) $(SWIFT) build -c release --static-swift-stdlib --product utq --scratch-path .build-dist $(PIPE)
	rm -rf dist/$(DIST) && mkdir -p dist
	$(MAKE) install UTQ_RELEASE=.build-dist/release/utq PREFIX=/ DESTDIR=$(CURDIR)/dist/$(DIST) -o release
	strip dist/$(DIST)/bin/utq
	@# The kernel package from git, and a one-line install of it for a machine without Swift.
	git archive --format=tar HEAD jupyter | tar -x -C dist/$(DIST)
	cp README.md dist-files/install.sh dist/$(DIST)/
	tar -C dist -czf dist/$(DIST).tar.gz $(DIST)
	@echo "wrote dist/$(DIST).tar.gz"; ldd dist/$(DIST)/bin/utq

# The differential oracle runs DuckDB from Python, and .ipynb files are validated with
# nbformat: use the system's Python when it has them, else a virtual environment of our own
# in .build (not committed).
ORACLE_VENV := .build/oracle-venv
ORACLE_MODULES := duckdb, pytz, nbformat, numpy, pyarrow, openpyxl, google.transit.gtfs_realtime_pb2, shapely, geographiclib
oracle-deps:
	@python3 -c "import $(ORACLE_MODULES)" 2>/dev/null || $(ORACLE_VENV)/bin/python -c "import $(ORACLE_MODULES)" 2>/dev/null || { \
	  echo "installing duckdb, pyarrow, openpyxl, nbformat, gtfs-realtime-bindings, shapely and geographiclib into $(ORACLE_VENV) for the differential oracle and the reference checks ..."; \
	  python3 -m venv $(ORACLE_VENV) && $(ORACLE_VENV)/bin/python -m pip install -q duckdb pytz nbformat numpy pyarrow openpyxl gtfs-realtime-bindings shapely geographiclib; }

# Any number of oracle cases from any seed: make oracle SEED=7 CASES=10000
SEED ?= 1
CASES ?= 1000
oracle: deps oracle-deps
	UTQ_ORACLE_SEED=$(SEED) UTQ_ORACLE_CASES=$(CASES) $(SWIFT) test --filter "^UTQTests.OracleTests|^UTQTests.OracleRoundTripTests" $(PIPE)

# The differential suite on PostgreSQL, any size: each random case (and the fixed tables of
# ties, NaN, Unicode and zones) in memory, on one throwaway server, and on the same tables
# hash-partitioned over two shards; all three must agree. make test runs 120 cases of seeds
# 1, 2 and 3; make oracle-pg SEED=7 CASES=500 runs any other.
oracle-pg: deps pg-deps
	UTQ_ORACLE_SEED=$(SEED) UTQ_ORACLE_CASES=$(CASES) $(SWIFT) test --filter PostgresOracleTests $(PIPE)

# Rebuilds the shipped datasets from their generators (the files are committed).
datasets: deps
	$(SWIFT) run -c release utq-datagen all datasets $(PIPE)

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
