// @ts-check
// @parcelgate/js/jsx and @parcelgate/js/vue declare types only (the widgets in React 19's
// JSX and in Vue's GlobalComponents: jsx.d.ts, vue.d.ts); importing them at run time is
// harmless and does nothing.
export {};
