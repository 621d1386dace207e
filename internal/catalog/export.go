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
// rules feature enabled.
type Schema struct {
	Op    *Operation
	Rules bool
}

// Patterns used in the schemas. They document the format; validation does
// not use regular expressions.
const (
	patternDate = `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
	patternHour = `^([01][0-9]|2[0-3]):[0-5][0-9]$`
	patternCode = `^[A-Za-z0-9_-]+$`
)

// EmitTo writes the schema. Conditional rules that draft 4 can express
// (one-of, required-with, required-unless, together) become anyOf and
// dependencies; ordering rules are stated in the description.
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
	e.String(desc)
	e.Key("type")
	e.String("object")
	e.Key("properties")
	e.BeginObject()
	for i := range op.Params {
		e.Key(op.Params[i].Name)
		emitParamSchema(e, &op.Params[i])
	}
	if op.TakesParcels() {
		e.Key("parcels")
		e.BeginObject()
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
			emitParamSchema(e, &op.ParcelParams[i])
		}
		e.EndObject()
		emitRequired(e, op.ParcelParams, s.Rules, "")
		e.Key("additionalProperties")
		e.Bool(false)
		e.EndObject()
		e.EndObject()
	}
	e.EndObject()
	parcels := ""
	if op.TakesParcels() && op.Parcels == Required {
		parcels = "parcels"
	}
	emitRequired(e, op.Params, s.Rules, parcels)
	emitRuleSchemas(e, op.Rules)
	e.Key("additionalProperties")
	e.Bool(op.Extra)
	e.EndObject()
}

// emitRequired writes the "required" list: the parameters required for
// the client (with or without the rules feature) and extra, when not "".
func emitRequired(e jsonlite.Emitter, ps []Param, rules bool, extra string) {
	n := 0
	if extra != "" {
		n++
	}
	for i := range ps {
		if ps[i].Need.IsRequired(rules) {
			n++
		}
	}
	if n == 0 {
		return
	}
	e.Key("required")
	e.BeginArray()
	for i := range ps {
		if ps[i].Need.IsRequired(rules) {
			e.String(ps[i].Name)
		}
	}
	if extra != "" {
		e.String(extra)
	}
	e.EndArray()
}

func emitRuleSchemas(e jsonlite.Emitter, rules []Rule) {
	var anyOf []Rule
	deps := false
	for _, r := range rules {
		switch r.Kind {
		case OneOf, RequiredUnless:
			anyOf = append(anyOf, r)
		case RequiredWith, Together:
			deps = true
		}
	}
	// Draft 4 allows one anyOf per object; the catalog has at most one
	// one-of style rule per operation.
	for _, r := range anyOf {
		e.Key("anyOf")
		e.BeginArray()
		for _, f := range r.Fields {
			e.BeginObject()
			e.Key("required")
			e.BeginArray()
			e.String(f)
			e.EndArray()
			e.EndObject()
		}
		e.EndArray()
		break
	}
	if !deps {
		return
	}
	e.Key("dependencies")
	e.BeginObject()
	for _, r := range rules {
		switch r.Kind {
		case RequiredWith:
			e.Key(r.Fields[1])
			e.BeginArray()
			e.String(r.Fields[0])
			e.EndArray()
		case Together:
			for i, f := range r.Fields {
				e.Key(f)
				e.BeginArray()
				for j, g := range r.Fields {
					if i != j {
						e.String(g)
					}
				}
				e.EndArray()
			}
		}
	}
	e.EndObject()
}

func emitParamSchema(e jsonlite.Emitter, p *Param) {
	e.BeginObject()
	e.Key("type")
	e.String(p.Kind.JSONType())
	e.Key("description")
	e.String(p.Doc)
	if p.MaxLen > 0 && p.Kind.JSONType() == "string" {
		e.Key("maxLength")
		e.Int(int64(p.MaxLen))
	}
	switch p.Kind {
	case Country:
		e.Key("minLength")
		e.Int(2)
		e.Key("pattern")
		e.String("^[A-Za-z]{2}$")
	case Date:
		e.Key("format")
		e.String("date")
		e.Key("pattern")
		e.String(patternDate)
	case Hour:
		e.Key("pattern")
		e.String(patternHour)
	case Code:
		e.Key("pattern")
		e.String(patternCode)
	case Email:
		e.Key("format")
		e.String("email")
	case Decimal:
		e.Key("minimum")
		e.Int(0)
		e.Key("exclusiveMinimum")
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
	case ServiceType:
		e.Key("enum")
		e.BeginArray()
		e.String("custom")
		e.String("24")
		e.String("48")
		e.String("72")
		e.EndArray()
	}
	if p.Max > 0 {
		e.Key("maximum")
		e.Int(int64(p.Max))
	}
	e.EndObject()
}
