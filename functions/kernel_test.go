package functions

import (
	"context"
	"fmt"
	"github.com/sqlgate/sqlgate/types/numeric"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// sampleValue is a valid argument of declared type t for function name.
func sampleValue(name string, t types.T) (types.T, any) {
	switch t.Kind {
	case types.Unknown: // "any"
		return types.Int32Type, int64(7)
	case types.String:
		if t.IsRange() { // finite bounds: lower and upper are not NULL
			return t, map[types.Variant]string{types.Int4Range: "[1,5)", types.Int8Range: "[1,5)", types.NumRange: "[1.5,2.5]",
				types.DateRange: "[2020-01-01,2020-01-05)", types.TsRange: `["2020-01-01 00:00:00","2020-01-02 00:00:00")`,
				types.TstzRange: `["2020-01-01 00:00:00+00","2020-01-02 00:00:00+00")`}[t.Variant]
		}
		if t.IsMultirange() { // the range sample's multirange
			_, r := sampleValue(name, types.RangeType(types.RangeOfMultirange(t.Variant)))
			return t, "{" + r.(string) + "}"
		}
		if t.IsGeometric() && name == "path_add" { // joins open paths only
			return t, "[(0,0),(1,1),(2,0)]"
		}
		if t.IsGeometric() { // shapes around the origin that meet each other
			return t, map[types.Variant]string{types.GeoPoint: "(1,2)", types.GeoLSeg: "[(0,0),(2,3)]", types.GeoLine: "{1,-1,0}",
				types.GeoBox: "(3,3),(0,0)", types.GeoPath: "((0,0),(1,1),(2,0))", types.GeoPolygon: "((0,0),(1,3),(3,1))",
				types.GeoCircle: "<(1,1),2>"}[t.Variant]
		}
		if v, _ := types.VariantNamed(name); v.IsRange() && types.StringType.Equal(t) { // a range constructor's flags
			return t, "[]"
		}
		switch t.Variant {
		case types.Inet:
			return t, "10.1.2.3/8"
		case types.Cidr:
			return t, "10.0.0.0/8"
		case types.MacAddr:
			return t, "08:00:2b:01:02:03"
		case types.MacAddr8:
			return t, "08:00:2b:ff:fe:01:02:03"
		case types.RegConfig:
			return t, "english"
		case types.TSVector:
			return t, "'abc':1"
		case types.TSQuery:
			return t, "abc"
		case types.QChar:
			if name == "setweight" || name == "ts_filter" { // a weight
				return t, "a"
			}
		}
		switch name {
		case "extract", "date_part", "date_trunc":
			return t, "day"
		case "ts_lexize": // a dictionary and a word
			return t, "simple"
		case "to_char", "to_number":
			return t, "FM9999"
		case "normalize", "is_normalized": // text and form
			return t, "NFC"
		case "timezone", "make_timestamptz":
			return t, "Europe/Paris"
		case "like", "ilike", "like_escape": // '' is also a valid escape (none)
			return t, ""
		}
		if strings.HasPrefix(name, "regexp_") { // source, pattern, replacement and flags
			return t, "i"
		}
		switch name {
		case "encode", "decode": // format and data
			return t, "escape"
		case "convert", "convert_to", "convert_from":
			return t, "UTF8"
		}
		return t, "abc"
	case types.Name:
		if name == "to_ascii" || name == "length" { // an encoding with a table; length(bytea, name)'s encoding
			return t, "LATIN1"
		}
	case types.Char:
		return types.T{Kind: types.Char, Length: 4}, "ab"
	case types.Oid:
		if t.Variant == types.RegDictionary { // ts_lexize's: simple
			return t, int64(3765)
		}
	case types.Int16, types.Int32, types.Int64:
		if name == "chr" {
			return t, int64(65)
		}
		if strings.HasPrefix(name, "regexp_") || name == "set_bit" { // start, N and endoption 1; a bit
			return t, int64(1)
		}
		return t, int64(2)
	case types.Array:
		// the text search functions' lexeme, weight and rank weight arrays
		if t.Elem != nil && (name == "array_to_tsvector" || name == "setweight" || name == "ts_delete" || name == "ts_filter" || name == "ts_rank" || name == "ts_rank_cd") {
			_, e := sampleValue(name, *t.Elem)
			return t, []any{e, e, e, e}
		}
	case types.Float32, types.Float64:
		switch name {
		case "ts_rank", "ts_rank_cd": // a weight, in 0..1
			return t, 0.5
		case "asin", "acos", "asind", "acosd", "atanh", "setseed": // defined on [-1, 1]
			return t, 0.5
		}
		return t, 2.5
	case types.Decimal:
		return types.NumericType, numeric.MustParse("2.5")
	case types.Bool:
		return t, true
	case types.Bytes:
		if name == "like_escape" { // pattern and escape: '' is a valid escape (none)
			return t, []byte{}
		}
		return t, []byte("abc")
	case types.Date:
		return t, int32(19000)
	case types.Timestamp, types.TimestampTZ:
		return t, int64(1_700_000_000_000_000)
	case types.Interval:
		if name == "timezone" { // a zone: a time span only
			return t, arrow.MonthDayNanoInterval{Nanoseconds: 3_723_000_000_000}
		}
		return t, arrow.MonthDayNanoInterval{Months: 14, Days: 3, Nanoseconds: 3_723_000_000_000}
	case types.Time:
		return t, int64(45_296_000_000) // 12:34:56 in microseconds (precision 6)
	case types.TimeTZ:
		return t, types.TimeTZValue(45_296_000_000, -7200) // 12:34:56+02
	}
	return t, nil
}

// TestEveryFunctionHandlesEmptyBatchesAndNulls runs every overload of the
// catalog over an empty batch and over three rows with a NULL in the
// middle row of each argument in turn: strict functions must give NULL
// exactly there, and no kernel may leak memory.
func TestEveryFunctionHandlesEmptyBatchesAndNulls(t *testing.T) {
	ctx := WithClock(context.Background(), Clock{TransactionStart: time.Unix(1_700_000_000, 0)})
	checked := 0
	for _, name := range Names() {
		if isCatalogFunc(name) {
			continue // need a catalog in the context: catalog_test.go covers them
		}
		if slices.ContainsFunc(sequenceFuncs(), func(f *Func) bool { return f.Name == name }) {
			continue // need a session's sequences: sequences.slt and fluss/embedded/sequences_test.go cover them
		}
		if name != "unistr" && slices.ContainsFunc(sysAdminFuncs(), func(f *Func) bool { return f.Name == name }) {
			continue // NULL or an error by design, or name/xid arguments the samples lack: sysadmin_functions.slt covers them
		}
		if strings.HasPrefix(name, "json") || name == "pg__op_delete_path" || strings.HasPrefix(name, "pg__op_path_") {
			continue // need JSON documents and keys as arguments: json_functions.slt and tests/coverage cover them
		}
		if strings.HasPrefix(name, "pg__json") {
			continue // the sample document depends on the key's type: jsonops_test.go covers them
		}
		if name == "arrayoverlap" || name == "pg__op_overlap" || name == "array_to_json" || strings.HasPrefix(name, "arraycontain") {
			continue // no sample for any-array arguments: json_ops.slt covers them
		}
		if name == "pg__range_intersect_agg" || name == "pg__range_agg" {
			continue // NULL over the sample's empty array, as over no rows: ranges.slt and tests/difftest/ranges_test.go cover it
		}
		if name == "pg__array_min" || name == "pg__array_max" {
			continue // over the arrays one group collected (an array of arrays): arrayminmax_test.go covers them
		}
		if strings.HasPrefix(name, "pg__percentile") || name == "pg__mode" {
			continue // NULL over the sample's empty array, as over no rows: orderedset_test.go covers them
		}
		if strings.HasPrefix(name, "inet_client_") || strings.HasPrefix(name, "inet_server_") {
			continue // NULL without a TCP connection in the context: inet.slt covers them
		}
		for _, f := range Lookup(name) {
			if name == "similar_to_escape" && len(f.Args) == 2 || name == "substring" && len(f.Args) == 3 && f.Args[2].Kind == types.String {
				continue // the sample text is no one-character escape: similar.slt covers them
			}
			if name == "regexp_substr" && len(f.Args) == 6 || name == "width_bucket" {
				// The samples of one type are equal: no pattern with subexpression 1
				// (its text is also the flags), no distinct bounds. regex.slt and
				// bytea_functions.slt cover them.
				continue
			}
			argTypes := make([]types.T, len(f.Args))
			vals := make([]any, len(f.Args))
			for i, a := range f.Args {
				argTypes[i], vals[i] = sampleValue(name, a)
			}
			if len(f.Args) == 2 && f.Args[0].IsGeometric() && f.Args[0].Equal(f.Args[1]) {
				// two equal points make no line, two equal lines or
				// segments have no one crossing (NULL, as PostgreSQL's)
				vals[1] = map[types.Variant]string{types.GeoPoint: "(3,-1)", types.GeoLSeg: "[(0,3),(3,0)]",
					types.GeoLine: "{1,1,-2}", types.GeoBox: "(2,4),(1,-1)", types.GeoPath: "((1,0),(1,3),(4,1))",
					types.GeoPolygon: "((1,0),(1,3),(4,1))", types.GeoCircle: "<(2,0),1>"}[f.Args[1].Variant]
				if name == "path_add" {
					vals[1] = "[(1,0),(1,3),(4,1)]"
				}
			}
			if name == "date_trunc" && len(f.Args) == 3 { // unit, value, zone
				vals[2] = "Europe/Paris"
			}
			if name == "to_tsvector" {
				for i, a := range f.Args { // a json(b) document
					if a.Variant == types.JSONB || a.Variant == types.JSON {
						vals[i] = `{"a": "abc"}`
					}
				}
			}
			if name == "ts_headline" {
				// a json(b) document's sample is a document, and the
				// options are options
				for i, a := range f.Args {
					if a.Variant == types.JSONB || a.Variant == types.JSON {
						vals[i] = `{"a": "abc"}`
					}
				}
				if last := len(f.Args) - 1; f.Args[last].Equal(tText) && f.Args[last-1].Variant == types.TSQuery {
					vals[last] = "MaxWords=5, MinWords=2"
				}
			}
			if f.Variadic { // one extra repetition of the variadic argument
				argTypes = append(argTypes, argTypes[len(argTypes)-1])
				vals = append(vals, vals[len(vals)-1])
			}
			label := fmt.Sprintf("%s(%s)", name, typeList(argTypes))
			t.Run(label, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
				defer mem.AssertSize(t, 0)
				ret, kernel := f.Bind(argTypes, nil)
				for _, n := range []int{0, 1} {
					arrays := make([]arrow.Array, len(argTypes))
					for i := range arrays {
						arrays[i] = constArray(t, mem, vals[i], argTypes[i], n)
					}
					out, err := kernel(ctx, mem, arrays, n)
					release(arrays)
					if sqlerr.CodeOf(err) == sqlerr.FeatureNotSupported {
						return // declared for resolution only
					}
					if err != nil {
						t.Fatalf("n=%d: %v", n, err)
					}
					if out.Len() != n || !arrow.TypeEqual(out.DataType(), ret.ArrowType()) {
						t.Fatalf("n=%d: got %d rows of %s, want %s", n, out.Len(), out.DataType(), ret.ArrowType())
					}
					if n == 1 && out.IsNull(0) {
						t.Fatalf("NULL result for valid arguments")
					}
					out.Release()
				}
				for j := range argTypes {
					arrays := make([]arrow.Array, len(argTypes))
					for i := range arrays {
						if i == j {
							arrays[i] = nullInMiddle(t, mem, vals[i], argTypes[i])
						} else {
							arrays[i] = constArray(t, mem, vals[i], argTypes[i], 3)
						}
					}
					out, err := kernel(ctx, mem, arrays, 3)
					release(arrays)
					if v, _ := types.VariantNamed(name); err != nil && v.IsRange() && j == 2 && sqlerr.CodeOf(err) == sqlerr.DataException {
						continue // a range constructor refuses NULL flags, as PostgreSQL's does
					}
					if v, _ := types.VariantNamed(name); err != nil && v.IsMultirange() && sqlerr.CodeOf(err) == sqlerr.NullValueNotAllowed {
						continue // a multirange constructor refuses a NULL range among several, as PostgreSQL's does
					}
					if err != nil {
						t.Fatalf("NULL in argument %d: %v", j+1, err)
					}
					// a NULL separator; overlaps of equal samples is unknown once a
					// bound is (PostgreSQL's overlaps_timestamp)
					wantNull := f.Strict || (name == "concat_ws" && j == 0) || name == "overlaps"
					if got := out.IsNull(1); got != wantNull {
						t.Errorf("NULL in argument %d: result NULL = %v, want %v", j+1, got, wantNull)
					}
					if out.IsNull(0) || out.IsNull(2) {
						t.Errorf("NULL in argument %d leaked into other rows", j+1)
					}
					out.Release()
				}
			})
			checked++
		}
	}
	if checked < 110 {
		t.Errorf("only %d overloads checked; the catalog shrank?", checked)
	}
}

