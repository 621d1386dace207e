// The corecost part's worker (corecost.go): the edge core alone, through
// its wrapper (core.mjs next to this file in the workerd config, a build's
// own), and per request one call of the mode `?m=` names, so that the
// bench can read what a call costs when it runs once per request, as in
// the edge (issue 32: in a hot loop the same calls cost a third of it).
//
//   none     no call: the request alone (the baseline)
//   both     prepare then answer of a forwarded read (get-collection-cutoff-hour)
//   prepare  the read's prepare alone
//   answer   its answer alone (the upstream's 200)
//   version  the cheapest call: the crossing and little else
//   prepare2 the read's prepare twice in the same request: the second
//            call's extra (prepare2 less prepare) is what a call costs
//            once its code and data were touched in this request
//   both2    prepare then answer, twice in the same request
//   json     no call: the JSON work of the two calls' inputs and answers in
//            plain JavaScript (what the crossing would cost as JSON alone)
//   arrays   no call: the same messages as JSON arrays of the members in
//            order (no names), the objects built from them as a generated
//            wrapper would: what a crossing without keys would cost the
//            JavaScript (json less arrays is what it would save)
//
// A call that does not answer as a forwarded read should is a 500 naming
// it, so a broken build cannot pass for a cheap one.
import wasm from './core.wasm';
import { newCore } from './core.mjs';

const core = newCore(wasm);
core.configure({
  vars: {
    UPSTREAM_BASE_URL: 'https://api.example.com/v1',
    API_USER: 'shop-user',
    API_KEY: 'api-key-0123456789',
    PROXY_TOKEN: 'master-token-0123456789abcdef0123456789',
    TOKEN_SIGNING_KEY: 'signing-key-0123456789abcdef0123456789ab',
  },
  bindings: { bookings: true, watchlist: false, sandbox: false },
});

const enc = new TextEncoder();
const body = enc.encode('country_code=ES&zip_code=28014&to_country_code=ES&to_zip_code=08001&carrier_code=rayo');
const ok = enc.encode('{"status":"ok","data":{"country_code":"ES","zip_code":"28014","cutoff":"13:00"}}');
const RID = 'rid-0123456789abcdef';
const OP = 'get-collection-cutoff-hour';
const CTX = { operation: OP, clientRef: '', ledger: false };

/** facts are a forwarded read's request facts, as the edge passes them to prepare. */
const facts = () => ({
  method: 'POST', query: null, body, bodyTooLarge: false, contentType: 'application/x-www-form-urlencoded',
  acceptLanguage: null, authorization: null, clientIp: '203.0.113.9', requestId: RID, now: Date.now(), operation: OP,
});

/** answerInput is answer's input for the upstream's 200 to the read with context ctx. */
const answerInput = (ctx) => ({
  context: ctx, upstream: { status: 200, body: ok, failure: null }, requestId: RID, acceptLanguage: null, now: Date.now(), sentAt: 0,
});

// PREP and ANS are a prepare's and an answer's JSON as the core writes them (json mode).
const PREP = '{"kind":"forward","caller":"public","rateLimit":{"binding":"RATE_LIMIT_PUBLIC","key":"ip4:203.0.113.9"},"forward":{"operation":"get-collection-cutoff-hour","retryable":true,"pricing":"","sign":"","cache":null,"booking":null,"rates":null,"context":{"operation":"get-collection-cutoff-hour","clientRef":"","ledger":false},"upstreamBody":"country_code=ES&zip_code=28014&to_country_code=ES&to_zip_code=08001&carrier_code=rayo"}}';
const ANS = '{"response":{"status":200,"headers":{"Content-Type":"application/json; charset=utf-8"},"class":"forwarded","body":"{\\"status\\":\\"ok\\"}"},"outcome":"ok","cacheable":true,"retry":false,"leak":false,"watch":null,"note":""}';

// PREP_ARR and ANS_ARR are PREP and ANS with the members by position (arrays mode).
const PREP_ARR = '["forward","public",["RATE_LIMIT_PUBLIC","ip4:203.0.113.9"],["get-collection-cutoff-hour",true,"","",null,null,null,["get-collection-cutoff-hour","",false],"country_code=ES&zip_code=28014&to_country_code=ES&to_zip_code=08001&carrier_code=rayo"]]';
const ANS_ARR = '[[200,{"Content-Type":"application/json; charset=utf-8"},"forwarded","{\\"status\\":\\"ok\\"}"],"ok",true,false,false,null,""]';

/** arrays is the arrays mode's work: both inputs as arrays, both answers built from arrays. */
function arrays() {
  const f = facts();
  const a = answerInput(CTX);
  const inP = JSON.stringify([f.method, f.query, f.bodyTooLarge, f.contentType, f.acceptLanguage, f.authorization, f.clientIp, f.requestId, f.now, f.operation, null]);
  const inA = JSON.stringify([[a.context.operation, a.context.clientRef, a.context.ledger], [a.upstream.status, a.upstream.failure], a.requestId, a.acceptLanguage, a.now, a.sentAt]);
  const p = JSON.parse(PREP_ARR);
  const w = p[3];
  const prepared = { kind: p[0], caller: p[1], rateLimit: p[2] && { binding: p[2][0], key: p[2][1] },
    forward: w && { operation: w[0], retryable: w[1], pricing: w[2], sign: w[3], cache: w[4], booking: w[5], rates: w[6],
      context: { operation: w[7][0], clientRef: w[7][1], ledger: w[7][2] }, upstreamBody: w[8] } };
  const n = JSON.parse(ANS_ARR);
  const answered = { response: { status: n[0][0], headers: n[0][1], class: n[0][2], body: n[0][3] }, outcome: n[1], cacheable: n[2], retry: n[3], leak: n[4], watch: n[5], note: n[6] };
  return inP.length + inA.length + prepared.kind.length + answered.note.length;
}

/** prepare makes the read's prepare call and checks it forwards. */
function prepare() {
  const p = core.prepare(facts());
  if (p.kind !== 'forward') throw new Error(`prepare answered kind ${p.kind}, not forward`);
  return p;
}

/** answer makes the read's answer call and checks it relays the 200. */
function answer(ctx) {
  const a = core.answer(answerInput(ctx));
  if (a.response.status !== 200) throw new Error(`answer answered status ${a.response.status}, not 200`);
  return a.response.body.length;
}

// sink keeps every result live, so no call can be optimized away.
let sink = 0;

/** @type {Record<string, () => number>} */
const MODES = {
  none: () => 0,
  both: () => answer(prepare().forward.context),
  prepare: () => prepare().kind.length,
  answer: () => answer(CTX),
  version: () => core.version().version.length,
  prepare2: () => prepare().kind.length + prepare().kind.length,
  both2: () => answer(prepare().forward.context) + answer(prepare().forward.context),
  json: () =>
    JSON.stringify({ ...facts(), body: null }).length + JSON.parse(PREP).kind.length +
    JSON.stringify({ ...answerInput(CTX), upstream: { status: 200, body: null, failure: null } }).length + JSON.parse(ANS).note.length,
  arrays,
};

export default {
  /** @param {Request} req */
  fetch(req) {
    const m = new URL(req.url).searchParams.get('m') || 'none';
    const f = MODES[m];
    if (!f) return new Response(`unknown mode ${m}`, { status: 400 });
    try {
      sink += f();
    } catch (e) {
      return new Response(`${m}: ${e}`, { status: 500 });
    }
    return new Response(String(sink));
  },
};
