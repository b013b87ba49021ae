package format

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss/internal/fixture"
	"github.com/sqlgate/sqlgate/types"
)

// decodeBoth decodes rows with DecodeRow and with a RowDecoder into two
// builders of schema s (skip[f] leaves column f out) and returns, per
// decoded column, both arrays printed, and both errors.
//
// reserve > 0 reserves that many rows first (RowDecoder.Reserve), so that
// the rows up to it take the unchecked path.
func decodeBoth(s *arrow.Schema, rows [][]byte, skip []bool, reserve int) ([]string, []string, error, error) {
	ts := colTypes()
	a := array.NewRecordBuilder(memory.DefaultAllocator, s)
	b := array.NewRecordBuilder(memory.DefaultAllocator, s)
	defer a.Release()
	defer b.Release()
	ta, tb := make([]array.Builder, len(ts)), make([]array.Builder, len(ts))
	for f := range ts {
		if skip == nil || !skip[f] {
			ta[f], tb[f] = a.Field(f), b.Field(f)
		}
	}
	d := NewRowDecoder(ts)
	d.Bind(tb)
	if reserve > 0 {
		d.Reserve(reserve)
	}
	var errA, errB error
	for _, r := range rows {
		na, ea := DecodeRow(r, ts, ta)
		nb, eb := d.Decode(r)
		if ea != nil || eb != nil {
			errA, errB = ea, eb
			break
		}
		if na != nb {
			errB = errShortRow
			break
		}
	}
	if errA != nil || errB != nil {
		// The builders may hold part of a row: nothing to compare.
		return nil, nil, errA, errB
	}
	var sa, sb []string
	for f := range ts {
		if ta[f] == nil {
			continue
		}
		x, y := ta[f].NewArray(), tb[f].NewArray()
		// Printed, NaN equals NaN; the values are compared, not the
		// buffers under NULLs.
		sa, sb = append(sa, x.String()), append(sb, y.String())
		x.Release()
		y.Release()
	}
	return sa, sb, errA, errB
}

// The RowDecoder decodes every type exactly as DecodeRow does, with NULLs
// and extreme values, with and without skipped columns.
func TestRowDecoderMatchesDecodeRow(t *testing.T) {
	rec := fixture.Record(0, 12)
	defer rec.Release()
	ts := colTypes()
	var rows [][]byte
	for i := 0; i < int(rec.NumRows()); i++ {
		row, err := AppendRow(nil, ts, rec.Columns(), i)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row)
	}
	skipOdd, skipEven, skipAllButFirst := make([]bool, len(ts)), make([]bool, len(ts)), make([]bool, len(ts))
	for f := range skipOdd {
		skipOdd[f], skipEven[f], skipAllButFirst[f] = f%2 == 1, f%2 == 0, f > 0
	}
	for _, tc := range []struct {
		skip    []bool
		reserve int
	}{{nil, 0}, {skipOdd, 0}, {nil, len(rows)}, {skipOdd, len(rows)}, {nil, len(rows) / 2},
		{skipEven, 0}, {skipEven, len(rows)}, {skipAllButFirst, 0}, {skipAllButFirst, len(rows)}} {
		skip := tc.skip
		a, b, ea, eb := decodeBoth(rec.Schema(), rows, skip, tc.reserve)
		if ea != nil || eb != nil {
			t.Fatalf("errors: %v / %v", ea, eb)
		}
		if len(a) == 0 || len(a) != len(b) {
			t.Fatalf("%d and %d columns decoded", len(a), len(b))
		}
		for i := range a {
			if a[i] != b[i] {
				t.Errorf("column %d (skip %v, reserve %d): DecodeRow %s, RowDecoder %s", i, skip != nil, tc.reserve, a[i], b[i])
			}
		}
	}
	// A truncated row fails in both, also when the cut falls in skipped columns.
	for _, reserve := range []int{0, 1} {
		_, _, ea, eb := decodeBoth(rec.Schema(), [][]byte{rows[1][:len(rows[1])/2]}, nil, reserve)
		if ea == nil || eb == nil {
			t.Errorf("truncated row (reserve %d): DecodeRow %v, RowDecoder %v; want errors from both", reserve, ea, eb)
		}
		_, _, ea, eb = decodeBoth(rec.Schema(), [][]byte{rows[1][:len(rows[1])/2]}, skipAllButFirst, reserve)
		if ea == nil || eb == nil {
			t.Errorf("truncated row (reserve %d): DecodeRow %v, RowDecoder %v; want errors from both", reserve, ea, eb)
		}
	}
}

