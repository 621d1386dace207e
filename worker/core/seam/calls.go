package seam

// Calls are the module's calls, in the order of their method numbers
// (generated: no number is written by hand). worker/core implements each
// as a method of its Calls (lower-case name) taking the input and filling
// the output.
type Calls interface {
	// Reads the environment once per isolate (and again after a trap, by the wrapper).
	//seam:free
	Configure(ConfigureInput) Configuration
	// Decides an operation call (/v1/<operation>, any method but OPTIONS).
	Prepare(PrepareInput) Prepared
	// Decides the client's answer from the upstream's (or from its failure).
	Answer(AnswerInput) Answered
	// Decides a booking from its ledger record (Bookings Durable Object `begin`).
	Booking(BookingInput) Step
	// Decides a booking whose earlier answer was lost, from the upstream's get-shipments answer.
	LookedUp(LookedUpInput) Step
	// POST /tokens: mints a scoped token for the shop's server (master token).
	Tokens(EndpointInput) EndpointAnswer
	// GET|POST /demo/token: a demo token (only while `Configuration.demo`).
	DemoToken(EndpointInput) EndpointAnswer
	// GET /healthz.
	Healthz(HealthzInput) CoreResponse
	// Whether an Authorization header carries the master PROXY_TOKEN (constant time).
	IsMaster(IsMasterInput) IsMasterResult
	// The edge's error envelope for failures the JavaScript detects, in the client's language.
	Failure(FailureInput) CoreResponse
	// Signs a webhook body with the configured secrets: the Parcelgate-Signature header value.
	SignWebhook(SignWebhookInput) SignWebhookResult
	// Scoped tokens with an explicit key (the shared vectors, testdata/tokens.json; worker/tokens in Go).
	//seam:free
	Mint(MintInput) MintResult
	// Verifies a scoped token with an explicit key.
	//seam:free
	Verify(VerifyInput) VerifyResult
	// The module's build (version of the wire format and of the Go sources).
	//seam:free
	Version() VersionResult
	// /__faults/trap (FAULT_INJECTION only): traps inside the module, to test the recovery. Otherwise a 404 answer.
	Fault(FaultInput) CoreResponse
	// An operation's ok answer (relayed or cached: the caches keep the upstream's bytes) with its data as
	// the core's decoder normalizes it, for a client that sent `Accept: ...; parcelgate=normalized`
	// (@parcelgate/js's Client). `normalized: false`: data of the wrong shape, the body as received.
	Normalize(NormalizeInput) NormalizeResult
	// Rates with a deadline (issue 31; worker/src/routes/rates.mjs): class "live" marks a live ok answer
	// (body: it) with its source; another class ("late": the plan's deadline passed, or the call's
	// answer's class) asks for a rescue (body: the stored answer, storedAt when it was stored, 0 for none).
	Rates(RatesInput) RatesResult
	// The tracking watcher, one leased shipment at a time (see WatchRow): opens its record.
	//seam:js watch.open
	WatchOpen(WatchOpenInput) WatchOpened
	// The next delivery of the shipment's record, if any.
	//seam:js watch.nextDelivery
	WatchNext(WatchNextInput) WatchNextResult
	// Reports one delivery.
	//seam:js watch.delivered
	WatchSent(WatchSentInput) WatchSentResult
	// Reports the tracking poll's answer.
	//seam:js watch.tracked
	WatchTracked(WatchTrackedInput) WatchTrackedResult
	// Closes the shipment's record: the row to keep (or remove).
	//seam:js watch.close
	WatchClose(WatchCloseInput) WatchClosed
	// The Bookings Durable Object's decisions (internal/booking): the object keeps the records, the live
	// holders, the waits and the alarms, and asks these for every decision. A request to book (`begin`).
	//seam:free
	LedgerBegin(LedgerBeginInput) LedgerBegun
	// A holder about to book after its lookup found nothing (`sending`).
	//seam:free
	LedgerSending(LedgerTurnInput) LedgerWritten
	// A holder's outcome (`finish`).
	//seam:free
	//seam:js ledgerFinish
	LedgerSettle(LedgerTurnInput) LedgerWritten
	// A read of the record without taking it (`peek`).
	//seam:free
	LedgerPeek(LedgerPeekInput) LedgerPeeked
	// A key with no record here within the earlier layout's window: read that record, then adopt it or not.
	//seam:free
	LedgerTakeOver(LedgerTakeOverInput) LedgerTakenOver
	// The alarm: which records are past their expiry, and when to come back.
	//seam:free
	LedgerSweep(LedgerSweepInput) LedgerSwept
}
