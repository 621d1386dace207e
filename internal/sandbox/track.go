package sandbox

import (
	"strconv"
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/internal/envelope"
	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/sandbox/holidays"
)

// Tracking is computed, never stored: the full schedule of a shipment's
// events follows from its record (booking time, shipping date, service
// transit time, collection window, drop point) and a seed taken from its
// dlvr_ref; the events shown are those scheduled up to the sandbox's
// virtual now, created + (now - created) x time scale.
//
// Outcomes: most shipments are delivered on the estimated day (to a drop
// point first when one was chosen: deposited, then collected the next
// working day). Deterministically per dlvr_ref, 1 in 10 finds the
// recipient absent and is delivered the next working day, and 1 in 20
// hits an address error and goes back to the sender three working days
// later. A marker in to_observations chooses the outcome instead:
// "sandbox:deliver", "sandbox:absent", "sandbox:address-error" or
// "sandbox:refused".

type outcome uint8

const (
	outcomeDeliver outcome = iota
	outcomeAbsent
	outcomeAddressError
	outcomeRefused
)

func outcomeOf(rec *ShipmentRecord, seed uint64) outcome {
	obs := strings.ToLower(rec.To.Observations)
	switch {
	case strings.Contains(obs, "sandbox:deliver"):
		return outcomeDeliver
	case strings.Contains(obs, "sandbox:absent"):
		return outcomeAbsent
	case strings.Contains(obs, "sandbox:address-error"):
		return outcomeAddressError
	case strings.Contains(obs, "sandbox:refused"):
		return outcomeRefused
	}
	switch seed % 20 {
	case 0, 1:
		return outcomeAbsent
	case 2:
		return outcomeAddressError
	}
	return outcomeDeliver
}

// event is one tracking event.
type event struct {
	Code    string
	At      time.Time
	Details string
}

// schedule is a shipment's whole tracking plan.
type schedule struct {
	events      []event // oldest first
	start       time.Time
	deliveryDay time.Time
}

func (sb *Sandbox) plan(rec *ShipmentRecord) schedule {
	created := time.Unix(rec.Created, 0).UTC()
	seed := fnv64(0, "track", rec.DlvrRef)
	jitter := func(slot uint, max int) time.Duration {
		if max <= 0 {
			return 0
		}
		return time.Duration(int((seed>>(slot*7))%uint64(max))) * time.Minute
	}
	var evs []event
	add := func(code string, at time.Time, details string) time.Time {
		if n := len(evs); n > 0 && at.Before(evs[n-1].At) {
			at = evs[n-1].At.Add(time.Duration(17+len(evs)) * time.Minute)
		}
		evs = append(evs, event{code, at, details})
		return at
	}
	add("01", created, "Envío registrado; pedido en preparación")
	pickDay := holidays.NextWorkingDay(parseDate(rec.ShippingDate))
	var pickupAt time.Time
	if col := rec.Collection; col != nil {
		add("02", time.Unix(col.Created, 0).UTC(), "Recogida asignada para el "+col.Date+" entre "+col.Start1+" y "+col.End1)
		pickDay = parseDate(col.Date)
		s, _ := hourMinutes(col.Start1)
		e, _ := hourMinutes(col.End1)
		pickupAt = atMadrid(pickDay, s+15).Add(jitter(0, e-s-30))
	} else {
		pickupAt = atMadrid(pickDay, 17*60+30).Add(jitter(0, 45))
	}
	add("03", atMadrid(pickDay, 8*60), "Pendiente de recogida")
	pickupAt = add("05", pickupAt, "Recogida realizada en "+rec.From.City)
	add("06", pickupAt.Add(2*time.Hour), "Salida de "+rec.From.City)
	z := zone(rec.Zone)
	if z == zoneWorld || z == zoneCanary || z == zoneCeutaMelilla {
		add("07", pickupAt.Add(14*time.Hour), "Inspección aduanera / DUA")
		add("09", pickupAt.Add(18*time.Hour), "Documentación aduanera recibida")
	}
	add("08", pickupAt.Add(4*time.Hour), "En tránsito hacia "+rec.To.City)
	days := (int(rec.TransitHours) + 23) / 24
	delDay := holidays.AddWorkingDays(pickDay, days)
	out := add("10", atMadrid(delDay, 8*60+30).Add(jitter(1, 45)), "En reparto en "+rec.To.City)
	switch outcomeOf(rec, seed) {
	case outcomeAbsent:
		add("12", out.Add(2*time.Hour).Add(jitter(2, 90)), "Destinatario ausente; se deja aviso")
		next := holidays.AddWorkingDays(delDay, 1)
		add("10", atMadrid(next, 8*60+30).Add(jitter(3, 45)), "Segundo intento de entrega en "+rec.To.City)
		add("11", atMadrid(next, 11*60).Add(jitter(4, 180)), "Entregado")
	case outcomeAddressError:
		at := add("13", out.Add(90*time.Minute).Add(jitter(2, 60)), "Dirección incorrecta o incompleta")
		add("15", at.Add(time.Hour), "Pendiente de instrucciones del remitente")
		add("17", atMadrid(holidays.AddWorkingDays(delDay, 3), 12*60).Add(jitter(3, 120)), "Devuelto al remitente")
	case outcomeRefused:
		add("14", out.Add(time.Hour).Add(jitter(2, 90)), "Rehusado por el destinatario")
		add("17", atMadrid(holidays.AddWorkingDays(delDay, 2), 12*60).Add(jitter(3, 120)), "Devuelto al remitente")
	default:
		if rec.DropPoint != nil {
			add("30", out.Add(150*time.Minute).Add(jitter(2, 60)), "Depositado en "+rec.DropPoint.Name)
			add("11", atMadrid(holidays.AddWorkingDays(delDay, 1), 17*60).Add(jitter(3, 120)), "Recogido por el destinatario en el punto de entrega")
		} else {
			add("11", atMadrid(delDay, 10*60).Add(jitter(2, 240)), "Entregado")
		}
	}
	return schedule{events: evs, start: pickupAt, deliveryDay: delDay}
}

