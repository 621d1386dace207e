# wasm/wasm.mk: the browser module (wasm/ + js/). Included by the root Makefile.
#
#   make wasm        TinyGo build -> build/wasm/parcelgate.wasm, copied with TinyGo's
#                    wasm_exec.js into js/dist/ (the npm package ships them)
#   make wasm-go     standard-Go build of the same package (size reference)
#   make test-js     node --test: vectors and a form in headless Chromium (playwright-core
#                    + Debian's chromium), the Client against a fake server (part of make test)
#   make test-wasm-go  the wasm package's Go tests inside Chromium (part of make test)
#   make size        raw/gzip sizes; fails above WASM_BUDGET_GZIP (shipped .wasm + JS glue)
#   make bench-wasm  in-browser benchmark (part of make bench)

WASM_DIR     := build/wasm
WASM_OUT     := $(WASM_DIR)/parcelgate.wasm
WASM_GO_OUT  := $(WASM_DIR)/parcelgate-go.wasm
JS_DIST      := js/dist
# The shipped build: a reactor (no main goroutine) without a scheduler, so no
# asyncify; a leaking heap (no precise-GC stack bookkeeping). js/src/core.js
# replaces the instance when its memory or its table of JS values grows (the
# module keeps no state between calls). See js/README.md, "Browser build and size".
TINYGO_FLAGS := -target wasm -opt=z -no-debug -panic=trap -gc=leaking -scheduler=none -buildmode=c-shared
WASM_OPT_FLAGS := -Oz --enable-bulk-memory --enable-sign-ext --enable-nontrapping-float-to-int --enable-mutable-globals
# Budget of `make size`: gzip bytes of the .wasm + wasm_exec.js + the package's JS.
# 96 KB until the decoders began keeping the members they do not know and
# passing them to JavaScript (generated decoders, +2.5 KB gzip of wasm measured:
# 84290 -> 86855 bytes); 98 KB since.
WASM_BUDGET_GZIP ?= 100352
# Budget of the four checkout widgets (js/src/widgets/*.js, unminified, each file gzipped
# as served), gzip bytes. First set at 24 KB before they were written; they came to 25 KB.
WIDGETS_BUDGET_GZIP ?= 28672
WASM_GO_SRC  := go.mod $(wildcard wasm/*.go) $(shell find internal -name '*.go' -not -name '*_test.go' 2>/dev/null)
JS_SRC       := $(wildcard js/src/*.js)

TEST_STEPS  += test-wasm-go test-js
BENCH_STEPS += bench-wasm

.PHONY: wasm wasm-go test-js test-wasm-go size bench-wasm npm-tools js-generate

wasm: $(JS_DIST)/parcelgate.wasm $(JS_DIST)/wasm_exec.js

$(WASM_OUT): $(WASM_GO_SRC) wasm/wasm.mk
	@mkdir -p $(WASM_DIR)
	@tg=$$(bash wasm/toolchain/tinygo.sh); \
	tmp=$$(mktemp -d $(WASM_DIR)/.tmp.XXXXXX); \
	trap 'rm -rf "$$tmp"' EXIT; \
	echo "tinygo build $(TINYGO_FLAGS) ./wasm"; \
	"$$tg" build $(TINYGO_FLAGS) -o "$$tmp/raw.wasm" ./wasm; \
	echo "wasm-opt $(WASM_OPT_FLAGS)"; \
	wasm-opt $(WASM_OPT_FLAGS) "$$tmp/raw.wasm" -o "$$tmp/opt.wasm"; \
	cp "$$("$$tg" env TINYGOROOT)/targets/wasm_exec.js" "$(WASM_DIR)/wasm_exec.js"; \
	mv "$$tmp/opt.wasm" $@

$(WASM_DIR)/wasm_exec.js: $(WASM_OUT)

$(JS_DIST)/parcelgate.wasm: $(WASM_OUT)
	@mkdir -p $(JS_DIST)
	cp $< $@.tmp && mv $@.tmp $@

$(JS_DIST)/wasm_exec.js: $(WASM_DIR)/wasm_exec.js
	@mkdir -p $(JS_DIST)
	cp $< $@.tmp && mv $@.tmp $@

wasm-go: $(WASM_GO_OUT)

$(WASM_GO_OUT): $(WASM_GO_SRC)
	@mkdir -p $(WASM_DIR)
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o $@.tmp ./wasm && mv $@.tmp $@

## npm-tools: playwright-core (and wrangler) from package-lock.json, when missing or stale.
npm-tools: node_modules/.package-lock.json

node_modules/.package-lock.json: package-lock.json package.json
	npm ci --no-audit --no-fund
	@touch $@

## js-generate: rewrite js/index.d.ts and js/src/operations.js from the catalog.
js-generate:
	$(GO) generate ./js

## test-js: JavaScript tests (browser vectors, form, Client) with node --test.
test-js: wasm npm-tools
	@bash wasm/toolchain/browser.sh >/dev/null
	node --test --test-reporter=spec js/test/*.test.mjs

## test-wasm-go: the wasm package's tests (the js.Value builder) in headless Chromium.
test-wasm-go:
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$$(bash wasm/toolchain/browser.sh)" ./wasm/

## size: raw and gzip sizes of the shipped module and its glue, against the budget.
size: wasm wasm-go
	@node js/bench/size.mjs $(WASM_BUDGET_GZIP) $(JS_DIST)/parcelgate.wasm $(JS_DIST)/wasm_exec.js $(JS_SRC) -- $(WASM_GO_OUT)
	@echo ""
	@echo "checkout widgets (@parcelgate/js/widgets, loaded on top of the module):"
	@node js/bench/size.mjs $(WIDGETS_BUDGET_GZIP) $(wildcard js/src/widgets/*.js)

## bench-wasm: startup and per-call costs in headless Chromium (not a test).
bench-wasm: wasm npm-tools
	@bash wasm/toolchain/browser.sh >/dev/null
	node js/bench/bench.mjs
