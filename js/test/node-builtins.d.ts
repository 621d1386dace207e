// make test-types (tsconfig.check.json): the two Node functions src/node.js hands to the loader,
// declared here rather than with @types/node, so that no other module of src/ (which browsers
// load) can use a Node API without tsc saying so.

declare module 'node:fs/promises' {
  export function readFile(path: string | URL): Promise<Uint8Array>;
}
declare module 'node:url' {
  export function pathToFileURL(path: string): URL;
}
