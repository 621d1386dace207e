// A stand-in for a worker of the earlier Bookings layout (the Go worker's
// and the first JavaScript edge's: one object per booking key, named by the
// key, its record under "rec"), for TestBookingsTakenOverFromTheEarlierLayout.
// Run under the e2e worker's name with the same Durable Object classes, it
// writes a record where that layout kept it; the edge then runs on the same
// state, as after an upgrade.
import { DurableObject } from "cloudflare:workers";

export class Bookings extends DurableObject {
  /** @param {unknown} rec */
  async seed(rec) {
    await this.ctx.storage.put("rec", rec);
  }
}

export class Watchlist extends DurableObject {}

export default {
  /** @param {Request} request @param {any} env */
  async fetch(request, env) {
    if (request.method !== "POST") return new Response("ok");
    const { key, rec } = await request.json();
    await env.BOOKINGS.get(env.BOOKINGS.idFromName(key)).seed(rec);
    return new Response("seeded");
  },
};
