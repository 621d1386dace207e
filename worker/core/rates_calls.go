package core

import "time"

// The calls of rates with a deadline (rates.go): the plan a forward
// carries, and the rates method the JavaScript asks when a rates answer
// is live (to mark it) or must be rescued.

// ratesPlan writes the forward's "rates" member: null, or
// {key, country, deadlineMs, staleMs}.
func (c *Calls) ratesPlan(p *RatesPlan) {
	w := &c.w
	w.Key("rates")
	if p == nil {
		w.Null()
		return
	}
	w.BeginObject()
	c.str("key", p.Key)
	c.str("country", p.Country)
	c.int("deadlineMs", p.Deadline.Milliseconds())
	c.int("staleMs", p.Stale.Milliseconds())
	w.EndObject()
}

// rates answers {source, response}: class "live" marks a live ok answer
// (raw: its body); another class asks for a rescue (raw: the stored
// answer, storedAt when it was stored, 0 for none). source "" and
// response null: nothing to answer with.
func (c *Calls) rates(e *Edge, a args, raw []byte) {
	class := a.str("class")
	var r *Response
	if class == SourceLive {
		r = Live(raw)
	} else {
		p := a.obj("plan")
		var at time.Time
		if ms := a.num("storedAt"); ms > 0 {
			at = millis(ms)
		}
		r = e.Rescue(class, &RatesPlan{Key: p.str("key"), Country: p.str("country")}, raw, at, millis(a.num("now")))
	}
	if r == nil {
		c.str("source", "")
		c.w.Key("response")
		c.w.Null()
		return
	}
	c.str("source", r.Headers[len(r.Headers)-1].Value)
	c.response("response", r)
}
