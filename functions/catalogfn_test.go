package functions

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// procCatalog is fakeCatalog with three functions in pg_proc: upper(text)
// 900, round(numeric) 901, round(numeric, int4) 902.
type procCatalog struct{ fakeCatalog }

func (procCatalog) FunctionOIDs(name string) []uint32 {
	return map[string][]uint32{"upper": {900}, "round": {901, 902}}[name]
}
func (procCatalog) FunctionProc(oid uint32) (string, []uint32, bool) {
	switch oid {
	case 900:
		return "upper", []uint32{25}, true
	case 901:
		return "round", []uint32{1700}, true
	case 902:
		return "round", []uint32{1700, 23}, true
	}
	return "", nil, false
}
func (procCatalog) LookupType(name string) (uint32, bool) {
	o, ok := map[string]uint32{"text": 25, "numeric": 1700, "int4": 23, "integer": 23}[name]
	return o, ok
}
func (procCatalog) FormatType(oid uint32, _ int32, _ bool) string {
	return map[uint32]string{25: "text", 1700: "numeric", 23: "integer"}[oid]
}

func TestRegproc(t *testing.T) {
	ctx := WithCatalog(context.Background(), procCatalog{})
	cases := []struct {
		name string
		args []arg
		want string // result, or "ERROR <sqlstate>"
	}{
		{"regproc_in", []arg{txt("upper")}, "900"},
		{"regproc_in", []arg{txt("pg_catalog.upper")}, "900"},
		{"regproc_in", []arg{txt(`"upper"`)}, "900"},
		{"regproc_in", []arg{txt("round")}, "ERROR 42725"},
		{"regproc_in", []arg{txt("nope")}, "ERROR 42883"},
		{"regproc_in", []arg{txt("myschema.upper")}, "ERROR 42883"},
		{"regproc_in", []arg{txt("1234")}, "1234"},
		{"regproc_in", []arg{txt("-")}, "0"},
		{"to_regproc", []arg{txt("nope")}, "∅"},
		{"to_regproc", []arg{txt("round")}, "∅"},
		{"regproc_out", []arg{oid(902)}, "round"},
		{"regproc_out", []arg{oid(0)}, "-"},
		{"regproc_out", []arg{oid(77)}, "77"},
		{"regprocedure_in", []arg{txt("upper(text)")}, "900"},
		{"regprocedure_in", []arg{txt("round(numeric, integer)")}, "902"},
		{"regprocedure_in", []arg{txt("round ( numeric )")}, "901"},
		{"regprocedure_in", []arg{txt("round()")}, "ERROR 42883"},
		{"regprocedure_in", []arg{txt("upper(nosuchtype)")}, "ERROR 42704"},
		{"regprocedure_in", []arg{txt("upper")}, "ERROR 22P02"},
		{"to_regprocedure", []arg{txt("upper(int4)")}, "∅"},
		{"to_regprocedure", []arg{txt("upper(text)")}, "900"},
		{"regprocedure_out", []arg{oid(902)}, "round(numeric,integer)"},
		{"regprocedure_out", []arg{oid(0)}, "-"},
		{"regprocedure_out", []arg{oid(77)}, "77"},
	}
	for _, tc := range cases {
		got, err := call(ctx, tc.name, tc.args...)
		if err != nil {
			got = "ERROR " + string(sqlerr.CodeOf(err))
		}
		if got != tc.want {
			t.Errorf("%s%v = %q, want %q (%v)", tc.name, tc.args, got, tc.want, err)
		}
	}
	// without a Procs catalog every name is unknown
	if _, err := call(WithCatalog(context.Background(), fakeCatalog{}), "regproc_in", txt("upper")); sqlerr.CodeOf(err) != sqlerr.UndefinedFunction {
		t.Errorf("regproc_in without pg_proc: %v", err)
	}
}

func TestRowToJSON(t *testing.T) {
	ctx := context.Background()
	rt := types.T{Kind: types.Row, Fields: []types.Field{
		{Name: "a", Type: types.Int32Type}, {Name: "b", Type: types.StringType}, {Name: "c", Type: types.BoolType},
		{Name: "d", Type: types.ArrayOf(types.Int32Type)}, {Name: "e", Type: types.Float64Type},
		{Name: "q\"", Type: types.StringType},
	}}
	row := arg{rt, []any{int64(1), "x\ny", true, []any{int64(1), nil}, 2.5, nil}}
	cases := []struct {
		name string
		args []arg
		want string
	}{
		{"row_to_json", []arg{row}, `{"a":1,"b":"x\ny","c":true,"d":[1,null],"e":2.5,"q\"":null}`},
		{"row_to_json", []arg{row, bl(true)}, "{\"a\":1,\n \"b\":\"x\\ny\",\n \"c\":true,\n \"d\":[1,null],\n \"e\":2.5,\n \"q\\\"\":null}"},
		{"row_to_json", []arg{null(rt)}, "∅"},
		{"to_json", []arg{arr("a", nil)}, `["a",null]`},
		{"to_json", []arg{{types.Float64Type, 0.1}}, "0.1"},
		{"json_build_object", []arg{txt("k"), arr("a")}, `{"k" : ["a"]}`},
	}
	for _, tc := range cases {
		got, err := call(ctx, tc.name, tc.args...)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got != tc.want {
			t.Errorf("%s(%v) = %q, want %q", tc.name, tc.args, got, tc.want)
		}
	}
	if _, err := call(ctx, "row_to_json", i4(1)); sqlerr.CodeOf(err) != sqlerr.UndefinedFunction {
		t.Errorf("row_to_json(int) = %v, want 42883", err)
	}
}

