package sandbox

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/parcelgate/parcelgate/internal/jsonlite"
	"github.com/parcelgate/parcelgate/internal/sandbox/holidays"
)

// maxDaysAhead is how far ahead a shipping or collection date may be.
const maxDaysAhead = 30

// fingerprint identifies a request's normalized data regardless of the
// order of its fields: the sorted name=value pairs and the parcels.
func (c *call) fingerprint() string {
	fs := make([]string, 0, len(c.req.Fields))
	for _, f := range c.req.Fields {
		if f.Value != "" {
			fs = append(fs, f.Name+"="+f.Value)
		}
	}
	sort.Strings(fs)
	for i, p := range c.req.Parcels {
		for j := 0; j < 5; j++ {
			fs = append(fs, "parcels["+strconv.Itoa(i)+"]="+p.At(j))
		}
	}
	return hex16(fnv64(0, fs...))
}

// checkDate applies the carrier's date rules to a booking date: not in
// the past (101), a working day (102), at most 30 days ahead (119).
func (c *call) checkDate(field string) (time.Time, *apiError) {
	d := parseDate(c.get(field))
	today := c.today()
	switch {
	case d.Before(today):
		return d, rejected(101, field, "date not accepted by the carrier; must be later: "+c.get(field)+" is before today ("+today.Format(dateLayout)+")")
	case !holidays.IsWorkingDay(d):
		why := "a weekend day"
		if name, ok := holidays.Holiday(d); ok {
			why = "a national holiday (" + name + ")"
		}
		return d, rejected(102, field, "date not accepted by the carrier; must be a working day: "+c.get(field)+" is "+why)
	case d.After(today.AddDate(0, 0, maxDaysAhead)):
		return d, rejected(119, field, "date not accepted by the carrier: at most "+strconv.Itoa(maxDaysAhead)+" days ahead")
	}
	return d, nil
}

func party(c *call, prefix string) PartyRecord {
	g := func(s string) string { return c.get(prefix + s) }
	return PartyRecord{Nif: g("nif"), Name: g("name"), Attn: g("attn"), Address: g("address"), City: g("city"),
		ZipCode: g("zip_code"), CountryCode: g("country_code"), Phone: g("phone"), Email: g("email"), Observations: g("observations")}
}

// pickByRules chooses the service for a rules-feature booking: the
// cheapest usable service covering the route within the transit time of
// service_type that takes the parcels.
func pickByRules(hours int, z zone, ps []ParcelRecord) *service {
	for _, r := range quote(z, ps) {
		if r.s.transitHours(z) <= hours {
			return r.s
		}
	}
	return nil
}

