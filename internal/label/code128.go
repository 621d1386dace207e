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
	code128StartB = 104
	code128StartC = 105
	code128Stop   = 106
)

// ErrBarcode is returned for a barcode text Code 128 set B cannot encode
// (empty, or a character outside ASCII 32-126).
var ErrBarcode = errors.New("label: barcode text must be 1 to 64 printable ASCII characters")

// Code128 encodes s as a Code 128 symbol and returns its element widths in
// modules, alternating bar and space, bar first (quiet zones not
// included). An all-digit text of even length uses code set C (two digits
// per symbol); anything else uses code set B.
func Code128(s string) ([]int, error) {
	if len(s) == 0 || len(s) > 64 {
		return nil, ErrBarcode
	}
	digits := len(s)%2 == 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 32 || c > 126 {
			return nil, ErrBarcode
		}
		if c < '0' || c > '9' {
			digits = false
		}
	}
	var values []int
	if digits {
		values = append(values, code128StartC)
		for i := 0; i < len(s); i += 2 {
			values = append(values, int(s[i]-'0')*10+int(s[i+1]-'0'))
		}
	} else {
		values = append(values, code128StartB)
		for i := 0; i < len(s); i++ {
			values = append(values, int(s[i])-32)
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
