# wasm/wasm.mk: the browser module (wasm/ + js/). Included by the root Makefile.
#
#   make wasm        TinyGo builds -> build/wasm/parcelgate.wasm (validation module) and
#                    build/wasm/parcelgate-decoder.wasm (response decoder, loaded on first
#                    use), copied into js/dist/ (the npm package ships them)
#   make test-js     node --test: vectors and a form in headless Chromium (playwright-core
#                    + Debian's chromium), the Client against a fake server (part of make test)
#   make test-wasm-go  the wasm packages' Go tests inside Chromium (part of make test)
#   make size        raw/gzip sizes of each part; fails above either budget
#   make bench-wasm  in-browser benchmark (part of make bench)

WASM_DIR     := build/wasm
WASM_OUT     := $(WASM_DIR)/parcelgate.wasm
DECODER_OUT  := $(WASM_DIR)/parcelgate-decoder.wasm
JS_DIST      := js/dist
# Both modules: plain exports, no imports, no wasm_exec.js (-target wasm-unknown is a
# reactor with -scheduler=none and TinyGo's leaking heap; js/src/core.js replaces the
# instance when its memory has grown past a limit: the modules keep no state between
# calls). The validation module is built for speed (-opt=2, 3.6 KB gzip more than -opt=z,
# measured); the decoder, used once per API response, for size.
TINYGO_FLAGS := -target wasm-unknown -no-debug -panic=trap -stack-size=64KB
TINYGO_OPT_VALIDATION := -opt=2
WASM_OPT_VALIDATION := -O2
TINYGO_OPT_DECODER := -opt=z
WASM_OPT_DECODER := -Oz
WASM_OPT_FLAGS := --enable-bulk-memory --enable-sign-ext --enable-nontrapping-float-to-int --enable-mutable-globals
# Budgets of `make size`, gzip -9 bytes. The validation module + its loader
# (js/src/core.js, its generated calls core.gen.js and the wire format wire.js) is what a
# checkout page fetches before the first validation.
VALIDATION_BUDGET_GZIP ?= 49152
# The response decoder, fetched only for an answer the edge did not normalize (an error, an older edge).
DECODER_BUDGET_GZIP ?= 73728
# Budget of a checkout page before the map (issue 22): the package JS a page needs for the
# four widgets (bundled and minified with esbuild, as a shop's build does) plus the
# validation module, gzip bytes. It replaces the widgets' own budget (28 KB of unminified
# files gzipped one by one), which charged the -define modules as if nothing were bundled.
CHECKOUT_BUDGET_GZIP ?= 81920
# The drop-point picker's map, loaded lazily when a shop turns it on (<pg-drop-point-picker
# map>): its own budget, and the files it loads: its module and Leaflet 1.9.4 (dist/leaflet.js
# + leaflet.css, which the shop serves; measured from node_modules). 47.8 KB measured.
MAP_BUDGET_GZIP ?= 51200
MAP_FILES ?= js/src/widgets/drop-point-map.js node_modules/leaflet/dist/leaflet.js node_modules/leaflet/dist/leaflet.css
WASM_GO_SRC  := go.mod $(shell find wasm internal -name '*.go' -not -name '*_test.go' 2>/dev/null)
JS_SRC       := $(wildcard js/src/*.js)
# The loader: what load() needs (js/src/core.js and its imports).
LOADER_JS    := js/src/core.js js/src/core.gen.js js/src/wire.js

TEST_STEPS  += test-wasm-go test-js
BENCH_STEPS += bench-wasm

.PHONY: wasm test-js test-wasm-go size bench-wasm npm-tools js-generate

wasm: $(JS_DIST)/parcelgate.wasm $(JS_DIST)/parcelgate-decoder.wasm

# tinygo-build PACKAGE, OUT, TINYGO OPT, WASM-OPT LEVEL: TinyGo, wasm-opt, then
# wasm/toolchain/datapack, as the edge core's build does (worker/worker.mk, worker-core):
# binaryen splits the data at runs of zeros (142 segments in the validation module, 228 in the
# decoder); joined as one they are 1.6 and 2.4 KB more raw and 595 and 799 B less gzip, which is
# what a page fetches (2026-11-28: js/bench/README.md, "Sizes"). Into a temp dir first (a
# running `make dev` serves js/dist).
define tinygo-build
	@mkdir -p $(WASM_DIR)
	@tg=$$(bash wasm/toolchain/tinygo.sh); \
	tmp=$$(mktemp -d $(WASM_DIR)/.tmp.XXXXXX); \
	trap 'rm -rf "$$tmp"' EXIT; \
	echo "tinygo build $(TINYGO_FLAGS) $(3) $(1)"; \
	"$$tg" build $(TINYGO_FLAGS) $(3) -o "$$tmp/raw.wasm" $(1); \
	echo "wasm-opt $(4); datapack"; \
	wasm-opt $(4) $(WASM_OPT_FLAGS) "$$tmp/raw.wasm" -o "$$tmp/opt.wasm"; \
	$(GO) run ./wasm/toolchain/datapack "$$tmp/opt.wasm" "$$tmp/packed.wasm"; \
	mv "$$tmp/packed.wasm" $(2)
endef

$(WASM_OUT): $(WASM_GO_SRC) wasm/wasm.mk
	$(call tinygo-build,./wasm,$@,$(TINYGO_OPT_VALIDATION),$(WASM_OPT_VALIDATION))

$(DECODER_OUT): $(WASM_GO_SRC) wasm/wasm.mk
	$(call tinygo-build,./wasm/decoder,$@,$(TINYGO_OPT_DECODER),$(WASM_OPT_DECODER))

$(JS_DIST)/%.wasm: $(WASM_DIR)/%.wasm
	@mkdir -p $(JS_DIST)
	cp $< $@.tmp && mv $@.tmp $@

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

## test-wasm-go: the wasm packages' tests (the calls and the wire format) in headless Chromium.
test-wasm-go:
	GOOS=js GOARCH=wasm $(GO) test -count=1 -exec="$$(bash wasm/toolchain/browser.sh)" ./wasm/...

## size: raw and gzip sizes of each part, against its budget, and the checkout page's total.
size: wasm npm-tools
	@echo "validation module, fetched before the first validation (load()):"
	@node js/bench/size.mjs $(VALIDATION_BUDGET_GZIP) $(JS_DIST)/parcelgate.wasm $(LOADER_JS)
	@echo ""
	@echo "response decoder, fetched on the first answer the edge did not normalize (an error, an older edge):"
	@node js/bench/size.mjs $(DECODER_BUDGET_GZIP) $(JS_DIST)/parcelgate-decoder.wasm
	@echo ""
	@echo "the rest of the package (Client, errors, operation list; not needed to validate):"
	@node js/bench/size.mjs 1000000 $(filter-out $(LOADER_JS),$(JS_SRC))
	@echo ""
	@node js/bench/checkout-size.mjs $(CHECKOUT_BUDGET_GZIP) $(MAP_BUDGET_GZIP) $(MAP_FILES)

## bench-wasm: startup and per-call costs in headless Chromium (not a test).
bench-wasm: wasm npm-tools
	@bash wasm/toolchain/browser.sh >/dev/null
	node js/bench/bench.mjs
