// The demo shop's webhook receiver: what a shop's server does with the
// edge's tracking webhooks (worker/webhooks/README.md).
//
//   WEBHOOK_SECRET=... node js/demo/server/webhook-receiver.mjs    # http://127.0.0.1:8788/webhooks
//
// It verifies each delivery's Parcelgate-Signature on the raw bytes before
// parsing them, answers 204 once the event is stored (here: printed as one
// JSON line on stdout) and skips an event id it has already stored, since
// delivery is at least once. Refusals go to stderr with the reason.

import http from 'node:http';
import { verifyWebhook } from '../../src/webhooks.js';

const secret = process.env.WEBHOOK_SECRET;
if (!secret || new TextEncoder().encode(secret).length < 32) {
  console.error('set WEBHOOK_SECRET to the worker\'s (at least 32 bytes)');
  process.exit(2);
}
const port = Number(process.env.PORT || 8788);
const MAX_BODY = 64 * 1024; // an event is well under 1 KB
const seen = new Set(); // a real shop keeps the ids in its database

const server = http.createServer(async (req, res) => {
  if (req.method !== 'POST' || new URL(req.url, 'http://x').pathname !== '/webhooks') {
    return res.writeHead(404).end();
  }
  const chunks = [];
  let size = 0;
  for await (const c of req) if ((size += c.length) <= MAX_BODY) chunks.push(c); // drained, not kept
  if (size > MAX_BODY) return res.writeHead(413).end();
  const raw = Buffer.concat(chunks);
  try {
    await verifyWebhook(raw, req.headers['parcelgate-signature'], secret);
  } catch (err) {
    if (!err.code) throw err;
    console.error(JSON.stringify({ refused: err.code, reason: err.message }));
    return res.writeHead(400).end();
  }
  const event = JSON.parse(raw.toString('utf8'));
  if (!seen.has(event.id)) {
    seen.add(event.id);
    const d = event.data;
    // Here a shop would update the order and perhaps email the customer.
    console.log(JSON.stringify({ id: event.id, type: event.type, created: event.created,
      shipping_client_ref: d.shipping_client_ref, shipping_dlvr_ref: d.shipping_dlvr_ref,
      tracking_code: d.tracking_code, tracking_name: d.tracking_name, category: d.category,
      final: d.final, previous_code: d.previous_code, tracking_date: d.tracking_date }));
  }
  res.writeHead(204).end();
});
server.listen(port, '127.0.0.1', () => {
  console.error(`webhook receiver on http://127.0.0.1:${server.address().port}/webhooks`);
});
