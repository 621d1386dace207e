// Types of @parcelgate/js/widgets/tracking-timeline (the class, registers nothing) and
// @parcelgate/js/widgets/tracking-timeline-define (registers <pg-tracking-timeline> and exports the same class).
export { PgTrackingTimeline, type TimelineEvent, type PgElement } from '../../widgets.js';
