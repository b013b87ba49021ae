package functions

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// fakeCatalog knows one table "t" (oid 16385) with index t_pkey (16386).
type fakeCatalog struct{}

func (fakeCatalog) Version() string      { return "PostgreSQL 15.8 (sqlgate test)" }
func (fakeCatalog) StartTime() time.Time { return time.Unix(1_700_000_000, 0) }
func (fakeCatalog) Database() string     { return "db" }
func (fakeCatalog) User() string         { return "alice" }
func (fakeCatalog) LookupRelation(_ context.Context, name string) (uint32, bool, error) {
	switch name {
	case "t", "public.t":
		return 16385, true, nil
	case "boom":
		return 0, false, sqlerr.New(sqlerr.Code("58030"), "disk on fire")
	}
	return 0, false, nil
}
func (fakeCatalog) RelationName(_ context.Context, oid uint32) (string, bool, error) {
	switch oid {
	case 16385:
		return "t", true, nil
	case 16386:
		return "t_pkey", true, nil
	}
	return "", false, nil
}
func (fakeCatalog) RelationVisible(_ context.Context, oid uint32) (bool, error) {
	return oid == 16385, nil
}
func (fakeCatalog) RelationSize(_ context.Context, oid uint32) (RelationSize, bool, error) {
	return RelationSize{Main: 8192, Indexes: 16384}, oid == 16385, nil
}
func (fakeCatalog) LookupType(name string) (uint32, bool) {
	if name == "int4" {
		return 23, true
	}
	return 0, false
}
func (fakeCatalog) TypeName(oid uint32) (string, bool) { return "int4", oid == 23 }
func (fakeCatalog) FormatType(oid uint32, typmod int32, has bool) string {
	return fmt.Sprintf("type%d(%d,%v)", oid, typmod, has)
}
func (fakeCatalog) LookupNamespace(name string) (uint32, bool) { return 2200, name == "public" }
func (fakeCatalog) NamespaceName(oid uint32) (string, bool)    { return "public", oid == 2200 }
func (fakeCatalog) RoleName(oid uint32) (string, bool)         { return "alice", oid == 10 }
func (fakeCatalog) IndexDef(_ context.Context, oid uint32, col int, _ bool) (string, bool, error) {
	return fmt.Sprintf("INDEX %d col %d", oid, col), oid == 16386, nil
}
func (fakeCatalog) ConstraintDef(_ context.Context, oid uint32, _ bool) (string, bool, error) {
	return "PRIMARY KEY (id)", oid == 16387, nil
}
func (fakeCatalog) Description(_ context.Context, oid uint32, cat string) (string, bool, error) {
	return "about t", oid == 16385 && (cat == "" || cat == "pg_class"), nil
}
func (fakeCatalog) ColumnDescription(_ context.Context, oid uint32, n int) (string, bool, error) {
	return "col", oid == 16385 && n == 1, nil
}

func (fakeCatalog) FunctionSignature(_ context.Context, oid uint32) (string, string, bool) {
	return "text", "integer, text", oid == 100000
}

func (fakeCatalog) DefaultSetting(name string) (string, bool) {
	return "150008", name == "server_version_num"
}

// arg is a typed argument value (types/value.go's physical values; []any
// for arrays; nil for NULL).
type arg struct {
	t types.T
	v any
}

func txt(s string) arg   { return arg{types.StringType, s} }
func i4(n int64) arg     { return arg{types.Int32Type, n} }
func oid(n int64) arg    { return arg{tOid, n} }
func bl(b bool) arg      { return arg{types.BoolType, b} }
func null(t types.T) arg { return arg{t, nil} }
func arr(vs ...any) arg  { return arg{tTextArr, vs} }

