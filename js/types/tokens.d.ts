// Types of @parcelgate/js/tokens (server side: scoped tokens for one order).
export { mintToken, verifyToken, keyId, type VerifiedToken, type MintedToken, type MintOptions, type TokenGrant } from '../core.js';
