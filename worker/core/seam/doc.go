// Package seam declares the calls between the edge worker's JavaScript
// (worker/src) and its Go core (worker/core, compiled by TinyGo): the one
// source of the contract. worker/core/gen reads this package and writes the
// Go wire code (wire_gen.go: method numbers, decoders, encoders), the core's
// dispatch (worker/core/calls_gen.go), the JavaScript wrappers
// (worker/src/core.gen.mjs) and their types (worker/src/core.d.mts);
// `make generate` runs it and `make check-generated` fails when any is stale.
//
// A call is a method of Calls: one named input struct in, one named output
// struct out. Struct tags name the JSON members (`json`), mark the one large
// string that travels as raw bytes (`seam:"raw"`) and give a TypeScript type
// where Go's says too little (`ts`). Directives in a type's comment:
// `seam:union <field> <value>=<fields,...> ...` (the value of field decides
// which other members are written: a discriminated union in TypeScript),
// `seam:record` (a list of name/value pairs written as a JSON object),
// `seam:enum` (a string type whose constants are its values). A call's
// comment may say `seam:js <name>` (its JavaScript name, "watch.open") and
// `seam:free` (it runs without configure: the module is not configured
// first).
//
//go:generate go run ../gen
package seam

// The text below is core.d.mts's preface.

//seam:preface
// The edge core's JavaScript interface: the contract between the edge
// worker's JavaScript (worker/src/*.mjs: routing, CORS, request ids, logs,
// fetch with Basic auth, the caches, rate-limit bindings, the Bookings and
// Watchlist Durable Objects, the Cron handler) and the Go core compiled by
// TinyGo (build/worker/core.wasm, built from worker/core; see
// worker/README.md, "The edge core"). Generated from worker/core/seam.
//
// The split: every DECISION is Go (what a request means, whether it is
// allowed, what is forwarded and how, what the client is answered, in its
// language, what a booking record becomes, what the watcher sends); every
// I/O and platform verb is JavaScript. Each method below is one crossing
// into the module (one message in, one out: named fields both ways),
// synchronous, and never throws for bad input: bad input is an answer (a
// 4xx response).
//
// Conventions:
// - `now`, `runAt` and every `...At` are Unix milliseconds; durations say
//   their unit in their name (`...Ms`, `...Seconds`).
// - `requestId` is the worker's id of the request (X-Request-Id): it goes
//   into every error body the core writes.
// - `acceptLanguage` is the request's Accept-Language header (null when
//   absent): error messages are in that language (en, es, pt, fr, de, it,
//   nl; English when none matches). Codes, fields and classes never change.
// - Bodies come in as a string or bytes (UTF-8) and go out as strings.
// - A response's `headers` are the ones the decision implies (Content-Type,
//   Allow, WWW-Authenticate, Retry-After, Idempotent-Replayed); the JS adds
//   its own (X-Request-Id, CORS, Cache-Control: no-store, nosniff, Vary,
//   Server-Timing, X-Cache).
// - A trap inside the module (a Go panic: TinyGo has no recover on wasm) is
//   caught by the wrapper: that call returns the 500 envelope a `failure`
//   of kind "internal" gives, the module is instantiated afresh (about a
//   millisecond) and configured again with the last `configure` input;
//   other calls are not affected. `onTrap` is told. Per method, a trapped
//   call returns: prepare {kind: "respond", caller: "unknown", rateLimit:
//   null, response}; answer {response, outcome: "lost", cacheable: false,
//   retry: false, leak: false, watch: null, note: "trap"} (a booking's
//   answer that trapped may have booked); booking {kind: "respond",
//   response, finish, watch: null} with finish {outcome: "refused"} for state new,
//   {outcome: "unsent"} for lost (that earlier booking may exist), null
//   otherwise (nothing was sent by this attempt); lookedUp
//   {kind: "respond", response, finish: {outcome: "unsent"}, watch: null};
//   tokens and demoToken {rateLimit: null, response}; healthz, failure and
//   fault the response; normalize {body: the input body, normalized: false};
//   rates {source: "", response: null} (the request is answered as before);
//   configure, isMaster, signWebhook, mint, verify, version and the watch
//   calls rethrow the RuntimeError (no request to answer).
// - The module keeps only what configure made: each call runs in the memory
//   the last one used (an arena taken back when the next call begins). A
//   call that grew linear memory past RENEW_ABOVE bytes (the wrapper's
//   constant, 1 MiB; not a setting) is followed by a renewal of the
//   instance, the same way as after a trap (configured again, not counted
//   in `instances`, not told to `onTrap`).
//   Answers do not change.
//seam:end
