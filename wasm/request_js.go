//go:build js

package main

import (
	"strconv"
	"syscall/js"

	"github.com/parcelgate/parcelgate/internal/form"
)

// readRequest fills r from a JavaScript request object (see the package
// doc for the accepted shapes). It returns a usage message, or "".
func readRequest(v js.Value, r *form.Request) string {
	r.Fields = r.Fields[:0]
	r.Parcels = r.Parcels[:0]
	if v.Type() != js.TypeObject {
		return "request must be an object: {fields, parcels} or {name: value, ...}"
	}
	if fields := v.Get("fields"); !fields.IsUndefined() && !fields.IsNull() {
		if msg := readFields(fields, r); msg != "" {
			return msg
		}
	} else {
		keys := jsKeys.Invoke(v)
		for i, n := 0, keys.Length(); i < n; i++ {
			k := keys.Index(i).String()
			if k == "parcels" || k == "fields" {
				continue
			}
			if msg := setField(r, k, v.Get(k)); msg != "" {
				return msg
			}
		}
	}
	return readParcels(v.Get("parcels"), r)
}

func readFields(fields js.Value, r *form.Request) string {
	if fields.Type() != js.TypeObject {
		return "request.fields must be an object or an array of [name, value] pairs"
	}
	if jsIsArray.Invoke(fields).Bool() {
		for i, n := 0, fields.Length(); i < n; i++ {
			pair := fields.Index(i)
			if pair.Type() != js.TypeObject || !jsIsArray.Invoke(pair).Bool() || pair.Length() != 2 ||
				pair.Index(0).Type() != js.TypeString {
				return "request.fields[" + strconv.Itoa(i) + "] must be a [name, value] pair"
			}
			if msg := setField(r, pair.Index(0).String(), pair.Index(1)); msg != "" {
				return msg
			}
		}
		return ""
	}
	keys := jsKeys.Invoke(fields)
	for i, n := 0, keys.Length(); i < n; i++ {
		k := keys.Index(i).String()
		if msg := setField(r, k, fields.Get(k)); msg != "" {
			return msg
		}
	}
	return ""
}

// setField sets a top-level field; null and undefined leave it absent.
func setField(r *form.Request, name string, v js.Value) string {
	s, present, ok := text(v)
	if !ok {
		return "field " + name + " must be a string, a number or a boolean"
	}
	if present {
		r.Set(name, s)
	}
	return ""
}

// text converts a field value: strings as they are, numbers with a point
// and no exponent, booleans as 1/0, null/undefined as absent.
func text(v js.Value) (s string, present, ok bool) {
	switch v.Type() {
	case js.TypeString:
		return v.String(), true, true
	case js.TypeNumber:
		return formatNumber(v.Float()), true, true
	case js.TypeBoolean:
		if v.Bool() {
			return "1", true, true
		}
		return "0", true, true
	case js.TypeUndefined, js.TypeNull:
		return "", false, true
	}
	return "", false, false
}

func readParcels(ps js.Value, r *form.Request) string {
	if ps.IsUndefined() || ps.IsNull() {
		return ""
	}
	if ps.Type() != js.TypeObject || !jsIsArray.Invoke(ps).Bool() {
		return "request.parcels must be an array of objects"
	}
	n := ps.Length()
	if cap(r.Parcels) < n {
		r.Parcels = make([]form.Parcel, 0, n)
	}
	for i := 0; i < n; i++ {
		p := ps.Index(i)
		where := "request.parcels[" + strconv.Itoa(i) + "]"
		if p.Type() != js.TypeObject {
			return where + " must be an object"
		}
		var pc form.Parcel
		keys := jsKeys.Invoke(p)
		for j, m := 0, keys.Length(); j < m; j++ {
			k := keys.Index(j).String()
			s, _, ok := text(p.Get(k))
			if !ok {
				return where + "." + k + " must be a string or a number"
			}
			if !pc.Set(k, s) {
				return where + " has an unknown field " + k + " (parcel fields: parcel_weight, parcel_width, parcel_height, parcel_length, parcel_volume)"
			}
		}
		r.Parcels = append(r.Parcels, pc)
	}
	return ""
}
