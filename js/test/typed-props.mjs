// The props the package's framework typings declare for each widget, read from the .d.ts files
// with TypeScript's checker (never a hand-kept list): PgJSXProps<tag> of jsx.d.ts for React 19
// and PgVueProps<tag> of vue.d.ts for Vue. A prop added to the typings is in these lists at once,
// so the framework tests try it without anyone remembering to.

import path from 'node:path';
import { createRequire } from 'node:module';
import { ROOT } from './helpers.mjs';

/** The widgets' tags (PgElements' keys). */
export const TAGS = ['pg-address-form', 'pg-rate-selector', 'pg-drop-point-picker', 'pg-tracking-timeline'];

/**
 * For each framework ('react', 'vue') and tag, the props declared by the package's own files
 * (not React's HTMLAttributes): [{name, kinds, literals}] where kinds lists the union's
 * non-undefined members ('string', 'number', 'boolean', 'function', 'object', 'literal') and
 * literals the string literal members; and under 'attributes', each tag's HTML attributes
 * (PgElements[tag]['attributes'], the names React's props use; Vue's are them camelCased).
 */
export function typedProps() {
  const require = createRequire(path.join(ROOT, 'package.json'));
  const ts = require('typescript');
  const jsDir = path.join(ROOT, 'js');
  const probe = path.join(jsDir, '__typed_props_probe__.ts');
  const text =
    "import type { PgJSXProps } from './jsx.js';\nimport type { PgVueProps } from './vue.js';\n" +
    "import type { PgElements } from './widgets.js';\n" +
    TAGS.map((t, i) =>
      `export type R${i} = PgJSXProps<'${t}'>;\nexport type V${i} = PgVueProps<'${t}'>;\n` +
      `export type A${i} = PgElements['${t}']['attributes'];\n`).join('');
  const options = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    strict: true,
    noEmit: true,
    types: [],
    jsx: ts.JsxEmit.ReactJSX,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, ...rest) =>
    path.resolve(name) === probe ? ts.createSourceFile(name, text, lang) : getSourceFile(name, lang, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => path.resolve(name) === probe || fileExists(name);
  const program = ts.createProgram([probe], options, host);
  const diagnostics = ts.getPreEmitDiagnostics(program, program.getSourceFile(probe));
  if (diagnostics.length) {
    throw new Error(ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' }));
  }
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(probe);
  const out = { react: {}, vue: {}, attributes: {} };
  for (const stmt of source.statements) {
    if (!ts.isTypeAliasDeclaration(stmt)) continue;
    const [, kind, index] = /^([RVA])(\d+)$/.exec(stmt.name.text);
    const type = checker.getTypeAtLocation(stmt.name);
    if (kind === 'A') {
      out.attributes[TAGS[Number(index)]] = checker.getPropertiesOfType(type).map((p) => p.name);
      continue;
    }
    const props = [];
    for (const sym of checker.getPropertiesOfType(type)) {
      const decls = sym.getDeclarations() || [];
      // Only what the package declares, not @types/react's HTMLAttributes (a prop of a mapped
      // type, such as Vue's camelCased attributes, has no declaration of its own).
      if (decls.length && !decls.some((d) => !path.relative(jsDir, d.getSourceFile().fileName).startsWith('..') && !d.getSourceFile().fileName.includes('node_modules'))) continue;
      const t = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(sym, stmt));
      const members = t.isUnion() ? t.types : [t];
      const kinds = new Set();
      const literals = [];
      for (const m of members) {
        if (m.isStringLiteral()) {
          kinds.add('literal');
          literals.push(m.value);
        } else if (m.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) kinds.add('boolean');
        else if (m.flags & ts.TypeFlags.String) kinds.add('string');
        else if (m.flags & ts.TypeFlags.Number) kinds.add('number');
        else if (m.getCallSignatures().length) kinds.add('function');
        else kinds.add('object');
      }
      props.push({ name: sym.name, kinds: [...kinds].sort(), literals });
    }
    out[kind === 'R' ? 'react' : 'vue'][TAGS[Number(index)]] = props;
  }
  return out;
}
