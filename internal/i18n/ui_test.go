package i18n

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/parcelgate/parcelgate/internal/envelope"
)

// uiPlaceholders returns the sorted {name} placeholders of s.
func uiPlaceholders(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			out = append(out, "{unclosed")
			break
		}
		out = append(out, s[i:i+j+1])
		s = s[i+j+1:]
	}
	sort.Strings(out)
	return out
}

func TestUITextsComplete(t *testing.T) {
	seen := map[string]bool{}
	plurals := map[string]map[string]bool{}
	for _, u := range UITexts() {
		if seen[u.Key] {
			t.Errorf("%s: key listed twice", u.Key)
		}
		seen[u.Key] = true
		part, _, _ := strings.Cut(u.Key, ".")
		switch part {
		case "common", "address", "rates", "points", "tracking", "demo":
		default:
			t.Errorf("%s: unknown part %q", u.Key, part)
		}
		if base, cat, ok := strings.Cut(u.Key, "#"); ok {
			switch cat {
			case "zero", "one", "two", "few", "many", "other":
			default:
				t.Errorf("%s: %q is not an Intl.PluralRules category", u.Key, cat)
			}
			if plurals[base] == nil {
				plurals[base] = map[string]bool{}
			}
			plurals[base][cat] = true
		}
		want := strings.Join(uiPlaceholders(u.Text[English]), " ")
		for l := Locale(0); l < Count; l++ {
			s := u.Text[l]
			if s == "" {
				t.Errorf("%s: no %s text", u.Key, l)
				continue
			}
			if strings.TrimSpace(s) != s || strings.Contains(s, "  ") {
				t.Errorf("%s (%s): stray spaces in %q", u.Key, l, s)
			}
			if got := strings.Join(uiPlaceholders(s), " "); got != want {
				t.Errorf("%s (%s): placeholders %q, English has %q", u.Key, l, got, want)
			}
			if strings.ContainsRune(s, '\'') {
				t.Errorf("%s (%s): a typewriter apostrophe in %q (write ’)", u.Key, l, s)
			}
		}
	}
	for base, cats := range plurals {
		if seen[base] {
			t.Errorf("%s: both a plain row and plural rows", base)
		}
		if !cats["one"] || !cats["other"] {
			t.Errorf("%s: plural rows need at least one and other, have %v", base, cats)
		}
	}
}

// A shopper must never get an English status label on a translated page:
// every tracking code of the core has its row, keyed by the code, with the
// core's English label.
func TestUITextsTrackingCodes(t *testing.T) {
	rows := map[string]UIText{}
	for _, u := range UITexts() {
		rows[u.Key] = u
	}
	for _, c := range envelope.TrackingCodes {
		u, ok := rows["tracking.code."+c.Code]
		if !ok {
			t.Errorf("tracking code %s (%s) has no row tracking.code.%s", c.Code, c.Label, c.Code)
			continue
		}
		if u.Text[English] != c.Label {
			t.Errorf("tracking.code.%s: English %q, the core's label is %q", c.Code, u.Text[English], c.Label)
		}
	}
	for _, cat := range []string{envelope.CategoryPreTransit, envelope.CategoryInTransit, envelope.CategoryOutForDelivery,
		envelope.CategoryDelivered, envelope.CategoryException, envelope.CategoryReturned, envelope.CategoryUnknown} {
		if _, ok := rows["tracking."+cat]; !ok {
			t.Errorf("tracking category %s has no row", cat)
		}
	}
}

// The address form's message before the core is loaded is the core's own
// sentence, so the text does not change when the core takes over.
func TestUITextsShareCoreMessages(t *testing.T) {
	for _, u := range UITexts() {
		if u.Key != "address.requiredMessage" {
			continue
		}
		for l := Locale(0); l < Count; l++ {
			if want := Message(l, u.Text[English]); u.Text[l] != want {
				t.Errorf("%s (%s): %q, the core says %q", u.Key, l, u.Text[l], want)
			}
		}
		return
	}
	t.Fatal("no address.requiredMessage row")
}

// The JavaScript tables are generated from this one (make generate); a
// stale file fails here as well as in make check-generated.
func TestUITextsGenerated(t *testing.T) {
	for l := Locale(0); l < Count; l++ {
		data, err := os.ReadFile(filepath.Join("..", "..", "js", "src", "widgets", "strings", l.String()+".js"))
		if err != nil {
			t.Fatalf("%s: %v (run make generate)", l, err)
		}
		js := string(data)
		for _, u := range UITexts() {
			if strings.HasPrefix(u.Key, "demo.") {
				continue
			}
			if !strings.Contains(js, str(u.Text[l])) {
				t.Errorf("js/src/widgets/strings/%s.js lacks %s %q: run make generate", l, u.Key, u.Text[l])
			}
		}
	}
}

// str is the text as the generator quotes it (JSON without HTML escapes).
func str(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}