func (c *call) newShipment() (jsonlite.Value, *apiError) {
	clientRef := c.get("shipping_client_ref")
	fp := c.fingerprint()
	// Idempotency first: a repeated booking answers as the first one did,
	// whatever the date is now.
	if dlvr, err := c.sb.dlvrByClientRef(c.ctx, clientRef); err != nil {
		return nil, storeFailed(err)
	} else if dlvr != "" {
		rec, err := c.sb.loadShipment(c.ctx, dlvr)
		if err != nil {
			return nil, storeFailed(err)
		}
		if rec != nil {
			if rec.Fingerprint != fp {
				return nil, rejected(421, "shipping_client_ref", "already used for shipment "+rec.DlvrRef+" with different data")
			}
			return c.sb.newShipmentData(rec), nil
		}
	}
	if _, err := c.checkDate("shipping_date"); err != nil {
		return nil, err
	}
	z := c.route("from_country_code", "from_zip_code", "to_country_code", "to_zip_code")
	ps := c.parcels()
	var s *service
	original := ""
	if c.sb.rules {
		hours, _ := strconv.Atoi(c.get("service_type"))
		if s = pickByRules(hours, z, ps); s == nil {
			return nil, rejected(108, "service_type", "the service is not contracted: no active service reaches the "+z.String()+" zone within "+c.get("service_type")+" h for these parcels")
		}
	} else {
		var err *apiError
		if s, err = resolveService(c.get("carrier_code"), c.get("service_code")); err != nil {
			return nil, err
		}
		if !s.covers(z) {
			return nil, notCovered(s, z)
		}
		original = s.Code
	}
	k := s.carrier()
	if err := checkBounds(k, ps); err != nil {
		return nil, err
	}
	var dp *DropPointRec
	if key := c.get("drop_point_key"); key != "" {
		if !s.DropPoint {
			return nil, rejected(400, "drop_point_key", s.Code+" does not deliver to drop points (see is_drop_point in get-client-services)")
		}
		p, ok := findDropPoint(key)
		if !ok || p.CarrierCode != k.Code {
			return nil, rejected(400, "drop_point_key", "unknown drop point of "+k.Code+" (see get-drop-points)")
		}
		if !strings.Contains(key, "-"+c.get("to_country_code")+"-") {
			return nil, rejected(400, "drop_point_key", "the drop point is not in to_country_code")
		}
		dp = p
	}
	extras, err := c.checkExtras(k, c.sb.rules)
	if err != nil {
		return nil, err
	}
	docs, _ := strconv.ParseInt(c.get("docs_number"), 10, 64)
	rec := &ShipmentRecord{
		ClientRef:           clientRef,
		CarrierCode:         k.Code,
		ServiceCode:         s.Code,
		OriginalServiceCode: original,
		ServiceType:         c.get("service_type"),
		Created:             c.now.Unix(),
		ShippingDate:        c.get("shipping_date"),
		DocsNumber:          docs,
		Zone:                uint8(z),
		TransitHours:        int64(s.transitHours(z)),
		From:                party(c, "from_"),
		To:                  party(c, "to_"),
		Parcels:             ps,
		DropPoint:           dp,
		Extras:              extras,
		Fingerprint:         fp,
		Price:               price(s, z, ps),
	}
	// A free dlvr_ref: derived from the client reference, salted again on
	// the rare collision with another client reference.
	for salt := uint64(0); ; salt++ {
		rec.DlvrRef = dlvrRef(c.sb.user, clientRef, salt)
		other, err := c.sb.loadShipment(c.ctx, rec.DlvrRef)
		if err != nil {
			return nil, storeFailed(err)
		}
		if other == nil || other.ClientRef == clientRef {
			break
		}
	}
	rec.CarrierRef = carrierRef(k, rec.DlvrRef)
	rec.GUID = guid(rec.DlvrRef)
	if err := c.sb.saveShipment(c.ctx, rec); err != nil {
		return nil, storeFailed(err)
	}
	ref, _ := (&RefRecord{DlvrRef: rec.DlvrRef}).MarshalMsg(nil)
	if err := c.sb.store.Put(c.ctx, keyClientRef+clientRef, ref); err != nil {
		return nil, storeFailed(err)
	}
	if err := c.sb.store.Put(c.ctx, indexKey(rec), nil); err != nil {
		return nil, storeFailed(err)
	}
	return c.sb.newShipmentData(rec), nil
}

// indexKey is the get-shipments index entry of a shipment.
func indexKey(rec *ShipmentRecord) string {
	return keyIndex + time.Unix(rec.Created, 0).UTC().Format("20060102150405") + "/" + rec.DlvrRef
}

func (sb *Sandbox) newShipmentData(rec *ShipmentRecord) jsonlite.Value {
	k := findCarrier(rec.CarrierCode)
	return emitFunc(func(e jsonlite.Emitter) {
		e.BeginObject()
		kv(e, "shipping_dlvr_ref", rec.DlvrRef)
		kv(e, "shipping_client_ref", rec.ClientRef)
		kv(e, "shipping_carrier_ref", rec.CarrierRef)
		kv(e, "shipping_carrier_guid", rec.GUID)
		kv(e, "service_type", rec.ServiceType)
		kv(e, "carrier_code", rec.CarrierCode)
		kv(e, "service_code", rec.ServiceCode)
		kv(e, "carrier_phone", k.Phone)
		kv(e, "advance_tracking_url", sb.trackingURL+rec.DlvrRef)
		e.EndObject()
	})
}

// checkWindow checks a pickup window against the carrier's rules:
// earliest start (109), latest end (110), half-hour steps (111) and the
// minimum length (432). The format and the order were validated.
func checkWindow(k *carrier, startField, start, endField, end string) *apiError {
	s, _ := hourMinutes(start)
	e, _ := hourMinutes(end)
	from, _ := hourMinutes(k.PickupFrom)
	to, _ := hourMinutes(k.PickupTo)
	switch {
	case s < from:
		return rejected(109, startField, "minimum hour not accepted: "+k.Name+" picks up from "+k.PickupFrom)
	case e > to:
		return rejected(110, endField, "maximum hour not accepted: "+k.Name+" picks up until "+k.PickupTo)
	case k.HalfHours && (s%30 != 0 || e%30 != 0):
		field := startField
		if s%30 == 0 {
			field = endField
		}
		return rejected(111, field, "hour invalid for this carrier: "+k.Name+" takes hours on the hour or half hour")
	case e-s < k.MinWindow:
		return rejected(432, endField, "hour range not accepted: "+k.Name+" needs a window of at least "+strconv.Itoa(k.MinWindow)+" minutes")
	}
	return nil
}

