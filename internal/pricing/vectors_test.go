package pricing_test

import (
	"encoding/json"
	"testing"

	"github.com/parcelgate/parcelgate/internal/pricing"
	"github.com/parcelgate/parcelgate/internal/testvectors"
)

// Vectors is testdata/pricing.json (also read by worker/core's tests).
type Vectors struct {
	Apply []struct {
		Name    string          `json:"name"`
		Setting json.RawMessage `json:"setting"`
		Service struct {
			Country   string `json:"country"`
			Carrier   string `json:"carrier"`
			Service   string `json:"service"`
			DropPoint bool   `json:"drop_point"`
			// KindUnknown: an arrival estimate's entry (no is_drop_point).
			KindUnknown bool            `json:"kind_unknown"`
			Currency    *string         `json:"currency"`
			Price       json.RawMessage `json:"price"`
		} `json:"service"`
		OrderValue string `json:"order_value"`
		Lang       string `json:"lang"`
		// Backup: the price is the shop's own (RATES_FALLBACK): Service.Backup.
		Backup bool `json:"backup"`
		Expect struct {
			Rule   int     `json:"rule"`
			Hidden bool    `json:"hidden"`
			Price  *string `json:"price"`
			Free   bool    `json:"free"`
			Name   string  `json:"name"`
		} `json:"expect"`
	} `json:"apply"`
	Invalid []struct {
		Name    string          `json:"name"`
		Setting json.RawMessage `json:"setting"`
		Error   string          `json:"error"`
	} `json:"invalid"`
	OrderValue []struct {
		Value     string `json:"value"`
		Precision int    `json:"precision"`
		Minor     *int64 `json:"minor"`
	} `json:"order_value"`
}

// Setting is a vector's setting as the operator writes it: a JSON string
// is the setting's text as is (for settings that are not JSON), any
// other JSON is the setting.
func Setting(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

func load(t *testing.T) Vectors {
	var v Vectors
	testvectors.Load(t, "pricing.json", &v)
	if len(v.Apply) == 0 || len(v.Invalid) == 0 || len(v.OrderValue) == 0 {
		t.Fatal("pricing.json: empty sections")
	}
	return v
}

func TestApplyVectors(t *testing.T) {
	for _, c := range load(t).Apply {
		t.Run(c.Name, func(t *testing.T) {
			tab, err := pricing.Parse(Setting(c.Setting))
			if err != nil || tab == nil {
				t.Fatalf("setting refused: %v", err)
			}
			price := string(c.Service.Price)
			var str string
			if json.Unmarshal(c.Service.Price, &str) == nil {
				price = str
			}
			cur := "EUR"
			if c.Service.Currency != nil {
				cur = *c.Service.Currency
			}
			country := c.Service.Country
			if country == "" {
				country = "ES"
			}
			s := pricing.Service{Country: country, Carrier: c.Service.Carrier, Service: c.Service.Service,
				DropPoint: c.Service.DropPoint, KindUnknown: c.Service.KindUnknown, Backup: c.Backup, Currency: cur, Price: price}
			var o pricing.Order
			if c.OrderValue != "" {
				o.Value, o.Given = pricing.ParseExact(c.OrderValue, tab.Precision)
				if !o.Given {
					t.Fatalf("order value %q refused", c.OrderValue)
				}
			}
			lang := 0
			for i, tag := range pricing.LanguageTags {
				if tag == c.Lang {
					lang = i
				}
			}
			r := tab.Apply(&s, o, lang)
			want := c.Expect
			if want.Rule >= 0 != r.Matched || (r.Matched && r.Rule != want.Rule) {
				t.Errorf("rule = %d (matched %v), want %d", r.Rule, r.Matched, want.Rule)
			}
			if r.Hidden != want.Hidden {
				t.Errorf("hidden = %v, want %v", r.Hidden, want.Hidden)
			}
			switch {
			case want.Hidden:
			case want.Price == nil && r.Priced:
				t.Errorf("priced %s, want the carrier's price left as sent", pricing.Format(r.Price, tab.Precision))
			case want.Price != nil && !r.Priced:
				t.Errorf("not priced, want %s", *want.Price)
			case want.Price != nil && pricing.Format(r.Price, tab.Precision) != *want.Price:
				t.Errorf("price = %s, want %s", pricing.Format(r.Price, tab.Precision), *want.Price)
			}
			if r.Free != want.Free {
				t.Errorf("free = %v, want %v", r.Free, want.Free)
			}
			if r.Name != want.Name {
				t.Errorf("name = %q, want %q", r.Name, want.Name)
			}
		})
	}
}

func TestInvalidVectors(t *testing.T) {
	for _, c := range load(t).Invalid {
		t.Run(c.Name, func(t *testing.T) {
			tab, err := pricing.Parse(Setting(c.Setting))
			if err == nil {
				t.Fatalf("accepted (%d rules), want %q", len(tab.Rules), c.Error)
			}
			if err.Error() != c.Error {
				t.Errorf("error:\n got  %s\n want %s", err, c.Error)
			}
		})
	}
}

func TestOrderValueVectors(t *testing.T) {
	for _, c := range load(t).OrderValue {
		n, ok := pricing.ParseExact(c.Value, c.Precision)
		switch {
		case c.Minor == nil && ok:
			t.Errorf("%q (%d decimals): accepted as %d, want refused", c.Value, c.Precision, n)
		case c.Minor != nil && (!ok || n != *c.Minor):
			t.Errorf("%q (%d decimals): %d, %v; want %d", c.Value, c.Precision, n, ok, *c.Minor)
		}
	}
}

func TestEmptySettingIsNoTable(t *testing.T) {
	for _, s := range []string{"", "  "} {
		if tab, err := pricing.Parse(s); tab != nil || err != nil {
			t.Errorf("Parse(%q) = %v, %v; want nil, nil", s, tab, err)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, c := range []struct {
		n    int64
		prec int
		want string
	}{{0, 2, "0.00"}, {5, 2, "0.05"}, {595, 2, "5.95"}, {100000, 2, "1000.00"}, {0, 0, "0"}, {1200, 0, "1200"}, {-150, 2, "-1.50"}} {
		if got := pricing.Format(c.n, c.prec); got != c.want {
			t.Errorf("Format(%d, %d) = %q, want %q", c.n, c.prec, got, c.want)
		}
	}
}
