package leak

import (
	"bytes"
	"strings"
	"testing"
)

// bodies the edge relays: a typical read (no escapes) and a label answer
// as a PHP service writes it (json_encode escapes every '/' of the
// base64 PDF), about 60 KB.
var (
	benchRead  = []byte(`{"status":"ok","data":[` + strings.Repeat(`{"carrier_code":"rapido","service_code":"rapido-48h","name":"Rápido 48 h","price":"6.90","currency":"EUR"},`, 40) + `{}]}`)
	benchLabel = []byte(`{"status":"ok","data":{"shipping_dlvr_ref":"SBX0000000001","label_raw":"` + strings.Repeat(`JVBERi0xLjQKJcfsj6IKNSAwIG9i\/agPDwvTGVuZ3RoIDYgMCBSL0ZpbHRl+ciAvRmxhdGVEZWNvZGU+PgpzdHJlYW0K`, 640) + `"}}`)
)

func benchFilter() Filter { return New("shop-42", "k3y?>~>secret-0123") }

// BenchmarkLeaks is the scan on every upstream answer.
func BenchmarkLeaks(b *testing.B) {
	f := benchFilter()
	for _, c := range []struct {
		name string
		body []byte
	}{{"read", benchRead}, {"label_escaped", benchLabel}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if f.Leaks(c.body) {
					b.Fatal("false alarm")
				}
			}
		})
	}
}

// BenchmarkRawOnly is the baseline: the raw-bytes scan the edge did
// before (it missed escaped spellings).
func BenchmarkRawOnly(b *testing.B) {
	f := benchFilter()
	for _, c := range []struct {
		name string
		body []byte
	}{{"read", benchRead}, {"label_escaped", benchLabel}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			for i := 0; i < b.N; i++ {
				for _, n := range f.s.needles {
					if bytes.Contains(c.body, n) {
						b.Fatal("false alarm")
					}
				}
			}
		})
	}
}
