# parcelgate: see README.md. `make test` and `make dev` install what they need.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := test

GO       ?= go
PKGS     := ./...
# How long `make fuzz` runs each Fuzz target (it finds them in internal/ and worker/).
FUZZ_TIME ?= 30s

# Each part adds its own targets and its steps of `make test` / `make bench`
# in its .mk file (TEST_STEPS, BENCH_STEPS).
TEST_STEPS  := check-generated fmt-check vet test-go test-browser test-types
BENCH_STEPS := bench-go
-include wasm/wasm.mk
-include worker/worker.mk

.PHONY: test test-go vet fmt-check bench bench-go fuzz clean tinygo browser-tools test-browser \
	generate check-generated test-types

# Every generated file, by its generator (see `make generate`).
GENERATED = testdata/catalog.json testdata/schemas/*.json testdata/schemas/rules/*.json \
	js/index.d.ts js/src/operations.js js/results.d.ts \
	internal/envelope/wire_gen.go internal/envelope/wire_gen_test.go \
	worker/edgeclient/operations_gen.go \
	internal/sandbox/records_gen.go internal/sandbox/records_gen_test.go \
	internal/postal/table_gen.go internal/postal/schema_gen.go internal/unitab/tables_gen.go \
	testdata/responses/*.json \
	js/src/widgets/strings/*.js js/demo/strings.js \
	worker/core/seam/wire_gen.go worker/core/seam/wire_gen_test.go worker/core/calls_gen.go \
	worker/src/core.gen.mjs worker/src/core.d.mts \
	wasm/internal/seam/wire_gen.go wasm/internal/seam/wire_gen_test.go wasm/calls_gen.go wasm/exports_gen.go \
	wasm/decoder/calls_gen.go wasm/decoder/exports_gen.go \
	js/src/core.gen.js js/test/seam.gen.test.mjs

## test: everything (formatting, vet, native Go tests, in-browser Go tests, ...).
test: $(TEST_STEPS)

fmt-check:
	@out=$$(gofmt -l $$(find . -name '*.go' -not -path './.toolchain/*' -not -path './node_modules/*' -not -path './build/*')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

test-go:
	$(GO) test -count=1 $(PKGS)

## generate: every generated file from its one source: the catalog's JSON exports
## (internal/catalog/gen), the JS operations and parameter types (js/gen), the Go
## edge client's operation constants, parameter structs and methods (worker/edgeclient/gen), the
## envelope's decoders, emitters, round-trip tests and TypeScript result types
## (internal/envelope/gen), the sandbox's msgp records, the widgets' and the demo's
## texts in seven languages (internal/i18n/gen), the core's Unicode tables
## (internal/unitab/gen), the edge's seam between its JavaScript and its core
## (worker/core/gen: Go dispatch, JavaScript calls, core.d.mts), the response vectors
## (testdata/responses/generate.mjs).
generate:
	$(GO) generate ./internal/postal ./internal/catalog ./internal/envelope ./js ./worker/edgeclient ./internal/sandbox ./internal/i18n ./internal/unitab ./worker/core/seam ./wasm/internal/seam
	node testdata/responses/generate.mjs

## check-generated: runs make generate and fails when that changed a file: a
## generated file was stale (the regenerated one is left in place to review and commit).
check-generated:
	@before=$$(sha256sum $(GENERATED)); \
	$(MAKE) --no-print-directory generate >/dev/null; \
	after=$$(sha256sum $(GENERATED)); \
	if [ "$$before" != "$$after" ]; then \
	  echo "stale generated files (now regenerated: review and commit them):"; \
	  diff <(echo "$$before") <(echo "$$after") | sed -n 's/^> [0-9a-f]*  /  /p'; exit 1; \
	fi

## test-types: the package's TypeScript declarations (js/*.d.ts, widgets.d.ts) checked
## by tsc against js/test/types.ts (typescript pinned in package-lock.json), and again
## under TypeScript's defaults (a bare tsc --strict: js/test/types-default-lib.ts); js/src
## checked against those declarations (js/tsconfig.check.json: strict JSDoc, and
## js/test/impl-conforms.ts). (The worker's JavaScript and its test fakes: test-worker-js.)
test-types: npm-tools
	node node_modules/typescript/bin/tsc -p js/tsconfig.json
	node node_modules/typescript/bin/tsc -p js/test/tsconfig.default-lib.json
	node node_modules/typescript/bin/tsc -p js/tsconfig.check.json

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

## test-browser: the core's Go tests compiled to wasm, inside headless Chromium. The sandbox's
## Workers entry (internal/sandbox/worker) is not core: under GOOS=js it links syumai/workers,
## whose init needs the Workers runtime, not a browser; its tests run natively (test-go).
test-browser:
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$$(bash wasm/toolchain/browser.sh)" \
	  $$($(GO) list ./internal/... | grep -v '/internal/sandbox/worker$$')

## fuzz: run every fuzz target for FUZZ_TIME each, all of them even when one
## fails, then a summary; fails when any target failed.
fuzz:
	@pass=(); fail=(); \
	for pkg in $$($(GO) list ./internal/... ./worker/...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; \
	    if $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZ_TIME) $$pkg; then \
	      pass+=("$$pkg $$t"); else fail+=("$$pkg $$t"); fi; \
	  done; \
	done; \
	echo ""; echo "fuzz summary: $${#pass[@]} passed, $${#fail[@]} failed ($(FUZZ_TIME) each)"; \
	for x in "$${fail[@]}"; do echo "  FAIL $$x (the failing input is in its package's testdata/fuzz/)"; done; \
	[ $${#fail[@]} -eq 0 ]

clean:
	rm -rf build
