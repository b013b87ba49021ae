package pgsort

// Sort sorts a in place the way PostgreSQL 15 sorts a tuplesort's
// in-memory tuples (src/include/lib/sort_template.h, as tuplesort.c
// instantiates it for qsort_tuple, qsort_ssup and its datum
// specialisations alike): Bentley and McIlroy's quicksort with a check
// for presorted input, insertion sort below 7 items, the median of three
// (of three medians of three above 40 items) as the pivot, equal items
// gathered at both ends and swapped to the middle, recursion on the
// smaller side. It is not stable, and where it leaves items that compare
// equal is visible: an aggregate's ORDER BY shows the order of its ties
// (array_agg(i ORDER BY x)), and DISTINCT keeps the first of each run of
// equal values, which is one representative of several that print
// differently (numeric 1.5 and 1.50, interval '1 day' and '24 hours',
// float -0 and 0). Only the sign of cmp matters, as in PostgreSQL, so
// any comparator that orders as PostgreSQL's (abbreviated keys or not)
// puts the items where PostgreSQL's sort does.
func Sort[T any](a []T, cmp func(x, y T) int) {
	for {
		n := len(a)
		if n < 7 {
			for m := 1; m < n; m++ {
				for l := m; l > 0 && cmp(a[l-1], a[l]) > 0; l-- {
					a[l-1], a[l] = a[l], a[l-1]
				}
			}
			return
		}
		presorted := true
		for m := 1; m < n; m++ {
			if cmp(a[m-1], a[m]) > 0 {
				presorted = false
				break
			}
		}
		if presorted {
			return
		}
		m := n / 2
		if n > 7 {
			l, h := 0, n-1
			if n > 40 {
				d := n / 8
				l = med3(a, l, l+d, l+2*d, cmp)
				m = med3(a, m-d, m, m+d, cmp)
				h = med3(a, h-2*d, h-d, h, cmp)
			}
			m = med3(a, l, m, h, cmp)
		}
		a[0], a[m] = a[m], a[0]
		// a[0] is the pivot; [1, pa) and (pd, n) collect items equal to
		// it, [pa, pb) the smaller ones, (pc, pd] the larger ones
		pa, pb, pc, pd := 1, 1, n-1, n-1
		for {
			for pb <= pc {
				r := cmp(a[pb], a[0])
				if r > 0 {
					break
				}
				if r == 0 {
					a[pa], a[pb] = a[pb], a[pa]
					pa++
				}
				pb++
			}
			for pb <= pc {
				r := cmp(a[pc], a[0])
				if r < 0 {
					break
				}
				if r == 0 {
					a[pc], a[pd] = a[pd], a[pc]
					pd--
				}
				pc--
			}
			if pb > pc {
				break
			}
			a[pb], a[pc] = a[pc], a[pb]
			pb++
			pc--
		}
		d := min(pa, pb-pa)
		swapRange(a, 0, pb-d, d)
		d = min(pd-pc, n-pd-1)
		swapRange(a, pb, n-d, d)
		left, right := pb-pa, pd-pc
		if left <= right {
			if left > 1 {
				Sort(a[:left], cmp)
			}
			if right <= 1 {
				return
			}
			a = a[n-right:]
		} else {
			if right > 1 {
				Sort(a[n-right:], cmp)
			}
			if left <= 1 {
				return
			}
			a = a[:left]
		}
	}
}

// med3 is the index of the median of a[i], a[j] and a[k], chosen with
// PostgreSQL's comparisons (which of equal items it picks matters).
func med3[T any](a []T, i, j, k int, cmp func(x, y T) int) int {
	if cmp(a[i], a[j]) < 0 {
		if cmp(a[j], a[k]) < 0 {
			return j
		}
		if cmp(a[i], a[k]) < 0 {
			return k
		}
		return i
	}
	if cmp(a[j], a[k]) > 0 {
		return j
	}
	if cmp(a[i], a[k]) < 0 {
		return i
	}
	return k
}

// swapRange swaps the n items from i with the n items from j, pair by
// pair from the first.
func swapRange[T any](a []T, i, j, n int) {
	for x := 0; x < n; x++ {
		a[i+x], a[j+x] = a[j+x], a[i+x]
	}
}
