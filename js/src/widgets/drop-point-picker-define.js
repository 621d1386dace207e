// @ts-check
// Registers <pg-drop-point-picker> (unless the name is taken). Importing ./drop-point-picker.js
// alone registers nothing: that module only declares the class, so it can
// be imported anywhere (Node, SSR) without touching the DOM.

import { PgDropPointPicker } from './drop-point-picker.js';
import { define } from './base.js';

define('pg-drop-point-picker', PgDropPointPicker);

export { PgDropPointPicker };
