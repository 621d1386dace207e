package catalog

import (
	"strconv"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
)

// Catalog is the whole operation catalog as a jsonlite.Value: its JSON form
// is what the JavaScript package and its TypeScript types are generated
// from.
type Catalog struct{}

// EmitTo writes {"version":"v1","max_parcels":N,"operations":[...]}.
func (Catalog) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	e.Key("version")
	e.String("v1")
	e.Key("max_parcels")
	e.Int(MaxParcels)
	e.Key("operations")
	e.BeginArray()
	for i := range Operations {
		Operations[i].EmitTo(e)
	}
	e.EndArray()
	e.EndObject()
}

// EmitTo writes the operation as JSON: name, methods, flags, parameters,
// parcel parameters and rules.
func (op *Operation) EmitTo(e jsonlite.Emitter) {
	e.BeginObject()
	e.Key("name")
	e.String(op.Name)
	e.Key("doc")
	e.String(op.Doc)
	e.Key("methods")
	e.BeginArray()
	for _, m := range op.Methods() {
		e.String(m)
	}
	e.EndArray()
	e.Key("read")
	e.Bool(op.Read)
	e.Key("books")
	e.Bool(op.Books)
	e.Key("extra_fields")
	e.Bool(op.Extra)
	e.Key("params")
	emitParams(e, op.Params)
	if op.TakesParcels() {
		e.Key("parcels")
		e.String(op.Parcels.String())
		e.Key("parcel_params")
		emitParams(e, op.ParcelParams)
	}
	e.Key("rules")
	e.BeginArray()
	for _, r := range op.Rules {
		e.BeginObject()
		e.Key("kind")
		e.String(r.Kind.String())
		e.Key("fields")
		e.BeginArray()
		for _, f := range r.Fields {
			e.String(f)
		}
		e.EndArray()
		e.Key("code")
		e.Int(int64(r.Code))
		e.Key("doc")
		e.String(r.Doc)
		e.EndObject()
	}
	e.EndArray()
	e.EndObject()
}

func emitParams(e jsonlite.Emitter, ps []Param) {
	e.BeginArray()
	for i := range ps {
		p := &ps[i]
		e.BeginObject()
		e.Key("name")
		e.String(p.Name)
		e.Key("kind")
		e.String(p.Kind.String())
		e.Key("type")
		e.String(p.Kind.JSONType())
		e.Key("need")
		e.String(p.Need.String())
		e.Key("code")
		e.Int(int64(p.Code))
		if p.MaxLen > 0 {
			e.Key("max_length")
			e.Int(int64(p.MaxLen))
		}
		if p.Country != "" {
			e.Key("country_field")
			e.String(p.Country)
		}
		if p.Default > 0 {
			e.Key("default")
			e.Int(int64(p.Default))
		}
		if p.Max > 0 {
			e.Key("maximum")
			e.Int(int64(p.Max))
		}
		e.Key("doc")
		e.String(p.Doc)
		e.EndObject()
	}
	e.EndArray()
}

// Schema is the JSON Schema (draft 4) of one operation's request, as a
// jsonlite.Value. Rules selects the requiredness for a client with the
// rules feature enabled. Strict refuses every property the catalog does not
// list, even where the operation takes carrier-specific extra fields (the
// sandbox adds a carrier's own).
//
// The schema is a faithful statement of validation wherever draft 4 can
// say it (see schema.go): values as typed (surrounding white space, letters
// in either case), lengths after trimming, blank values as absent, postal
// codes per country. What it cannot say is in SchemaLimits.
type Schema struct {
	Op     *Operation
	Rules  bool
	Strict bool
}

