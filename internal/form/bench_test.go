package form

import (
	"net/url"
	"regexp"
	"strconv"
	"testing"
)

// BenchmarkDecode decodes a realistic new-shipment body with two parcels
// into a new Request.
func BenchmarkDecode(b *testing.B) {
	body := Encode(shipment())
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := Decode(body, DefaultLimits); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeInto is Decode reusing one Request, as a server loop can.
func BenchmarkDecodeInto(b *testing.B) {
	body := Encode(shipment())
	var r Request
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := DecodeInto(&r, body, DefaultLimits); err != nil {
			b.Fatal(err)
		}
	}
}

// The decoding baseline: net/url.ParseQuery, then the bracket keys parsed
// with a regexp, with the same checks (index bounds, gaps, known fields).
var reParcelKey = regexp.MustCompile(`^parcels\[(0|[1-9][0-9]{0,8})\]\[(parcel_weight|parcel_width|parcel_height|parcel_length|parcel_volume)\]$`)

func baselineDecode(body string) (*Request, bool) {
	q, err := url.ParseQuery(body)
	if err != nil {
		return nil, false
	}
	r := &Request{}
	for k, vs := range q {
		if len(vs) != 1 {
			return nil, false
		}
		if m := reParcelKey.FindStringSubmatch(k); m != nil {
			idx, _ := strconv.Atoi(m[1])
			if idx >= DefaultLimits.MaxParcels {
				return nil, false
			}
			for len(r.Parcels) <= idx {
				r.Parcels = append(r.Parcels, Parcel{})
			}
			r.Parcels[idx].Set(m[2], vs[0])
			continue
		}
		r.Fields = append(r.Fields, Field{Name: k, Value: vs[0]})
	}
	return r, true
}

func BenchmarkDecodeBaseline(b *testing.B) {
	body := string(Encode(shipment()))
	if _, ok := baselineDecode(body); !ok {
		b.Fatal("baseline rejects the body")
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, ok := baselineDecode(body); !ok {
			b.Fatal("rejected")
		}
	}
}

// BenchmarkEncode encodes the same request into a fresh buffer.
func BenchmarkEncode(b *testing.B) {
	r := shipment()
	b.SetBytes(int64(EncodedLen(r)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_ = Encode(r)
	}
}

// BenchmarkAppendEncode encodes into a reused buffer: no allocation.
func BenchmarkAppendEncode(b *testing.B) {
	r := shipment()
	buf := make([]byte, 0, 1024)
	b.SetBytes(int64(EncodedLen(r)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = AppendEncode(buf[:0], r)
	}
}

// The encoding baseline: url.Values filled from the request, then Encode
// (which also sorts the keys and escapes the brackets).
func BenchmarkEncodeBaseline(b *testing.B) {
	r := shipment()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		v := url.Values{}
		for _, f := range r.Fields {
			v.Set(f.Name, f.Value)
		}
		for j := range r.Parcels {
			p := &r.Parcels[j]
			for k, n := range ParcelFieldNames {
				if s := p.At(k); s != "" {
					v.Set("parcels["+strconv.Itoa(j)+"]["+n+"]", s)
				}
			}
		}
		_ = v.Encode()
	}
}
