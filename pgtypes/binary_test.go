package pgtypes

import (
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TestBinaryAndTextAgree encodes values of the date/time family in both
// formats and decodes both with pgx's codecs (which follow PostgreSQL's
// *_recv and *_in): they must agree with each other and with the value.
func TestBinaryAndTextAgree(t *testing.T) {
	mem := memory.NewGoAllocator()
	when := time.Date(2024, 2, 29, 23, 59, 58, 999999000, time.UTC)
	old := time.Date(1901, 3, 4, 5, 6, 7, 0, time.UTC)

	tsb := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"})
	defer tsb.Release()
	tsb.Append(arrow.Timestamp(when.UnixNano() + 400)) // rounds down to when
	tsb.Append(arrow.Timestamp(old.UnixNano()))
	tsArr := tsb.NewArray()
	defer tsArr.Release()

	db := array.NewDate32Builder(mem)
	defer db.Release()
	db.Append(arrow.Date32FromTime(when))
	db.Append(arrow.Date32FromTime(old))
	dArr := db.NewArray()
	defer dArr.Release()

	m := pgtype.NewMap()
	for i, want := range []time.Time{when, old} {
		for _, f := range []int16{FormatText, FormatBinary} {
			v, ok, err := AppendValue(nil, types.TimestampTZType(9), f, tsArr, i)
			if err != nil || !ok {
				t.Fatal(err)
			}
			var got time.Time
			if err := m.Scan(OIDTimestampTZ, f, v, &got); err != nil {
				t.Fatalf("timestamptz format %d %q: %v", f, v, err)
			}
			if !got.Equal(want) {
				t.Errorf("timestamptz format %d: %v, want %v", f, got, want)
			}
			v, _, _ = AppendValue(nil, types.DateType, f, dArr, i)
			if err := m.Scan(OIDDate, f, v, &got); err != nil {
				t.Fatal(err)
			}
			if y, mo, d := want.Date(); got.Year() != y || got.Month() != mo || got.Day() != d {
				t.Errorf("date format %d: %v, want %v", f, got, want)
			}
		}
	}

	ib := array.NewMonthDayNanoIntervalBuilder(mem)
	defer ib.Release()
	ib.Append(arrow.MonthDayNanoInterval{Months: 14, Days: -3, Nanoseconds: 3_723_000_004_000})
	iArr := ib.NewArray()
	defer iArr.Release()
	for _, f := range []int16{FormatText, FormatBinary} {
		v, _, err := AppendValue(nil, types.T{Kind: types.Interval}, f, iArr, 0)
		if err != nil {
			t.Fatal(err)
		}
		var got pgtype.Interval
		if err := m.Scan(OIDInterval, f, v, &got); err != nil {
			t.Fatalf("interval format %d %q: %v", f, v, err)
		}
		if got.Months != 14 || got.Days != -3 || got.Microseconds != 3_723_000_004 {
			t.Errorf("interval format %d: %+v", f, got)
		}
	}

	tb := array.NewTime64Builder(mem, arrow.FixedWidthTypes.Time64us.(*arrow.Time64Type))
	defer tb.Release()
	tb.Append(arrow.Time64(13*usPerHour + 14*usPerMinute + 15*usPerSecond + 16))
	tArr := tb.NewArray()
	defer tArr.Release()
	for _, f := range []int16{FormatText, FormatBinary} {
		v, _, _ := AppendValue(nil, types.T{Kind: types.Time, Precision: 6}, f, tArr, 0)
		var got pgtype.Time
		if err := m.Scan(OIDTime, f, v, &got); err != nil {
			t.Fatalf("time format %d %q: %v", f, v, err)
		}
		if got.Microseconds != 13*usPerHour+14*usPerMinute+15*usPerSecond+16 {
			t.Errorf("time format %d: %+v", f, got)
		}
	}
}

func TestCharPaddingAndNestedArrays(t *testing.T) {
	mem := memory.NewGoAllocator()
	sb := array.NewStringBuilder(mem)
	defer sb.Release()
	sb.Append("ab")
	sb.Append("é")
	arr := sb.NewArray()
	defer arr.Release()
	// 'ab'::char(4) prints "ab  " in PostgreSQL.
	got := encodeColumn(t, types.T{Kind: types.Char, Length: 4}, FormatText, arr)
	if *got[0] != "ab  " || *got[1] != "é   " {
		t.Errorf("char(4): %q %q", *got[0], *got[1])
	}

	inner := types.ArrayOf(types.Int32Type)
	outer := types.ArrayOf(inner)
	lb := array.NewBuilder(mem, outer.ArrowType()).(*array.ListBuilder)
	defer lb.Release()
	ilb := lb.ValueBuilder().(*array.ListBuilder)
	vb := ilb.ValueBuilder().(*array.Int32Builder)
	lb.Append(true)
	ilb.Append(true)
	vb.AppendValues([]int32{1, 2}, nil)
	ilb.AppendNull()
	nested := lb.NewArray()
	defer nested.Release()
	// an array of arrays is PostgreSQL's int4[] of two dimensions; a NULL
	// sub-array (which PostgreSQL cannot hold) prints as NULL in text and
	// has no binary form
	got = encodeColumn(t, outer, FormatText, nested)
	if *got[0] != "{{1,2},NULL}" {
		t.Errorf("array<array<int>> = %s", *got[0])
	}
	if oid, _, _ := OIDOf(outer); oid != OIDInt4Array {
		t.Errorf("array<array<int>> oid %d", oid)
	}
	enc, err := newEncoder(outer, modeBinary, nil, types.Style{})
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.reset(nested); sqlerr.CodeOf(err) != sqlerr.ArraySubscriptError {
		t.Errorf("binary array<array<int>> holding a NULL sub-array: %v, want 2202E", err)
	}
}
