// @ts-check
// @parcelgate/js: parcelgate's core (the edge's own validation, postal
// codes, form encoding, response decoding) as WebAssembly, and a Client
// for the parcelgate edge worker. See ../index.d.ts and the README.

export { load, loaded, configure, today, distanceKm, Core } from './core.js';
export { Client, encodeParams } from './client.js';
export { ParcelgateError } from './errors.js';
export { OPERATIONS } from './operations.js';
// Server side only (the shop's backend holds TOKEN_SIGNING_KEY); nothing
// in the Client or the widgets imports it.
export { mintToken, verifyToken, keyId } from './tokens.js';
export { verifyOffer, verifyPoint, offerDiffers, offerTag, OfferError } from './offers.js';
// Server side (the shop's webhook receiver holds WEBHOOK_SECRET); nothing
// in the Client or the widgets imports it.
export { verifyWebhook, WebhookError } from './webhooks.js';