// FuzzRowDecoder: on any bytes the RowDecoder fails exactly when DecodeRow
// does, and otherwise decodes the same values.
func FuzzRowDecoder(f *testing.F) {
	rec := fixture.Record(0, 4)
	defer rec.Release()
	ts := colTypes()
	for i := 0; i < int(rec.NumRows()); i++ {
		row, err := AppendRow(nil, ts, rec.Columns(), i)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(row)
	}
	schema := rec.Schema()
	f.Fuzz(func(t *testing.T, row []byte) {
		for _, reserve := range []int{0, 1} {
			a, b, ea, eb := decodeBoth(schema, [][]byte{row}, nil, reserve)
			if (ea == nil) != (eb == nil) {
				t.Fatalf("reserve %d: DecodeRow error %v, RowDecoder error %v", reserve, ea, eb)
			}
			if ea == nil && fmt.Sprint(a) != fmt.Sprint(b) {
				t.Fatalf("reserve %d: decoders disagree on %x:\n%v\n%v", reserve, row, a, b)
			}
		}
	})
}

// BenchmarkDecodeEventsRow decodes the benchmark's events row (BIGINT, INT,
// DOUBLE, INT, STRING, TIMESTAMP(6)) with DecodeRow, with a RowDecoder and
// as a one-row record (OneRow).
func BenchmarkDecodeEventsRow(b *testing.B) {
	ts := []types.T{types.Int64Type, types.Int32Type, types.Float64Type, types.Int32Type, types.StringType, types.TimestampType(6)}
	fs := make([]arrow.Field, len(ts))
	for i, t := range ts {
		fs[i] = arrow.Field{Name: fmt.Sprint("c", i), Type: t.ArrowType(), Nullable: true}
	}
	s := arrow.NewSchema(fs, nil)
	rb := array.NewRecordBuilder(memory.DefaultAllocator, s)
	rb.Field(0).(*array.Int64Builder).Append(123456)
	rb.Field(1).(*array.Int32Builder).Append(4242)
	rb.Field(2).(*array.Float64Builder).Append(99.5)
	rb.Field(3).(*array.Int32Builder).Append(17)
	rb.Field(4).(*array.StringBuilder).Append("user-000123456")
	rb.Field(5).(*array.TimestampBuilder).Append(1_700_000_000_123_456)
	rec := rb.NewRecordBatch()
	rb.Release()
	row, err := AppendRow(nil, ts, rec.Columns(), 0)
	rec.Release()
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"DecodeRow", "RowDecoder"} {
		b.Run(name, func(b *testing.B) {
			out := array.NewRecordBuilder(memory.DefaultAllocator, s)
			defer out.Release()
			d := NewRowDecoder(ts)
			d.Bind(out.Fields())
			for i := 0; i < b.N; i++ {
				if i%8192 == 0 {
					out.NewRecordBatch().Release()
					d.Bind(out.Fields())
				}
				var err error
				if name == "DecodeRow" {
					_, err = DecodeRow(row, ts, out.Fields())
				} else {
					_, err = d.Decode(row)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// OneRow: the row as a one-row record (a point lookup's result).
	b.Run("OneRow", func(b *testing.B) {
		pos := make([]int, len(ts))
		for i := range pos {
			pos[i] = i
		}
		one, ok := NewOneRow(ts, pos, s)
		if !ok {
			b.Fatal("OneRow declined the events row")
		}
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			rec, err := one.Decode(row)
			if err != nil {
				b.Fatal(err)
			}
			rec.Release()
		}
	})
}
