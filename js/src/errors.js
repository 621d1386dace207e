// @ts-check
/**
 * Every failure of the Client: client-side validation, an error envelope
 * from the edge or the upstream, an unexpected response, a network error,
 * a timeout or an abort.
 */
export class ParcelgateError extends Error {
  /** @type {'ParcelgateError'} (an own property, as the constructor assigned it before) */
  name = 'ParcelgateError';

  /**
   * @param {string} message
   * @param {{code?: number, category?: import('../core.js').ErrorCategory, fieldErrors?: Array<{field: string, code: number, message: string}>,
   *   status?: number, operation?: string, carrierCode?: string, carrierMessage?: string, details?: unknown, cause?: unknown,
   *   retryAfter?: number}} [info] what the Client knows; without it (a page's own, a test's) the category is "unknown"
   */
  constructor(message, info = {}) {
    super(message, info.cause === undefined ? undefined : { cause: info.cause });
    this.code = info.code || 0;
    this.category = info.category || 'unknown';
    this.fieldErrors = info.fieldErrors || [];
    this.status = info.status || 0;
    this.operation = info.operation || '';
    this.carrierCode = info.carrierCode || '';
    this.carrierMessage = info.carrierMessage || '';
    this.details = info.details;
    /** Seconds the edge asked to wait before trying again (its Retry-After); 0 when it did not say. */
    this.retryAfter = info.retryAfter || 0;
  }

  /** Same as category. */
  get class() {
    return this.category;
  }
}
