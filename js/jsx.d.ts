// @parcelgate/js/jsx: the widgets in React 19's JSX (types only). Add it once, e.g. in a
// .d.ts of your app or at the top of a component file:
//
//   import type {} from '@parcelgate/js/jsx';
//
//   <pg-rate-selector from-country="ES" from-zip="28014" to-country="ES" to-zip="08001"
//     parcels={parcels} onpg-select={(e) => setService(e.detail.service)} />
//
// React 19 sets a prop as a property when the element has one (parcels, client, token, texts,
// core, value...) and as an attribute otherwise, and adds a listener for `on` + the event's
// name (`onpg-select` listens to pg-select). A separate subpath so that shops without React
// never load these declarations (they need @types/react 19).

import type {} from 'react';
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { Client, Core, TokenSource } from './index.js';
import type { PgElements, PgOwnEvents, Parcel } from './widgets.js';

/** `on<event>` handlers of an element's pg-* events (React 19 listens to the exact name). */
type PgEventProps<M> = { [K in keyof PgOwnEvents<M> as `on${K & string}`]?: (event: PgOwnEvents<M>[K]) => void };

/** Properties React 19 assigns on the element instance. */
interface PgProperties {
  client?: Client;
  token?: string | TokenSource;
  core?: Core | null;
  texts?: Record<string, string>;
}

/**
 * The JSX props of one element: its attributes and the object properties. Not onPick: React
 * takes an on* prop as a listener (onPick would listen to an event named "Pick"); use onpg-select.
 */
export type PgJSXProps<Tag extends keyof PgElements> = Omit<
  DetailedHTMLProps<HTMLAttributes<PgElements[Tag]['element']>, PgElements[Tag]['element']>,
  keyof PgElements[Tag]['attributes']
> &
  PgElements[Tag]['attributes'] &
  PgProperties &
  PgEventProps<PgElements[Tag]['events']> & {
    /** Custom elements take `class` as well as className. */
    class?: string;
  } & (Tag extends 'pg-rate-selector' ? { parcels?: string | Parcel[] } : unknown) &
  (Tag extends 'pg-drop-point-picker' ? { today?: Date | null } : unknown);

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'pg-address-form': PgJSXProps<'pg-address-form'>;
      'pg-rate-selector': PgJSXProps<'pg-rate-selector'>;
      'pg-drop-point-picker': PgJSXProps<'pg-drop-point-picker'>;
      'pg-tracking-timeline': PgJSXProps<'pg-tracking-timeline'>;
    }
  }
}
