package form

// SortFields reorders the top-level fields stably by rank: order(name)
// returns a field's position (for example its index in the catalog's
// parameter list) or a negative number for a name it does not know.
// Known names come first by rank (equal ranks keep their order), unknown
// names last in byte order of the name. order is called a few times per
// field; SortFields does not allocate.
func (r *Request) SortFields(order func(name string) int) {
	f := r.Fields
	less := func(a, b *Field) bool {
		ra, rb := order(a.Name), order(b.Name)
		switch {
		case ra < 0 && rb < 0:
			return a.Name < b.Name
		case ra < 0:
			return false
		case rb < 0:
			return true
		}
		return ra < rb
	}
	// Insertion sort: a request has a few dozen fields and they usually
	// arrive nearly in order.
	for i := 1; i < len(f); i++ {
		for j := i; j > 0 && less(&f[j], &f[j-1]); j-- {
			f[j], f[j-1] = f[j-1], f[j]
		}
	}
}

// Equal reports whether r and o hold the same fields in the same order and
// the same parcels. A nil Fields or Parcels equals an empty one; a nil
// *Request equals only another nil.
func (r *Request) Equal(o *Request) bool {
	if r == nil || o == nil {
		return r == o
	}
	if len(r.Fields) != len(o.Fields) || len(r.Parcels) != len(o.Parcels) {
		return false
	}
	for i := range r.Fields {
		if r.Fields[i] != o.Fields[i] {
			return false
		}
	}
	for i := range r.Parcels {
		if r.Parcels[i] != o.Parcels[i] {
			return false
		}
	}
	return true
}
