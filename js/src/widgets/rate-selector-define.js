// @ts-check
// Registers <pg-rate-selector> (unless the name is taken). Importing ./rate-selector.js
// alone registers nothing: that module only declares the class, so it can
// be imported anywhere (Node, SSR) without touching the DOM.

import { PgRateSelector } from './rate-selector.js';
import { define } from './base.js';

define('pg-rate-selector', PgRateSelector);

export { PgRateSelector };