// call resolves and runs name(args...) on one row and renders the result
// (NULL as "∅", arrays as {a,b}).
func call(ctx context.Context, name string, args ...arg) (string, error) {
	mem := memory.NewGoAllocator()
	ts := make([]types.T, len(args))
	for i, a := range args {
		ts[i] = a.t
	}
	f, want, err := Resolve(name, ts)
	if err != nil {
		return "", err
	}
	arrays := make([]arrow.Array, len(args))
	for i, a := range args {
		b := array.NewBuilder(mem, want[i].ArrowType())
		if err := appendCatalogValue(b, a.v); err != nil {
			return "", err
		}
		arrays[i] = b.NewArray()
		b.Release()
	}
	_, k := f.Bind(want, nil)
	out, err := k(ctx, mem, arrays, 1)
	if err != nil {
		return "", err
	}
	return renderValue(rowValue(out, 0)), nil
}

func renderValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "∅"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = renderValue(e)
		}
		return "{" + strings.Join(parts, ",") + "}"
	case int64:
		return fmt.Sprint(x)
	}
	return fmt.Sprint(v)
}

func TestCatalogFunctions(t *testing.T) {
	ctx := WithSession(WithCatalog(context.Background(), fakeCatalog{}), Session{User: "bob", BackendPID: 42,
		Setting: func(name string) (string, bool) { return "Europe/Paris", name == "timezone" }})
	cases := []struct {
		name string
		args []arg
		want string // result, or "ERROR <sqlstate>"
	}{
		{"version", nil, "PostgreSQL 15.8 (sqlgate test)"},
		{"current_user", nil, "bob"},
		{"session_user", nil, "bob"},
		{"current_database", nil, "db"},
		{"current_catalog", nil, "db"},
		{"current_schema", nil, "public"},
		{"current_schemas", []arg{bl(true)}, "{pg_catalog,public}"},
		{"current_schemas", []arg{bl(false)}, "{public}"},
		{"pg_backend_pid", nil, "42"},
		{"pg_is_in_recovery", nil, "false"},
		{"pg_get_userbyid", []arg{oid(10)}, "alice"},
		{"pg_get_userbyid", []arg{oid(77)}, "unknown (OID=77)"},
		{"pg_get_userbyid", []arg{null(tOid)}, "∅"},
		{"pg_table_is_visible", []arg{oid(16385)}, "true"},
		{"pg_table_is_visible", []arg{oid(16386)}, "false"},
		{"pg_table_is_visible", []arg{oid(1)}, "∅"}, // no such relation
		{"pg_get_serial_sequence", []arg{txt("t"), txt("id")}, "∅"},
		{"pg_get_serial_sequence", []arg{txt("nope"), txt("id")}, "ERROR 42P01"},
		{"pg_typeof", []arg{i4(7)}, "23"},                 // a regtype: the OID, printed by the wire
		{"pg_typeof", []arg{null(types.Int32Type)}, "23"}, // a NULL has its type
		{"pg_typeof", []arg{txt("x")}, "25"},
		{"pg_type_is_visible", []arg{oid(23)}, "true"},
		{"pg_type_is_visible", []arg{oid(99999)}, "∅"},
		{"format_type", []arg{oid(23), i4(-1)}, "type23(-1,true)"},
		{"format_type", []arg{oid(1042), null(types.Int32Type)}, "type1042(0,false)"},
		{"format_type", []arg{null(tOid), i4(4)}, "∅"},
		{"pg_get_indexdef", []arg{oid(16386)}, "INDEX 16386 col 0"},
		{"pg_get_indexdef", []arg{oid(16386), i4(1), bl(true)}, "INDEX 16386 col 1"},
		{"pg_get_indexdef", []arg{oid(5)}, "∅"},
		{"pg_get_constraintdef", []arg{oid(16387), bl(true)}, "PRIMARY KEY (id)"},
		{"pg_get_expr", []arg{txt("x"), oid(16385)}, "x"},
		{"pg_get_expr", []arg{txt("(a * 2)"), oid(16385)}, "(a * 2)"},
		{"pg_get_expr", []arg{txt("(a * 2)"), oid(16385), bl(true)}, "a * 2"}, // pretty: no outer brackets
		{"pg_get_expr", []arg{txt("(a * 2)"), oid(16385), bl(false)}, "(a * 2)"},
		{"pg_get_expr", []arg{txt("(a) + (b)"), oid(16385), bl(true)}, "(a) + (b)"},
		{"pg_get_expr", []arg{txt("('(' || s)"), oid(16385), bl(true)}, "'(' || s"},
		{"pg_get_viewdef", []arg{oid(16385)}, "∅"},
		{"obj_description", []arg{oid(16385), arg{tName, "pg_class"}}, "about t"},
		{"obj_description", []arg{oid(16385), arg{tName, "pg_proc"}}, "∅"},
		{"col_description", []arg{oid(16385), i4(1)}, "col"},
		{"col_description", []arg{oid(16385), i4(2)}, "∅"},
		{"to_regclass", []arg{txt("t")}, "16385"},
		{"to_regclass", []arg{txt("nope")}, "∅"},
		{"to_regclass", []arg{txt("boom")}, "ERROR 58030"},
		{"regclass_in", []arg{txt("public.t")}, "16385"},
		{"regclass_in", []arg{txt("1259")}, "1259"},
		{"regclass_in", []arg{txt("nope")}, "ERROR 42P01"},
		{"regclass_out", []arg{oid(16386)}, "t_pkey"},
		{"regclass_out", []arg{oid(99999)}, "99999"},
		{"regtype_in", []arg{txt("int4")}, "23"},
		{"regtype_in", []arg{txt("nope")}, "ERROR 42704"},
		{"to_regtype", []arg{txt("nope")}, "∅"},
		{"regnamespace_in", []arg{txt("public")}, "2200"},
		{"regnamespace_in", []arg{txt("nope")}, "ERROR 3F000"},
		{"to_regnamespace", []arg{txt("nope")}, "∅"},
		{"regnamespace_out", []arg{oid(2200)}, "public"},
		{"pg_relation_size", []arg{oid(16385)}, "8192"},
		{"pg_relation_size", []arg{oid(1)}, "∅"},
		{"pg_database_size", []arg{arg{types.T{Kind: types.Name}, "db"}}, "0"},
		{"pg_database_size", []arg{arg{types.T{Kind: types.Name}, "nope"}}, "ERROR 3D000"},
		{"pg_database_size", []arg{oid(int64(DatabaseOID("db")))}, "0"},
		{"pg_database_size", []arg{oid(5)}, "∅"}, // the one database OID before names were hashed
		{"pg_get_function_sqlbody", []arg{oid(870)}, "∅"},
		{"pg_operator_is_visible", []arg{oid(96)}, "true"},                      // int4 = int4, pg_catalog's
		{"pg_operator_is_visible", []arg{oid(1)}, "∅"},                          // no operator
		{"pg_total_relation_size", []arg{arg{types.UnknownType, "t"}}, "24576"}, // main and indexes
		{"pg_indexes_size", []arg{arg{types.UnknownType, "t"}}, "16384"},
		{"pg_table_size", []arg{oid(16385)}, "8192"},
		{"pg_indexes_size", []arg{oid(1)}, "∅"},
		{"pg_relation_size", []arg{oid(16385), txt("fsm")}, "0"},
		{"pg_relation_size", []arg{oid(16385), txt("heap")}, "ERROR 22023"},
		{"pg_relation_size", []arg{oid(1), txt("heap")}, "∅"}, // the relation first
		{"pg_total_relation_size", []arg{arg{types.UnknownType, "nope"}}, "ERROR 42P01"},
		{"current_setting", []arg{txt("TimeZone")}, "Europe/Paris"},
		{"current_setting", []arg{txt("server_version_num")}, "150008"},
		{"current_setting", []arg{txt("nope")}, "ERROR 42704"},
		{"current_setting", []arg{txt("nope"), bl(true)}, "∅"},
		{"has_table_privilege", []arg{txt("t"), txt("select")}, "true"},
		{"has_table_privilege", []arg{txt("nope"), txt("SELECT")}, "ERROR 42P01"},
		{"has_table_privilege", []arg{txt("t"), txt("fly")}, "ERROR 22023"},
		{"has_table_privilege", []arg{oid(16385), txt("INSERT, UPDATE WITH GRANT OPTION")}, "true"},
		{"has_table_privilege", []arg{oid(12), txt("SELECT")}, "∅"},
		{"has_table_privilege", []arg{arg{tName, "bob"}, txt("t"), txt("SELECT")}, "true"},
		{"has_table_privilege", []arg{arg{tName, "mallory"}, txt("t"), txt("SELECT")}, "ERROR 42704"},
		{"has_schema_privilege", []arg{txt("public"), txt("USAGE")}, "true"},
		{"has_schema_privilege", []arg{txt("nope"), txt("USAGE")}, "ERROR 3F000"},
		{"has_database_privilege", []arg{txt("db"), txt("CONNECT")}, "true"},
		{"has_any_column_privilege", []arg{txt("t"), txt("SELECT")}, "true"},
		{"pg_encoding_to_char", []arg{i4(6)}, "UTF8"},
		{"pg_get_function_result", []arg{oid(100000)}, "text"},
		{"pg_get_function_arguments", []arg{oid(100000)}, "integer, text"},
		{"pg_get_function_arguments", []arg{oid(1)}, "∅"},
		{"array_to_string", []arg{arr("a", nil, "b"), txt(",")}, "a,b"},
		{"array_to_string", []arg{arr("a", nil, "b"), txt(","), txt("*")}, "a,*,b"},
		{"array_upper", []arg{arr("a", "b"), i4(1)}, "2"},
		{"array_upper", []arg{arr(), i4(1)}, "∅"},
		{"array_lower", []arg{arr("a"), i4(1)}, "1"},
		{"array_length", []arg{arr("a", "b"), i4(2)}, "∅"},
		{"cardinality", []arg{arr("a", "b")}, "2"},
		{"string_to_array", []arg{txt("a,b,,c"), txt(",")}, "{a,b,,c}"},
		{"string_to_array", []arg{txt("a,b,,c"), txt(","), txt("")}, "{a,b,∅,c}"},
		{"string_to_array", []arg{txt("abc"), null(types.StringType)}, "{a,b,c}"},
		{"string_to_array", []arg{txt(""), txt(",")}, "{}"},
		{"parse_ident", []arg{txt(`Public."My Table"`)}, "{public,My Table}"},
		{"parse_ident", []arg{txt(`a.`)}, "ERROR 22023"},
		{"parse_ident", []arg{txt(`a b`), bl(false)}, "{a}"},
		{"quote_ident", []arg{txt("abc")}, "abc"},
		{"quote_ident", []arg{txt("Abc")}, `"Abc"`},
		{"quote_ident", []arg{txt("select")}, `"select"`},
		{"quote_ident", []arg{txt(`a"b`)}, `"a""b"`},
		{"quote_literal", []arg{txt(`it's`)}, `'it''s'`},
		{"quote_literal", []arg{txt(`a\b`)}, `E'a\\b'`},
		{"quote_nullable", []arg{null(types.StringType)}, `NULL`},
		{"format", []arg{txt("%s-%I-%L"), txt("a"), txt("B c"), txt("x'y")}, `a-"B c"-'x''y'`},
		{"format", []arg{txt("%2$s %1$s %%"), i4(1), i4(2)}, "2 1 %"},
		{"format", []arg{txt("[%5s|%-3s]"), txt("ab"), txt("c")}, "[   ab|c  ]"},
		{"format", []arg{txt("%s %s"), txt("a")}, "ERROR 22023"},
		{"format", []arg{txt("%L"), null(types.StringType)}, "NULL"},
		{"pg_size_pretty", []arg{{types.Int64Type, int64(10239)}}, "10239 bytes"},
		{"pg_size_pretty", []arg{{types.Int64Type, int64(10240)}}, "10 kB"},
		{"json_build_object", []arg{txt("a"), i4(1), txt("b"), txt("x\"y"), txt("c"), bl(true), txt("d"), null(types.StringType)},
			`{"a" : 1, "b" : "x\"y", "c" : true, "d" : null}`},
		{"json_build_object", []arg{txt("a")}, "ERROR 22023"},
	}
	for _, tc := range cases {
		got, err := call(ctx, tc.name, tc.args...)
		if err != nil {
			got = "ERROR " + string(sqlerr.CodeOf(err))
		}
		if got != tc.want {
			t.Errorf("%s%v = %s, want %s (%v)", tc.name, tc.args, got, tc.want, err)
		}
	}
	// without a catalog in the context, catalog lookups fail loudly
	if _, err := call(context.Background(), "pg_get_userbyid", oid(10)); sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
		t.Errorf("no catalog: %v", err)
	}
	if got, _ := call(context.Background(), "current_user"); got != "sqlgate" {
		t.Errorf("default user %s", got)
	}
	// A session connected under another database name (sqlgate accepts any)
	// has that database too, as current_database() says.
	other := WithSession(WithCatalog(context.Background(), fakeCatalog{}), Session{User: "bob", Database: "postgres"})
	for _, tc := range []struct {
		name string
		args []arg
		want string
	}{
		{"current_database", nil, "postgres"},
		{"has_database_privilege", []arg{txt("postgres"), txt("CONNECT")}, "true"},
		{"has_database_privilege", []arg{txt("db"), txt("CONNECT")}, "true"},
		{"has_database_privilege", []arg{txt("nope"), txt("CONNECT")}, "ERROR 3D000"},
		{"pg_database_size", []arg{arg{types.T{Kind: types.Name}, "postgres"}}, "0"},
	} {
		got, err := call(other, tc.name, tc.args...)
		if err != nil {
			got = "ERROR " + string(sqlerr.CodeOf(err))
		}
		if got != tc.want {
			t.Errorf("connected as postgres: %s%v = %s, want %s (%v)", tc.name, tc.args, got, tc.want, err)
		}
	}
}

