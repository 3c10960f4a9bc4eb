# ledgerd: run `make help` for the targets.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO ?= go
LEDGER ?= test-ledger
BIN := bin/ledgerd

.PHONY: help generate check-generate build run test bench fuzz

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'

generate: ## regenerate generated/ from schema/
	$(GO) run ./gen

check-generate: ## fail when generated/ differs from what schema/ produces
	$(GO) run ./gen -check

build: ## build bin/ledgerd
	$(GO) build -o $(BIN) ./cmd/ledgerd

run: build ## run a node on the embedded default ledger (./test-ledger)
	./$(BIN) --ledger $(LEDGER)

test: check-generate ## check generated/, vet, and run every test
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

bench: ## run the benchmarks
	$(GO) test -run '^$$' -bench . -benchmem ./...

fuzz: ## run each fuzz target for FUZZTIME (default 20s)
	@for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $${FUZZTIME:-20s} $$pkg; \
	  done; \
	done
