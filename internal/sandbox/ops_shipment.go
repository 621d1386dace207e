package sandbox

import (
	"encoding/base64"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/sandbox/label"
)

// find loads a shipment by dlvr_ref, or returns a 404 naming field.
func (c *call) find(field, dlvr string) (*ShipmentRecord, *apiError) {
	if !strings.HasPrefix(dlvr, "SBX") {
		return nil, notFound(field, "no shipment with this reference")
	}
	rec, err := c.sb.loadShipment(c.ctx, dlvr)
	if err != nil {
		return nil, storeFailed(err)
	}
	if rec == nil {
		return nil, notFound(field, "no shipment with this reference")
	}
	return rec, nil
}

// findByCarrierRef loads a shipment by its carrier reference; carrierCode,
// when not "", must be the shipment's carrier.
func (c *call) findByCarrierRef(field, ref, carrierCode string) (*ShipmentRecord, *apiError) {
	dlvr, k, ok := dlvrFromCarrierRef(ref)
	if !ok || (carrierCode != "" && k.Code != carrierCode) {
		return nil, notFound(field, "no shipment with this carrier reference")
	}
	rec, err := c.find(field, dlvr)
	if err != nil || rec.CarrierRef != ref {
		return nil, notFound(field, "no shipment with this carrier reference")
	}
	return rec, nil
}

func (c *call) label() (jsonlite.Value, *apiError) {
	var rec *ShipmentRecord
	var err *apiError
	if d := c.get("dlvr_ref"); d != "" {
		rec, err = c.find("dlvr_ref", d)
		if err == nil && c.get("shipping_carrier_ref") != "" && c.get("shipping_carrier_ref") != rec.CarrierRef {
			return nil, rejected(400, "shipping_carrier_ref", "does not belong to shipment "+rec.DlvrRef)
		}
	} else {
		rec, err = c.findByCarrierRef("shipping_carrier_ref", c.get("shipping_carrier_ref"), "")
	}
	if err != nil {
		return nil, err
	}
	pdf, lerr := renderLabel(rec)
	if lerr != nil {
		return nil, &apiError{HTTP: 500, Code: 999, Message: "unexpected error: label: " + lerr.Error()}
	}
	return emitFunc(func(e jsonlite.Emitter) {
		e.BeginObject()
		kv(e, "shipping_dlvr_ref", rec.DlvrRef)
		kv(e, "shipping_client_ref", rec.ClientRef)
		kv(e, "shipping_carrier_ref", rec.CarrierRef)
		kv(e, "shipping_carrier_guid", rec.GUID)
		kv(e, "label_raw", base64.StdEncoding.EncodeToString(pdf))
		e.EndObject()
	}), nil
}

func partyLines(p PartyRecord) []string {
	lines := []string{p.Name}
	if p.Attn != "" {
		lines = append(lines, "Attn. "+p.Attn)
	}
	lines = append(lines, p.Address, p.ZipCode+" "+p.City, p.CountryCode)
	if p.Phone != "" {
		lines = append(lines, "Tel. "+p.Phone)
	}
	return lines
}

func renderLabel(rec *ShipmentRecord) ([]byte, error) {
	k := findCarrier(rec.CarrierCode)
	s := findService(rec.ServiceCode)
	total := 0.0
	for _, p := range rec.Parcels {
		total += p.Weight
	}
	d := label.Data{
		CarrierName: k.Name, ServiceName: s.Name, ServiceCode: s.Code, ShippingDate: rec.ShippingDate,
		From: partyLines(rec.From), To: partyLines(rec.To),
		DlvrRef: rec.DlvrRef, ClientRef: rec.ClientRef, CarrierRef: rec.CarrierRef, GUID: rec.GUID,
		Parcels: strconv.Itoa(len(rec.Parcels)), Weight: strconv.FormatFloat(total, 'f', 2, 64) + " kg",
	}
	if dp := rec.DropPoint; dp != nil {
		d.DropPoint = []string{dp.Name + " (" + dp.Key + ")", dp.Address + ", " + dp.ZipCode + " " + dp.City}
	}
	return label.Render(d)
}

func fnum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func emitParcel(e jsonlite.Emitter, p ParcelRecord) {
	kv(e, "parcel_weight", fnum(p.Weight))
	kv(e, "parcel_width", fnum(p.Width))
	kv(e, "parcel_height", fnum(p.Height))
	kv(e, "parcel_length", fnum(p.Length))
	kv(e, "parcel_volume", fnum(p.Volume))
}

var partySuffixes = [...]string{"nif", "name", "attn", "address", "city", "zip_code", "country_code", "phone", "mobile", "email", "observations", "street_type", "street_number", "street_name", "floor"}