// EmitTo writes the schema. Conditional rules that draft 4 can express
// (one-of, required-with, required-unless, together, postal code per
// country) become entries of allOf; ordering rules are stated in the
// description.
func (s Schema) EmitTo(e jsonlite.Emitter) {
	op := s.Op
	e.BeginObject()
	e.Key("$schema")
	e.String("http://json-schema.org/draft-04/schema#")
	e.Key("id")
	e.String("urn:parcelgate:schema:v1:" + op.Name)
	e.Key("title")
	e.String(op.Name)
	e.Key("description")
	desc := op.Doc
	for _, r := range op.Rules {
		if r.Kind == Before || r.Kind == NotAfter {
			desc += " Rule: " + r.Doc + " (error " + strconv.Itoa(r.Code) + ")."
		}
	}
	e.String(desc + " " + SchemaLimits)
	e.Key("type")
	e.String("object")
	e.Key("properties")
	e.BeginObject()
	for i := range op.Params {
		e.Key(op.Params[i].Name)
		emitParamSchema(e, &op.Params[i], s.Rules)
	}
	e.Key("parcels")
	e.BeginObject()
	if op.TakesParcels() {
		e.Key("type")
		e.String("array")
		if op.Parcels == Required {
			e.Key("minItems")
			e.Int(1)
		}
		e.Key("maxItems")
		e.Int(MaxParcels)
		e.Key("items")
		e.BeginObject()
		e.Key("type")
		e.String("object")
		e.Key("properties")
		e.BeginObject()
		for i := range op.ParcelParams {
			e.Key(op.ParcelParams[i].Name)
			emitParamSchema(e, &op.ParcelParams[i], s.Rules)
		}
		e.EndObject()
		emitRequired(e, op.ParcelParams, s.Rules, "")
		e.Key("additionalProperties")
		e.Bool(false)
		e.EndObject()
	} else {
		e.Key("description")
		e.String("this operation takes no parcels")
		e.Key("not")
		e.BeginObject()
		e.EndObject()
	}
	e.EndObject()
	e.EndObject()
	parcels := ""
	if op.TakesParcels() && op.Parcels == Required {
		parcels = "parcels"
	}
	emitRequired(e, op.Params, s.Rules, parcels)
	emitAllOf(e, op, s.Rules)
	emitPostalDefinitions(e, op)
	e.Key("additionalProperties")
	if op.Extra && !s.Strict {
		// Carrier-specific extras: clean text of at most
		// MaxExtraValueRunes characters (see validate; their names, count
		// and case are beyond draft 4).
		e.BeginObject()
		e.Key("type")
		e.String("string")
		e.Key("pattern")
		e.String("^" + noControl + "{0," + strconv.Itoa(MaxExtraValueRunes) + "}$")
		e.EndObject()
	} else {
		e.Bool(false)
	}
	e.EndObject()
}

// emitRequired writes the "required" list: the parameters required for
// the client (with or without the rules feature) and extra, when not "".
// Postal codes are required per country (see emitPostal), not here.
func emitRequired(e jsonlite.Emitter, ps []Param, rules bool, extra string) {
	var names []string
	for i := range ps {
		if ps[i].Need.IsRequired(rules) && ps[i].Kind != Zip {
			names = append(names, ps[i].Name)
		}
	}
	if extra != "" {
		names = append(names, extra)
	}
	if len(names) == 0 {
		return
	}
	e.Key("required")
	e.BeginArray()
	for _, n := range names {
		e.String(n)
	}
	e.EndArray()
}

// emitAllOf writes the conditional rules and the postal codes as entries
// of allOf. "Present" means given and not blank, as validation has it.
func emitAllOf(e jsonlite.Emitter, op *Operation, rules bool) {
	n := 0
	for _, r := range op.Rules {
		if r.Kind != Before && r.Kind != NotAfter {
			n++
		}
	}
	for i := range op.Params {
		if op.Params[i].Kind == Zip {
			n++
		}
	}
	if n == 0 {
		return
	}
	e.Key("allOf")
	e.BeginArray()
	for _, r := range op.Rules {
		f := r.Fields
		switch r.Kind {
		case OneOf, RequiredUnless:
			e.BeginObject()
			e.Key("anyOf")
			e.BeginArray()
			for _, name := range f {
				emitPresent(e, name)
			}
			e.EndArray()
			e.EndObject()
		case RequiredWith: // f[0] when f[1]
			emitImplies(e, f[1], f[:1])
		case Together:
			for i, name := range f {
				others := make([]string, 0, len(f)-1)
				others = append(others, f[:i]...)
				others = append(others, f[i+1:]...)
				emitImplies(e, name, others)
			}
		}
	}
	for i := range op.Params {
		if p := &op.Params[i]; p.Kind == Zip {
			emitPostal(e, p, rules)
		}
	}
	e.EndArray()
}

