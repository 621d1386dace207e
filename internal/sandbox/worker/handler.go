// Command worker is the sandbox (internal/sandbox) as a Cloudflare Worker
// of its own: the upstream `make dev` and the end-to-end tests run beside
// the edge worker (its SANDBOX service binding), and a hosted staging
// upstream a shop can deploy with this folder's wrangler.toml
// (internal/sandbox/README.md, "As a Cloudflare Worker").
//
// It is standard Go through github.com/syumai/workers: its generated
// worker.mjs starts a fresh Go instance for every request, which the
// sandbox is made for (no goroutine, timer or state outside its Store).
// The state is the SANDBOX_KV namespace, its msgp records as base64
// text, the format the edge's embedded sandbox wrote, so a namespace
// written by earlier builds keeps its shipments. Build it with
// `make sandbox-worker` (build/sandbox/).
//
// Settings (wrangler.toml [vars] and secrets): SANDBOX_USER and
// SANDBOX_KEY, the Basic credentials it accepts (required: a sandbox
// anyone can book into is refused, not defaulted); SANDBOX_TIME_SCALE
// (1..1000000, default 1) speeds tracking up; RULES_FEATURE (true or
// false) is the account's carrier-selection rules feature; SANDBOX_FAULT
// is the fault of every request without a Sandbox-Fault header.
package main

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/sandbox"
)

// Names of the worker's settings and binding.
const (
	EnvUser      = "SANDBOX_USER"
	EnvKey       = "SANDBOX_KEY"
	EnvTimeScale = "SANDBOX_TIME_SCALE"
	EnvRules     = "RULES_FEATURE"
	// EnvFault is the fault of every request that sends no Sandbox-Fault
	// header (sandbox.ParseFault: "delay=9000", "status=503", "drop"):
	// a whole session against a slow or failing carrier API.
	EnvFault = "SANDBOX_FAULT"
	// KVBinding is the KV namespace that holds the sandbox's state.
	KVBinding = "SANDBOX_KV"
)

// platform is what the runtime provides: workerd's env and KV binding,
// or a native stand-in in tests.
type platform struct {
	getenv func(string) string
	// store opens the state; an error names what is missing.
	store func() (sandbox.Store, error)
	// now is the clock (time.Now when nil).
	now func() time.Time
}

// settings reads the sandbox's options from the environment; problems
// name the variable and what to do, never a value.
func settings(getenv func(string) string) (opts []sandbox.Option, problems []string) {
	user, key := getenv(EnvUser), getenv(EnvKey)
	if user == "" {
		problems = append(problems, EnvUser+" is not set: the Basic auth user the sandbox accepts (a secret: wrangler secret put "+EnvUser+")")
	}
	if key == "" {
		problems = append(problems, EnvKey+" is not set: the API key the sandbox accepts (a secret: wrangler secret put "+EnvKey+")")
	}
	opts = append(opts, sandbox.WithCredentials(user, key))
	if v := strings.TrimSpace(getenv(EnvTimeScale)); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 1 || f > 1e6 {
			problems = append(problems, EnvTimeScale+" must be a number from 1 to 1000000")
		} else {
			opts = append(opts, sandbox.WithTimeScale(f))
		}
	}
	if v := strings.TrimSpace(getenv(EnvFault)); v != "" {
		f, err := sandbox.ParseFault(v)
		if err != nil {
			problems = append(problems, EnvFault+" must be like the Sandbox-Fault header (delay=<ms>, status=<code>, drop): "+err.Error())
		} else {
			opts = append(opts, sandbox.WithFault(f))
		}
	}
	switch v := strings.TrimSpace(getenv(EnvRules)); v {
	case "", "false":
	case "true":
		opts = append(opts, sandbox.WithRules(true))
	default:
		problems = append(problems, EnvRules+" must be true or false")
	}
	return opts, problems
}

// newHandler serves GET /healthz and the sandbox's operations. A
// configuration problem is answered with HTTP 500 and errorCode 999 (the
// sandbox's code for a failure of its own), naming the setting.
func newHandler(p platform) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		opts, problems := settings(p.getenv)
		var store sandbox.Store
		if len(problems) == 0 {
			s, err := p.store()
			if err != nil {
				problems = append(problems, KVBinding+" (KV namespace binding) is not available: "+err.Error())
			}
			store = s
		}
		if len(problems) > 0 {
			writeJSON(w, http.StatusInternalServerError, envelope("err", func(e jsonlite.Emitter) {
				e.Key("errorCode")
				e.Int(999)
				e.Key("errorMessage")
				e.String("sandbox worker misconfigured: " + strings.Join(problems, "; "))
			}))
			return
		}
		if r.URL.Path == "/healthz" {
			writeJSON(w, http.StatusOK, envelope("ok", func(e jsonlite.Emitter) {
				e.Key("service")
				e.String("parcelgate-sandbox")
			}))
			return
		}
		opts = append(opts, sandbox.WithStore(store))
		if p.now != nil {
			opts = append(opts, sandbox.WithClock(p.now))
		}
		sandbox.New(opts...).ServeHTTP(w, r)
	})
}

// envelope is {"status": status, "data": {...}}.
func envelope(status string, data func(jsonlite.Emitter)) []byte {
	w := jsonlite.NewWriter()
	w.BeginObject()
	w.Key("status")
	w.String(status)
	w.Key("data")
	w.BeginObject()
	data(w)
	w.EndObject()
	w.EndObject()
	return w.Bytes()
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
