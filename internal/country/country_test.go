package country

import (
	"math/bits"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/parcelgate/parcelgate/internal/testvectors"
)

type entry struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

func loadCountries(t testing.TB) []entry {
	t.Helper()
	var list []entry
	testvectors.Load(t, "countries.json", &list)
	return list
}

func TestCountIs249(t *testing.T) {
	n := 0
	for a := byte('A'); a <= 'Z'; a++ {
		for b := byte('A'); b <= 'Z'; b++ {
			if Valid(string([]byte{a, b})) {
				n++
			}
		}
	}
	assert.Equal(t, 249, n)
	assert.Equal(t, 249, Count)
	total := 0
	for _, w := range assigned {
		total += bits.OnesCount32(w)
	}
	assert.Equal(t, Count, total, "bitmap population")
	assert.Len(t, names, Count)
}

// TestTableConsistency walks the bitmap in order and checks that offsets and names
// line up with testdata/countries.json (the list shared with the JavaScript tests).
func TestTableConsistency(t *testing.T) {
	list := loadCountries(t)
	require.Len(t, list, Count)
	i := 0
	for a := 0; a < 26; a++ {
		assert.Equal(t, i, int(offsets[a]), "offset of %c", 'A'+a)
		assert.Zero(t, assigned[a]>>26, "bits beyond Z for %c", 'A'+a)
		for b := 0; b < 26; b++ {
			if assigned[a]&(1<<b) == 0 {
				continue
			}
			code := string([]byte{byte('A' + a), byte('A' + b)})
			require.Less(t, i, len(list))
			assert.Equal(t, list[i].Code, code)
			assert.Equal(t, list[i].Name, names[i], code)
			assert.Equal(t, list[i].Name, Name(code))
			assert.NotEmpty(t, names[i], code)
			i++
		}
	}
	assert.Equal(t, Count, i)
	for j := 1; j < len(list); j++ {
		assert.Less(t, list[j-1].Code, list[j].Code, "countries.json sorted")
	}
}

// TestAgainstTzdata compares with the system's tzdata list when it is installed.
func TestAgainstTzdata(t *testing.T) {
	raw, err := os.ReadFile("/usr/share/zoneinfo/iso3166.tab")
	if err != nil {
		t.Skip("no tzdata iso3166.tab on this machine")
	}
	n := 0
	for _, line := range strings.Split(string(raw), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		code, _, _ := strings.Cut(line, "\t")
		assert.True(t, Valid(code), code)
		n++
	}
	assert.Equal(t, Count, n)
}

func TestValid(t *testing.T) {
	tests := []struct {
		code string
		want bool
	}{
		{"ES", true}, {"PT", true}, {"DE", true}, {"IT", true}, {"FR", true},
		{"NL", true}, {"AD", true}, {"GB", true}, {"US", true}, {"VA", true},
		{"AX", true}, {"BQ", true}, {"CW", true}, {"SS", true}, {"SX", true},
		{"ZW", true}, {"AQ", true}, {"UM", true}, {"EH", true}, {"TW", true},
		{"XK", false}, {"EU", false}, {"UK", false}, {"AN", false}, {"YU", false},
		{"CS", false}, {"SU", false}, {"ZZ", false}, {"AA", false}, {"QM", false},
		{"es", false}, {"Es", false}, {"eS", false}, {"", false}, {"E", false},
		{"ESP", false}, {" ES", false}, {"E\x00", false}, {"\xff\xff", false},
		{"@A", false}, {"A[", false}, {"[A", false}, {"É", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Valid(tt.code), "%q", tt.code)
	}
}

func TestName(t *testing.T) {
	tests := []struct{ code, want string }{
		{"ES", "Spain"}, {"PT", "Portugal"}, {"DE", "Germany"}, {"IT", "Italy"},
		{"FR", "France"}, {"NL", "Netherlands"}, {"AD", "Andorra"},
		{"GB", "United Kingdom"}, {"US", "United States"}, {"VA", "Vatican City"},
		{"AX", "Åland Islands"}, {"CI", "Côte d'Ivoire"}, {"KR", "South Korea"},
		{"CD", "Democratic Republic of the Congo"}, {"CG", "Congo"}, {"ZW", "Zimbabwe"},
		{"XK", ""}, {"es", ""}, {"", ""}, {"UK", ""},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Name(tt.code), "%q", tt.code)
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ES", "ES"}, {"es", "ES"}, {" es ", "ES"}, {"\tpT\n", "PT"}, {"", ""},
		{"   ", ""}, {"xk", "XK"}, {"é", "é"}, {"\u00a0nl\u00a0", "NL"}, {"a1-b", "A1-B"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Normalize(tt.in), "%q", tt.in)
	}
}

func TestNoAllocs(t *testing.T) {
	s := "ES"
	assert.Zero(t, testing.AllocsPerRun(100, func() {
		_ = Valid(s)
		_ = Name(s)
		_ = Normalize(s)
		_ = Normalize(" ES ")
	}))
}

func BenchmarkValid(b *testing.B) {
	b.ReportAllocs()
	codes := []string{"ES", "XK", "ZW", "es"}
	for i := 0; b.Loop(); i++ {
		_ = Valid(codes[i&3])
	}
}

func BenchmarkNormalize(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = Normalize(" ES ")
	}
}
