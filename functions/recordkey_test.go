package functions

import (
	"bytes"
	"cmp"
	"context"
	"math"
	"math/rand"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

// recValue is one (int, float, text) record, nil fields NULL.
type recValue struct {
	i *int64
	f *float64
	s *string
}

// pgCompare is PostgreSQL's record_cmp for recValue: field by field, NULL
// after every value, floats with -0 = 0 and NaN above every number.
func pgCompare(a, b recValue) int {
	nulls := func(x, y bool) (int, bool) {
		switch {
		case x && y:
			return 0, false
		case x:
			return 1, true
		case y:
			return -1, true
		}
		return 0, false
	}
	if c, done := nulls(a.i == nil, b.i == nil); done {
		return c
	} else if a.i != nil && *a.i != *b.i {
		return cmp.Compare(*a.i, *b.i)
	}
	if c, done := nulls(a.f == nil, b.f == nil); done {
		return c
	} else if a.f != nil {
		x, y := *a.f, *b.f
		switch {
		case math.IsNaN(x) && math.IsNaN(y):
		case math.IsNaN(x):
			return 1
		case math.IsNaN(y):
			return -1
		case x != y:
			return cmp.Compare(x, y)
		}
	}
	if c, done := nulls(a.s == nil, b.s == nil); done {
		return c
	} else if a.s != nil {
		return cmp.Compare(*a.s, *b.s)
	}
	return 0
}

// TestRecordKeyOrder: record keys compare bytewise as PostgreSQL compares
// the records, records[] as arrays of them (element by element, a prefix
// first), and the member test finds exactly the equal elements.
func TestRecordKeyOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	floats := []float64{0, math.Copysign(0, -1), 1.5, -1.5, math.NaN(), math.Inf(1), math.Inf(-1), 1e300}
	strs := []string{"", "a", "ab", "a\x00", "a\x00b", "b", "\x00", "\x01"}
	gen := func() recValue {
		var v recValue
		if rng.Intn(5) > 0 {
			x := rng.Int63n(7) - 3
			if rng.Intn(4) == 0 {
				x = math.MinInt64 + rng.Int63n(2)
			}
			v.i = &x
		}
		if rng.Intn(5) > 0 {
			v.f = &floats[rng.Intn(len(floats))]
		}
		if rng.Intn(5) > 0 {
			v.s = &strs[rng.Intn(len(strs))]
		}
		return v
	}
	ts := []types.T{types.Int64Type, types.Float64Type, types.StringType}
	const n = 400
	vals := make([]recValue, n)
	for i := range vals {
		vals[i] = gen()
	}
	mem := memory.DefaultAllocator
	ib, fb, sb := array.NewInt64Builder(mem), array.NewFloat64Builder(mem), array.NewStringBuilder(mem)
	for _, v := range vals {
		if v.i == nil {
			ib.AppendNull()
		} else {
			ib.Append(*v.i)
		}
		if v.f == nil {
			fb.AppendNull()
		} else {
			fb.Append(*v.f)
		}
		if v.s == nil {
			sb.AppendNull()
		} else {
			sb.Append(*v.s)
		}
	}
	fields := []arrow.Array{ib.NewArray(), fb.NewArray(), sb.NewArray()}
	keyArr, err := RecordArrayKernel(ts, false)(context.Background(), mem, fields, n)
	if err != nil {
		t.Fatal(err)
	}
	keys := keyArr.(*array.Binary)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			want := pgCompare(vals[i], vals[j])
			if got := bytes.Compare(keys.Value(i), keys.Value(j)); got != want {
				t.Fatalf("record %d vs %d: key order %d, PostgreSQL's %d", i, j, got, want)
			}
		}
	}
	// arrays: path || element, compared as PostgreSQL's arrays
	arr := func(idx ...int) []byte {
		var out []byte
		for _, i := range idx {
			out = append(out, keys.Value(i)...)
		}
		return out
	}
	for k := 0; k < 2000; k++ {
		a := make([]int, rng.Intn(4))
		b := make([]int, rng.Intn(4))
		for i := range a {
			a[i] = rng.Intn(n)
		}
		for i := range b {
			b[i] = rng.Intn(n)
		}
		want := slices.CompareFunc(a, b, func(x, y int) int { return pgCompare(vals[x], vals[y]) })
		if got := bytes.Compare(arr(a...), arr(b...)); got != want {
			t.Fatalf("arrays %v vs %v: key order %d, PostgreSQL's %d", a, b, got, want)
		}
		// membership of row 0's record in a, with record_eq's equality
		pb := array.NewBinaryBuilder(mem, arrow.BinaryTypes.Binary)
		pb.Append(arr(a...))
		path := pb.NewArray()
		one := make([]arrow.Array, 3)
		for f := range fields {
			one[f] = array.NewSlice(fields[f], int64(b0(b)), int64(b0(b)+1))
		}
		res, err := MemberKernel(ts)(context.Background(), mem, append([]arrow.Array{path}, one...), 1)
		if err != nil {
			t.Fatal(err)
		}
		want2 := slices.ContainsFunc(a, func(x int) bool { return pgCompare(vals[x], vals[b0(b)]) == 0 })
		if got := res.(*array.Boolean).Value(0); got != want2 {
			t.Fatalf("row %d in %v: %v, want %v", b0(b), a, got, want2)
		}
	}
}

func b0(b []int) int {
	if len(b) == 0 {
		return 0
	}
	return b[0]
}
