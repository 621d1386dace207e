package i18n

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func placeholders(s string) string {
	var out []string
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '{' && s[i+2] == '}' {
			out = append(out, s[i:i+3])
		}
	}
	return strings.Join(out, "")
}

// Every row has every language, the same placeholders in each, and a
// translation that differs from the English (the coverage test relies on
// it to spot an untranslated message).
func TestTableIsComplete(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < Entries(); i++ {
		row := Entry(i)
		en := row[English]
		require.NotEmpty(t, en, "row %d", i)
		assert.False(t, seen[en], "duplicate row %q", en)
		seen[en] = true
		for l := Locale(1); l < Count; l++ {
			assert.NotEmpty(t, row[l], "%q has no %s text", en, l)
			assert.NotEqual(t, en, row[l], "%q: the %s text is the English one", en, l)
			assert.Equal(t, placeholders(en), placeholders(row[l]), "%q in %s", en, l)
		}
	}
}

func TestParse(t *testing.T) {
	for tag, want := range map[string]Locale{
		"es": Spanish, "es-ES": Spanish, "ES": Spanish, "pt_BR": Portuguese, "pt-PT": Portuguese,
		"fr-CA": French, "de-AT": German, "it": Italian, "nl-BE": Dutch, "en-GB": English, " de ": German,
	} {
		got, ok := Parse(tag)
		assert.True(t, ok, tag)
		assert.Equal(t, want, got, tag)
	}
	for _, tag := range []string{"", "*", "ca", "eus", "e", "zh-Hans", "-es"} {
		_, ok := Parse(tag)
		assert.False(t, ok, tag)
	}
}

func TestFromAcceptLanguage(t *testing.T) {
	for header, want := range map[string]Locale{
		"":                                     English,
		"es":                                   Spanish,
		"es-ES,es;q=0.9,en;q=0.8":              Spanish,
		"en-US,en;q=0.9,es;q=0.8":              English,
		"ca-ES,ca;q=0.9,es;q=0.8,en;q=0.7":     Spanish, // Catalan is not in the table
		"da, en-GB;q=0.8, en;q=0.7":            English,
		"fr;q=0.5, de;q=0.7":                   German,
		"nl;q=0.9, it":                         Italian,
		"pt-BR;q=0, es;q=0.1":                  Spanish, // q=0: not Portuguese
		"de;q=1.0":                             German,
		"de;q=1.5, fr;q=0.2":                   French, // an invalid q-value skips the language
		"it;q=abc":                             English,
		"*":                                    English,
		"zh-CN,zh;q=0.9":                       English,
		"  es-MX ; q=0.8 , fr ; q=0.8":         Spanish, // first on a tie
		"pt;level=1;q=0.4, nl;q=0.3":           Portuguese,
		",,;,es;q=0.001":                       Spanish,
		"es;q=0.0001":                          English, // more than three decimals is malformed
		strings.Repeat("xx;q=0.5,", 50) + "fr": French,
	} {
		assert.Equal(t, want, FromAcceptLanguage(header), "%q", header)
	}
}

func TestFormat(t *testing.T) {
	assert.Equal(t, "Use at most 40 characters.", Format(English, "Use at most {0} characters.", "40"))
	assert.Equal(t, "Usa como máximo 40 caracteres.", Format(Spanish, "Use at most {0} characters.", "40"))
	assert.Equal(t, "Indica a, b o c.", Format(Spanish, "Give {0}.", List(Spanish, []string{"a", "b", "c"})))
	assert.Equal(t, "Give a or b.", Format(English, "Give {0}.", List(English, []string{"a", "b"})))
	assert.Equal(t, "Not in the table {0}", Format(German, "Not in the table {0}"), "a missing argument stays visible")
	assert.Equal(t, "Not in the table x", Format(German, "Not in the table {0}", "x"), "unknown messages stay English")
	assert.Equal(t, "This field is required.", Message(Locale(200), "This field is required."))
}

func TestMessageDoesNotAllocateInEnglish(t *testing.T) {
	n := testing.AllocsPerRun(100, func() { _ = Message(English, "This field is required.") })
	assert.Zero(t, n)
	n = testing.AllocsPerRun(100, func() { _ = Message(Dutch, "This field is required.") })
	assert.Zero(t, n)
}

// Every row holds exactly Count texts: a message with the separator in it
// would shift the row's languages.
func TestRowsHaveEveryLocale(t *testing.T) {
	for _, row := range table {
		assert.NotContains(t, row[0], string(rowSep))
		assert.Equal(t, Count-2, strings.Count(row[1], string(rowSep)), "%q", row[0])
	}
}

func TestField(t *testing.T) {
	for _, c := range []struct {
		s    string
		sep  byte
		n    int
		want string
	}{
		{"en|es|pt", '|', 0, "en"},
		{"en|es|pt", '|', 1, "es"},
		{"en|es|pt", '|', 2, "pt"},
		{"a\x00\x00c", 0, 1, ""},
		{"a\x00\x00c", 0, 2, "c"},
		{"only", '|', 0, "only"},
	} {
		if got := Field(c.s, c.sep, c.n); got != c.want {
			t.Errorf("Field(%q, %q, %d) = %q, want %q", c.s, c.sep, c.n, got, c.want)
		}
	}
}
