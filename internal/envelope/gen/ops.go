package main

import (
	"fmt"

	"github.com/parcelgate/parcelgate/internal/catalog"
)

// results returns the result type of every catalog operation, in the
// catalog's order; each operation has exactly one (//envelope:result),
// and every directive names a catalog operation.
func results(p *pkg) ([]*typeDef, error) {
	byOp := map[string]*typeDef{}
	for _, n := range p.Order {
		t := p.Types[n]
		if t.Op == "" {
			continue
		}
		if catalog.Lookup(t.Op) == nil {
			return nil, fmt.Errorf("%s: //envelope:result %s is not an operation of internal/catalog", t.Name, t.Op)
		}
		if o := byOp[t.Op]; o != nil {
			return nil, fmt.Errorf("%s and %s are both results of %s", o.Name, t.Name, t.Op)
		}
		byOp[t.Op] = t
	}
	out := make([]*typeDef, len(catalog.Operations))
	for i := range catalog.Operations {
		name := catalog.Operations[i].Name
		if out[i] = byOp[name]; out[i] == nil {
			return nil, fmt.Errorf("no result type for %s: mark one with //envelope:result %s", name, name)
		}
	}
	return out, nil
}

// writeOperations writes one typed Decode<Result> per operation and
// Decode, which dispatches on the operation name.
func writeOperations(w *writer, res []*typeDef) {
	for i, t := range res {
		op := catalog.Operations[i].Name
		w.line("// Decode%s decodes a %s response.", t.Name, op)
		w.line("func Decode%s(httpStatus int, body []byte) (%s, error) {", t.Name, t.Name)
		w.line("\tvar v %s", t.Name)
		w.line("\terr := decodeEnvelope(%q, httpStatus, body, v.decode)", op)
		w.line("\treturn v, err")
		w.line("}")
		w.line("")
	}
	w.line("// Decode decodes the response body of operation op (a name of")
	w.line("// internal/catalog) into its typed result:")
	for i, t := range res {
		w.line("// *%s for %s,", t.Name, catalog.Operations[i].Name)
	}
	w.line("// or fails with *APIError, *UnexpectedResponse, *ShapeError or")
	w.line("// *UnknownOperationError.")
	w.line("func Decode(op string, httpStatus int, body []byte) (jsonlite.Value, error) {")
	w.line("\tvar v jsonlite.Value")
	w.line("\tvar data func(s *jsonlite.Scanner) error")
	w.line("\tswitch op {")
	for i, t := range res {
		w.line("\tcase %q:", catalog.Operations[i].Name)
		w.line("\t\tx := new(%s)", t.Name)
		w.line("\t\tv, data = x, x.decode")
	}
	w.line("\tdefault:")
	w.line("\t\treturn nil, &UnknownOperationError{Operation: op}")
	w.line("\t}")
	w.line("\t// One call for every operation (not one per Decode<Result>), and the")
	w.line("\t// decoder picked here, not through an interface: the WebAssembly")
	w.line("\t// modules pay for each call site and for each dispatch.")
	w.line("\tif err := decodeEnvelope(op, httpStatus, body, data); err != nil {")
	w.line("\t\treturn nil, err")
	w.line("\t}")
	w.line("\treturn v, nil")
	w.line("}")
	w.line("")
	w.line("// DecodeValue is Decode for the WebAssembly modules, which only emit the")
	w.line("// result: the same decoding, the result as a jsonlite.EmitFunc of its")
	w.line("// EmitTo. No result type is converted to an interface, so TinyGo writes")
	w.line("// no type descriptor for them (each would name every field of the result")
	w.line("// and of its parts, with its tag).")
	w.line("func DecodeValue(op string, httpStatus int, body []byte) (jsonlite.Value, error) {")
	w.line("\treturn decodeValueOf(op, httpStatus, body, false)")
	w.line("}")
	w.line("")
	w.line("// DecodeValueInPlace is DecodeValue reading body where it is, not from a")
	w.line("// copy: the value's strings are body's bytes, so it is valid while body is")
	w.line("// neither changed nor reused (the edge core emits it at once; a copy of")
	w.line("// an answer of a megabyte or more is what it saves).")
	w.line("func DecodeValueInPlace(op string, httpStatus int, body []byte) (jsonlite.Value, error) {")
	w.line("\treturn decodeValueOf(op, httpStatus, body, true)")
	w.line("}")
	w.line("")
	w.line("func decodeValueOf(op string, httpStatus int, body []byte, inPlace bool) (jsonlite.Value, error) {")
	w.line("\tvar v jsonlite.EmitFunc")
	w.line("\tvar data func(s *jsonlite.Scanner) error")
	w.line("\tswitch op {")
	for i, t := range res {
		w.line("\tcase %q:", catalog.Operations[i].Name)
		w.line("\t\tx := new(%s)", t.Name)
		// A closure, not the method value x.EmitTo: for a value receiver
		// (Carriers, Services) that would copy *x before it is decoded.
		w.line("\t\tv, data = func(e jsonlite.Emitter) { x.EmitTo(e) }, x.decode")
	}
	w.line("\tdefault:")
	w.line("\t\treturn nil, &UnknownOperationError{Operation: op}")
	w.line("\t}")
	w.line("\tif err := decodeEnvelopeIn(op, httpStatus, body, inPlace, data); err != nil {")
	w.line("\t\treturn nil, err")
	w.line("\t}")
	w.line("\treturn v, nil")
	w.line("}")
	w.line("")
}
