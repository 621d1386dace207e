// Types of @parcelgate/js/widgets/drop-point-picker (the class, registers nothing) and
// @parcelgate/js/widgets/drop-point-picker-define (registers <pg-drop-point-picker> and exports the same class).
export { PgDropPointPicker, type DropPoint, type PgElement } from '../../widgets.js';
