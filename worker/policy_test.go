package main

import (
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/parcelgate/parcelgate/internal/catalog"
)

// decisionFiles decide by the policy table (internal/catalog/policy.go):
// the edge's scope errors and answers (rates' deadline among them), the
// token rules in Go and in JavaScript. An operation named in one of their string literals is a
// rule written beside the table instead of read from it.
var decisionFiles = []string{
	"core/prepare.go",
	"core/answer.go",
	"core/pricing.go",
	"core/offers.go",
	"core/rates.go",
	"tokens/tokens.go",
	"../js/src/tokens.js",
}

// TestDecisionsReadThePolicyTable fails when a decision file names an
// operation in a string literal (comments may name them).
func TestDecisionsReadThePolicyTable(t *testing.T) {
	names := make([]string, len(catalog.Operations))
	for i := range catalog.Operations {
		names[i] = regexp.QuoteMeta(catalog.Operations[i].Name)
	}
	opName := regexp.MustCompile(`(^|[^a-z-])(` + strings.Join(names, "|") + `)($|[^a-z-])`)
	for _, f := range decisionFiles {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var lits []literal
		if filepath.Ext(f) == ".go" {
			lits = goLiterals(src)
		} else {
			lits = jsLiterals(src)
		}
		if len(lits) == 0 {
			t.Fatalf("%s: no string literal found: the scan is broken", f)
		}
		for _, l := range lits {
			if m := opName.FindStringSubmatch(l.text); m != nil {
				t.Errorf("%s:%d: the string literal %s names the operation %s: read the policy table's column instead", f, l.line, l.text, m[2])
			}
		}
	}
}

// The scan itself: literals found, comments left out, in both languages.
func TestLiteralScans(t *testing.T) {
	goSrc := []byte("package p\n// \"new-shipment\" in a comment\nvar a = \"get-shipment\" + `x`\n")
	if got := goLiterals(goSrc); len(got) != 2 || got[0].text != `"get-shipment"` || got[0].line != 3 {
		t.Errorf("goLiterals = %+v", got)
	}
	jsSrc := []byte("// 'new-shipment'\nconst a = 'it''s' + \"b\\\"c\" /* 'x' */ + `t${'new-collection'}`;\nconst u = 'http://x';\n")
	var texts []string
	for _, l := range jsLiterals(jsSrc) {
		texts = append(texts, l.text)
	}
	want := []string{`'it'`, `'s'`, `"b\"c"`, "`t${'new-collection'}`", `'http://x'`}
	if strings.Join(texts, "|") != strings.Join(want, "|") {
		t.Errorf("jsLiterals = %q, want %q", texts, want)
	}
}

type literal struct {
	text string
	line int
}

func goLiterals(src []byte) []literal {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, 0)
	var out []literal
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.STRING || tok == token.CHAR {
			out = append(out, literal{lit, fset.Position(pos).Line})
		}
	}
}

// jsLiterals finds JavaScript's string and template literals (a template
// whole, with its ${...}), skipping comments and regular expression
// literals (a slash after an operator or an opening bracket).
func jsLiterals(src []byte) []literal {
	var out []literal
	line := 1
	prev := byte('(') // the last significant character
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			line++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(string(src[i+2:]), "*/")
			if end < 0 {
				return out
			}
			line += strings.Count(string(src[i:i+2+end]), "\n")
			i += end + 3
			continue
		case c == '/' && strings.IndexByte("(,=:[!&|?{};+", prev) >= 0:
			class := false
			for i++; i < len(src) && (src[i] != '/' || class); i++ {
				switch src[i] {
				case '\\':
					i++
				case '[':
					class = true
				case ']':
					class = false
				}
			}
		case c == '\'' || c == '"' || c == '`':
			start, startLine := i, line
			i = skipString(src, i, &line)
			out = append(out, literal{string(src[start:min(i+1, len(src))]), startLine})
		}
		prev = c
	}
	return out
}

// skipString returns the index of the quote that closes the literal
// opened at src[i]; a template's ${...} may hold literals of its own.
func skipString(src []byte, i int, line *int) int {
	q := src[i]
	for i++; i < len(src) && src[i] != q; i++ {
		switch {
		case src[i] == '\\':
			i++
		case src[i] == '\n':
			*line++
		case q == '`' && src[i] == '$' && i+1 < len(src) && src[i+1] == '{':
			depth := 0
			for i++; i < len(src); i++ {
				if c := src[i]; c == '{' {
					depth++
				} else if c == '}' {
					if depth--; depth == 0 {
						break
					}
				} else if c == '\'' || c == '"' || c == '`' {
					i = skipString(src, i, line)
				}
			}
		}
	}
	return i
}
