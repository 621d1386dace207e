// Package label renders shipping labels as small, valid PDF 1.4 files with
// a hand-written writer (no dependency): one 4x6 inch page with the
// carrier and service, the sender and recipient addresses, the
// references, and a Code 128 barcode of the carrier reference drawn with
// filled rectangles. Output is deterministic: the same Data gives the same
// bytes.
//
// Text uses the standard Helvetica fonts with WinAnsiEncoding: Latin-1
// letters (Spanish and Portuguese accents, ñ, ç) print as such, € too, and
// any other character prints as '?'.
package label

import (
	"errors"
	"strconv"
)

// Data is what a label shows.
type Data struct {
	CarrierName  string   // printed large at the top
	ServiceName  string   // service name and code under it
	ServiceCode  string   //
	ShippingDate string   // YYYY-MM-DD
	From         []string // sender lines (name first)
	To           []string // recipient lines (name first)
	DropPoint    []string // drop point lines; empty when none
	DlvrRef      string   // the service's reference
	ClientRef    string   // the client's reference
	CarrierRef   string   // the carrier's reference: encoded in the barcode
	GUID         string   // the carrier's GUID
	Parcels      string   // e.g. "1/1"
	Weight       string   // e.g. "2.50 kg"
}

// Page size: 4 x 6 inches, in points.
const (
	PageWidth  = 288
	PageHeight = 432
)

// Dot is one dot of a 203-dpi thermal label printer (0.125 mm), in points.
const Dot = 72.0 / 203

// Barcode layout: the symbol may take the page's width less 4 pt on each
// side, and its modules are at most MaxModuleDots dots wide (0.5 mm).
const (
	barcodeWidth  = PageWidth - 8
	MaxModuleDots = 4
)

// ErrBarcodeWidth is returned when a barcode would need modules narrower
// than one printer dot to fit the label. Code128's 64-character limit keeps
// every text it accepts clear of it (the longest symbol, 64 characters in set
// B, fits at one dot per module); it guards changes to the layout.
var ErrBarcodeWidth = errors.New("label: the barcode does not fit the label at one printer dot (0.125 mm) per module")

// BarcodeDots returns the module width, in dots of a 203-dpi printer, for a
// Code 128 symbol of modules modules including its quiet zones: the largest
// whole number of dots that fits the label, at most MaxModuleDots, or 0
// when not even one dot per module fits.
func BarcodeDots(modules int) int {
	k := int(barcodeWidth / (float64(modules) * Dot))
	if k > MaxModuleDots {
		k = MaxModuleDots
	}
	return k
}

// Render returns the label as a PDF. It fails only when the carrier
// reference cannot be encoded as a barcode (see Code128).
func Render(d Data) ([]byte, error) {
	bars, err := Code128(d.CarrierRef)
	if err != nil {
		return nil, err
	}
	var c content
	// Header.
	c.text(fontBold, 16, 14, 404, clip(d.CarrierName, 30))
	c.text(fontRegular, 9, 14, 390, clip(d.ServiceName+" ("+d.ServiceCode+")", 55))
	c.text(fontRegular, 9, 200, 404, d.ShippingDate)
	c.rule(14, 382, 274)
	// Sender.
	y := 370.0
	c.text(fontBold, 7, 14, y, "FROM / REMITENTE")
	y -= 10
	for _, l := range limitLines(d.From, 5) {
		c.text(fontRegular, 8, 14, y, clip(l, 60))
		y -= 10
	}
	y -= 2
	c.rule(14, y, 274)
	y -= 14
	// Recipient.
	c.text(fontBold, 8, 14, y, "TO / DESTINATARIO")
	y -= 15
	for i, l := range limitLines(d.To, 6) {
		if i == 0 {
			c.text(fontBold, 12, 14, y, clip(l, 36))
		} else {
			c.text(fontRegular, 11, 14, y, clip(l, 42))
		}
		y -= 14
	}
	if len(d.DropPoint) > 0 {
		c.text(fontBold, 8, 14, y, "DROP POINT / PUNTO DE ENTREGA")
		y -= 10
		for _, l := range limitLines(d.DropPoint, 3) {
			c.text(fontRegular, 8, 14, y, clip(l, 60))
			y -= 10
		}
	}
	c.rule(14, 150, 274)
	// References.
	c.text(fontRegular, 8, 14, 138, "Ref: "+clip(d.DlvrRef, 30))
	c.text(fontRegular, 8, 150, 138, "Client: "+clip(d.ClientRef, 20))
	c.text(fontRegular, 8, 14, 127, "Parcels: "+d.Parcels)
	c.text(fontRegular, 8, 150, 127, "Weight: "+d.Weight)
	// Barcode, centred, with quiet zones of 10 modules, laid on the dot grid
	// of a 203-dpi thermal printer: every module is a whole number of dots,
	// at least one, and every bar starts on a dot boundary, so printing
	// keeps the width ratios exactly.
	total := 20
	for _, w := range bars {
		total += w
	}
	k := BarcodeDots(total)
	if k < 1 {
		return nil, ErrBarcodeWidth
	}
	start := (int(PageWidth/Dot) - total*k) / 2 // in dots, from the page's left edge
	x := start + 10*k
	for i, w := range bars {
		if i%2 == 0 {
			c.bar(float64(x)*Dot, 40, float64(w*k)*Dot, 75)
		}
		x += w * k
	}
	size := 10.0
	if n := float64(len(d.CarrierRef)); n*0.6*size > PageWidth-8 {
		size = (PageWidth - 8) / (n * 0.6)
	}
	c.text(fontBold, size, centred(d.CarrierRef, size, 6), 27, d.CarrierRef)
	c.text(fontRegular, 6, 14, 12, "GUID "+clip(d.GUID, 48)+"  - parcelgate sandbox")
	return writePDF(c.buf, d.CarrierRef), nil
}