// emitPresent writes {"required": [name], "properties": {name: not blank}}.
func emitPresent(e jsonlite.Emitter, name string) {
	e.BeginObject()
	e.Key("required")
	e.BeginArray()
	e.String(name)
	e.EndArray()
	e.Key("properties")
	e.BeginObject()
	e.Key(name)
	e.BeginObject()
	e.Key("pattern")
	e.String(notBlank)
	e.EndObject()
	e.EndObject()
	e.EndObject()
}

// emitImplies writes: when name is present, every one of then is present.
func emitImplies(e jsonlite.Emitter, name string, then []string) {
	e.BeginObject()
	e.Key("anyOf")
	e.BeginArray()
	e.BeginObject()
	e.Key("not")
	emitPresent(e, name)
	e.EndObject()
	e.BeginObject()
	e.Key("allOf")
	e.BeginArray()
	for _, t := range then {
		emitPresent(e, t)
	}
	e.EndArray()
	e.EndObject()
	e.EndArray()
	e.EndObject()
}

func emitParamSchema(e jsonlite.Emitter, p *Param, rules bool) {
	e.BeginObject()
	e.Key("type")
	e.String(p.Kind.JSONType())
	e.Key("description")
	doc := p.Doc
	if p.MaxLen > 0 && p.Kind.JSONType() == "string" && p.Kind != Zip && p.Kind != Country {
		doc += " (at most " + strconv.Itoa(p.MaxLen) + " characters after trimming)"
	}
	if p.Kind == Zip {
		doc += " (format per country: see allOf; may be empty for countries without postal codes)"
	}
	e.String(doc)
	optional := !p.Need.IsRequired(rules)
	switch p.Kind {
	case Text:
		e.Key("pattern")
		e.String(textPattern(p.MaxLen, optional))
	case Ref:
		e.Key("pattern")
		e.String(refPattern(p.MaxLen, optional))
	case Code:
		e.Key("pattern")
		e.String(trimmed(`[A-Za-z0-9_-]{1,`+strconv.Itoa(p.MaxLen)+`}`, optional))
	case Country:
		e.Key("pattern")
		e.String(trimmed(countryPattern(nil), optional))
	case Phone:
		e.Key("pattern")
		e.String(trimmed(phonePattern(p.MaxLen), optional))
	case Email:
		e.Key("allOf")
		e.BeginArray()
		e.BeginObject()
		e.Key("pattern")
		e.String(textPattern(p.MaxLen, optional))
		e.EndObject()
		e.BeginObject()
		e.Key("pattern")
		e.String(trimmed(emailPattern, optional))
		e.EndObject()
		e.EndArray()
	case Date:
		e.Key("pattern")
		e.String(trimmed(datePattern, optional))
	case Hour:
		e.Key("pattern")
		e.String(trimmed(hourPattern, optional))
	case ServiceType:
		e.Key("pattern")
		if rules {
			e.String(trimmed("24|48|72", optional))
		} else {
			e.String(trimmed("custom", optional))
		}
	case Decimal:
		// Validation: a point as separator, at most 7 integer digits.
		e.Key("minimum")
		e.Int(0)
		e.Key("exclusiveMinimum")
		e.Bool(true)
		e.Key("maximum")
		e.Int(10000000)
		e.Key("exclusiveMaximum")
		e.Bool(true)
	case Count:
		e.Key("minimum")
		e.Int(0)
	case Positive:
		e.Key("minimum")
		e.Int(1)
		if p.Default > 0 {
			e.Key("default")
			e.Int(int64(p.Default))
		}
	case Flag:
		e.Key("enum")
		e.BeginArray()
		e.Int(0)
		e.Int(1)
		e.EndArray()
	}
	switch {
	case p.Max > 0:
		e.Key("maximum")
		e.Int(int64(p.Max))
	case p.Kind == Count || p.Kind == Positive:
		e.Key("maximum")
		e.Int(maxWhole)
	}
	e.EndObject()
}