func (c *call) newCollection() (jsonlite.Value, *apiError) {
	clientRef := c.get("collection_client_ref")
	fp := c.fingerprint()
	existing, err := c.sb.loadCollection(c.ctx, clientRef)
	if err != nil {
		return nil, storeFailed(err)
	}
	if existing != nil {
		if existing.Fingerprint != fp {
			return nil, rejected(421, "collection_client_ref", "already used for collection "+existing.DlvrRef+" with different data")
		}
		return collectionData(existing), nil
	}
	rec, err := c.sb.loadShipment(c.ctx, c.get("shipping_dlvr_ref"))
	if err != nil {
		return nil, storeFailed(err)
	}
	if rec == nil {
		return nil, notFound("shipping_dlvr_ref", "no shipment with this reference")
	}
	if rec.Collection != nil {
		return nil, rejected(400, "shipping_dlvr_ref", "shipment "+rec.DlvrRef+" already has collection "+rec.Collection.DlvrRef)
	}
	if c.get("carrier_code") != rec.CarrierCode {
		return nil, rejected(400, "carrier_code", "shipment "+rec.DlvrRef+" travels with "+rec.CarrierCode)
	}
	if c.get("service_code") != rec.ServiceCode {
		return nil, rejected(400, "service_code", "shipment "+rec.DlvrRef+" travels with "+rec.ServiceCode)
	}
	k := findCarrier(rec.CarrierCode)
	if !k.Active || !k.Collections {
		return nil, rejected(108, "carrier_code", "the service is not contracted: "+k.Code+" does not book pickups")
	}
	day, aerr := c.checkDate("collection_date")
	if aerr != nil {
		return nil, aerr
	}
	cut := cutoffFor(k, zone(rec.Zone), c.get("from_country_code"), c.get("from_zip_code"))
	if day.Equal(c.today()) {
		nowLocal := madrid(c.now)
		m, _ := hourMinutes(cut)
		if nowLocal.Hour()*60+nowLocal.Minute() > m {
			return nil, rejected(101, "collection_date", "date not accepted by the carrier; must be later: today's pickups close at "+cut)
		}
	}
	if aerr := checkWindow(k, "hour_start_1", c.get("hour_start_1"), "hour_end_1", c.get("hour_end_1")); aerr != nil {
		return nil, aerr
	}
	if c.get("hour_start_2") != "" {
		if aerr := checkWindow(k, "hour_start_2", c.get("hour_start_2"), "hour_end_2", c.get("hour_end_2")); aerr != nil {
			return nil, aerr
		}
	}
	for _, f := range c.req.Fields {
		if c.op.Param(f.Name) == nil {
			return nil, rejected(400, f.Name, "not a parameter of new-collection for this carrier (see get-service-info's schema)")
		}
	}
	dlvr, carrierRef := collectionRefs(c.sb.user, clientRef, k)
	col := &CollectionRec{
		DlvrRef: dlvr, ClientRef: clientRef, CarrierRef: carrierRef, ShipmentRef: rec.DlvrRef,
		CarrierCode: k.Code, ServiceCode: rec.ServiceCode, Date: c.get("collection_date"),
		Start1: c.get("hour_start_1"), End1: c.get("hour_end_1"), Start2: c.get("hour_start_2"), End2: c.get("hour_end_2"),
		Created: c.now.Unix(), Fingerprint: fp,
	}
	b, merr := col.MarshalMsg(nil)
	if merr != nil {
		return nil, storeFailed(merr)
	}
	if err := c.sb.store.Put(c.ctx, keyCollection+clientRef, b); err != nil {
		return nil, storeFailed(err)
	}
	rec.Collection = col
	if err := c.sb.saveShipment(c.ctx, rec); err != nil {
		return nil, storeFailed(err)
	}
	return collectionData(col), nil
}

func collectionData(col *CollectionRec) jsonlite.Value {
	k := findCarrier(col.CarrierCode)
	return emitFunc(func(e jsonlite.Emitter) {
		e.BeginObject()
		kv(e, "collection_dlvr_ref", col.DlvrRef)
		kv(e, "collection_client_ref", col.ClientRef)
		kv(e, "collection_carrier_ref", col.CarrierRef)
		kv(e, "carrier_code", col.CarrierCode)
		kv(e, "service_code", col.ServiceCode)
		kv(e, "carrier_phone", k.Phone)
		e.EndObject()
	})
}