func nullInMiddle(t *testing.T, mem memory.Allocator, v any, typ types.T) arrow.Array {
	parts := []arrow.Array{constArray(t, mem, v, typ, 1), constArray(t, mem, nil, typ, 1), constArray(t, mem, v, typ, 1)}
	defer release(parts)
	out, err := array.Concatenate(parts, mem)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func release(as []arrow.Array) {
	for _, a := range as {
		a.Release()
	}
}

// run evaluates a resolved function over whole columns (not broadcast
// constants) and returns the rows as text.
func run(t *testing.T, ctx context.Context, name string, consts []any, cols ...arrow.Array) ([]string, error) {
	t.Helper()
	ts := make([]types.T, len(cols))
	for i, c := range cols {
		ts[i] = typeOfArrow(c.DataType())
	}
	f, argTypes, err := Resolve(name, ts)
	if err != nil {
		t.Fatal(err)
	}
	for i := range argTypes {
		if !arrow.TypeEqual(argTypes[i].ArrowType(), cols[i].DataType()) {
			t.Fatalf("%s: argument %d must be cast to %s; the test passes %s", name, i+1, argTypes[i], cols[i].DataType())
		}
	}
	ret, k := f.Bind(argTypes, consts)
	n := 0
	if len(cols) > 0 {
		n = cols[0].Len()
	}
	out, err := k(ctx, memory.DefaultAllocator, cols, n)
	if err != nil {
		return nil, err
	}
	defer out.Release()
	rows := make([]string, out.Len())
	for i := range rows {
		rows[i] = renderText(out, i, ret)
	}
	return rows, nil
}

func typeOfArrow(dt arrow.DataType) types.T {
	switch d := dt.(type) {
	case *arrow.StringType:
		return types.StringType
	case *arrow.Int32Type:
		return types.Int32Type
	case *arrow.Int64Type:
		return types.Int64Type
	case *arrow.Float64Type:
		return types.Float64Type
	case *arrow.BooleanType:
		return types.BoolType
	case *arrow.Decimal128Type:
		return types.DecimalType(int(d.Precision), int(d.Scale))
	case *arrow.TimestampType:
		if d.TimeZone != "" {
			return types.TimestampTZType(6)
		}
		return types.TimestampType(6)
	}
	panic("test: no type for " + dt.String())
}

func strCol(vals ...any) arrow.Array {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	for _, v := range vals {
		if v == nil {
			b.AppendNull()
		} else {
			b.Append(v.(string))
		}
	}
	return b.NewArray()
}

func intCol(vals ...any) arrow.Array {
	b := array.NewInt32Builder(memory.DefaultAllocator)
	defer b.Release()
	for _, v := range vals {
		if v == nil {
			b.AppendNull()
		} else {
			b.Append(int32(v.(int)))
		}
	}
	return b.NewArray()
}

func TestKernelsOverVaryingRows(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		cols []arrow.Array
		want []string
	}{
		{"lower", []arrow.Array{strCol("ABC", nil, "ÀÉÎ", "", "MiXeD ß")}, []string{"abc", "NULL", "àéî", "", "mixed ß"}},
		{"upper", []arrow.Array{strCol("abc", "àéî", nil)}, []string{"ABC", "ÀÉÎ", "NULL"}},
		// all-ASCII columns take the whole-buffer path
		{"lower", []arrow.Array{strCol("ABC", nil, "xYz@[`{ 09", "", "A LONGER STRING OF SEVERAL WORDS")}, []string{"abc", "NULL", "xyz@[`{ 09", "", "a longer string of several words"}},
		{"upper", []arrow.Array{strCol("abc", nil, "xYz@[`{ 09")}, []string{"ABC", "NULL", "XYZ@[`{ 09"}},
		{"lower", []arrow.Array{array.NewSlice(strCol("SKIP", "ABC", "DeF"), 1, 3)}, []string{"abc", "def"}},
		{"substr", []arrow.Array{strCol("hello", "héllo", "x", nil), intCol(2, -1, 5, 1), intCol(3, 4, 1, 1)}, []string{"ell", "hé", "", "NULL"}},
		{"length", []arrow.Array{strCol("日本", "", nil, "abc")}, []string{"2", "0", "NULL", "3"}},
		// the compiled pattern must change with the row's pattern
		{"like", []arrow.Array{strCol("abc", "abc", "abc", "abc", "a%c", nil), strCol("a%", "a%", "%c", "_b_", `a\%c`, "%")}, []string{"true", "true", "true", "true", "true", "NULL"}},
		{"like", []arrow.Array{strCol("abc", "abc", "abc"), strCol("b%", "%b", "a_")}, []string{"false", "false", "false"}},
		{"ilike", []arrow.Array{strCol("ABC", "abc", "Été"), strCol("a%", "%B%", "été")}, []string{"true", "true", "true"}},
		{"concat_ws", []arrow.Array{strCol(",", nil, "-"), strCol("a", "b", nil), intCol(1, 2, 3)}, []string{"a,1", "NULL", "3"}},
		{"split_part", []arrow.Array{strCol("a.b.c", "a.b.c", "a.b.c"), strCol(".", ".", "."), intCol(1, -1, 9)}, []string{"a", "c", ""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := run(t, ctx, tc.name, nil, tc.cols...)
			release(tc.cols)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestRoundNumericWithNonConstantDigits(t *testing.T) {
	b := array.NewDecimal128Builder(memory.DefaultAllocator, &arrow.Decimal128Type{Precision: 10, Scale: 3})
	for _, v := range []int64{1235, -1235, 99999} { // 1.235, -1.235, 99.999
		b.Append(decimalOf(v))
	}
	x := b.NewArray()
	b.Release()
	digits := intCol(2, 1, 0)
	got, err := run(t, context.Background(), "round", nil, x, digits)
	if err != nil {
		t.Fatal(err)
	}
	// as PostgreSQL: each value's scale is its own digit count
	if want := "1.24|-1.2|100"; strings.Join(got, "|") != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// a constant digit count fixes the result scale as PostgreSQL shows it
	got, err = run(t, context.Background(), "round", []any{nil, int64(1)}, x, intCol(1, 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	if want := "1.2|-1.2|100.0"; strings.Join(got, "|") != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestNowFamilyReadsTheSessionClock(t *testing.T) {
	txn := time.Date(2024, 5, 6, 7, 8, 9, 123456000, time.UTC)
	stmt := txn.Add(time.Second)
	ctx := WithClock(context.Background(), Clock{TransactionStart: txn, StatementStart: stmt})
	cases := map[string]string{
		"now":                   "2024-05-06 07:08:09.123456+00",
		"current_timestamp":     "2024-05-06 07:08:09.123456+00",
		"transaction_timestamp": "2024-05-06 07:08:09.123456+00",
		"statement_timestamp":   "2024-05-06 07:08:10.123456+00",
		"localtimestamp":        "2024-05-06 07:08:09.123456",
		"current_date":          "2024-05-06",
	}
	for name, want := range cases {
		f, _, err := Resolve(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !f.Volatile {
			t.Errorf("%s must not be constant-folded", name)
		}
		out, err := f.Kernel(ctx, memory.DefaultAllocator, nil, 2)
		if err != nil {
			t.Fatal(err)
		}
		if got := renderText(out, 1, f.Ret); got != want || out.Len() != 2 {
			t.Errorf("%s = %q (%d rows), want %q", name, got, out.Len(), want)
		}
		out.Release()
	}
	// age(x) counts from midnight of the transaction's day
	got, err := run(t, ctx, "age", nil, tsCol(time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)))
	if err != nil || got[0] != "5 days" {
		t.Errorf("age = %v, %v; want 5 days", got, err)
	}
}

func tsCol(ts ...time.Time) arrow.Array {
	b := array.NewTimestampBuilder(memory.DefaultAllocator, &arrow.TimestampType{Unit: arrow.Microsecond})
	defer b.Release()
	for _, x := range ts {
		b.Append(arrow.Timestamp(x.UnixMicro()))
	}
	return b.NewArray()
}

func TestRandomIsVolatileAndInRange(t *testing.T) {
	f, _, err := Resolve("random", nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := f.Kernel(context.Background(), memory.DefaultAllocator, nil, 1000)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	vals := out.(*array.Float64).Float64Values()
	seen := map[float64]bool{}
	for _, v := range vals {
		if v < 0 || v >= 1 {
			t.Fatalf("random() = %v", v)
		}
		seen[v] = true
	}
	if len(seen) < 990 || !f.Volatile {
		t.Errorf("%d distinct values of 1000; volatile=%v", len(seen), f.Volatile)
	}
}

func TestKernelsRejectMiscastArguments(t *testing.T) {
	f, _, err := Resolve("lower", []types.T{types.StringType})
	if err != nil {
		t.Fatal(err)
	}
	col := intCol(1)
	defer col.Release()
	_, err = f.Kernel(context.Background(), memory.DefaultAllocator, []arrow.Array{col}, 1)
	if sqlerr.CodeOf(err) != sqlerr.InternalError {
		t.Errorf("got %v, want an internal error", err)
	}
	_, err = f.Kernel(context.Background(), memory.DefaultAllocator, []arrow.Array{col}, 2)
	if sqlerr.CodeOf(err) != sqlerr.InternalError {
		t.Errorf("length mismatch: got %v, want an internal error", err)
	}
}