// TestCatalogFunctionsNullsAndEmptyBatches runs every catalog overload over
// zero rows and over a row of NULLs: strict ones answer NULL, none fails.
func TestCatalogFunctionsNullsAndEmptyBatches(t *testing.T) {
	ctx := WithCatalog(context.Background(), fakeCatalog{})
	for _, f := range catalogFuncs() {
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		for _, n := range []int{0, 1} {
			arrays := make([]arrow.Array, len(f.Args))
			for i, a := range f.Args {
				if a.Kind == types.Unknown {
					a = types.StringType
				}
				b := array.NewBuilder(mem, a.ArrowType())
				for k := 0; k < n; k++ {
					b.AppendNull()
				}
				arrays[i] = b.NewArray()
				b.Release()
			}
			_, k := f.Bind(f.Args, nil)
			out, err := k(ctx, mem, arrays, n)
			for _, a := range arrays {
				a.Release()
			}
			if err != nil {
				if f.Name == "json_build_object" && sqlerr.CodeOf(err) == sqlerr.InvalidParameterValue {
					continue // one argument: an odd key/value list is an error in PostgreSQL too
				}
				if f.Name == "array_fill" && sqlerr.CodeOf(err) == sqlerr.NullValueNotAllowed {
					continue // a NULL dimension array is 22004 in PostgreSQL too (array_fill is not strict)
				}
				t.Errorf("%s%v n=%d: %v", f.Name, f.Args, n, err)
				continue
			}
			if out.Len() != n {
				t.Errorf("%s: %d rows for %d", f.Name, out.Len(), n)
			}
			if n == 1 && f.Strict && len(f.Args) > 0 && !out.IsNull(0) {
				t.Errorf("%s%v: strict function answered %v for NULL", f.Name, f.Args, out)
			}
			out.Release()
		}
		mem.AssertSize(t, 0)
	}
}

