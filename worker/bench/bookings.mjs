// The Bookings Durable Object's own CPU per booking, in Node: begin (a new
// reference: the record is taken) then finish "ok", on one object over an
// in-memory storage, N bookings after a warm-up. What it measures is the
// object's JavaScript and, since the decisions are the core's
// (internal/booking through the seam), the crossings into the real module
// (build/worker/core.wasm). Storage and the platform's RPC are not in it.
//
//   node --import ./worker/src/testing/register.mjs worker/bench/bookings.mjs [N]
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as bookings from "../src/platform/bookings.mjs";
import { createCore } from "../src/core.mjs";
import { MemoryStorage } from "../src/testing/fakes.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const N = Number(process.argv[2] || 20000);
const WARM = 5000;

/** make returns a Bookings object over a fresh storage. */
async function make() {
  const storage = new MemoryStorage();
  if (typeof bookings.bookingsObject !== "function") return new /** @type {any} */ (bookings).Bookings({ storage }, {});
  const wasm = process.env.PARCELGATE_CORE_WASM || path.join(ROOT, "build/worker/core.wasm");
  const core = await createCore(new WebAssembly.Module(fs.readFileSync(wasm)));
  const Bookings = bookings.bookingsObject({ isolate: async () => ({ core, legacyUntilMs: 0, forward: null }) });
  return new Bookings({ storage }, {});
}

const obj = await make();
const q = { waitMs: 100, holdMs: 60000, graceMs: 0, ttlMs: 60000 };
let ref = 0;
async function one() {
  const key = "u\nbase\nnew-shipment\nR-" + ref++;
  const a = await obj.begin({ key, fp: "fp", ...q });
  if (a.state !== "new") throw new Error("begin: " + a.state);
  if (!(await obj.finish({ key, holder: a.holder, outcome: "ok", body: '{"status":"ok","data":{"shipping_dlvr_ref":"D1"}}', ttlMs: 60000 }))) throw new Error("finish");
}
for (let i = 0; i < WARM; i++) await one();
const c0 = process.cpuUsage();
const t0 = performance.now();
for (let i = 0; i < N; i++) await one();
const c = process.cpuUsage(c0);
const wall = performance.now() - t0;
console.log(JSON.stringify({ bookings: N, cpuUsPerBooking: +((c.user + c.system) / N).toFixed(2), wallUsPerBooking: +((wall * 1000) / N).toFixed(2),
  decisions: typeof bookings.bookingsObject === "function" ? "core" : "javascript" }));
