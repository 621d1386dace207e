package label

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCode128Table(t *testing.T) {
	seen := map[string]bool{}
	for i, p := range code128 {
		sum := 0
		for _, c := range p {
			sum += int(c - '0')
		}
		assert.Equal(t, 11, sum, "symbol %d", i)
		assert.False(t, seen[p], "duplicate pattern %d", i)
		seen[p] = true
	}
}

// decode128 reads widths back into symbol values.
func decode128(t *testing.T, w []int) []int {
	t.Helper()
	rev := map[string]int{}
	for i, p := range code128 {
		rev[p] = i
	}
	require.Equal(t, 2, w[len(w)-1])
	w = w[:len(w)-1]
	require.Zero(t, len(w)%6)
	var out []int
	for i := 0; i < len(w); i += 6 {
		s := ""
		for _, x := range w[i : i+6] {
			s += strconv.Itoa(x)
		}
		v, ok := rev[s]
		require.True(t, ok, "unknown pattern %s", s)
		out = append(out, v)
	}
	return out
}

func TestCode128RoundTrip(t *testing.T) {
	for _, tc := range []struct {
		in    string
		start int
		text  func(v []int) string
	}{
		{"RY0012345678", code128StartB, func(v []int) string {
			b := make([]byte, len(v))
			for i, x := range v {
				b[i] = byte(x + 32)
			}
			return string(b)
		}},
		{"00123456", code128StartC, func(v []int) string {
			s := ""
			for _, x := range v {
				if x < 10 {
					s += "0"
				}
				s += strconv.Itoa(x)
			}
			return s
		}},
		{"123", code128StartB, nil},
	} {
		w, err := Code128(tc.in)
		require.NoError(t, err)
		v := decode128(t, w)
		assert.Equal(t, tc.start, v[0])
		assert.Equal(t, code128Stop, v[len(v)-1])
		sum := v[0]
		for i := 1; i < len(v)-2; i++ {
			sum += v[i] * i
		}
		assert.Equal(t, sum%103, v[len(v)-2], "checksum")
		if tc.text != nil {
			assert.Equal(t, tc.in, tc.text(v[1:len(v)-2]))
		}
	}
	for _, bad := range []string{"", "ñ", "a\nb", string(make([]byte, 65))} {
		_, err := Code128(bad)
		assert.ErrorIs(t, err, ErrBarcode, "%q", bad)
	}
}

func sample() Data {
	return Data{
		CarrierName: "Rayo Express", ServiceName: "Rayo 24", ServiceCode: "rayo-24", ShippingDate: "2026-05-12",
		From:      []string{"Tienda Ejemplo SL", "Polígono Norte 14", "28013 Madrid", "ES"},
		To:        []string{"Lucía Pérez (a) \\ test", "Calle Río 3, 2ºB", "41001 Sevilla", "ES", "Tel. 600000001"},
		DropPoint: []string{"Papelería Sol", "Calle Mayor 1"},
		DlvrRef:   "SBX0123456789", ClientRef: "ORDER-1001", CarrierRef: "RY0123456789012",
		GUID: "a1b2c3d4-e5f6-4890-abcd-ef0123456789", Parcels: "1", Weight: "1.20 kg",
	}
}

func TestRenderStructure(t *testing.T) {
	pdf, err := Render(sample())
	require.NoError(t, err)
	again, _ := Render(sample())
	assert.Equal(t, pdf, again, "deterministic")
	assert.True(t, bytes.HasPrefix(pdf, []byte("%PDF-1.4\n")))
	assert.True(t, bytes.HasSuffix(pdf, []byte("%%EOF\n")))
	// startxref points at "xref".
	m := regexp.MustCompile(`startxref\n(\d+)\n%%EOF\n$`).FindSubmatch(pdf)
	require.NotNil(t, m)
	xref, _ := strconv.Atoi(string(m[1]))
	require.True(t, bytes.HasPrefix(pdf[xref:], []byte("xref\n0 8\n")))
	// Every in-use xref entry is 20 bytes and points at "N 0 obj".
	entries := pdf[xref+len("xref\n0 8\n"):]
	for i := 0; i < 8; i++ {
		e := entries[i*20 : i*20+20]
		if i == 0 {
			assert.Equal(t, "0000000000 65535 f \n", string(e))
			continue
		}
		require.Equal(t, " 00000 n \n", string(e[10:]))
		off, err := strconv.Atoi(string(e[:10]))
		require.NoError(t, err)
		assert.True(t, bytes.HasPrefix(pdf[off:], []byte(strconv.Itoa(i)+" 0 obj\n")), "object %d at %d", i, off)
	}
	// The stream length is exact.
	sm := regexp.MustCompile(`(?s)<< /Length (\d+) >>\nstream\n(.*?)\nendstream`).FindSubmatch(pdf)
	require.NotNil(t, sm)
	n, _ := strconv.Atoi(string(sm[1]))
	assert.Equal(t, n, len(sm[2]))
	// Text is there, escaped; Latin-1 letters as octal escapes.
	assert.Contains(t, string(pdf), "(Rayo Express) Tj")
	assert.Contains(t, string(pdf), `(Luc\355a P\351rez \(a\) \\ test) Tj`)
	assert.Contains(t, string(pdf), "(RY0123456789012) Tj")
	// Bars are drawn: one rectangle per bar of the symbol.
	w, _ := Code128("RY0123456789012")
	assert.Equal(t, (len(w)+1)/2, bytes.Count(pdf, []byte(" re f\n")))
	// The file is 7-bit apart from the binary comment line.
	for i, c := range pdf[15:] {
		require.Less(t, c, byte(0x80), "byte %d", i+15)
	}
}

func TestRenderBadBarcode(t *testing.T) {
	d := sample()
	d.CarrierRef = ""
	_, err := Render(d)
	assert.ErrorIs(t, err, ErrBarcode)
}

func TestClip(t *testing.T) {
	assert.Equal(t, "abc", clip("abc", 5))
	assert.Equal(t, "abcde", clip("abcde", 5))
	assert.Equal(t, "ab...", clip("abcdef", 5))
	assert.Equal(t, "ñá...", clip("ñáéíóú", 5))
}

// TestRenderPdftoppm renders the label with poppler when it is installed.
func TestRenderPdftoppm(t *testing.T) {
	bin, err := exec.LookPath("pdftoppm")
	if err != nil {
		t.Skip("pdftoppm not found (apt-get install -y poppler-utils): skipping the rendering check")
	}
	pdf, err := Render(sample())
	require.NoError(t, err)
	dir := t.TempDir()
	in := filepath.Join(dir, "label.pdf")
	require.NoError(t, os.WriteFile(in, pdf, 0o644))
	out, err := exec.Command(bin, "-r", "72", "-gray", in, filepath.Join(dir, "page")).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Empty(t, string(out), "pdftoppm printed warnings or errors")
	img, err := os.ReadFile(filepath.Join(dir, "page-1.pgm"))
	require.NoError(t, err)
	// A PGM header, 288x432 pixels, with dark pixels (text and bars).
	require.True(t, bytes.HasPrefix(img, []byte("P5\n288 432\n255\n")), "%q", img[:20])
	dark := 0
	for _, p := range img[len("P5\n288 432\n255\n"):] {
		if p < 128 {
			dark++
		}
	}
	assert.Greater(t, dark, 3000)
}
