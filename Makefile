# ledgerd: run `make help` for the targets.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO ?= go
LEDGER ?= test-ledger
BIN := bin/ledgerd

CONFORMANCE_URL ?= http://127.0.0.1:8899
CONFORMANCE_WS ?= ws://127.0.0.1:8900

.PHONY: help generate check-generate docs sdk build run test bench fuzz conformance

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'

generate: ## regenerate generated/ from schema/
	$(GO) run ./gen

check-generate: ## fail when generated/ differs from what schema/ produces
	$(GO) run ./gen -check

docs: generate ## render the HTML method reference (generated/docs/index.html; a node serves it at GET /docs)
	@echo "docs: $(CURDIR)/generated/docs/index.html"

sdk: generate ## generate the TypeScript client (generated/sdk/typescript; checked by go test ./conformance/sdkcheck)
	@echo "sdk: $(CURDIR)/generated/sdk/typescript (index.ts, package.json, tsconfig.json, README.md)"

build: ## build bin/ledgerd
	$(GO) build -o $(BIN) ./cmd/ledgerd

run: build ## run a node on the embedded default ledger (./test-ledger)
	./$(BIN) --ledger $(LEDGER)

# Where install-test-validator-link puts the link (a directory on PATH).
LINK_DIR ?= $(HOME)/.local/bin

.PHONY: install-test-validator-link
install-test-validator-link: build ## link LINK_DIR/solana-test-validator (default ~/.local/bin) to bin/ledgerd: tools that start the test validator start ledgerd
	mkdir -p "$(LINK_DIR)"
	ln -sfn "$(CURDIR)/$(BIN)" "$(LINK_DIR)/solana-test-validator"
	@echo "$(LINK_DIR)/solana-test-validator -> $(CURDIR)/$(BIN)"
	@case ":$$PATH:" in *":$(LINK_DIR):"*) ;; *) echo "note: $(LINK_DIR) is not on PATH; add it before the directory of the real solana-test-validator";; esac

test: check-generate ## check generated/, formatting, vet, and run every test
	@unformatted=$$("$$($(GO) env GOROOT)/bin/gofmt" -l cmd conformance gen impl); \
	if [ -n "$$unformatted" ]; then echo "not gofmt-formatted: $$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

conformance: ## check a running node against the schema (CONFORMANCE_URL, CONFORMANCE_WS; CONFORMANCE_FLAGS=-strict)
	$(GO) run ./conformance -url $(CONFORMANCE_URL) -ws $(CONFORMANCE_WS) \
	  -json conformance/report.json -html conformance/report.html $(CONFORMANCE_FLAGS)

bench: build ## run the Go benchmarks (an SPL Token ELF transfer next to LiteSVM among them), then the figures of cmd/ledgerd-bench (README, Benchmarks) against bin/ledgerd (about 10 minutes; BENCHFLAGS=-help)
	@# The figures do not depend on the Go benchmarks: both parts run, and the target fails if either did.
	status=0; $(GO) test -run '^$$' -bench . -benchmem ./... || status=$$?; \
	$(GO) run ./cmd/ledgerd-bench -ledgerd $(BIN) $(BENCHFLAGS) || status=$$?; \
	exit $$status

fuzz: ## run every fuzz target for FUZZTIME (default 20s), then list each result; fails if any target failed
	@# Every target runs even when one fails (Go 1.26's fuzz coordinator can fail spuriously, golang/go#75804):
	@# the summary names each failure so it can be rerun alone.
	@summary=""; failed=0; \
	for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; \
	    if $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $${FUZZTIME:-20s} $$pkg; then result=PASS; \
	    else result=FAIL; failed=$$((failed+1)); fi; \
	    summary="$$summary$$result $$pkg $$t"$$'\n'; \
	  done; \
	done; \
	printf '== fuzz summary\n%s' "$$summary"; \
	echo "fuzz: $$(grep -c '^PASS' <<<"$$summary" || true) passed, $$failed failed"; \
	[ "$$failed" -eq 0 ]

.PHONY: real-programs
real-programs: ## write the real program builds bundled in npm litesvm@1.5.0 to ./programs/*.so (needs node and npm)
	$(GO) run ./conformance/realelf/cmd/realelf -o programs
