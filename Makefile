# smashtag — the front door: build, report, test, bench, deps.
#
#   make report TERM=#stanford   report on samples/ (TERM defaults to #stanford)
#   make test                    every test (unit and end to end)
#   make bench                   throughput against DuckDB (release build)

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

.PHONY: all build release deps report test test-fast bench clean samples

all: build

# Install what a clean Debian machine lacks: libarchive's headers and pkg-config.
deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libarchive; then \
	  echo "installing libarchive-dev and pkg-config with apt-get"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libarchive-dev pkg-config >/dev/null; \
	fi

build: deps
	$(SWIFT) build -c $(CONFIG)

release:
	$(MAKE) build CONFIG=release

# The build's chatter goes to stderr: stdout carries the report alone.
report: deps
	@$(SWIFT) build -c $(CONFIG) >&2
	@$(BIN) report '$(REPORT_TERM)' samples/ $(if $(FORMAT),--format $(FORMAT))

test: deps
	$(SWIFT) build
	$(SWIFT) test --disable-swift-testing

test-fast: test

samples:
	python3 samples/generate.py
	python3 Tests/Fixtures/generate.py
	python3 Tests/Fixtures/generate_csv.py

clean:
	rm -rf .build
