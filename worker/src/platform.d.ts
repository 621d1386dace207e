// Modules workerd provides to the worker (types of what the worker uses).

declare module "cloudflare:workers" {
  /** The worker's bindings, vars and secrets, for the module's top level (undefined in Node tests). */
  export const env: import("./types").Env | undefined;
  /** Durable Object classes extend it to get RPC methods on their stubs. */
  export class DurableObject {
    constructor(ctx: any, env: any);
    protected ctx: any;
    protected env: any;
  }
}

/** The compiled core (wrangler's CompiledWasm rule). */
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
