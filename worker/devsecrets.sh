#!/usr/bin/env bash
# devsecrets.sh: make dev-secrets. Writes strong random local secrets into .dev.vars (created
# from .dev.vars.example when missing) for PROXY_TOKEN, TOKEN_SIGNING_KEY and, when its line is
# set, WEBHOOK_SECRET: only where the value is missing, empty or still .dev.vars.example's
# placeholder. A value of your own is kept, and said so: nothing is overwritten silently. The
# values are never printed. With a real upstream the example's placeholders are refused (the
# core's rule, worker/core/secrets.go): this is the step that makes .dev.vars pass.
#
#   bash worker/devsecrets.sh [DEV_VARS] [EXAMPLE]
set -euo pipefail
dv=${1:-.dev.vars}
ex=${2:-.dev.vars.example}

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

if [ ! -f "$dv" ]; then
	(umask 077 && cp "$ex" "$dv")
	echo "created $dv from $ex"
fi
for k in PROXY_TOKEN TOKEN_SIGNING_KEY WEBHOOK_SECRET; do
	if ! grep -qE "^$k=" "$dv"; then
		# WEBHOOK_SECRET only with webhooks on (its line uncommented).
		[ "$k" = WEBHOOK_SECRET ] && continue
	else
		cur=$(val "$k" "$dv")
		if [ -n "$cur" ] && [ "$cur" != "$(val "$k" "$ex")" ]; then
			echo "kept $k: not $ex's placeholder (yours, or written before; delete its line to get a new random one)"
			continue
		fi
	fi
	# 32 random bytes as hex: 64 characters, every one of 16 kinds.
	secret=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
	tmp=$(mktemp "$dv.XXXXXX")
	awk -v k="$k" -v s="$secret" 'BEGIN { done = 0 }
		index($0, k "=") == 1 { if (!done) { print k "=\"" s "\""; done = 1 }; next }
		{ print }
		END { if (!done) print k "=\"" s "\"" }' "$dv" >"$tmp"
	chmod 600 "$tmp"
	mv "$tmp" "$dv"
	echo "wrote a random $k into $dv"
done
