// @ts-check
// @parcelgate/js under Node (the `node` export condition): the package
// with Node's file reading handed to the loader, so that load() reads
// dist/parcelgate.wasm (or a path) from disk. The only module of the
// package that imports node: modules; browser bundles never reach it.

import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { setNodeIO } from './core.js';

setNodeIO({ readFile, pathToFileURL });

export * from './index.js';
