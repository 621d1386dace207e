// Package bridge serves an http.Handler from one long-lived Go instance
// under workerd, for the project's JavaScript entry (worker/entry.mjs),
// and gives the handler the platform's fetch and Cache API.
//
// syumai/workers' own bridge starts a Go instance per request (its
// generated worker.mjs) and, kept alive, leaks the callbacks of every
// response stream (~22 KB a request) and shares one ExecutionContext
// between concurrent requests. This bridge keeps the instance and crosses
// the JavaScript/WebAssembly boundary a handful of times per request, with
// no callback created per request:
//
//	JS -> Go  serve(seq, head, body)           one request: "METHOD\nURL\nINFO\nname:value\n..." and its bytes
//	Go -> JS  respond(seq, status, head, body) its whole response, exactly once
//	Go -> JS  fetch(id, url, method, head, body, timeoutMs, maxBytes, label, service)
//	JS -> Go  deliver(id, status, head, body, failure)
//	Go -> JS  cacheGet(id, key) / cachePut(seq, key, body, ttlSeconds)
//	JS -> Go  scheduled(seq, scheduledTimeMs)  one Cron run, answered by respond(seq, ...)
//	Go -> JS  watchAdd / watchLease / watchCommit / watchStats (the Watchlist object)
//
// Responses are buffered: the handler's answer is sent when it returns,
// so a panic (recovered here) never follows a started response. The
// readiness signal and the environment and everything else still
// come from github.com/syumai/workers and its cloudflare packages.
package bridge
