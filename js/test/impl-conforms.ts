// make test-types (js/tsconfig.check.json): each entry point of the package, as src/ implements
// it, is assignable to what its declaration file promises. tsc infers the modules' types from the
// JavaScript and its JSDoc; an export the .d.ts declares and src/ lacks, or one whose signature
// differs, fails here. So far the server-side entry points (tokens, webhooks); the root and the
// widgets follow once src/core.js, client.js and the widgets carry their JSDoc (issue 32).

import * as tokensImpl from '../src/tokens.js';
import type * as tokensDecl from '../types/tokens.js';
import * as webhooksImpl from '../src/webhooks.js';
import type * as webhooksDecl from '../types/webhooks.js';

/** Only the values a declaration file exports (types have no run-time counterpart to check). */
type Values<M> = { [K in keyof M]: M[K] };

export const tokens: Values<typeof tokensDecl> = tokensImpl;
export const webhooks: Values<typeof webhooksDecl> = webhooksImpl;
