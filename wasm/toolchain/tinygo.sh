#!/usr/bin/env bash
# tinygo.sh: make TinyGo v0.39.0 available and print the path of a `tinygo`
# command that works (the only line on stdout; progress goes to stderr).
#
#   tg=$(bash wasm/toolchain/tinygo.sh) && "$tg" build -target wasm ...
#
# 1. A `tinygo` on PATH that reports version 0.39.x is used as it is.
# 2. Otherwise TinyGo is built from the Go module proxy and Debian packages
#    into the git-ignored .toolchain/ at the repository root:
#      .toolchain/tinygo/          TINYGOROOT (module sources + bin/tinygo)
#      .toolchain/go1.25           symlink to the Go 1.25.10 GOROOT (TinyGo
#                                  0.39 accepts Go 1.19-1.25 only)
#      .toolchain/cache/tinygo/    TinyGo's cache with prebuilt wasi-libc and
#                                  compiler-rt (the module zip has no submodules)
#      .toolchain/bin/tinygo       wrapper that sets the environment; use this
# Safe to re-run: a complete install (stamp file) is detected in well under a
# second. Needs root (or the apt packages already present), apt, and the Go
# module proxy.
set -euo pipefail

TINYGO_VERSION=0.39.0
GO_VERSION=1.25.10
LLVM=19
# Bump when the layout below changes, so that old installs are redone.
RECIPE=1
APT_PKGS=("llvm-$LLVM-dev" "libclang-$LLVM-dev" "clang-$LLVM" "lld-$LLVM"
	"libclang-rt-$LLVM-dev-wasm32" wasi-libc binaryen g++)

