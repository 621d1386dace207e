// @parcelgate/js/vue: the widgets in Vue 3 templates (types only), for Volar / vue-tsc:
//
//   // env.d.ts
//   import type {} from '@parcelgate/js/vue';
//
//   <pg-rate-selector from-country="ES" from-zip="28014" to-country="ES" to-zip="08001"
//     :parcels="parcels" @pg-select="(e) => (service = e.detail.service)" />
//
// Tell Vue's compiler they are custom elements (vite.config: vue({template: {compilerOptions:
// {isCustomElement: (tag) => tag.startsWith('pg-')}}})). A separate subpath so that shops
// without Vue never load these declarations.

import type {} from 'vue';
import type { DefineComponent } from 'vue';
import type { Client, Core, TokenSource } from './index.js';
import type { PgElements, PgOwnEvents, Parcel } from './widgets.js';

/** kebab-case to camelCase ("from-country" -> "fromCountry"), as Vue normalizes props. */
type Camel<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Camel<B>>}` : S;
type Camelize<T> = { [K in keyof T as Camel<K & string>]: T[K] };

/** `@pg-select` in a template is the prop onPgSelect. */
type PgVueEvents<M> = {
  [K in keyof PgOwnEvents<M> as `on${Capitalize<Camel<K & string>>}`]?: (event: PgOwnEvents<M>[K]) => void;
};

/**
 * The props of one element in a Vue template. Not onPick: Vue takes an on* prop as a listener
 * (of an event named "pick"); use @pg-select.
 */
export type PgVueProps<Tag extends keyof PgElements> = Camelize<PgElements[Tag]['attributes']> &
  PgVueEvents<PgElements[Tag]['events']> & {
    client?: Client;
    token?: string | TokenSource;
    core?: Core | null;
    texts?: Record<string, string>;
  } & (Tag extends 'pg-rate-selector' ? { parcels?: string | Parcel[] } : unknown) &
  (Tag extends 'pg-drop-point-picker' ? { today?: Date | null } : unknown);

declare module 'vue' {
  interface GlobalComponents {
    'pg-address-form': DefineComponent<PgVueProps<'pg-address-form'>>;
    'pg-rate-selector': DefineComponent<PgVueProps<'pg-rate-selector'>>;
    'pg-drop-point-picker': DefineComponent<PgVueProps<'pg-drop-point-picker'>>;
    'pg-tracking-timeline': DefineComponent<PgVueProps<'pg-tracking-timeline'>>;
  }
}
