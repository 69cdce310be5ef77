# smashtag — the front door: build, report, test, bench, deps.
#
#   make report TERM=#stanford   report on samples/ (TERM defaults to #stanford)
#   make test                    every test (unit, end to end, and the Spark job)
#   make test-fast               the Swift tests only (the inner loop)
#   make test-people             the workbook, the page and the table read by real readers
#   make bench                   throughput against DuckDB (release build)
#   make bench-jetstream         Bluesky Jetstream lines against DuckDB (make bench runs it too)
#   make bench-store             the store's figures: ingest, report, size, re-ingest
#   make bench-spark             the Spark job in local[2] against smashtag report
#   make bench-scanner           the bit-mask validator prototype against the report's walk
#   make bench-limits            simdjson, libdeflate, ISA-L and zstd on the bench data (what bounds the figures)
#   make fuzz FUZZ_SECONDS=600   libFuzzer over the framer and the decoder (FUZZ_TARGET=bluesky,
#                                mastodon, links, trend or posts: this round's decoders and commands)
#   make asan                    every test, built with AddressSanitizer

SWIFT   ?= swift
CONFIG  ?= debug
SUDO    := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN      = .build/$(CONFIG)/smashtag

# TERM is also the terminal's own variable: only a TERM given on make's
# command line is a search term; the environment's (xterm-256color) is not.
ifeq ($(origin TERM),command line)
REPORT_TERM := $(TERM)
else
REPORT_TERM := \#stanford
endif
FORMAT ?=

PREFIX  ?= /usr/local
DESTDIR ?=

.PHONY: all build release deps report test test-fast test-people people-readers test-spark spark-venv gexf-venv asan fuzz fuzz-build bench bench-jetstream bench-trend bench-store bench-spark bench-scanner bench-limits clean samples install install-files uninstall

all: build

# Install what a clean Debian machine lacks: libarchive's, SQLite's, zlib's,
# libxml2's and libxlsxwriter's headers, pkg-config; zstd, zip, lz4 and 7z
# (p7zip-full), which the tests use to make fixtures (gzip, bzip2, xz and tar
# are on every Debian); and tzdata, the tz database --tz reads (slim images
# leave it out).
deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libarchive || ! pkg-config --exists sqlite3 \
	    || ! pkg-config --exists zlib || ! pkg-config --exists libisal || ! pkg-config --exists libxml-2.0 || ! pkg-config --exists xlsxwriter \
	    || ! pkg-config --exists libpsl || [ ! -f /usr/share/publicsuffix/public_suffix_list.dat ] \
	    || ! command -v zstd >/dev/null || ! command -v zip >/dev/null || ! command -v lz4 >/dev/null \
	    || ! command -v 7z >/dev/null || [ ! -f /usr/share/zoneinfo/Europe/Berlin ]; then \
	  echo "installing libarchive-dev, libsqlite3-dev, zlib1g-dev, libisal-dev, libxml2-dev, libxlsxwriter-dev, libpsl-dev, publicsuffix, pkg-config, zstd, zip, lz4, p7zip-full and tzdata with apt-get"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libarchive-dev libsqlite3-dev zlib1g-dev libisal-dev libxml2-dev libxlsxwriter-dev libpsl-dev publicsuffix \
	    pkg-config zstd zip lz4 p7zip-full tzdata >/dev/null; \
	fi

# Release binaries carry the Swift runtime and Foundation inside them: no
# loading of ~15 shared Swift libraries at each start (`smashtag --version`
# in ~10 ms instead of ~21 ms) and no need for the toolchain at run time.
RELEASE_FLAGS = -c release --static-swift-stdlib
BUILD_FLAGS_release = --static-swift-stdlib

build: deps
	$(SWIFT) build -c $(CONFIG) $(BUILD_FLAGS_$(CONFIG))

release:
	$(MAKE) build CONFIG=release

# The build's chatter goes to stderr: stdout carries the report alone.
report: deps
	@$(SWIFT) build -c $(CONFIG) $(BUILD_FLAGS_$(CONFIG)) >&2
	@$(BIN) report '$(REPORT_TERM)' samples/ $(if $(FORMAT),--format $(FORMAT))

test: test-fast test-people test-spark

# The GEXF of `smashtag pairs` is read back by networkx (a real GEXF reader,
# from PyPI, in a venv under .build/); the tests require it when
# SMASHTAG_NETWORKX_PYTHON is set, as here, and skip that check without it.
NETWORKX_VERSION ?= 3.6.1
GEXF_VENV        ?= .build/gexf-venv

