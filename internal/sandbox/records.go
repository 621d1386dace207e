package sandbox

//go:generate go run github.com/tinylib/msgp@v1.6.3 -file records.go -o records_gen.go -io=false -tests=true
// (When `go run` is refused by the module proxy: `go mod download -json
// github.com/tinylib/msgp@v1.6.3`, `go build -o /tmp/msgp-gen .` inside the
// downloaded directory, then `/tmp/msgp-gen -file records.go -o records_gen.go -io=false`.)

// Stored records, encoded with MessagePack by generated code (msgp, no
// reflection, TinyGo-safe). Field tags are short to keep records small;
// renaming a Go field is safe, changing a tag is a format change.

// ShipmentRecord is a booked shipment, stored under "shp/<dlvr_ref>".
type ShipmentRecord struct {
	DlvrRef             string         `msg:"d"`
	ClientRef           string         `msg:"c"`
	CarrierRef          string         `msg:"cr"`
	GUID                string         `msg:"g"`
	CarrierCode         string         `msg:"cc"`
	ServiceCode         string         `msg:"sc"`
	OriginalServiceCode string         `msg:"osc"`
	ServiceType         string         `msg:"st"`
	Created             int64          `msg:"t"` // Unix seconds
	ShippingDate        string         `msg:"sd"`
	DocsNumber          int64          `msg:"dn"`
	Zone                uint8          `msg:"z"`
	TransitHours        int64          `msg:"th"`
	From                PartyRecord    `msg:"f"`
	To                  PartyRecord    `msg:"to"`
	Parcels             []ParcelRecord `msg:"p"`
	DropPoint           *DropPointRec  `msg:"dp"`
	Extras              []ExtraRecord  `msg:"x"`
	Fingerprint         string         `msg:"fp"` // of the normalized request, for idempotency
	Collection          *CollectionRec `msg:"col"`
	Price               float64        `msg:"pr"`
}

// PartyRecord is a sender or recipient.
type PartyRecord struct {
	Nif          string `msg:"n"`
	Name         string `msg:"nm"`
	Attn         string `msg:"a"`
	Address      string `msg:"ad"`
	City         string `msg:"ci"`
	ZipCode      string `msg:"z"`
	CountryCode  string `msg:"co"`
	Phone        string `msg:"ph"`
	Email        string `msg:"e"`
	Observations string `msg:"o"`
}

// ParcelRecord is one parcel: kg, cm, cm³.
type ParcelRecord struct {
	Weight float64 `msg:"w"`
	Width  float64 `msg:"wi"`
	Height float64 `msg:"h"`
	Length float64 `msg:"l"`
	Volume float64 `msg:"v"`
}

// DropPointRec is the drop point a shipment is delivered to.
type DropPointRec struct {
	CarrierCode string    `msg:"cc"`
	Key         string    `msg:"k"`
	Name        string    `msg:"n"`
	Address     string    `msg:"a"`
	ZipCode     string    `msg:"z"`
	City        string    `msg:"c"`
	Lat         float64   `msg:"la"`
	Lon         float64   `msg:"lo"`
	TimeTable   [7]string `msg:"tt"`
	Phone       string    `msg:"p"`
}

// ExtraRecord is a carrier-specific parameter of a booking.
type ExtraRecord struct {
	Name  string `msg:"n"`
	Value string `msg:"v"`
}

// CollectionRec is a booked pickup, stored under "col/<collection_client_ref>"
// and copied into its shipment.
type CollectionRec struct {
	DlvrRef     string `msg:"d"`
	ClientRef   string `msg:"c"`
	CarrierRef  string `msg:"cr"`
	ShipmentRef string `msg:"s"`
	CarrierCode string `msg:"cc"`
	ServiceCode string `msg:"sc"`
	Date        string `msg:"dt"`
	Start1      string `msg:"s1"`
	End1        string `msg:"e1"`
	Start2      string `msg:"s2"`
	End2        string `msg:"e2"`
	Created     int64  `msg:"t"`
	Fingerprint string `msg:"fp"`
}

// RefRecord is an index entry pointing at a shipment ("cref/<client_ref>").
type RefRecord struct {
	DlvrRef string `msg:"d"`
}
