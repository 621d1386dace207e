// @ts-check
// A stand-in for workerd's "cloudflare:workers" module in Node tests: the
// Durable Object base class keeps ctx and env, as workerd's does.
export class DurableObject {
  /**
   * @param {import("../types").DurableObjectStateLike} ctx
   * @param {import("../types").Env} env
   */
  constructor(ctx, env) {
    this.ctx = ctx;
    this.env = env;
  }
}

// workerd's top-level environment; the Node tests pass env to what they make.
export const env = undefined;