func emitParty(e jsonlite.Emitter, prefix string, p PartyRecord) {
	vals := [...]string{p.Nif, p.Name, p.Attn, p.Address, p.City, p.ZipCode, p.CountryCode, p.Phone, "", p.Email, p.Observations, "", "", "", ""}
	e.BeginObject()
	for i, s := range partySuffixes {
		kv(e, prefix+s, vals[i])
	}
	e.EndObject()
}

// emitShipment writes the get-shipment data of rec; withTracking adds
// tracking_events and tracking_data (left out by get-shipments).
func (sb *Sandbox) emitShipment(e jsonlite.Emitter, rec *ShipmentRecord, now time.Time, withTracking bool) {
	k := findCarrier(rec.CarrierCode)
	st := sb.track(rec, now)
	cod := "0.00"
	for _, x := range rec.Extras {
		if x.Name == "cash_on_delivery" {
			cod = money(num(x.Value))
		}
	}
	e.BeginObject()
	e.Key("shipping_data")
	e.BeginObject()
	kv(e, "shipping_dlvr_ref", rec.DlvrRef)
	kv(e, "shipping_client_ref", rec.ClientRef)
	kv(e, "shipping_carrier_ref", rec.CarrierRef)
	kv(e, "shipping_carrier_guid", rec.GUID)
	kv(e, "service_type", rec.ServiceType)
	kv(e, "carrier_code", rec.CarrierCode)
	kv(e, "service_code", rec.ServiceCode)
	kv(e, "original_service_code", rec.OriginalServiceCode)
	kv(e, "creation_date", stamp(time.Unix(rec.Created, 0)))
	kv(e, "shipping_date", rec.ShippingDate)
	e.Key("delivery_date")
	if st.delivered.IsZero() {
		e.Null()
	} else {
		e.String(stamp(st.delivered))
	}
	kv(e, "docs_number", strconv.FormatInt(rec.DocsNumber, 10))
	kv(e, "carrier_phone", k.Phone)
	kv(e, "carrier_website", k.Website)
	kv(e, "carrier_country_code", k.Country)
	e.Key("is_returned")
	e.Int(0)
	kv(e, "return_dlvr_ref", "")
	kv(e, "cash_on_delivery", cod)
	kv(e, "status", "1")
	e.EndObject()

	e.Key("parcels")
	e.BeginArray()
	var sum ParcelRecord
	for _, p := range rec.Parcels {
		e.BeginObject()
		emitParcel(e, p)
		e.EndObject()
		sum.Weight += p.Weight
		sum.Volume += p.Volume
		sum.Width = max(sum.Width, p.Width)
		sum.Height = max(sum.Height, p.Height)
		sum.Length = max(sum.Length, p.Length)
	}
	e.EndArray()
	e.Key("parcel_data")
	e.BeginObject()
	kv(e, "parcel_number", strconv.Itoa(len(rec.Parcels)))
	emitParcel(e, sum)
	e.EndObject()

	e.Key("to_data")
	emitParty(e, "to_", rec.To)
	e.Key("from_data")
	emitParty(e, "from_", rec.From)
	e.Key("drop_point_data")
	if rec.DropPoint == nil {
		e.String("")
	} else {
		emitDropPoint(e, rec.DropPoint)
	}

	e.Key("sla_data")
	e.BeginObject()
	kv(e, "tracking_start_date", stamp(st.start))
	kv(e, "tracking_delivered_date", stamp(st.delivered))
	kv(e, "tracking_current_code", st.history[0].Code)
	e.Key("hours_elapsed")
	switch {
	case st.start.IsZero():
		e.String("0.00")
	case !st.delivered.IsZero():
		e.String(hoursBetween(st.start, st.delivered))
	default:
		e.String(hoursBetween(st.start, st.vnow))
	}
	e.Key("service_sla_hours")
	e.Int(rec.TransitHours)
	kv(e, "delivery_hour_limit", stamp(st.limit))
	e.EndObject()

	e.Key("custom_carrier_parameters")
	if len(rec.Extras) == 0 {
		e.BeginArray() // PHP's empty array, as the service sends it
		e.EndArray()
	} else {
		e.BeginObject()
		for _, x := range rec.Extras {
			kv(e, x.Name, x.Value)
		}
		e.EndObject()
	}
	if withTracking {
		e.Key("tracking_events")
		e.BeginObject()
		emitTrackingFields(e, st)
		e.EndObject()
		e.Key("tracking_data")
		e.BeginObject()
		kv(e, "carrier_tracking_url", k.Website+"/track/"+rec.CarrierRef)
		kv(e, "last_update", stamp(st.history[0].At))
		e.EndObject()
	}
	e.Key("outdated")
	e.Bool(false)
	e.EndObject()
}

