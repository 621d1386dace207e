package envelope

// stableOrder returns the indices 0..n-1 ordered by before, equal elements
// in their original order: a bottom-up merge sort over indices. It is the
// package's one sort: sort.Stable and sort.Strings (slices' pdqsort) cost
// the wasm modules about 4 KB of code, this about 0.3.
func stableOrder(n int, before func(i, j int) bool) []int {
	idx, tmp := make([]int, n), make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	for w := 1; w < n; w *= 2 {
		for lo := 0; lo < n; lo += 2 * w {
			mid, hi := min(lo+w, n), min(lo+2*w, n)
			i, j := lo, mid
			for k := lo; k < hi; k++ {
				// The right run's element goes first only when strictly before.
				if j < hi && (i >= mid || before(idx[j], idx[i])) {
					tmp[k] = idx[j]
					j++
				} else {
					tmp[k] = idx[i]
					i++
				}
			}
		}
		idx, tmp = tmp, idx
	}
	return idx
}
