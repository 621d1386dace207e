// The real edge core module (build/worker/core.wasm, `make worker-core`)
// for the Bookings objects of the Node tests: their decisions are the
// core's (internal/booking through the seam), never a fake's.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createCore } from "../core.mjs";
import { bookingsObject } from "../platform/bookings.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const WASM = process.env.PARCELGATE_CORE_WASM || path.join(ROOT, "build/worker/core.wasm");

/** ledgerCore is one instance of the real core module (unconfigured: the ledger calls need no configuration). */
export const ledgerCore = await createCore(new WebAssembly.Module(fs.readFileSync(WASM)));

/**
 * bookingsClass is the Bookings Durable Object over the real core.
 * @param {{legacyUntilMs?: number, forward?: ((send: unknown) => Promise<any>) | null, core?: any, now?: () => number, newHolder?: () => string}} [o]
 */
export function bookingsClass({ legacyUntilMs = 0, forward = null, core = ledgerCore, now, newHolder } = {}) {
  return bookingsObject({ isolate: async () => ({ core, legacyUntilMs, forward }), now, newHolder });
}