func (c *call) shipment() (jsonlite.Value, *apiError) {
	rec, err := c.find("dlvr_ref", c.get("dlvr_ref"))
	if err != nil {
		return nil, err
	}
	return emitFunc(func(e jsonlite.Emitter) { c.sb.emitShipment(e, rec, c.now, true) }), nil
}

func (c *call) tracking() (jsonlite.Value, *apiError) {
	var rec *ShipmentRecord
	var err *apiError
	switch {
	case c.get("dlvr_ref") != "":
		rec, err = c.find("dlvr_ref", c.get("dlvr_ref"))
	case c.get("carrier_ref") != "":
		rec, err = c.findByCarrierRef("carrier_ref", c.get("carrier_ref"), c.get("carrier_code"))
	default:
		dlvr, serr := c.sb.dlvrByClientRef(c.ctx, c.get("client_ref"))
		if serr != nil {
			return nil, storeFailed(serr)
		}
		if dlvr == "" {
			return nil, notFound("client_ref", "no shipment with this client reference")
		}
		rec, err = c.find("client_ref", dlvr)
	}
	if err != nil {
		return nil, err
	}
	st := c.sb.track(rec, c.now)
	return emitFunc(func(e jsonlite.Emitter) {
		e.BeginObject()
		kv(e, "shipping_dlvr_ref", rec.DlvrRef)
		kv(e, "shipping_client_ref", rec.ClientRef)
		kv(e, "shipping_carrier_ref", rec.CarrierRef)
		kv(e, "shipping_carrier_guid", rec.GUID)
		emitTrackingFields(e, st)
		e.EndObject()
	}), nil
}

// MaxShipmentScan bounds the records one get-shipments reads: filters other
// than the day and dlvr_ref need each record, and without a bound a filter
// that matches nothing would read the whole store on every call. Past it
// the page holds what was found among the newest MaxShipmentScan shipments.
const MaxShipmentScan = 500

func (c *call) shipments() (jsonlite.Value, *apiError) {
	page, _ := strconv.Atoi(c.get("page"))
	if page < 1 {
		page = 1
	}
	n, _ := strconv.Atoi(c.get("n_items"))
	if n < 1 {
		n = 10
	}
	keys, err := c.sb.store.List(c.ctx, keyIndex)
	if err != nil {
		return nil, storeFailed(err)
	}
	sort.Sort(sort.Reverse(sort.StringSlice(keys))) // newest first
	ini, end := c.get("filter_date_ini"), c.get("filter_date_end")
	dlvrFilter := c.get("filter_shipping_dlvr_ref")
	// Filters on the key alone: creation day (Spain's civil date) and dlvr_ref.
	var cand []string
	for _, key := range keys {
		rest := strings.TrimPrefix(key, keyIndex)
		ts, dlvr, ok := strings.Cut(rest, "/")
		if !ok {
			continue
		}
		t, perr := time.Parse("20060102150405", ts)
		if perr != nil {
			continue
		}
		day := madrid(t).Format(dateLayout)
		if (ini != "" && day < ini) || (end != "" && day > end) || (dlvrFilter != "" && dlvr != dlvrFilter) {
			continue
		}
		cand = append(cand, dlvr)
	}
	match := func(rec *ShipmentRecord) bool {
		for _, f := range [...]struct{ want, have string }{
			{c.get("filter_shipping_client_ref"), rec.ClientRef},
			{c.get("filter_shipping_carrier_ref"), rec.CarrierRef},
			{c.get("filter_shipping_carrier_guid"), rec.GUID},
			{c.get("filter_carrier_code"), rec.CarrierCode},
			{c.get("filter_service_code"), rec.ServiceCode},
		} {
			if f.want != "" && f.want != f.have {
				return false
			}
		}
		return true
	}
	skip := (page - 1) * n
	var list []*ShipmentRecord
	if len(cand) > MaxShipmentScan {
		cand = cand[:MaxShipmentScan]
	}
	for _, dlvr := range cand {
		if len(list) == n {
			break
		}
		rec, err := c.sb.loadShipment(c.ctx, dlvr)
		if err != nil {
			return nil, storeFailed(err)
		}
		if rec == nil || !match(rec) {
			continue // index written before a lagging record, or filtered out
		}
		if skip > 0 {
			skip--
			continue
		}
		list = append(list, rec)
	}
	return emitFunc(func(e jsonlite.Emitter) {
		e.BeginObject()
		e.Key("page")
		e.Int(int64(page))
		e.Key("n_shipments")
		e.Int(int64(len(list)))
		e.Key("shipments")
		e.BeginArray()
		for _, rec := range list {
			c.sb.emitShipment(e, rec, c.now, false)
		}
		e.EndArray()
		e.EndObject()
	}), nil
}
