package validate

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/form"
)

// BenchmarkValidateEncode validates a realistic new-shipment with two
// parcels and encodes it into a reused buffer, as the edge does.
func BenchmarkValidateEncode(b *testing.B) {
	op := catalog.Lookup("new-shipment")
	r := benchShipment()
	var errs [8]FieldError
	buf := make([]byte, 0, 2048)
	opt := Options{Today: "2026-11-20"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if len(Request(op, r, opt, errs[:0])) != 0 {
			b.Fatal("invalid")
		}
		Canonicalize(op, r)
		buf = form.AppendEncode(buf[:0], r)
	}
	b.SetBytes(int64(len(buf)))
}

// BenchmarkValidateOnly is the validation part alone.
func BenchmarkValidateOnly(b *testing.B) {
	op := catalog.Lookup("new-shipment")
	r := benchShipment()
	var errs [8]FieldError
	opt := Options{Today: "2026-11-20"}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if len(Request(op, r, opt, errs[:0])) != 0 {
			b.Fatal("invalid")
		}
	}
}

// The baseline: the same checks written the straightforward way, with
// regexp for formats and net/url for the encoding.
var (
	reDate    = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})$`)
	reCode    = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	reCountry = regexp.MustCompile(`^[A-Z]{2}$`)
	reEmail   = regexp.MustCompile(`^[^@\s]{1,64}@([A-Za-z0-9-]+\.)+[A-Za-z]{2,}$`)
	rePhone   = regexp.MustCompile(`^\+?[0-9 .()-]{6,20}$`)
	reDecimal = regexp.MustCompile(`^\d{1,7}(\.\d+)?$`)
	reZip     = map[string]*regexp.Regexp{
		"ES": regexp.MustCompile(`^(0[1-9]|[1-4]\d|5[0-2])\d{3}$`),
		"PT": regexp.MustCompile(`^[1-9]\d{3}-\d{3}$`),
	}
)

func baselineValidateEncode(op *catalog.Operation, fields url.Values, parcels []map[string]string) (string, []string) {
	var errs []string
	for _, p := range op.Params {
		v := strings.TrimSpace(fields.Get(p.Name))
		if v == "" {
			if p.Need.IsRequired(false) {
				errs = append(errs, p.Name)
			}
			continue
		}
		if p.MaxLen > 0 && utf8.RuneCountInString(v) > p.MaxLen {
			errs = append(errs, p.Name)
			continue
		}
		ok := true
		switch p.Kind {
		case catalog.Date:
			ok = reDate.MatchString(v)
		case catalog.Code:
			ok = reCode.MatchString(v)
		case catalog.Country:
			ok = reCountry.MatchString(v)
		case catalog.Email:
			ok = reEmail.MatchString(v)
		case catalog.Phone:
			ok = rePhone.MatchString(v)
		case catalog.Zip:
			if re := reZip[fields.Get(p.Country)]; re != nil {
				ok = re.MatchString(v)
			}
		}
		if !ok {
			errs = append(errs, p.Name)
		}
	}
	out := url.Values{}
	for k, v := range fields {
		out[k] = v
	}
	for i, pc := range parcels {
		for _, name := range form.ParcelFieldNames {
			v := pc[name]
			if !reDecimal.MatchString(v) {
				errs = append(errs, name)
			}
			out.Set("parcels["+strconv.Itoa(i)+"]["+name+"]", v)
		}
	}
	return out.Encode(), errs
}

func BenchmarkBaselineValidateEncode(b *testing.B) {
	op := catalog.Lookup("new-shipment")
	r := benchShipment()
	fields := url.Values{}
	for _, f := range r.Fields {
		fields.Set(f.Name, f.Value)
	}
	var parcels []map[string]string
	for _, p := range r.Parcels {
		m := map[string]string{}
		for i, name := range form.ParcelFieldNames {
			m[name] = p.At(i)
		}
		parcels = append(parcels, m)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, errs := baselineValidateEncode(op, fields, parcels); len(errs) != 0 {
			b.Fatal(errs)
		}
	}
}
