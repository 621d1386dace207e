package core

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/parcelgate/parcelgate/internal/i18n"
)

// Every row of the edge's messages has every language, each with the
// English placeholders (a lost {1} would drop a reference or a wait),
// and a text of its own (an English copy is a missing translation).
func TestEdgeMessagesHaveEveryLanguage(t *testing.T) {
	holes := func(s string) string {
		var b strings.Builder
		for i := 0; i+2 < len(s); i++ {
			if s[i] == '{' && s[i+2] == '}' {
				b.WriteString(s[i : i+3])
			}
		}
		return b.String()
	}
	sorted := func(s string) string { // a language may reorder them
		p := strings.SplitAfter(s, "}")
		for i := range p {
			for j := i + 1; j < len(p); j++ {
				if p[j] < p[i] {
					p[i], p[j] = p[j], p[i]
				}
			}
		}
		return strings.Join(p, "")
	}
	for m := 0; m < messageCount; m++ {
		assert.Equal(t, int(i18n.Count)-1, strings.Count(messages[m], next), "row %d: %q", m, messages[m])
		en := text(m, i18n.English)
		assert.NotEmpty(t, en, "row %d", m)
		for l := i18n.Locale(1); l < i18n.Count; l++ {
			assert.NotEmpty(t, text(m, l), "%q has no %s text", en, l)
			assert.NotEqual(t, en, text(m, l), "%q: the %s text is the English one", en, l)
			assert.Equal(t, sorted(holes(en)), sorted(holes(text(m, l))), "%q in %s", en, l)
		}
	}
}
