package label

import "errors"

// code128 holds the 107 Code 128 symbol patterns (ISO/IEC 15417): six
// element widths in modules, bar first, eleven modules per symbol. Index
// 103-105 are Start A/B/C; 106 is Stop, whose final 2-module bar is
// appended by Code128.
var code128 = [107]string{
	"212222", "222122", "222221", "121223", "121322", "131222", "122213", "122312", "132212", "221213",
	"221312", "231212", "112232", "122132", "122231", "113222", "123122", "123221", "223211", "221132",
	"221231", "213212", "223112", "312131", "311222", "321122", "321221", "312212", "322112", "322211",
	"212123", "212321", "232121", "111323", "131123", "131321", "112313", "132113", "132311", "211313",
	"231113", "231311", "112133", "112331", "132131", "113123", "113321", "133121", "313121", "211331",
	"231131", "213113", "213311", "213131", "311123", "311321", "331121", "312113", "312311", "332111",
	"314111", "221411", "431111", "111224", "111422", "121124", "121421", "141122", "141221", "112214",
	"112412", "122114", "122411", "142112", "142211", "241211", "221114", "413111", "241112", "134111",
	"111242", "121142", "121241", "114212", "124112", "124211", "411212", "421112", "421211", "212141",
	"214121", "412121", "111143", "111341", "131141", "114113", "114311", "411113", "411311", "113141",
	"114131", "311141", "411131", "211412", "211214", "211232", "233111",
}

const (
	code128CodeC  = 99  // in set B: switch to set C
	code128CodeB  = 100 // in set C: switch to set B
	code128StartB = 104
	code128StartC = 105
	code128Stop   = 106
)

// ErrBarcode is returned for a barcode text Code 128 sets B and C cannot
// encode (empty, longer than 64 characters, or a character outside ASCII
// 32-126).
var ErrBarcode = errors.New("label: barcode text must be 1 to 64 printable ASCII characters")

// digitRun returns how many ASCII digits start at s[i].
func digitRun(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '9' {
		n++
	}
	return n
}

// Code128 encodes s as a Code 128 symbol and returns its element widths in
// modules, alternating bar and space, bar first (quiet zones not
// included). Runs of digits are packed two per symbol in code set C where
// that makes the symbol shorter (a run of 4 or more at either end, 6 or
// more inside); everything else uses code set B. A shorter symbol gets
// wider modules on the label, which is what keeps it readable.
func Code128(s string) ([]int, error) {
	if len(s) == 0 || len(s) > 64 {
		return nil, ErrBarcode
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 32 || c > 126 {
			return nil, ErrBarcode
		}
	}
	values := make([]int, 0, len(s)+4)
	setC := false
	if r := digitRun(s, 0); r >= 4 || (r == len(s) && r%2 == 0) {
		setC = true
		values = append(values, code128StartC)
	} else {
		values = append(values, code128StartB)
	}
	for i := 0; i < len(s); {
		r := digitRun(s, i)
		switch {
		case setC && r >= 2:
			values = append(values, int(s[i]-'0')*10+int(s[i+1]-'0'))
			i += 2
		case setC:
			values = append(values, code128CodeB)
			setC = false
		case r >= 6 || (r >= 4 && i+r == len(s)):
			if r%2 == 1 { // odd run: its first digit in set B
				values = append(values, int(s[i])-32)
				i++
			}
			values = append(values, code128CodeC)
			setC = true
		default:
			values = append(values, int(s[i])-32)
			i++
		}
	}
	sum := values[0]
	for i := 1; i < len(values); i++ {
		sum += values[i] * i
	}
	values = append(values, sum%103, code128Stop)
	widths := make([]int, 0, len(values)*6+1)
	for _, v := range values {
		for _, c := range code128[v] {
			widths = append(widths, int(c-'0'))
		}
	}
	return append(widths, 2), nil // the Stop symbol's final bar
}
