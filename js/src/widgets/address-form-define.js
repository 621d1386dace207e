// @ts-check
// Registers <pg-address-form> (unless the name is taken). Importing ./address-form.js
// alone registers nothing: that module only declares the class, so it can
// be imported anywhere (Node, SSR) without touching the DOM.

import { PgAddressForm } from './address-form.js';
import { define } from './base.js';

define('pg-address-form', PgAddressForm);

export { PgAddressForm };
