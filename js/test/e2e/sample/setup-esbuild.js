// esbuild leaves `new URL('../dist/parcelgate.wasm', import.meta.url)` as it is:
// import the modules as files (loader {'.wasm': 'file'}) and give their URLs to
// configure() before anything loads the core (this module is imported first).
import { configure } from '@parcelgate/js';
import wasm from '@parcelgate/js/parcelgate.wasm';
import decoder from '@parcelgate/js/parcelgate-decoder.wasm';

configure({ wasm, decoder });
