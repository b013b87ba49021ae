package functions

import (
	"context"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

func TestResolvePicksPostgreSQLsOverload(t *testing.T) {
	dec102 := types.DecimalType(10, 2)
	vc := types.T{Kind: types.String, Length: 5}
	ch := types.T{Kind: types.Char, Length: 3}
	cases := []struct {
		name     string
		args     []types.T
		wantArgs []types.T // the types the caller must cast to
		wantRet  types.T
	}{
		// integers prefer double precision, the numeric category's preferred type
		{"round", []types.T{types.Int32Type}, []types.T{types.Float64Type}, types.Float64Type},
		{"round", []types.T{types.Int32Type, types.Int32Type}, []types.T{types.NumericType, types.Int32Type}, types.NumericType},
		// a decimal argument keeps its own type: no scale is lost by the cast
		{"round", []types.T{dec102}, []types.T{dec102}, types.DecimalType(0, 0)},
		{"abs", []types.T{dec102}, []types.T{dec102}, types.NumericType},
		{"abs", []types.T{types.Int16Type}, []types.T{types.Int16Type}, types.Int16Type},
		{"abs", []types.T{{Kind: types.Int8}}, []types.T{{Kind: types.Int8}}, types.Int16Type},
		// unknown literals: numeric category resolves to its preferred type
		{"abs", []types.T{types.UnknownType}, []types.T{types.Float64Type}, types.Float64Type},
		{"sqrt", []types.T{types.NullType}, []types.T{types.Float64Type}, types.Float64Type},
		// mod(int2, int4): int4 is the closest common overload
		{"mod", []types.T{types.Int16Type, types.Int32Type}, []types.T{types.Int32Type, types.Int32Type}, types.Int32Type},
		{"power", []types.T{types.Int32Type, dec102}, []types.T{types.NumericType, dec102}, types.NumericType},
		// strings: varchar and char become text; unknown becomes text
		{"lower", []types.T{vc}, []types.T{types.StringType}, types.StringType},
		{"length", []types.T{ch}, []types.T{types.StringType}, types.Int32Type},
		{"substr", []types.T{types.UnknownType, types.Int16Type}, []types.T{types.StringType, types.Int32Type}, types.StringType},
		// variadic "any": arguments keep their types
		{"concat", []types.T{types.Int32Type, types.BoolType, types.UnknownType}, []types.T{types.Int32Type, types.BoolType, types.StringType}, types.StringType},
		{"concat_ws", []types.T{types.UnknownType, dec102}, []types.T{types.StringType, dec102}, types.StringType},
		// date arguments go to timestamptz (the datetime category's preferred type)
		{"date_trunc", []types.T{types.UnknownType, types.DateType}, []types.T{types.StringType, types.TimestampTZType(6)}, types.TimestampTZType(6)},
		{"date_trunc", []types.T{types.StringType, types.TimestampType(3)}, []types.T{types.StringType, types.TimestampType(3)}, types.TimestampType(6)},
		{"extract", []types.T{types.StringType, types.DateType}, []types.T{types.StringType, types.DateType}, types.NumericType},
		// case-insensitive names
		{"LOWER", []types.T{types.StringType}, []types.T{types.StringType}, types.StringType},
	}
	for _, tc := range cases {
		t.Run(tc.name+"("+typeList(tc.args)+")", func(t *testing.T) {
			f, argTypes, err := Resolve(tc.name, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if len(argTypes) != len(tc.wantArgs) {
				t.Fatalf("got %d argument types, want %d", len(argTypes), len(tc.wantArgs))
			}
			for i := range argTypes {
				if !argTypes[i].Equal(tc.wantArgs[i]) {
					t.Errorf("argument %d: cast to %s, want %s", i+1, argTypes[i], tc.wantArgs[i])
				}
			}
			if pgTypeOf(f.Ret) != pgTypeOf(tc.wantRet) {
				t.Errorf("returns %s, want %s", f.Ret.PGName(), tc.wantRet.PGName())
			}
		})
	}
}

func TestResolveErrors(t *testing.T) {
	cases := []struct {
		name string
		args []types.T
		code sqlerr.Code
		msg  string
	}{
		{"lower", []types.T{types.Int32Type}, sqlerr.UndefinedFunction, "function lower(integer) does not exist"},
		{"nosuch", nil, sqlerr.UndefinedFunction, "function nosuch() does not exist"},
		{"substr", []types.T{types.StringType, types.Float64Type}, sqlerr.UndefinedFunction, "function substr(text, double precision) does not exist"},
		{"Lower", []types.T{types.NullType, types.T{Kind: types.String, Length: 3}}, sqlerr.UndefinedFunction, "function lower(unknown, character varying) does not exist"},
		{"concat", nil, sqlerr.UndefinedFunction, "function concat() does not exist"},
		{"date_part", []types.T{types.UnknownType, types.UnknownType}, "42725", "function date_part(unknown, unknown) is not unique"},
	}
	for _, tc := range cases {
		_, _, err := Resolve(tc.name, tc.args)
		e := sqlerr.As(err)
		if e == nil || e.Code != tc.code || e.Message != tc.msg {
			t.Errorf("%s: got %v, want %s %q", tc.name, err, tc.code, tc.msg)
			continue
		}
		if tc.code == sqlerr.UndefinedFunction && e.Hint != "No function matches the given name and argument types. You might need to add explicit type casts." {
			t.Errorf("%s: hint %q", tc.name, e.Hint)
		}
	}
}

// TestCommonTypeAgainstPostgreSQL checks CommonType's choice and errors
// against PostgreSQL's CASE.
func TestCommonTypeAgainstPostgreSQL(t *testing.T) {
	cases := [][]lit{
		{"i:1", "b:2"}, {"i:1", "n:2.5"}, {"n:1.5", "f:2"}, {"s:1", "i:2"}, {"u:1", "i:2"}, {"u:a", "u:b"},
		{"null:t", "i:1"}, {"i:1", "t:a"}, {"t:a", "c3:b"}, {"c3:a", "t:b"}, {"d:2024-01-01", "ts:2024-01-01"},
		{"ts:2024-01-01", "tz:2024-01-01 00:00:00+00"}, {"d:2024-01-01", "i:1"}, {"bool:true", "u:false"},
		{"bool:true", "i:1"}, {"r:1", "f:1"}, {"r:1", "n:1.5"}, {"i:1", "u:x", "t:y"},
	}
	conn := sharedPG.Conn(t)
	ctx := context.Background()
	for _, tc := range cases {
		var whens []string
		ts := make([]types.T, len(tc))
		for i, a := range tc {
			whens = append(whens, "WHEN random() > 2 THEN "+a.pgLiteral())
			ts[i], _, _ = a.parse()
		}
		sql := "SELECT 'x', pg_typeof(CASE " + strings.Join(whens, " ") + " END)::text"
		t.Run(sql, func(t *testing.T) {
			want := queryPG(ctx, t, conn, sql)
			got, err := CommonType("CASE", ts)
			if want.code != "" {
				e := sqlerr.As(err)
				if e == nil || e.Code != want.code || e.Message != want.msg {
					t.Fatalf("got %v (%v), PostgreSQL %s %q", got, err, want.code, want.msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("got %v, PostgreSQL %s", err, want.typName)
			}
			if got.PGName() != want.typName {
				t.Fatalf("got %s, PostgreSQL %s", got.PGName(), want.typName)
			}
		})
	}
}

func TestCommonTypeMergesTypmods(t *testing.T) {
	got, err := CommonType("COALESCE", []types.T{types.DecimalType(5, 2), types.Int32Type, types.DecimalType(12, 4)})
	if err != nil {
		t.Fatal(err)
	}
	// PostgreSQL keeps a typmod only when every input has the same one
	if want := types.NumericType; !got.Equal(want) {
		t.Errorf("got %s, want %s", got, want)
	}
	got, _ = CommonType("COALESCE", []types.T{types.DecimalType(12, 4), types.DecimalType(12, 4)})
	if want := types.DecimalType(12, 4); !got.Equal(want) {
		t.Errorf("got %s, want %s", got, want)
	}
	got, _ = CommonType("CASE", []types.T{types.TimestampType(3), types.TimestampType(6)})
	if got.Precision != 6 {
		t.Errorf("timestamp precision %d, want 6", got.Precision)
	}
	got, _ = CommonType("CASE", []types.T{{Kind: types.String, Length: 3}, {Kind: types.String, Length: 5}})
	if got.Length != -1 || got.Kind != types.String {
		t.Errorf("varchar(3)/varchar(5) gave %s, want varchar without a limit (not text)", got)
	}
	got, _ = CommonType("GREATEST", []types.T{{Kind: types.String, Length: 3}, types.UnknownType})
	if got.Length != -1 || got.Kind != types.String {
		t.Errorf("varchar(3)/unknown gave %s, want varchar without a limit", got)
	}
	got, _ = CommonType("CASE", []types.T{types.UnknownType, types.NullType})
	if got.Kind != types.String {
		t.Errorf("all-unknown gave %s, want text", got)
	}
}

// TestCommonTypeOfArrays: arrays are resolved by their elements, as
// PostgreSQL's array coercions are (psql: SELECT pg_typeof(x) FROM
// (SELECT ARRAY[1] x UNION SELECT ARRAY[2.5]) s is numeric[]), and an
// array keeps its elements' typmod only when every input has it.
func TestCommonTypeOfArrays(t *testing.T) {
	arr := types.ArrayOf
	for _, tc := range []struct {
		in   []types.T
		want types.T
		code string
	}{
		{in: []types.T{arr(types.Int32Type), arr(types.NumericType)}, want: arr(types.NumericType)},
		{in: []types.T{arr(types.DecimalType(2, 1)), arr(types.Int32Type)}, want: arr(types.NumericType)},
		{in: []types.T{arr(types.DecimalType(5, 2)), arr(types.DecimalType(5, 2))}, want: arr(types.DecimalType(5, 2))},
		{in: []types.T{arr(types.Int16Type), arr(types.Int64Type), arr(types.Int32Type)}, want: arr(types.Int64Type)},
		{in: []types.T{arr(types.Float32Type), arr(types.NumericType)}, want: arr(types.Float32Type)},
		{in: []types.T{arr(types.DateType), arr(types.TimestampTZType(6))}, want: arr(types.TimestampTZType(6))},
		// the first of two string types that convert to each other; a
		// limit that not every input has is dropped
		{in: []types.T{arr(types.T{Kind: types.String, Length: 3}), arr(types.StringType)}, want: arr(types.T{Kind: types.String, Length: -1})},
		{in: []types.T{arr(types.StringType), arr(types.T{Kind: types.String, Length: 3})}, want: arr(types.StringType)},
		{in: []types.T{types.UnknownType, arr(types.JSONBType)}, want: arr(types.JSONBType)},
		{in: []types.T{arr(types.Int32Type), arr(types.StringType)}, code: "42846"},
		{in: []types.T{arr(types.JSONBType), arr(types.JSONType)}, code: "42846"},
		{in: []types.T{arr(types.UUIDType), arr(types.StringType)}, code: "42846"},
		{in: []types.T{arr(types.Int32Type), types.Int32Type}, code: "42804"},
		{in: []types.T{types.JSONBType, types.StringType}, code: "42804"},
	} {
		got, err := CommonType("UNION", tc.in)
		if tc.code != "" {
			if e := sqlerr.As(err); e == nil || string(e.Code) != tc.code {
				t.Errorf("%v: got %s (%v), want %s", tc.in, got, err, tc.code)
			}
			continue
		}
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("%v: got %s (%v), want %s", tc.in, got, err, tc.want)
		}
	}
}

// TestCommonTypeOfRecords checks commonRecord: anonymous records (and
// arrays of them) unify field by field, unknown fields taking the
// others' types and the first record's names; other shapes are 0A000.
func TestCommonTypeOfRecords(t *testing.T) {
	rec := func(ts ...types.T) types.T {
		fs := make([]types.Field, len(ts))
		for i, ft := range ts {
			fs[i] = types.Field{Name: string(rune('a' + i)), Type: ft}
		}
		return types.T{Kind: types.Row, Variant: types.AnonRecord, Fields: fs}
	}
	for _, tc := range []struct {
		name string
		in   []types.T
		want types.T
		code sqlerr.Code
	}{
		{"int and numeric", []types.T{rec(types.Int32Type, types.StringType), rec(types.NumericType, types.StringType)}, rec(types.NumericType, types.StringType), ""},
		{"unknown field", []types.T{rec(types.Int32Type, types.UnknownType), rec(types.Int64Type, types.Int32Type)}, rec(types.Int64Type, types.Int32Type), ""},
		{"all unknown field", []types.T{rec(types.UnknownType), rec(types.UnknownType)}, rec(types.StringType), ""},
		{"NULL input", []types.T{types.NullType, rec(types.BoolType)}, rec(types.BoolType), ""},
		{"nested", []types.T{rec(rec(types.Int32Type)), rec(rec(types.NumericType))}, rec(rec(types.NumericType)), ""},
		{"arrays", []types.T{types.ArrayOf(rec(types.Int32Type)), types.ArrayOf(rec(types.Float64Type))}, types.ArrayOf(rec(types.Float64Type)), ""},
		{"field counts", []types.T{rec(types.Int32Type), rec(types.Int32Type, types.Int32Type)}, types.T{}, sqlerr.FeatureNotSupported},
		{"field types", []types.T{rec(types.BoolType), rec(types.Int32Type)}, types.T{}, sqlerr.FeatureNotSupported},
		{"record and integer", []types.T{rec(types.Int32Type), types.Int32Type}, types.T{}, sqlerr.DatatypeMismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CommonType("COALESCE", tc.in)
			if tc.code != "" {
				if e := sqlerr.As(err); e == nil || e.Code != tc.code {
					t.Fatalf("got %v (%v), want %s", got, err, tc.code)
				}
				return
			}
			if err != nil || !got.Equal(tc.want) {
				t.Fatalf("got %v (%v), want %v", got, err, tc.want)
			}
		})
	}
}