// TestCatalogFunctionsMatchPostgres compares the catalog-independent
// functions with PostgreSQL 15.
func TestCatalogFunctionsMatchPostgres(t *testing.T) {
	conn := sharedPG.Conn(t)
	ctx := context.Background()
	cases := []struct {
		sql  string
		name string
		args []arg
	}{
		{"quote_ident('abc')", "quote_ident", []arg{txt("abc")}},
		{"quote_ident('a b')", "quote_ident", []arg{txt("a b")}},
		{"quote_ident('Abc')", "quote_ident", []arg{txt("Abc")}},
		{"quote_ident('user')", "quote_ident", []arg{txt("user")}},
		{"quote_ident('_x1$')", "quote_ident", []arg{txt("_x1$")}},
		{"quote_ident('1x')", "quote_ident", []arg{txt("1x")}},
		{`quote_literal('it''s')`, "quote_literal", []arg{txt("it's")}},
		{`quote_literal('a\b')`, "quote_literal", []arg{txt(`a\b`)}},
		{`format('%s|%I|%L|%%', 'a', 'B', 'c''d')`, "format", []arg{txt("%s|%I|%L|%%"), txt("a"), txt("B"), txt("c'd")}},
		{`format('%3$s %1$s %s', 'a', 'b', 'c')`, "format", []arg{txt("%3$s %1$s %s"), txt("a"), txt("b"), txt("c")}},
		{`format('[%-4s][%4s]', 'ab', 'cd')`, "format", []arg{txt("[%-4s][%4s]"), txt("ab"), txt("cd")}},
		{`array_to_string(parse_ident('a."B c".d'), '|')`, "", nil},
		{`array_to_string(string_to_array('x;y;;z', ';', ''), ',', 'N')`, "", nil},
		{`json_build_object('a', 1, 'b', 'x"y', 'c', true, 'd', null::text)::text`, "json_build_object",
			[]arg{txt("a"), i4(1), txt("b"), txt(`x"y`), txt("c"), bl(true), txt("d"), null(types.StringType)}},
	}
	for _, size := range []int64{0, 1, 10239, 10240, 10752, 20479, 20480, 1 << 20, 10485759, 10485760, 123456789012, -10240, -20480, 1 << 50} {
		cases = append(cases, struct {
			sql  string
			name string
			args []arg
		}{fmt.Sprintf("pg_size_pretty(%d::bigint)", size), "pg_size_pretty", []arg{{types.Int64Type, size}}})
	}
	for _, tc := range cases {
		var want string
		if err := conn.QueryRow(ctx, "SELECT "+tc.sql).Scan(&want); err != nil {
			t.Fatalf("%s on PostgreSQL: %v", tc.sql, err)
		}
		var got string
		switch tc.sql {
		case `array_to_string(parse_ident('a."B c".d'), '|')`:
			v, err := call(ctx, "parse_ident", txt(`a."B c".d`))
			if err != nil {
				t.Fatal(err)
			}
			got = strings.ReplaceAll(strings.Trim(v, "{}"), ",", "|")
		case `array_to_string(string_to_array('x;y;;z', ';', ''), ',', 'N')`:
			v, err := call(ctx, "string_to_array", txt("x;y;;z"), txt(";"), txt(""))
			if err != nil {
				t.Fatal(err)
			}
			got = strings.ReplaceAll(strings.Trim(v, "{}"), "∅", "N")
		default:
			var err error
			if got, err = call(ctx, tc.name, tc.args...); err != nil {
				t.Fatalf("%s: %v", tc.sql, err)
			}
		}
		if got != want {
			t.Errorf("%s = %q, PostgreSQL says %q", tc.sql, got, want)
		}
	}
}