# The XCTest cases run a process a worker, one worker a core (`--parallel`):
# most of them wait on a smashtag they started, so two workers take half the
# time of one. That mode prints no count at its end: Tests/xunit_summary.py
# reads its xUnit report and prints `xctest: N passed, M failed`, and fails
# the run when a test failed or none ran.
TEST_WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
XUNIT        ?= .build/xctest.xml

test-fast: deps gexf-venv
	$(SWIFT) build
	@rm -f $(XUNIT)
	SMASHTAG_NETWORKX_PYTHON=$(abspath $(GEXF_VENV))/bin/python $(SWIFT) test --disable-swift-testing --skip PeopleReportTests \
	  --parallel --num-workers $(TEST_WORKERS) --xunit-output $(XUNIT); status=$$?; \
	  python3 Tests/xunit_summary.py xctest $(XUNIT) || status=1; exit $$status

# networkx 3.6 is the first release whose read_gexf knows the GEXF 1.3 namespace.
# A bare Debian has python3 without venv's ensurepip: python3-venv brings it.
gexf-venv:
	@$(GEXF_VENV)/bin/python -c 'import networkx, sys; sys.exit(networkx.__version__ != "$(NETWORKX_VERSION)")' 2>/dev/null || { \
	  echo "creating $(GEXF_VENV) with networkx $(NETWORKX_VERSION) from PyPI" >&2; \
	  python3 -c 'import ensurepip' 2>/dev/null || { $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-venv >/dev/null; }; \
	  python3 -m venv $(GEXF_VENV) && $(GEXF_VENV)/bin/pip install -q 'networkx==$(NETWORKX_VERSION)' >&2; }

# Reports for people read by real readers (Tests/Readers): the workbook by
# openpyxl, the page by headless Chromium (Debian's), the table by pyte (a
# terminal emulator) under a real pseudo-terminal. The Python readers live in
# a venv under .build/; Chromium is installed where missing. make test-fast
# leaves these tests to this target (without the readers they fail, saying so).
PEOPLE_VENV ?= .build/people-venv
PEOPLE_PIP   = openpyxl==3.1.5 pyte==0.8.2 pillow==13.0.0

people-readers:
	@command -v chromium >/dev/null || { \
	  echo "installing chromium with apt-get" >&2; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium >/dev/null; }
	@$(PEOPLE_VENV)/bin/python -c 'import openpyxl, pyte, PIL' 2>/dev/null || { \
	  echo "creating $(PEOPLE_VENV) with $(PEOPLE_PIP) from PyPI" >&2; \
	  python3 -m venv $(PEOPLE_VENV) 2>/dev/null || { \
	    echo "installing python3-venv with apt-get" >&2; rm -rf $(PEOPLE_VENV); \
	    $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq python3-venv >/dev/null && \
	    python3 -m venv $(PEOPLE_VENV); } && \
	  $(PEOPLE_VENV)/bin/pip install -q $(PEOPLE_PIP) >&2; }

test-people: deps people-readers
	$(SWIFT) build
	SMASHTAG_READERS_PYTHON=$(abspath $(PEOPLE_VENV))/bin/python \
	  $(SWIFT) test --disable-swift-testing --filter PeopleReportTests

# The Spark job (contrib/spark) with pyspark from PyPI in a venv under .build/,
# on Java 17 (Spark 3.5 runs on 8, 11 and 17), in local mode.
PYSPARK_VERSION ?= 3.5.9
SPARK_VENV      ?= .build/spark-venv
SPARK_MASTER    ?= local[2]
JAVA_HOME       ?= $(firstword $(wildcard /usr/lib/jvm/java-17-openjdk-*))
SPARK_ENV        = JAVA_HOME=$(JAVA_HOME) SPARK_LOCAL_IP=127.0.0.1 PYSPARK_PYTHON=$(abspath $(SPARK_VENV))/bin/python \
                   SMASHTAG_SPARK_MASTER='$(SPARK_MASTER)'

spark-venv:
	@[ -n "$(JAVA_HOME)" ] && [ -x "$(JAVA_HOME)/bin/java" ] || { \
	  echo "installing openjdk-17-jre-headless with apt-get" >&2; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq openjdk-17-jre-headless >/dev/null; }
	@$(SPARK_VENV)/bin/python -c 'import pyspark, openpyxl, sys; sys.exit(pyspark.__version__ != "$(PYSPARK_VERSION)")' 2>/dev/null || { \
	  echo "creating $(SPARK_VENV) with pyspark $(PYSPARK_VERSION) and openpyxl from PyPI" >&2; \
	  python3 -m venv $(SPARK_VENV) && $(SPARK_VENV)/bin/pip install -q 'pyspark==$(PYSPARK_VERSION)' 'openpyxl==3.1.5' >&2; }

