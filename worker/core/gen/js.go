package main

import (
	"fmt"
	"strings"
)

// jsCalls writes worker/src/core.gen.mjs: the method numbers and the
// calls, each splitting its input into the JSON part and the raw part.
func jsCalls(m *model) string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("// @ts-check\n%s\n", header)
	p("/** The method number of each call (worker/core/calls_gen.go dispatches by it). */\nexport const METHODS = Object.freeze({\n")
	for i, c := range m.Calls {
		p("  %s: %d,\n", jsKey(c.JS), i+1)
	}
	p("});\n\n")
	p(`/**
 * The calls of core.d.mts: each sends its input's JSON (the raw field, a
 * body, left out) and the raw field's bytes through call(), the wrapper's
 * one crossing (core.mjs), and returns the answer as the module wrote it.
 * @implements {CoreCalls}
 */
export class Calls {
  constructor() {
    /** @type {import('./core.d.mts').WatchCore} */
    this.watch = {
`)
	for _, c := range m.Calls {
		if g, ok := strings.CutPrefix(c.JS, "watch."); ok {
			split, head, raw := jsSplit(m, c)
			if split == "" {
				p("      %s: (input) => this.call(%q, %s, %s),\n", g, c.JS, head, raw)
			} else {
				p("      %s: (input) => {\n        %s\n        return this.call(%q, %s, %s);\n      },\n", g, split, c.JS, head, raw)
			}
		}
	}
	p(`    };
  }

  /**
   * One crossing into the module: the wrapper's (core.mjs).
   * @param {keyof typeof METHODS} name
   * @param {unknown} head the input's JSON part
   * @param {string | Uint8Array | null | undefined} raw the input's raw part
   * @returns {any}
   */
  // eslint-disable-next-line no-unused-vars
  call(name, head, raw) {
    throw new Error("core.gen.mjs: call() is the wrapper's (core.mjs)");
  }
`)
	for _, c := range m.Calls {
		if strings.HasPrefix(c.JS, "watch.") {
			continue
		}
		split, head, raw := jsSplit(m, c)
		p("\n  /**\n")
		if c.In != "" {
			p("   * @param {import('./core.d.mts').%s} input\n", c.In)
		}
		p("   * @returns {import('./core.d.mts').%s}\n   */\n", c.Out)
		arg := "input"
		if c.In == "" {
			arg = ""
		}
		if split == "" {
			p("  %s(%s) {\n    return this.call(%q, %s, %s);\n  }\n", c.JS, arg, c.JS, head, raw)
		} else {
			p("  %s(%s) {\n    %s\n    return this.call(%q, %s, %s);\n  }\n", c.JS, arg, split, c.JS, head, raw)
		}
	}
	p("}\n\n/** @typedef {import('./core.d.mts').CoreCalls} CoreCalls */\n")
	return b.String()
}

func jsKey(k string) string {
	if strings.Contains(k, ".") {
		return "'" + k + "'"
	}
	return k
}

// jsSplit is a call's split of its input: a statement (or ""), the JSON
// part's expression and the raw part's.
func jsSplit(m *model, c call) (split, head, raw string) {
	if c.In == "" {
		return "", "{}", "null"
	}
	_, j := m.rawPath(m.resolve(c.In))
	switch len(j) {
	case 0:
		return "", "input", "null"
	case 1:
		return fmt.Sprintf("const { %s: raw, ...head } = input;", j[0]), "head", "raw"
	case 2:
		return "", fmt.Sprintf("{ ...input, %s: { ...input.%s, %s: null } }", j[0], j[0], j[1]), "input." + j[0] + "." + j[1]
	}
	fail("%s: raw part deeper than two members", c.GoName)
	return
}