func limitLines(lines []string, n int) []string {
	out := make([]string, 0, n)
	for _, l := range lines {
		if l == "" {
			continue
		}
		if len(out) == n {
			break
		}
		out = append(out, l)
	}
	return out
}

// clip shortens s to at most n characters, with "..." when cut.
func clip(s string, n int) string {
	i, count := 0, 0
	for j := range s {
		if count == n-3 {
			i = j
		}
		count++
	}
	if count <= n {
		return s
	}
	return s[:i] + "..."
}

// centred returns the x at which text of the given size starts to be
// centred on the page, assuming an average glyph width of w/size*size.
func centred(s string, size, w float64) float64 {
	x := (PageWidth - float64(len(s))*w*size/10) / 2
	if x < 4 {
		x = 4
	}
	return x
}

const (
	fontRegular = "/F1"
	fontBold    = "/F2"
)

// content builds a page content stream.
type content struct{ buf []byte }

func (c *content) num(f float64) {
	c.buf = strconv.AppendFloat(c.buf, float64(int64(f*100+0.5))/100, 'f', -1, 64)
}

func (c *content) text(font string, size, x, y float64, s string) {
	c.buf = append(c.buf, "BT "...)
	c.buf = append(c.buf, font...)
	c.buf = append(c.buf, ' ')
	c.num(size)
	c.buf = append(c.buf, " Tf "...)
	c.num(x)
	c.buf = append(c.buf, ' ')
	c.num(y)
	c.buf = append(c.buf, " Td "...)
	c.buf = appendPDFString(c.buf, s)
	c.buf = append(c.buf, " Tj ET\n"...)
}

// bar draws a filled rectangle with 4 decimals for its x and width: bar
// edges are on the printer's dot grid, which 2 decimals would blur.
func (c *content) bar(x, y, w, h float64) {
	c.buf = strconv.AppendFloat(c.buf, x, 'f', 4, 64)
	c.buf = append(c.buf, ' ')
	c.num(y)
	c.buf = append(c.buf, ' ')
	c.buf = strconv.AppendFloat(c.buf, w, 'f', 4, 64)
	c.buf = append(c.buf, ' ')
	c.num(h)
	c.buf = append(c.buf, " re f\n"...)
}

func (c *content) rule(x0, y, x1 float64) {
	c.buf = append(c.buf, "0.8 w "...)
	c.num(x0)
	c.buf = append(c.buf, ' ')
	c.num(y)
	c.buf = append(c.buf, " m "...)
	c.num(x1)
	c.buf = append(c.buf, ' ')
	c.num(y)
	c.buf = append(c.buf, " l S\n"...)
}

// appendPDFString appends s as a PDF literal string in WinAnsiEncoding:
// ( ) and \ escaped, bytes outside ASCII as octal escapes, so the file
// stays 7-bit.
func appendPDFString(b []byte, s string) []byte {
	b = append(b, '(')
	for _, r := range s {
		var c byte
		switch {
		case r >= 0x20 && r < 0x7f:
			c = byte(r)
		case r >= 0xa0 && r <= 0xff:
			c = byte(r)
		case r == '€':
			c = 0x80
		case r == '\t' || r == '\n' || r == '\r':
			c = ' '
		default:
			c = '?'
		}
		switch {
		case c == '(' || c == ')' || c == '\\':
			b = append(b, '\\', c)
		case c >= 0x80:
			b = append(b, '\\', '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
		default:
			b = append(b, c)
		}
	}
	return append(b, ')')
}

// writePDF assembles the document around one page content stream, with a
// cross-reference table whose offsets point at each "N 0 obj".
func writePDF(stream []byte, title string) []byte {
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 " + strconv.Itoa(PageWidth) + " " + strconv.Itoa(PageHeight) + "]" +
			" /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
		"", // content stream, written below
		"<< /Producer (parcelgate sandbox) /Title " + string(appendPDFString(nil, "Label "+title)) + " >>",
	}
	b := make([]byte, 0, len(stream)+1200)
	b = append(b, "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"...)
	offsets := make([]int, len(objects))
	for i, o := range objects {
		offsets[i] = len(b)
		b = strconv.AppendInt(b, int64(i+1), 10)
		b = append(b, " 0 obj\n"...)
		if i == 5 {
			b = append(b, "<< /Length "...)
			b = strconv.AppendInt(b, int64(len(stream)), 10)
			b = append(b, " >>\nstream\n"...)
			b = append(b, stream...)
			b = append(b, "\nendstream"...)
		} else {
			b = append(b, o...)
		}
		b = append(b, "\nendobj\n"...)
	}
	xref := len(b)
	b = append(b, "xref\n0 "...)
	b = strconv.AppendInt(b, int64(len(objects)+1), 10)
	b = append(b, "\n0000000000 65535 f \n"...)
	for _, off := range offsets {
		b = appendPadded(b, off, 10)
		b = append(b, " 00000 n \n"...)
	}
	b = append(b, "trailer\n<< /Size "...)
	b = strconv.AppendInt(b, int64(len(objects)+1), 10)
	b = append(b, " /Root 1 0 R /Info 7 0 R >>\nstartxref\n"...)
	b = strconv.AppendInt(b, int64(xref), 10)
	b = append(b, "\n%%EOF\n"...)
	return b
}

func appendPadded(b []byte, n, width int) []byte {
	s := strconv.Itoa(n)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}
