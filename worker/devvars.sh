#!/usr/bin/env bash
# devvars.sh: make dev's check of .dev.vars (the edge worker's local settings and secrets;
# make dev copies .dev.vars.example once, then it is yours: for the sandbox worker or for a
# real upstream). Names every setting the edge would answer with a configuration error and
# says what to change, without printing a secret; exits 1 then. The verdict is the built
# core's (worker/checkconfig.mjs --dev-vars: its configuration errors and its one rule for
# secrets, as the edge's /healthz applies it; make dev builds it first); this script only adds
# what to do about each. With a third argument it
# writes the sandbox worker's .dev.vars there: the credentials the sandbox accepts are the
# edge's API_USER and API_KEY (dev placeholders when the upstream is not the sandbox: a real
# account's key is never copied), and SANDBOX_TIME_SCALE, RULES_FEATURE and SANDBOX_FAULT follow .dev.vars.
#
#   bash worker/devvars.sh [DEV_VARS] [EXAMPLE] [SANDBOX_DEV_VARS]
set -euo pipefail
dv=${1:-.dev.vars}
ex=${2:-.dev.vars.example}
sandbox_out=${3:-}
[ -f "$dv" ] || { echo "$dv is missing: make dev copies it from $ex" >&2; exit 1; }

# has KEY: KEY is set (possibly empty) in $dv.
has() { grep -qE "^$1=" "$dv"; }
# val KEY FILE: the last value of KEY, without surrounding quotes.
val() {
	local v
	v=$(grep -E "^$1=" "$2" | tail -1 | cut -d= -f2-) || true
	v=${v%\"}
	v=${v#\"}
	v=${v%\'}
	v=${v#\'}
	printf '%s' "$v"
}

problems=()
named=" "
upstream=$(val UPSTREAM_BASE_URL "$dv")
sandbox=false
case "$upstream" in
"")
	problems+=("UPSTREAM_BASE_URL is empty or missing: set UPSTREAM_BASE_URL=sandbox (the sandbox worker make dev runs beside the edge), or your service's https URL ending in /v1")
	named+="UPSTREAM_BASE_URL "
	;;
sandbox | SANDBOX | Sandbox) sandbox=true ;;
esac

# The secrets the edge needs, when missing: from the example when the upstream is the
# sandbox (any values work there), the account's own otherwise.
for k in API_USER API_KEY PROXY_TOKEN TOKEN_SIGNING_KEY; do
	[ -n "$(val "$k" "$dv")" ] && continue
	what="is missing"
	has "$k" && what="is empty"
	named+="$k "
	case "$k" in
	API_USER | API_KEY)
		if $sandbox; then
			problems+=("$k $what: add this line from $ex: $(grep -E "^$k=" "$ex" | tail -1) (the sandbox worker accepts whatever the edge sends)")
		else
			part=${k#API_}
			problems+=("$k $what: the Basic auth ${part,,} of your account at the upstream")
		fi
		;;
	*)
		problems+=("$k $what: make dev-secrets writes a strong random one into $dv (or add this line from $ex: $(grep -E "^$k=" "$ex" | tail -1))")
		;;
	esac
done

# Everything else is the core's verdict, as the edge will give it (its configuration
# errors and its rule for secrets: worker/core/secrets.go), from the built core.wasm:
# worker/checkconfig.mjs --dev-vars, one "VARIABLE<tab>problem" line each.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
set +e
verdict=$(node "$root/worker/checkconfig.mjs" --config "$root/wrangler.toml" --env dev --dev-vars "$dv" 2>&1)
rc=$?
set -e
if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
	echo "$dv: could not be checked: $verdict" >&2
	exit 1
fi
while IFS=$'\t' read -r var problem; do
	[ -n "$var" ] || continue
	[[ $named == *" $var "* ]] && continue
	named+="$var "
	case "$var" in
	UPSTREAM_BASE_URL)
		problems+=("UPSTREAM_BASE_URL must be sandbox, or the service's https URL ending in /v1 (plain http only for 127.0.0.1 or localhost): it $problem")
		;;
	PROXY_TOKEN | TOKEN_SIGNING_KEY | WEBHOOK_SECRET | WEBHOOK_SECRET_PREVIOUS)
		problems+=("$var $problem (make dev-secrets writes strong random ones into $dv)")
		;;
	*)
		problems+=("$var $problem")
		;;
	esac
done <<<"$verdict"
if [ $rc -eq 1 ] && [ ${#problems[@]} -eq 0 ]; then
	echo "$dv: could not be checked: $verdict" >&2
	exit 1
fi
if [ ${#problems[@]} -gt 0 ]; then
	echo "$dv: the edge worker would answer configuration errors. Change:" >&2
	printf '  - %s\n' "${problems[@]}" >&2
	echo "(or delete $dv: make dev copies $ex again)" >&2
	exit 1
fi
if has ALLOWED_ORIGINS; then
	echo "note: ALLOWED_ORIGINS in $dv is not used: make dev allows its own origins (DEV_ORIGINS, from DEV_PORT)" >&2
fi
if ! $sandbox; then
	echo "note: the upstream is $upstream (not the sandbox): the demo shop gets no demo token and its server books nothing" >&2
fi

# line KEY VALUE: a .dev.vars line (dotenv: the outer quotes are removed).
line() {
	case "$2" in
	*\"*) printf "%s='%s'\n" "$1" "$2" ;;
	*) printf '%s="%s"\n' "$1" "$2" ;;
	esac
}

if [ -n "$sandbox_out" ]; then
	user=sandbox key=sandbox-dev-key
	if $sandbox; then
		user=$(val API_USER "$dv") key=$(val API_KEY "$dv")
	fi
	(
		umask 077
		{
			echo "# Written by make dev (worker/devvars.sh) from $dv: edit that file, not this one."
			line SANDBOX_USER "$user"
			line SANDBOX_KEY "$key"
			for k in SANDBOX_TIME_SCALE RULES_FEATURE SANDBOX_FAULT; do
				if has "$k"; then line "$k" "$(val "$k" "$dv")"; fi
			done
		} >"$sandbox_out"
	)
fi
