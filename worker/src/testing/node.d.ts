// The one Node API the test loader (register.mjs) uses, declared here rather
// than with @types/node: the worker's tsconfig has no Node globals, so
// worker/src cannot lean on an API workerd lacks without tsc saying so.

declare module "node:module" {
  /** Registers module customization hooks (Node 20.6+). */
  export function register(specifier: string, parentURL?: string | URL): void;
}
