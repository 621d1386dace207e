#!/usr/bin/env bash
# devvars.sh: make dev's check of .dev.vars, which make dev copied from .dev.vars.example
# once and never again: a .dev.vars made from an older example can lack a key the worker
# now needs, or hold a value it now refuses. Says exactly what to change; exits 1 then.
#
#   bash worker/devvars.sh [DEV_VARS] [EXAMPLE]
set -euo pipefail
dv=${1:-.dev.vars}
ex=${2:-.dev.vars.example}
[ -f "$dv" ] || exit 0

# val KEY FILE: the last value of KEY, without surrounding quotes.
val() {
	local v
	v=$(grep -E "^$1=" "$2" | tail -1 | cut -d= -f2-) || true
	v=${v%\"}
	v=${v#\"}
	printf '%s' "$v"
}

problems=()
for k in $(grep -E '^[A-Z_]+=' "$ex" | cut -d= -f1 | sort -u); do
	if ! grep -qE "^$k=" "$dv"; then
		problems+=("$k is missing: add this line from $ex: $(grep -E "^$k=" "$ex" | tail -1)")
	fi
done
if grep -qE '^UPSTREAM_BASE_URL=("")?$' "$dv"; then
	problems+=("UPSTREAM_BASE_URL is empty: set UPSTREAM_BASE_URL=sandbox (the embedded sandbox is no longer the default of an empty value)")
fi
for k in PROXY_TOKEN TOKEN_SIGNING_KEY; do
	v=$(val "$k" "$dv")
	if [ -n "$v" ] && [ ${#v} -lt 32 ]; then
		problems+=("$k has ${#v} characters; it needs at least 32: use the value in $ex or a random one (openssl rand -base64 33)")
	fi
done
if [ -n "$(val TOKEN_SIGNING_KEY "$dv")" ] && [ "$(val TOKEN_SIGNING_KEY "$dv")" = "$(val PROXY_TOKEN "$dv")" ]; then
	problems+=("TOKEN_SIGNING_KEY must differ from PROXY_TOKEN")
fi

if [ ${#problems[@]} -gt 0 ]; then
	echo "$dv was made from an older $ex; the worker would answer configuration errors. Change:" >&2
	printf '  - %s\n' "${problems[@]}" >&2
	echo "(or delete $dv: make dev copies $ex again)" >&2
	exit 1
fi