# The job's report equals `smashtag report` (and the reference) on samples/ and ../shared/corpus.
test-spark: deps spark-venv
	$(SWIFT) build --product smashtag
	$(SPARK_ENV) SMASHTAG=.build/debug/smashtag $(SPARK_VENV)/bin/python contrib/spark/test_popularity.py

# The store's figures (Benchmarks/store_bench.sh; generates its data once).
# make bench runs them first, then the throughput rows below.
bench-store: deps
	sh Benchmarks/store_bench.sh

# Every test again, smashtag and the tests built with AddressSanitizer (a
# build of its own under .build/asan; the end-to-end tests run that binary;
# the plain debug build is for the install test). Leaks are not checked: the
# Swift runtime keeps some memory for the life of the process.
ASAN_BUILD = --scratch-path .build/asan -Xswiftc -sanitize=address
asan: deps
	$(SWIFT) build
	$(SWIFT) build $(ASAN_BUILD) --build-tests
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test $(ASAN_BUILD) --disable-swift-testing

# libFuzzer (Tests/Fuzz, a package of its own) with AddressSanitizer, seeded
# from ../shared/corpus and the fixtures; the corpus it grows is kept in
# .build/fuzz/corpus between runs, crashes land in .build/fuzz/crashes/.
# Every crash becomes a file in Tests/Fixtures/fuzz (replayed by make test).
# FUZZ_FLAGS adds libFuzzer flags (a later -max_len=2048 wins over the default).
# FUZZ_TARGET picks what an input is read as (Tests/StagesTests/FuzzCheck.swift):
# stream (the framer and the decoder), bluesky, mastodon, links, trend or posts;
# each target but stream keeps its seeds, corpus and crashes in .build/fuzz/TARGET.
# trend's and posts' seeds are the lines `smashtag extract --trend` (`--posts`)
# writes of the fixtures, which `aggregate --trend` (`--posts`) reads. Swift's own
# backtracer is off: ASan and libFuzzer report a crash, with its stack.
FUZZ_SECONDS ?= 600
FUZZ_FLAGS   ?=
FUZZ_TARGET  ?= stream
FUZZ_DIR     ?= .build/fuzz$(if $(filter-out stream,$(FUZZ_TARGET)),/$(FUZZ_TARGET))
FUZZ_BIN      = Tests/Fuzz/.build/release/SmashtagFuzz
FUZZ_KINDS    = hashtag,user,symbol,url,host,domain,poster
FUZZ_SOURCES_stream   = ../shared/corpus Tests/Fixtures
FUZZ_SOURCES_bluesky  = ../shared/corpus/twitwi Tests/Fixtures/social
FUZZ_SOURCES_mastodon = ../shared/corpus/mastodon-py Tests/Fixtures/social/mastodon.jsonl
FUZZ_SOURCES_links    = ../shared/corpus Tests/Fixtures/kinds Tests/Fixtures/social
FUZZ_SOURCES_trend    = $(FUZZ_DIR)/lines $(FUZZ_FIXTURES_trend)
FUZZ_SOURCES_posts    = $(FUZZ_DIR)/lines $(FUZZ_FIXTURES_posts)
FUZZ_FIXTURES_trend   = Tests/Fixtures/trend Tests/Fixtures/social Tests/Fixtures/kinds
FUZZ_FIXTURES_posts   = Tests/Fixtures/posts Tests/Fixtures/social Tests/Fixtures/references
FUZZ_LINES_trend      = --trend --kinds $(FUZZ_KINDS)
FUZZ_LINES_posts      = --posts --columns term,id,author,created_at,retweets,quotes,replies,text
fuzz-build: deps
	cd Tests/Fuzz && $(SWIFT) build -c release -Xswiftc -sanitize=fuzzer,address --product SmashtagFuzz
fuzz: fuzz-build
	@case ' stream bluesky mastodon links trend posts ' in *' $(FUZZ_TARGET) '*) ;; \
	  *) echo "FUZZ_TARGET must be stream, bluesky, mastodon, links, trend or posts" >&2; exit 2;; esac
