package seam

import "github.com/parcelgate/parcelgate/internal/form"

// sampleRequest is the generated round-trip tests' Request: fields with
// separator bytes, and two parcels, one with a field left out.
func sampleRequest() Request {
	return form.Request{
		Fields:  []form.Field{{Name: "from_zip_code", Value: "28\x1f001"}, {Name: "notes", Value: "a\x1db\x1cc"}},
		Parcels: []form.Parcel{{Weight: "2.5", Width: "10", Height: "20", Length: "30", Volume: "6"}, {Weight: "1"}},
	}
}

// normalRequest makes empty lists nil: what wire.ReadRequest makes of none.
func normalRequest(r Request) Request {
	if len(r.Fields) == 0 {
		r.Fields = nil
	}
	if len(r.Parcels) == 0 {
		r.Parcels = nil
	}
	return r
}
