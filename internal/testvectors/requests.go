package testvectors

import "testing"

// Request is one case of testdata/requests/*.json (see its README): an
// operation, the options it is validated with, the request, and what the
// core answers: every field error in order, or the body it forwards.
type Request struct {
	Name      string `json:"name"`
	Operation string `json:"operation"`
	Options   struct {
		Rules bool   `json:"rules"`
		Today string `json:"today"`
	} `json:"options"`
	Request struct {
		Fields  [][2]string         `json:"fields"`
		Parcels []map[string]string `json:"parcels"`
	} `json:"request"`
	Errors []FieldError `json:"errors"`
	Body   *string      `json:"body"`
}

// FieldError is one expected error of a request vector.
type FieldError struct {
	Field   string `json:"field"`
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Requests returns every request vector of every file, in file order:
// the validation, the edge and the browser module all run the same list.
func Requests(t testing.TB) []Request {
	t.Helper()
	var out []Request
	for _, n := range List[Request](t, "requests/*.json") {
		out = append(out, n.V)
	}
	return out
}