log() { printf 'tinygo.sh: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tc=$repo/.toolchain
wrapper=$tc/bin/tinygo
stamp=$tc/tinygo/.parcelgate-stamp
want_stamp="tinygo=$TINYGO_VERSION go=$GO_VERSION llvm=$LLVM recipe=$RECIPE"

# --- 1. a tinygo 0.39 already on PATH ---------------------------------------
if [ -z "${TINYGO_FORCE_LOCAL:-}" ] && path=$(command -v tinygo 2>/dev/null); then
	if "$path" version 2>/dev/null | grep -q "^tinygo version ${TINYGO_VERSION%.*}\."; then
		echo "$path"
		exit 0
	fi
fi

installed() {
	[ -x /usr/bin/clang-$LLVM ] && [ -x /usr/bin/wasm-ld-$LLVM ] && [ -x /usr/bin/wasm-opt ] &&
		[ -x "$wrapper" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want_stamp" ] &&
		"$wrapper" version 2>/dev/null | grep -q "^tinygo version $TINYGO_VERSION "
}

# --- 2. already installed in .toolchain --------------------------------------
if installed; then
	echo "$wrapper"
	exit 0
fi

mkdir -p "$tc/bin"
# One installer at a time (make -j, two terminals).
exec 9>"$tc/.tinygo.lock"
flock 9
if installed; then
	echo "$wrapper"
	exit 0
fi
start=$(date +%s)

# --- Debian packages ----------------------------------------------------------
missing=()
for p in "${APT_PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	log "installing Debian packages: ${missing[*]}"
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -qq >&2
	$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
for f in /usr/bin/clang-$LLVM /usr/bin/wasm-ld-$LLVM /usr/bin/llvm-ar-$LLVM /usr/bin/wasm-opt \
	/usr/lib/wasm32-wasi/libc.a /usr/include/wasm32-wasi/stdio.h \
	/usr/lib/llvm-$LLVM/lib/clang/$LLVM/lib/wasi/libclang_rt.builtins-wasm32.a; do
	[ -e "$f" ] || die "$f is missing after installing ${APT_PKGS[*]}"
done

# --- Go 1.25.10 through the module proxy -------------------------------------
command -v go >/dev/null || die "go is not on PATH"
log "getting Go $GO_VERSION (GOTOOLCHAIN=go$GO_VERSION)"
goroot125=$(cd / && env -u GOROOT GOTOOLCHAIN=go$GO_VERSION go env GOROOT)
[ -x "$goroot125/bin/go" ] || die "no Go $GO_VERSION at '$goroot125'"
ln -sfn "$goroot125" "$tc/go1.25"

# --- TinyGo sources and binary -----------------------------------------------
log "downloading github.com/tinygo-org/tinygo@v$TINYGO_VERSION"
moddir=$(cd / && go mod download -json "github.com/tinygo-org/tinygo@v$TINYGO_VERSION" |
	sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -f "$moddir/go.mod" ] || die "go mod download gave no module dir ('$moddir')"

work=$tc/tinygo.new
rm -rf "$work"
cp -R "$moddir" "$work"
chmod -R u+w "$work"
# The module zip lacks git submodules. net is one (tinygo-org/net, not on any
# reachable registry): an empty dir lets every program that does not import
# net build.
mkdir -p "$work/src/net" "$work/lib"

log "building tinygo (go build -tags llvm$LLVM; takes a minute or two)"
(cd "$work" && CGO_ENABLED=1 GOFLAGS="-mod=mod -buildvcs=false" go build -tags "llvm$LLVM" \
	-o "$work/bin/tinygo" .) >&2 || die "building tinygo failed"

# --- TinyGo cache with prebuilt C libraries ----------------------------------
# TinyGo looks for $XDG_CACHE_HOME/tinygo/<lib>-<triple>-<cpu>/lib.a (and
# include/) before trying to build it from the (missing) submodule sources.
cache=$tc/cache/tinygo
rm -rf "$cache"
mkdir -p "$cache"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# wasi-libc from Debian. Debian builds it with asserts on: its assert.o pulls
# in stdio (~25 KB in every binary). Replace it with a trapping __assert_fail.
cp /usr/lib/wasm32-wasi/libc.a "$scratch/libc.a"
cat >"$scratch/assert.c" <<'EOF'
_Noreturn void __assert_fail(const char *expr, const char *file, int line, const char *func)
{
	(void)expr; (void)file; (void)line; (void)func;
	__builtin_trap();
}
EOF
clang-$LLVM --target=wasm32-wasi -Oz -c -ffunction-sections -fdata-sections \
	-o "$scratch/assert.o" "$scratch/assert.c"
if llvm-ar-$LLVM t "$scratch/libc.a" | grep -qx assert.o; then
	llvm-ar-$LLVM d "$scratch/libc.a" assert.o
fi
llvm-ar-$LLVM r "$scratch/libc.a" "$scratch/assert.o"
llvm-ranlib-$LLVM "$scratch/libc.a"

# wasmbuiltins (targets wasm-unknown, wasip2): memcpy/memmove/memset and the
# math used by LLVM intrinsics, taken out of the same libc.a.
mkdir "$scratch/wb"
wb_objs=(memcpy.o memmove.o memset.o __math_divzero.o __math_invalid.o __math_oflow.o
	__math_uflow.o __math_xflow.o exp.o exp_data.o exp2.o log.o log_data.o)
(cd "$scratch/wb" && llvm-ar-$LLVM x "$scratch/libc.a" "${wb_objs[@]}" &&
	llvm-ar-$LLVM rcs "$scratch/wasmbuiltins.a" "${wb_objs[@]}")

rt=/usr/lib/llvm-$LLVM/lib/clang/$LLVM/lib/wasi/libclang_rt.builtins-wasm32.a
for triple in wasm32-unknown-wasi wasm32-unknown-unknown; do
	d=$cache/compiler-rt-$triple-generic
	mkdir -p "$d" && cp "$rt" "$d/lib.a"
	d=$cache/wasmbuiltins-$triple-generic
	mkdir -p "$d" && cp "$scratch/wasmbuiltins.a" "$d/lib.a"
done
d=$cache/wasi-libc-wasm32-unknown-wasi-generic
mkdir -p "$d"
cp "$scratch/libc.a" "$d/lib.a"
cp -R /usr/include/wasm32-wasi "$d/include"

# --- wrapper -----------------------------------------------------------------
cat >"$tc/bin/tinygo.new" <<EOF
#!/usr/bin/env bash
# Generated by wasm/toolchain/tinygo.sh: runs TinyGo $TINYGO_VERSION with Go $GO_VERSION.
set -euo pipefail
tc=\$(cd "\$(dirname "\$(readlink -f "\${BASH_SOURCE[0]}")")/.." && pwd)
if [ ! -x "\$tc/go1.25/bin/go" ]; then
	# The Go module cache was cleaned: fetch Go $GO_VERSION again.
	ln -sfn "\$(cd / && env -u GOROOT GOTOOLCHAIN=go$GO_VERSION go env GOROOT)" "\$tc/go1.25"
fi
unset GOROOT
export GOTOOLCHAIN=local
export PATH="\$tc/go1.25/bin:\$PATH"
export TINYGOROOT="\$tc/tinygo"
# Keep Go's own build cache where it was (XDG_CACHE_HOME would move it).
if [ -z "\${GOCACHE:-}" ]; then
	export GOCACHE="\${XDG_CACHE_HOME:-\${HOME:-/root}/.cache}/go-build"
fi
export XDG_CACHE_HOME="\$tc/cache"
exec "\$tc/tinygo/bin/tinygo" "\$@"
EOF
chmod +x "$tc/bin/tinygo.new"

rm -rf "$tc/tinygo"
mv "$work" "$tc/tinygo"
mv "$tc/bin/tinygo.new" "$wrapper"

# --- check: a tiny syscall/js program must build -----------------------------
log "checking: building a small wasm program"
mkdir -p "$scratch/check"
printf 'module check\n\ngo 1.25\n' >"$scratch/check/go.mod"
cat >"$scratch/check/main.go" <<'EOF'
package main

import (
	"strconv"
	"syscall/js"
)

func main() {
	js.Global().Set("answer", js.ValueOf(strconv.Itoa(42)))
}
EOF
(cd "$scratch/check" && "$wrapper" build -target wasm -opt=z -no-debug -o "$scratch/check.wasm" .) >&2 ||
	die "the installed tinygo cannot build a small wasm program"

echo "$want_stamp" >"$stamp"
log "installed TinyGo $TINYGO_VERSION in $(($(date +%s) - start)) s: $wrapper"
echo "$wrapper"
