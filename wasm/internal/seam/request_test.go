package seam

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
