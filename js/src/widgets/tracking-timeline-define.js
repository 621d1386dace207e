// @ts-check
// Registers <pg-tracking-timeline> (unless the name is taken). Importing ./tracking-timeline.js
// alone registers nothing: that module only declares the class, so it can
// be imported anywhere (Node, SSR) without touching the DOM.

import { PgTrackingTimeline } from './tracking-timeline.js';
import { define } from './base.js';

define('pg-tracking-timeline', PgTrackingTimeline);

export { PgTrackingTimeline };