// TestKeywordsMatchPostgres compares pg_get_keywords() and quote_ident's
// reserved words with PostgreSQL 15's.
func TestKeywordsMatchPostgres(t *testing.T) {
	conn := sharedPG.Conn(t)
	ctx := context.Background()
	rows, err := conn.Query(ctx, "SELECT word, catcode::text, barelabel, catdesc, baredesc FROM pg_get_keywords() ORDER BY word")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for rows.Next() {
		var w, c, cd, bd string
		var bare bool
		if err := rows.Scan(&w, &c, &bare, &cd, &bd); err != nil {
			t.Fatal(err)
		}
		want = append(want, fmt.Sprint(w, c, bare, cd, bd))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	sf, err := ResolveSetFunc("pg_get_keywords", nil)
	if err != nil {
		t.Fatal(err)
	}
	next, err := sf.Rows(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for {
		v, ok, err := next()
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			break
		}
		got = append(got, fmt.Sprint(v.([]any)...))
	}
	if len(got) != len(want) {
		t.Fatalf("%d keywords, PostgreSQL has %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("keyword %d: %q, PostgreSQL %q", i, got[i], want[i])
		}
	}
	if _, err := ResolveSetFunc("pg_get_keywords", []types.T{types.Int32Type}); sqlerr.CodeOf(err) != sqlerr.UndefinedFunction {
		t.Errorf("pg_get_keywords(int) = %v, want 42883", err)
	}
}

// TestParseIdentMatchesPostgres runs parse_ident over odd inputs on both.
func TestParseIdentMatchesPostgres(t *testing.T) {
	conn := sharedPG.Conn(t)
	ctx := context.Background()
	for _, in := range []string{"a.b", ` A . "B c" `, "a.b(", "a.b(c)", "a$b.c1", "1a", "a..b", "a.", `"".a`, "x y", "é.ü", "Ém.X", `"a"b`, "a.b ", ""} {
		for _, strict := range []bool{true, false} {
			var want string
			pgErr := conn.QueryRow(ctx, "SELECT array_to_string(parse_ident($1, $2), '|')", in, strict).Scan(&want)
			v, err := call(ctx, "parse_ident", txt(in), bl(strict))
			if (pgErr != nil) != (err != nil) {
				t.Errorf("parse_ident(%q, %v): error %v, PostgreSQL %v", in, strict, err, pgErr)
				continue
			}
			if err == nil {
				if got := strings.ReplaceAll(strings.Trim(v, "{}"), ",", "|"); got != want {
					t.Errorf("parse_ident(%q, %v) = %q, PostgreSQL %q", in, strict, got, want)
				}
			} else if sqlerr.CodeOf(err) != sqlerr.InvalidParameterValue {
				t.Errorf("parse_ident(%q, %v): %v, want 22023", in, strict, err)
			}
		}
	}
}

// TestSizePrettyNumericMatchesPostgres: pg_size_pretty(numeric), which
// pg_size_pretty(sum(bigint)) calls.
func TestSizePrettyNumericMatchesPostgres(t *testing.T) {
	conn := sharedPG.Conn(t)
	ctx := context.Background()
	for _, c := range []struct {
		text  string
		n     int64 // unscaled
		scale int
	}{
		{"0", 0, 0}, {"1023.5", 10235, 1}, {"10239.9", 102399, 1}, {"10240", 10240, 0}, {"10752.7", 107527, 1},
		{"-10752.7", -107527, 1}, {"20479.5", 204795, 1}, {"123456789012.5", 1234567890125, 1},
		{"-0.5", -5, 1}, {"1.50", 150, 2}, {"9223372036854775807", 9223372036854775807, 0},
		{"92233720368547758.07", 9223372036854775807, 2},
	} {
		var want string
		if err := conn.QueryRow(ctx, "SELECT pg_size_pretty("+c.text+"::numeric)").Scan(&want); err != nil {
			t.Fatal(err)
		}
		got, err := call(ctx, "pg_size_pretty", arg{types.DecimalType(38, c.scale), decimal128.FromI64(c.n)})
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("pg_size_pretty(%s::numeric) = %q, PostgreSQL %q", c.text, got, want)
		}
	}
}
