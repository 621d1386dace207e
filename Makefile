# parcelgate: see README.md. `make test` and `make dev` install what they need.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := test

GO       ?= go
PKGS     := ./...
# Fuzz targets run by `make fuzz`: package:Target.
FUZZ_TIME ?= 30s

.PHONY: test test-go vet fmt-check bench fuzz clean

## test: everything (formatting, vet, native Go tests).
test: fmt-check vet test-go

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './.toolchain/*')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

test-go:
	$(GO) test -count=1 $(PKGS)

## bench: benchmarks of the core against net/url, encoding/json and regexp baselines.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count=1 ./internal/...

## fuzz: run every fuzz target for FUZZ_TIME each.
fuzz:
	@for pkg in $$($(GO) list ./internal/...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZ_TIME) $$pkg; \
	  done; \
	done

clean:
	rm -rf build
