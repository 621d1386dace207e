// @ts-check
// The fields of a signed offer and point, in the order the edge signs them
// (worker/offers, pinned by testdata/offers.json), written once for the
// shop's verifier (offers.js) and the widgets' unsigned reading
// (widgets/offer-facts.js): two copies drifted once (issue 31 added sr and ov).

/** An offer's fields: expiry, carrier, service, price, currency, drop point, source, route, parcels. */
export const OFFER_NAMES = Object.freeze(['e', 'c', 's', 'p', 'cu', 'dp', 'sr', 'fc', 'fz', 'tc', 'tz', 'pc']);

/** An offer's one optional field, always the last: the cart's order value (issue 31). */
export const ORDER_VALUE = 'ov';

/** A point's fields: expiry, carrier, key, country, postal code. */
export const POINT_NAMES = Object.freeze(['e', 'c', 'key', 'cc', 'z']);
