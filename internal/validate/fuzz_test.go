package validate

import (
	"testing"

	"github.com/parcelgate/parcelgate/internal/catalog"
	"github.com/parcelgate/parcelgate/internal/form"
)

// FuzzValidate decodes arbitrary form bodies and validates them for every
// operation: no panic, every error names a field and carries a code and a
// message, and normalizing a valid request keeps it valid and is
// idempotent.
func FuzzValidate(f *testing.F) {
	f.Add([]byte("shipping_date=2026-11-23&service_type=custom&carrier_code=a&service_code=b&shipping_client_ref=R&from_name=A&from_address=B&from_city=C&from_zip_code=28001&from_country_code=ES&to_name=D&to_address=E&to_city=F&to_zip_code=1012+ab&to_country_code=nl&parcels[0][parcel_weight]=1&parcels[0][parcel_width]=1&parcels[0][parcel_height]=1&parcels[0][parcel_length]=1&parcels[0][parcel_volume]=1"))
	f.Add([]byte("hour_start_1=9:00&hour_end_1=8:00&hour_start_2=&hour_end_2=18:00"))
	f.Add([]byte("dlvr_ref=&carrier_ref=x&page=0&n_items=99999999999999999999"))
	f.Add([]byte("country_code=ad&zip_code=ad%20500&filter_date_ini=2024-02-29&filter_date_end=2024-02-28"))
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := form.Decode(body, form.DefaultLimits)
		if err != nil {
			return
		}
		for i := range catalog.Operations {
			op := &catalog.Operations[i]
			for _, rules := range []bool{false, true} {
				opt := Options{Rules: rules, Today: "2026-11-20"}
				c := clone(r)
				errs := Request(op, c, opt, nil)
				for _, e := range errs {
					if e.Field == "" || e.Code == 0 || e.Message == "" {
						t.Fatalf("%s: incomplete error %+v", op.Name, e)
					}
				}
				Normalize(op, c)
				after := Request(op, c, opt, nil)
				if len(errs) == 0 && len(after) != 0 {
					t.Fatalf("%s: valid request became invalid after Normalize: %v", op.Name, after)
				}
				once := string(form.Encode(c))
				Normalize(op, c)
				if twice := string(form.Encode(c)); once != twice {
					t.Fatalf("%s: Normalize not idempotent:\n%s\n%s", op.Name, once, twice)
				}
			}
		}
	})
}

func clone(r *form.Request) *form.Request {
	return &form.Request{
		Fields:  append([]form.Field(nil), r.Fields...),
		Parcels: append([]form.Parcel(nil), r.Parcels...),
	}
}
