# parcelgate: see README.md. `make test` and `make dev` install what they need.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := test

GO       ?= go
PKGS     := ./...
# Fuzz targets run by `make fuzz`: package:Target.
FUZZ_TIME ?= 30s

# Each part adds its own targets and its steps of `make test` / `make bench`
# in its .mk file (TEST_STEPS, BENCH_STEPS).
TEST_STEPS  := fmt-check vet test-go test-browser
BENCH_STEPS := bench-go
-include wasm/wasm.mk
-include worker/worker.mk

.PHONY: test test-go vet fmt-check bench bench-go fuzz clean tinygo browser-tools test-browser

## test: everything (formatting, vet, native Go tests, in-browser Go tests, ...).
test: $(TEST_STEPS)

fmt-check:
	@out=$$(gofmt -l $$(find . -name '*.go' -not -path './.toolchain/*' -not -path './node_modules/*' -not -path './build/*')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

test-go:
	$(GO) test -count=1 $(PKGS)

## bench: every benchmark (see BENCH_STEPS).
bench: $(BENCH_STEPS)

## bench-go: the core against net/url, encoding/json and regexp baselines.
bench-go:
	$(GO) test -run '^$$' -bench . -benchmem -count=1 ./internal/...

## tinygo: TinyGo 0.39.0 (Debian LLVM 19 + Go module proxy) into .toolchain/ unless present.
tinygo:
	@bash wasm/toolchain/tinygo.sh

## browser-tools: Debian chromium + wasmbrowsertest as .toolchain/bin/go_js_wasm_exec.
browser-tools:
	@bash wasm/toolchain/browser.sh

## test-browser: the core's Go tests compiled to wasm, inside headless Chromium.
test-browser:
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$$(bash wasm/toolchain/browser.sh)" ./internal/...

## fuzz: run every fuzz target for FUZZ_TIME each.
fuzz:
	@for pkg in $$($(GO) list ./internal/... ./worker/edge); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZ_TIME) $$pkg; \
	  done; \
	done

clean:
	rm -rf build
