package engine

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqlgate/sqlgate/fluss"
)

// TestRepeatColumn: shape's cached columns of one repeated value give
// exactly n rows of that value whatever order the sizes come in (growing
// past the first 4,096 rows and past a doubling, then shrinking), each key
// its own column, and a slice handed out stays right after the cache grew.
func TestRepeatColumn(t *testing.T) {
	var syms map[string]arrow.Array
	var buckets map[int]arrow.Array
	defer func() { releaseColumns(syms); releaseColumns(buckets) }()
	var kept []arrow.Array // slices handed out earlier, checked at the end
	cases := []struct {
		n      int
		sym    string
		bucket int
	}{
		{1, "+A", 0}, {4096, "+A", 1}, {4097, "+A", 0}, {10000, "-U", 1}, {3, "-U", 1}, {20000, "+A", 2}, {0, "+I", 3}, {7, "+I", 3},
	}
	check := func(a arrow.Array, n int, sym string, bucket int32) {
		t.Helper()
		if a.Len() != n {
			t.Fatalf("%d rows, want %d", a.Len(), n)
		}
		switch a := a.(type) {
		case *array.String:
			for i := range n {
				if a.Value(i) != sym {
					t.Fatalf("row %d of %d: %q, want %q", i, n, a.Value(i), sym)
				}
			}
		case *array.Int32:
			for i := range n {
				if a.Value(i) != bucket {
					t.Fatalf("row %d of %d: %d, want %d", i, n, a.Value(i), bucket)
				}
			}
		default:
			t.Fatalf("column of %T", a)
		}
	}
	for _, tc := range cases {
		s := repeatColumn(&syms, tc.sym, tc.n, func(size int) arrow.Array { return fluss.StringColumn([]string{tc.sym}, size) })
		b := repeatColumn(&buckets, tc.bucket, tc.n, func(size int) arrow.Array { return fluss.Int32Column(int32(tc.bucket), size) })
		check(s, tc.n, tc.sym, 0)
		check(b, tc.n, "", int32(tc.bucket))
		kept = append(kept, s, b)
	}
	for i, tc := range cases {
		check(kept[2*i], tc.n, tc.sym, 0)
		check(kept[2*i+1], tc.n, "", int32(tc.bucket))
		kept[2*i].Release()
		kept[2*i+1].Release()
	}
	if len(syms) != 3 || len(buckets) != 4 {
		t.Fatalf("%d change-type and %d bucket columns cached, want 3 and 4", len(syms), len(buckets))
	}
}
