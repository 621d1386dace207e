// make test-types (js/tsconfig.check.json): each entry point of the package, as src/ implements
// it, is assignable to what its declaration file promises. tsc infers the modules' types from the
// JavaScript and its JSDoc; an export the .d.ts declares and src/ lacks, or one whose signature
// differs, fails here: the server-side entry points (tokens, offers, webhooks) and the root. Not the
// widgets: their attribute properties (endpoint, prefix, ...) are defined at run time
// (attributeProperties), which tsc cannot follow, as the Client's per-operation methods.

import * as tokensImpl from '../src/tokens.js';
import type * as tokensDecl from '../types/tokens.js';
import * as offersImpl from '../src/offers.js';
import type * as offersDecl from '../types/offers.js';
import * as webhooksImpl from '../src/webhooks.js';
import type * as webhooksDecl from '../types/webhooks.js';
import * as rootImpl from '../src/index.js';
import type * as rootDecl from '../index.js';

/** Only the values a declaration file exports (types have no run-time counterpart to check). */
type Values<M> = { [K in keyof M]: M[K] };

export const tokens: Values<typeof tokensDecl> = tokensImpl;
export const offers: Values<typeof offersDecl> = offersImpl;
export const webhooks: Values<typeof webhooksDecl> = webhooksImpl;

// The root entry point. Client is left out: its per-operation methods (getShipmentsRates, ...) are
// defined on its prototype at run time from OPERATIONS, which tsc cannot follow.
export const root: Omit<Values<typeof rootDecl>, 'Client'> = rootImpl;
