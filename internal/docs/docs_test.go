package docs

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// maxReadmeLines is the most a README may hold: a reader opens it for a
// map, not for every answer (issue 32: about 300 lines, a little slack).
const maxReadmeLines = 320

// root is the repository root (this package is internal/docs).
const root = "../.."

// skipped are folders that hold no Markdown of the project's own.
var skipped = map[string]bool{
	".git": true, "node_modules": true, "build": true, "dist": true,
	".toolchain": true, ".wrangler": true, ".mirror": true,
}

// markdownFiles lists every .md file of the repository, relative to root.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (skipped[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), ".md") {
			rel, _ := filepath.Rel(root, p)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("found only %d Markdown files under %s: %v", len(files), root, files)
	}
	return files
}

// lines reads a file's lines, with code fences marked so that links and
// headings inside code are not taken for Markdown.
func lines(t *testing.T, file string) (all []string, inCode []bool) {
	t.Helper()
	f, err := os.Open(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	s.Buffer(make([]byte, 1<<20), 1<<20)
	fence := false
	for s.Scan() {
		l := s.Text()
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
			all, inCode = append(all, l), append(inCode, true)
			continue
		}
		all, inCode = append(all, l), append(inCode, fence)
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return all, inCode
}

func TestReadmesAreShort(t *testing.T) {
	for _, file := range markdownFiles(t) {
		if filepath.Base(file) != "README.md" {
			continue
		}
		all, _ := lines(t, file)
		if len(all) > maxReadmeLines {
			t.Errorf("%s has %d lines (at most %d): move a topic to a page beside its code and link it", file, len(all), maxReadmeLines)
		}
	}
}

var (
	mdLink   = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	htmlLink = regexp.MustCompile(`(?:src|href)="([^"]+)"`)
	heading  = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*$`)
	inline   = regexp.MustCompile("`[^`]*`")
)

// slug is GitHub's anchor for a heading: lower case, spaces to hyphens,
// punctuation other than hyphens and underscores dropped.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(h)) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors are the heading anchors of a Markdown file.
func anchors(t *testing.T, file string) map[string]bool {
	all, inCode := lines(t, file)
	seen := map[string]int{}
	out := map[string]bool{}
	for i, l := range all {
		if inCode[i] {
			continue
		}
		m := heading.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		s := slug(m[1])
		if n := seen[s]; n > 0 {
			out[s+"-"+itoa(n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func TestRelativeLinksResolve(t *testing.T) {
	checked := 0
	for _, file := range markdownFiles(t) {
		all, inCode := lines(t, file)
		for i, l := range all {
			if inCode[i] {
				continue
			}
			text := inline.ReplaceAllString(l, "")
			var targets []string
			for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
				targets = append(targets, m[1])
			}
			for _, m := range htmlLink.FindAllStringSubmatch(text, -1) {
				targets = append(targets, m[1])
			}
			for _, target := range targets {
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				path, anchor, _ := strings.Cut(target, "#")
				dest := file
				if path != "" {
					dest = filepath.Join(filepath.Dir(file), filepath.FromSlash(path))
					if _, err := os.Stat(filepath.Join(root, dest)); err != nil {
						t.Errorf("%s:%d: link %q: %s does not exist", file, i+1, target, dest)
						continue
					}
				}
				checked++
				if anchor != "" && strings.HasSuffix(dest, ".md") && !anchors(t, dest)[anchor] {
					t.Errorf("%s:%d: link %q: %s has no heading #%s", file, i+1, target, dest, anchor)
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d relative links: is the link pattern right?", checked)
	}
}