// dts writes worker/src/core.d.mts.
func dts(m *model) string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	p("%s%s\n\n", header, m.Preface)
	p(wrapperDTS)
	p("\n/** The calls: each is one crossing into the module. */\nexport interface CoreCalls {\n")
	watch := false
	for _, c := range m.Calls {
		if g, ok := strings.CutPrefix(c.JS, "watch."); ok {
			_ = g
			if !watch {
				p("  /** The tracking watcher, one leased shipment at a time (see WatchRow). */\n  watch: WatchCore;\n")
				watch = true
			}
			continue
		}
		jsdoc(p, "  ", c.Doc)
		if c.In == "" {
			p("  %s(): %s;\n", c.JS, c.Out)
		} else {
			p("  %s(input: %s): %s;\n", c.JS, c.In, c.Out)
		}
	}
	p("}\n\n")
	p(`/**
 * One leased shipment, as Go's worker/watch did it: ` + "`open`" + ` it; deliver
 * what ` + "`nextDelivery`" + ` gives while the budget allows, reporting each with
 * ` + "`delivered`" + `; when ` + "`open`" + ` said pollDue, poll get-shipment-tracking with
 * ` + "`pollBody`" + ` and report with ` + "`tracked`" + ` (then deliver again); ` + "`close`" + ` it.
 * The run (lease, budget, concurrency, commits) is the JavaScript's.
 */
export interface WatchCore {
`)
	for _, c := range m.Calls {
		if g, ok := strings.CutPrefix(c.JS, "watch."); ok {
			jsdoc(p, "  ", c.Doc)
			p("  %s(input: %s): %s;\n", g, c.In, c.Out)
		}
	}
	p("}\n")
	for _, name := range m.order {
		p("\n")
		if vals, ok := m.Enums[name]; ok {
			jsdoc(p, "", m.EnumDoc[name])
			p("export type %s =\n", name)
			for i, v := range vals {
				end := ""
				if i == len(vals)-1 {
					end = ";"
				}
				p("  | '%s'%s // %s\n", v.Value, end, v.Comment)
			}
			continue
		}
		if t := m.resolve(name); t != name {
			p("export type %s = %s;\n", name, t)
			continue
		}
		st := m.st(name)
		jsdoc(p, "", st.Doc)
		if st.Union == nil {
			p("export interface %s%s {\n", name, extends(st))
			for _, f := range st.Fields {
				if !f.Embedded {
					tsField(p, m, f, false, false)
				}
			}
			p("}\n")
			continue
		}
		var names []string
		inVariant := map[string]bool{st.Union.Field: true}
		for _, v := range st.Union.Variants {
			names = append(names, name+strings.ToUpper(v.Value[:1])+v.Value[1:])
			for _, f := range v.Fields {
				inVariant[f] = true
			}
		}
		p("export type %s = %s;\n\n/** What every %s has. */\ninterface %sBase {\n", name, strings.Join(names, " | "), name, name)
		for _, f := range st.Fields {
			if !inVariant[f.JSON] {
				tsField(p, m, f, false, false)
			}
		}
		p("}\n")
		for i, v := range st.Union.Variants {
			p("\nexport interface %s extends %sBase {\n  %s: '%s';\n", names[i], name, st.Union.Field, v.Value)
			for _, fn := range v.Fields {
				for _, f := range st.Fields {
					if f.JSON == fn {
						tsField(p, m, f, true, false)
					}
				}
			}
			p("}\n")
		}
	}
	return b.String()
}

func extends(st *structType) string {
	var e []string
	for _, f := range st.Fields {
		if f.Embedded {
			e = append(e, f.Type)
		}
	}
	if e == nil {
		return ""
	}
	return " extends " + strings.Join(e, ", ")
}

func tsField(p func(string, ...any), m *model, f field, variant, _ bool) {
	jsdoc(p, "  ", f.Doc)
	opt := ""
	if f.Omit {
		opt = "?"
	}
	p("  %s%s: %s;\n", f.JSON, opt, tsType(f, variant))
}

func tsType(f field, variant bool) string {
	if f.TS != "" {
		return f.TS
	}
	switch f.Kind {
	case kString, kRaw:
		return "string"
	case kEnum, kStruct:
		return f.Type
	case kStringPtr:
		return "string | null"
	case kBool:
		return "boolean"
	case kInt, kFloat:
		return "number"
	case kIntPtr:
		return "number | null"
	case kStructPtr:
		if variant || f.Omit {
			return f.Type
		}
		return f.Type + " | null"
	case kStrings:
		return "string[]"
	case kInts:
		return "number[]"
	case kStructs:
		return f.Type + "[]"
	case kPairs:
		return "Record<string, string>"
	}
	return "unknown"
}

func jsdoc(p func(string, ...any), ind, doc string) {
	if doc == "" {
		return
	}
	lines := strings.Split(doc, "\n")
	if len(lines) == 1 {
		p("%s/** %s */\n", ind, lines[0])
		return
	}
	p("%s/**\n", ind)
	for _, l := range lines {
		if l == "" {
			p("%s *\n", ind)
		} else {
			p("%s * %s\n", ind, l)
		}
	}
	p("%s */\n", ind)
}

// wrapperDTS is what the wrapper (core.mjs) adds to the calls.
const wrapperDTS = `/** Creates the core from the compiled module (wrangler: ` + "`import core from './core.wasm'`" + `). */
export function createCore(module: WebAssembly.Module, options?: CoreOptions): Promise<EdgeCore>;
/** The linear memory (bytes) past which the instance is renewed after a call. */
export const RENEW_ABOVE: number;
/** createCore without the promise, for the entry module's top level (the isolate's start: warm.mjs). */
export function newCore(module: WebAssembly.Module, options?: CoreOptions): EdgeCore;

export interface CoreOptions {
  /** Called after a trap was answered and the module replaced (for the log line). */
  onTrap?: (info: TrapInfo) => void;
}

export interface TrapInfo {
  /** The method that trapped ("prepare", "answer", ...). */
  method: string;
  /** The RuntimeError's message ("unreachable", ...). */
  message: string;
  /** Instances created for traps so far, the first one included (renewals are not counted). */
  instances: number;
}

/** The core: its calls and the wrapper's own. */
export interface EdgeCore extends CoreCalls {
  /** The current module instance's linear memory in bytes (/healthz's instance.memory_bytes; ` + "`make bench`" + ` reads it). */
  memoryBytes(): number;
  /** Instances renewed because memory passed RENEW_ABOVE (traps are ` + "`instances`" + `). */
  readonly renewals: number;
}
`