// virtualNow is the moment tracking is shown at.
func (sb *Sandbox) virtualNow(rec *ShipmentRecord, now time.Time) time.Time {
	created := time.Unix(rec.Created, 0).UTC()
	if sb.scale == 1 || !now.After(created) {
		return now
	}
	return created.Add(time.Duration(float64(now.Sub(created)) * sb.scale))
}

// trackState is what a shipment's tracking shows at a moment.
type trackState struct {
	history   []event // visible events, newest first
	start     time.Time
	delivered time.Time
	limit     time.Time
	vnow      time.Time
}

func (sb *Sandbox) track(rec *ShipmentRecord, now time.Time) trackState {
	p := sb.plan(rec)
	st := trackState{vnow: sb.virtualNow(rec, now)}
	for i := len(p.events) - 1; i >= 0; i-- {
		ev := p.events[i]
		if i > 0 && ev.At.After(st.vnow) {
			continue // not yet (the first event is always shown)
		}
		st.history = append(st.history, ev)
		switch ev.Code {
		case "05":
			st.start = ev.At
		case "11":
			st.delivered = ev.At
		}
	}
	if !st.start.IsZero() {
		st.limit = atMadrid(p.deliveryDay, 20*60)
	}
	return st
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return madrid(t).Format(dateTimeLayout)
}

func emitEventFields(e jsonlite.Emitter, ev event) {
	name := ev.Code
	if tc, ok := envelope.DescribeTracking(ev.Code); ok {
		name = tc.Label
	}
	kv(e, "tracking_code", ev.Code)
	kv(e, "tracking_name", name)
	kv(e, "tracking_details", ev.Details)
	kv(e, "tracking_date", stamp(ev.At))
}

// emitTrackingFields writes the current event and tracking_history.
func emitTrackingFields(e jsonlite.Emitter, st trackState) {
	emitEventFields(e, st.history[0])
	e.Key("tracking_history")
	e.BeginArray()
	for _, ev := range st.history {
		e.BeginObject()
		emitEventFields(e, ev)
		e.EndObject()
	}
	e.EndArray()
}

func hoursBetween(a, b time.Time) string {
	h := b.Sub(a).Hours()
	if h < 0 {
		h = 0
	}
	return strconv.FormatFloat(float64(int64(h*100+0.5))/100, 'f', 2, 64)
}