ifneq ($(filter trend posts,$(FUZZ_TARGET)),)
	$(SWIFT) build --product smashtag >&2
	mkdir -p $(FUZZ_DIR)/lines
	for f in $(wildcard $(addsuffix /*.json*,$(FUZZ_FIXTURES_$(FUZZ_TARGET)))); do \
	  .build/debug/smashtag extract '*' "$$f" $(FUZZ_LINES_$(FUZZ_TARGET)) -q > $(FUZZ_DIR)/lines/$$(echo "$$f" | tr / _).txt || true; done
endif
	python3 Tests/Fuzz/make_seeds.py --target $(FUZZ_TARGET) $(FUZZ_DIR)/seeds $(FUZZ_SOURCES_$(FUZZ_TARGET))
	mkdir -p $(FUZZ_DIR)/corpus $(FUZZ_DIR)/crashes
	FUZZ_TARGET=$(FUZZ_TARGET) SWIFT_BACKTRACE=enable=no $(FUZZ_BIN) $(FUZZ_DIR)/corpus $(FUZZ_DIR)/seeds -max_total_time=$(FUZZ_SECONDS) \
	  -max_len=16384 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
	  -artifact_prefix=$(FUZZ_DIR)/crashes/ $(FUZZ_FLAGS)

samples:
	python3 samples/generate.py
	python3 Tests/Fixtures/generate.py
	python3 Tests/Fixtures/generate_csv.py

# Throughput against DuckDB (Benchmarks/): release builds, DuckDB from PyPI in
# a venv under .build/, BENCH_MB of generated v1.1 stream lines made once.
BENCH_MB   ?= 500
BENCH_RUNS ?= 3
BENCH_DATA ?= .build/bench-data
BENCH_VENV ?= .build/bench-venv
bench: deps bench-store
	$(SWIFT) build $(RELEASE_FLAGS) --product smashtag >&2
	$(SWIFT) build $(RELEASE_FLAGS) --product smashtag-bench >&2
	@$(BENCH_VENV)/bin/python -c 'import duckdb' 2>/dev/null || { \
	  echo "creating $(BENCH_VENV) with duckdb from PyPI" >&2; \
	  python3 -m venv $(BENCH_VENV) && $(BENCH_VENV)/bin/pip install -q duckdb >&2; }
	@{ grep -qx 'mb=$(BENCH_MB)' $(BENCH_DATA)/DONE && grep -qx 'format=2' $(BENCH_DATA)/DONE; } 2>/dev/null || \
	  .build/release/smashtag-bench generate --out $(BENCH_DATA) --mb $(BENCH_MB) >&2
	@.build/release/smashtag-bench run --data $(BENCH_DATA) --runs $(BENCH_RUNS) \
	  --smashtag .build/release/smashtag --python $(BENCH_VENV)/bin/python \
	  --peer Benchmarks/duckdb_report.py
	@$(MAKE) --no-print-directory bench-jetstream
	@$(MAKE) --no-print-directory bench-trend

# SPEC §14 (Benchmarks/trend_bench.sh; makes its data and a store of a year
# of 10,000,000 tweets once): trend '*' against report '*' on the same dumps,
# and trend '#tag' --store.
bench-trend: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product smashtag >&2
	@sh Benchmarks/trend_bench.sh

# SPEC §16: BENCH_MB of generated Bluesky Jetstream lines, `report '*'
# --kinds hashtag` against DuckDB's read_json of the same report
# (Benchmarks/duckdb_jetstream.py: facets and record.tags unnested, reposts
# joined to their subjects), rows compared.
JETSTREAM_DATA ?= .build/bench-jetstream
bench-jetstream: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product smashtag >&2
	$(SWIFT) build $(RELEASE_FLAGS) --product smashtag-bench >&2
	@$(BENCH_VENV)/bin/python -c 'import duckdb' 2>/dev/null || { \
	  echo "creating $(BENCH_VENV) with duckdb from PyPI" >&2; \
	  python3 -m venv $(BENCH_VENV) && $(BENCH_VENV)/bin/pip install -q duckdb >&2; }
	@{ grep -qx 'mb=$(BENCH_MB)' $(JETSTREAM_DATA)/DONE && grep -qx 'format=1' $(JETSTREAM_DATA)/DONE; } 2>/dev/null || \
	  .build/release/smashtag-bench generate-jetstream --out $(JETSTREAM_DATA) --mb $(BENCH_MB) >&2
	@.build/release/smashtag-bench run-jetstream --data $(JETSTREAM_DATA) --runs $(BENCH_RUNS) \
	  --smashtag .build/release/smashtag --python $(BENCH_VENV)/bin/python \
	  --peer Benchmarks/duckdb_jetstream.py

# The Spark job in $(SPARK_MASTER) against `smashtag report` alone on the bench
# data (`make bench` generates it; BENCH_DATA=... points elsewhere): wall
# times, bytes extract writes per input MB, bytes shuffled per matching tweet.
SPARK_BENCH_INPUTS ?= $(BENCH_DATA)/stream.jsonl $(BENCH_DATA)/split
bench-spark: deps spark-venv
	$(SWIFT) build $(RELEASE_FLAGS) --product smashtag >&2
	@for i in $(SPARK_BENCH_INPUTS); do [ -e "$$i" ] || { \
	  echo "no $$i: generate the bench data with make bench, or give BENCH_DATA=folder" >&2; exit 1; }; done
	$(SPARK_ENV) $(SPARK_VENV)/bin/python contrib/spark/bench_popularity.py --smashtag .build/release/smashtag \
	  $(foreach i,$(SPARK_BENCH_INPUTS),--input $(i)) --runs $(BENCH_RUNS) --master '$(SPARK_MASTER)'

# The measuring prototype of a bit-mask JSON validator (AVX-512BW; not part of
# the product, Benchmarks/SCANNER-2026-12-01.md) on the bench data: framing
# alone, stage 1, stages 1 and 2, and `report --jobs 1`, alternating.
bench-scanner: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product smashtag >&2
	@[ -e $(BENCH_DATA)/stream.jsonl ] || { echo "no $(BENCH_DATA)/stream.jsonl: generate it with make bench" >&2; exit 1; }
	swiftc -O -Xcc -mavx512bw -Xcc -mavx512f -target-cpu znver4 Benchmarks/ScannerPrototype/main.swift -o .build/scanner-prototype >&2
	@for r in $$(seq $(BENCH_RUNS)); do for m in 0 1 2; do \
	  /usr/bin/time -f "prototype mode $$m: %e s wall, %U s user, %S s sys" .build/scanner-prototype $(BENCH_DATA)/stream.jsonl $$m; done; \
	  /usr/bin/time -f "report --jobs 1: %e s wall, %U s user, %S s sys" \
	    .build/release/smashtag report '#stanford' $(BENCH_DATA)/stream.jsonl --format csv --quiet --jobs 1 >/dev/null; done

# Issue 16's two figures not reached, against the best libraries Debian
# ships (Benchmarks/limits.py; measuring peers only, never linked into
# smashtag): simdjson's validating parser on the plain lines, the inflate
# alone with zlib, libdeflate and ISA-L on the 8 .gz parts, and zstd's of the
# one-frame .zst. Needs
# the bench's data and DuckDB venv (make bench makes both).
LIMITS_DIR ?= .build/limits
bench-limits: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product smashtag >&2
	@[ -e $(BENCH_DATA)/stream.jsonl ] && [ -x $(BENCH_VENV)/bin/python ] || { echo "no bench data or DuckDB venv: run make bench first" >&2; exit 1; }
	@{ [ -f /usr/include/simdjson.h ] && [ -f /usr/include/libdeflate.h ] && command -v igzip >/dev/null && command -v g++ >/dev/null; } || { \
	  echo "installing libsimdjson-dev, libdeflate-dev, isal and g++ with apt-get (for the measuring peers only)" >&2; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libsimdjson-dev libdeflate-dev isal g++ >/dev/null; }
	mkdir -p $(LIMITS_DIR)
	g++ -O2 -std=c++17 Benchmarks/Limits/validating_parser.cpp -lsimdjson -o $(LIMITS_DIR)/validating_parser
	cc -O2 Benchmarks/Limits/inflate.c -lz -ldeflate -o $(LIMITS_DIR)/inflate
	python3 Benchmarks/limits.py --data $(BENCH_DATA) --smashtag .build/release/smashtag --tools $(LIMITS_DIR) \
	  --duckdb-python $(BENCH_VENV)/bin/python --runs $(BENCH_RUNS)

# The binary, its man page and bash/zsh completions (install-files copies
# an already built binary: the tests use it on the debug build).
INSTALL_CONFIG ?= release
install: deps
	$(SWIFT) build -c $(INSTALL_CONFIG) $(BUILD_FLAGS_$(INSTALL_CONFIG)) --product smashtag
	$(MAKE) install-files

install-files:
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions
	install -m 755 .build/$(INSTALL_CONFIG)/smashtag $(DESTDIR)$(PREFIX)/bin/smashtag
	install -m 644 doc/smashtag.1 $(DESTDIR)$(PREFIX)/share/man/man1/smashtag.1
	install -m 644 completions/smashtag.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/smashtag
	install -m 644 completions/_smashtag $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_smashtag

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/smashtag $(DESTDIR)$(PREFIX)/share/man/man1/smashtag.1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/smashtag \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_smashtag

clean:
	rm -rf .build
