// Types of @parcelgate/js/widgets/address-form (the class, registers nothing) and
// @parcelgate/js/widgets/address-form-define (registers <pg-address-form> and exports the same class).
export { PgAddressForm, type Address, type PgElement } from '../../widgets.js';
