// Package form holds the request model shared by every operation and its
// application/x-www-form-urlencoded codec: top-level fields plus the
// indexed parcel list sent as parcels[<i>][<field>].
//
// The codec does not use reflection; it is safe for TinyGo and the browser
// module.
package form

// Field is one top-level parameter of a request, by its wire name.
type Field struct {
	Name  string
	Value string
}

// Parcel is one entry of the parcels list. Values are kept as the strings
// that travel on the wire (a point as decimal separator); validation parses
// them. An empty string means the field is absent.
type Parcel struct {
	Weight string // parcel_weight, kg
	Width  string // parcel_width, cm
	Height string // parcel_height, cm
	Length string // parcel_length, cm
	Volume string // parcel_volume
}

// ParcelFieldNames lists the parcel fields in wire order.
var ParcelFieldNames = [...]string{"parcel_weight", "parcel_width", "parcel_height", "parcel_length", "parcel_volume"}

// Get returns the value of the parcel field with the given wire name and
// whether the name is a parcel field.
func (p *Parcel) Get(name string) (string, bool) {
	if f := p.ref(name); f != nil {
		return *f, true
	}
	return "", false
}

// Set sets the parcel field with the given wire name. It reports false for
// a name that is not a parcel field.
func (p *Parcel) Set(name, value string) bool {
	if f := p.ref(name); f != nil {
		*f = value
		return true
	}
	return false
}

// At returns the i-th field in ParcelFieldNames order.
func (p *Parcel) At(i int) string {
	if f := p.field(i); f != nil {
		return *f
	}
	return ""
}

// field is the i-th field in ParcelFieldNames order (nil past the end):
// the one switch over the fields that At, setAt and the by-name accessors
// share.
func (p *Parcel) field(i int) *string {
	switch i {
	case 0:
		return &p.Weight
	case 1:
		return &p.Width
	case 2:
		return &p.Height
	case 3:
		return &p.Length
	case 4:
		return &p.Volume
	}
	return nil
}

// ref is the field with the given wire name, or nil.
func (p *Parcel) ref(name string) *string {
	for i := range ParcelFieldNames { // by index: ranging over the array copies it under TinyGo
		if ParcelFieldNames[i] == name {
			return p.field(i)
		}
	}
	return nil
}

// Request is the operation-independent form of a request: its top-level
// fields in order and its parcels. A name appears at most once in Fields.
// Encode writes the fields in the order they are held; SortFields orders
// them the way the catalog lists them.
type Request struct {
	Fields  []Field
	Parcels []Parcel
}

// Get returns the value of a top-level field, or "" when it is absent.
func (r *Request) Get(name string) string {
	for i := range r.Fields {
		if r.Fields[i].Name == name {
			return r.Fields[i].Value
		}
	}
	return ""
}

// Has reports whether a top-level field is present (even if empty).
func (r *Request) Has(name string) bool {
	for i := range r.Fields {
		if r.Fields[i].Name == name {
			return true
		}
	}
	return false
}

// Set sets a top-level field, replacing an existing value in place or
// appending a new field.
func (r *Request) Set(name, value string) {
	for i := range r.Fields {
		if r.Fields[i].Name == name {
			r.Fields[i].Value = value
			return
		}
	}
	r.Fields = append(r.Fields, Field{Name: name, Value: value})
}

// Del removes a top-level field, keeping the order of the others.
func (r *Request) Del(name string) {
	for i := range r.Fields {
		if r.Fields[i].Name == name {
			r.Fields = append(r.Fields[:i], r.Fields[i+1:]...)
			return
		}
	}
}
