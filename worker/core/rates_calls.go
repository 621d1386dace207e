package core

import (
	"time"

	"github.com/parcelgate/parcelgate/worker/core/seam"
)

// The calls of rates with a deadline (rates.go): the plan a forward
// carries, and the rates method the JavaScript asks when a rates answer
// is live (to mark it) or must be rescued.

// ratesPlan is the forward's plan on the seam (nil for every operation
// but get-shipments-rates).
func ratesPlan(p *RatesPlan) *seam.RatesPlan {
	if p == nil {
		return nil
	}
	return &seam.RatesPlan{Key: p.Key, Country: p.Country, DeadlineMs: p.Deadline.Milliseconds(), StaleMs: p.Stale.Milliseconds()}
}

// rates answers {source, response}: class "live" marks a live ok answer
// (body: it); another class asks for a rescue (body: the stored answer,
// storedAt when it was stored, 0 for none). Source "" and response nil:
// nothing to answer with.
func (c *Calls) rates(in *seam.RatesInput, out *seam.RatesResult) {
	var r *Response
	if in.Class == SourceLive {
		r = Live(in.Body)
	} else {
		var at time.Time
		if in.StoredAt > 0 {
			at = millis(in.StoredAt)
		}
		r = c.Edge.Rescue(in.Class, &RatesPlan{Key: in.Plan.Key, Country: in.Plan.Country, AcceptLanguage: in.AcceptLanguage}, in.Body, at, millis(in.Now))
	}
	if r == nil {
		return
	}
	out.Source = r.Headers[len(r.Headers)-1].Value
	out.Response = response(r)
}
