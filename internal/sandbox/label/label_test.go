package label

import (
	"bytes"
	"math"
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

// decodeText reads symbol values back into text the way a scanner does:
// start code, checksum, code sets B and C with their switch codes, stop.
func decodeText(t *testing.T, v []int) string {
	t.Helper()
	require.GreaterOrEqual(t, len(v), 3)
	require.Equal(t, code128Stop, v[len(v)-1], "stop")
	sum := v[0]
	for i := 1; i < len(v)-2; i++ {
		sum += v[i] * i
	}
	require.Equal(t, sum%103, v[len(v)-2], "checksum")
	var setC bool
	switch v[0] {
	case code128StartB:
	case code128StartC:
		setC = true
	default:
		t.Fatalf("start code %d", v[0])
	}
	var out []byte
	for _, x := range v[1 : len(v)-2] {
		switch {
		case setC && x < 100:
			out = append(out, byte('0'+x/10), byte('0'+x%10))
		case setC && x == code128CodeB:
			setC = false
		case !setC && x < 95:
			out = append(out, byte(x+32))
		case !setC && x == code128CodeC:
			setC = true
		default:
			t.Fatalf("value %d in set C=%v", x, setC)
		}
	}
	return string(out)
}

// references are realistic carrier references, and the longest ones the
// renderer accepts.
var references = []string{
	"RY0123456789012",         // the sandbox's
	"1Z999AA10123456784",      // UPS
	"JJD000390007879853454",   // DHL
	"00340434161094042557",    // SSCC, digits only
	"PQ4B6A0710020670128001L", // Correos
	"CX123456789ES",           // S10 (postal)
	"123",                     // odd digits only
	"AB1234", "1234AB", "A12345B", "A1234567B",
	"0123456789012345678901234567890123456789012345678901234567890123", // 64 digits
	"REF-2026-11-23-ORDER-000123456789-PARCEL-1-OF-1-WAREHOUSE-MADRID", // 64, mixed
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+,-.", // 64, set B only
}

func TestCode128RoundTrip(t *testing.T) {
	for _, in := range references {
		w, err := Code128(in)
		require.NoError(t, err, in)
		assert.Equal(t, in, decodeText(t, decode128(t, w)), in)
	}
	// Set C halves digit runs: 20 digits take 10 symbols, not 20.
	digits, _ := Code128("00340434161094042557")
	letters, _ := Code128("ABCDEFGHIJKLMNOPQRST")
	assert.Less(t, len(digits), len(letters)*6/10)
	for _, bad := range []string{"", "ñ", "a\nb", string(make([]byte, 65))} {
		_, err := Code128(bad)
		assert.ErrorIs(t, err, ErrBarcode, "%q", bad)
	}
}

var barRE = regexp.MustCompile(`(?m)^([0-9.]+) 40 ([0-9.]+) 75 re f$`)

// barsInDots reads the barcode back from a rendered PDF's content stream:
// each bar's left edge and width in dots of a 203-dpi printer, which must
// be whole numbers (edges on the printer's dot grid).
func barsInDots(t *testing.T, pdf []byte) (x, w []int) {
	t.Helper()
	for _, m := range barRE.FindAllSubmatch(pdf, -1) {
		fx, err := strconv.ParseFloat(string(m[1]), 64)
		require.NoError(t, err)
		fw, err := strconv.ParseFloat(string(m[2]), 64)
		require.NoError(t, err)
		dx, dw := fx/Dot, fw/Dot
		require.InDelta(t, math.Round(dx), dx, 0.01, "bar edge off the dot grid")
		require.InDelta(t, math.Round(dw), dw, 0.01, "bar width not whole dots")
		x = append(x, int(math.Round(dx)))
		w = append(w, int(math.Round(dw)))
	}
	return x, w
}

// TestBarcodeReadableAt203dpi renders a label for each reference, reads the
// bars back from the PDF, and decodes them: modules of whole dots (at least
// one, 0.125 mm), quiet zones of ten modules inside the page, and the
// reference as the text.
func TestBarcodeReadableAt203dpi(t *testing.T) {
	for _, ref := range references {
		d := sample()
		d.CarrierRef = ref
		pdf, err := Render(d)
		require.NoError(t, err, ref)
		x, w := barsInDots(t, pdf)
		require.NotEmpty(t, x, ref)
		// Elements: bar, space, bar, ... in dots.
		var el []int
		for i := range x {
			if i > 0 {
				el = append(el, x[i]-(x[i-1]+w[i-1]))
			}
			el = append(el, w[i])
		}
		module := el[0]
		for _, e := range el {
			module = min(module, e)
		}
		require.GreaterOrEqual(t, module, 1, ref)
		modules := make([]int, len(el))
		for i, e := range el {
			require.Zero(t, e%module, "%s: element of %d dots with %d-dot modules", ref, e, module)
			modules[i] = e / module
		}
		assert.Equal(t, ref, decodeText(t, decode128(t, modules)), ref)
		// Quiet zones of 10 modules within the page.
		pageDots := int(PageWidth / Dot)
		assert.GreaterOrEqual(t, x[0], 10*module, ref)
		assert.LessOrEqual(t, x[len(x)-1]+w[len(w)-1]+10*module, pageDots, ref)
		if len(ref) <= 20 {
			assert.GreaterOrEqual(t, module, 2, "%s: short references get at least 0.25 mm modules", ref)
		}
		t.Logf("%-64s %2d dot(s) = %.3f mm", ref, module, float64(module)*0.125)
	}
}

func TestBarcodeDots(t *testing.T) {
	// The longest symbol Code128 makes: 64 characters in set B, start,
	// checksum, stop and quiet zones: 11*66 + 13 + 20 modules.
	assert.Equal(t, 1, BarcodeDots(11*66+13+20))
	assert.Equal(t, 0, BarcodeDots(800), "800 modules need more than the label's width at one dot")
	assert.Equal(t, MaxModuleDots, BarcodeDots(50))
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
