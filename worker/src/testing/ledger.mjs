// @ts-check
// The real edge core module (build/worker/core.wasm, `make worker-core`)
// for the Bookings objects of the Node tests: their decisions are the
// core's (internal/booking through the seam), never a fake's.
import { createCore } from "../core.mjs";
import { bookingsObject } from "../platform/bookings.mjs";
import { useLedger } from "./fake-core.mjs";

// Node's modules by a name tsc does not resolve: the worker is checked
// without Node's types (tsconfig.json), so that no module of the edge uses a
// Node API unnoticed; this file runs in Node tests only.
const node = (/** @type {string} */ name) => import(name);
const fs = await node("node:fs");
const env = /** @type {{process: {env: Record<string, string | undefined>}}} */ (/** @type {unknown} */ (globalThis)).process.env;
const wasm = env.PARCELGATE_CORE_WASM || new URL("../../../build/worker/core.wasm", import.meta.url);

/** ledgerCore is one instance of the real core module (unconfigured: the ledger calls need no configuration). */
export const ledgerCore = await createCore(new WebAssembly.Module(fs.readFileSync(wasm)));
useLedger(ledgerCore);

/**
 * bookingsClass is the Bookings Durable Object over the real core.
 * @param {{legacyUntilMs?: number, forward?: ((send: unknown) => Promise<any>) | null,
 *   core?: import("../platform/bookings.mjs").LedgerCore, now?: () => number, newHolder?: () => string}} [o]
 */
export function bookingsClass({ legacyUntilMs = 0, forward = null, core = ledgerCore, now, newHolder } = {}) {
  return bookingsObject({ isolate: async () => ({ core, legacyUntilMs, forward }), now, newHolder });
}
