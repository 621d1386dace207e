package edge

import (
	"net/http"
	"strings"

	"github.com/parcelgate/parcelgate/internal/envelope"
)

// NormalizedAccept is the Accept parameter with which a client asks for an
// operation's data already normalized (`Accept: application/json;
// parcelgate=normalized`, what @parcelgate/js's Client sends). An Accept
// value stays a CORS-safelisted header, so a cross-origin read costs no
// preflight.
const NormalizedAccept = "parcelgate=normalized"

// NormalizedHeader marks an answer whose data the edge normalized
// (`Parcelgate-Data: normalized`).
const NormalizedHeader = "Parcelgate-Data"

// wantsNormalized reports whether the request's Accept asks for normalized data.
func wantsNormalized(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept") {
		if strings.Contains(strings.ReplaceAll(strings.ToLower(v), " ", ""), NormalizedAccept) {
			return true
		}
	}
	return false
}

// okData answers an operation's ok envelope, relayed or cached. When the
// client asked for it, the data goes out as internal/envelope's decoder
// normalizes it: the decoder the browser's decoder module is compiled from,
// so a browser talking to its own edge gets what core.decode would give
// without fetching that module (js/README.md, "Size"). Data the decoder
// refuses (the wrong shape) goes out as received and unmarked: the client
// then decodes it itself and reports the shape error with its path.
func (x *exchange) okData(body []byte) {
	h := x.w.Header()
	h.Add("Vary", "Accept")
	if x.op != "" && wantsNormalized(x.r) {
		if v, err := envelope.Decode(x.op, http.StatusOK, body); err == nil {
			h.Set(NormalizedHeader, "normalized")
			body = envelope.MarshalOK(v)
		}
	}
	x.respond(http.StatusOK, body)
}
