package binder_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// cxCatalog is catalog() plus a table with MAP, ROW and ARRAY columns:
// cx(id int NOT NULL PK, m map<string, int>, r row<a int, b string>,
// arr array<int>, nr row<x int NOT NULL, y array<string>, z row<p double,
// q map<int, string>>>).
func cxCatalog() fakeCatalog {
	c := catalog()
	nn := func(t types.T) types.T { t.NotNull = true; return t }
	ptr := func(t types.T) *types.T { return &t }
	row := func(fs ...types.Field) types.T { return types.T{Kind: types.Row, Fields: fs} }
	mapOf := func(k, v types.T) types.T { return types.T{Kind: types.Map, Key: ptr(nn(k)), Elem: ptr(v)} }
	c["cx"] = fluss.TableInfo{Path: fluss.TablePath{Database: "public", Table: "cx"}, TableID: 3, Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{
		Columns: []fluss.Column{
			{Name: "id", Type: nn(types.Int32Type)},
			{Name: "m", Type: mapOf(types.StringType, types.Int32Type)},
			{Name: "r", Type: row(types.Field{Name: "a", Type: types.Int32Type}, types.Field{Name: "b", Type: types.StringType})},
			{Name: "arr", Type: types.ArrayOf(types.Int32Type)},
			{Name: "nr", Type: row(
				types.Field{Name: "x", Type: nn(types.Int32Type)},
				types.Field{Name: "y", Type: types.ArrayOf(types.StringType)},
				types.Field{Name: "z", Type: row(types.Field{Name: "p", Type: types.Float64Type}, types.Field{Name: "q", Type: mapOf(types.Int32Type, types.StringType)})},
			)},
		},
		PrimaryKey: []string{"id"},
	}}}
	return c
}

func bindCx(t *testing.T, text string) (binder.Statement, error) {
	t.Helper()
	stmts, err := sql.NewParser().Parse(text)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		t.Fatalf("%q: %d statements", text, len(stmts))
	}
	return binder.Bind(context.Background(), cxCatalog(), stmts[0], nil)
}

func TestRowAndMapValuesBind(t *testing.T) {
	cases := []struct {
		sql   string
		names []string
		types []string
	}{
		{"SELECT ROW(1, 'x'), ROW(1), (2, 3.5)", []string{"row", "row", "?column?"},
			[]string{"row<f1 int, f2 string>", "row<f1 int>", "row<f1 int, f2 numeric>"}},
		{"SELECT MAP['a', 1, 'b', 2], MAP[1, 'x'], MAP['k', ARRAY[1]]", []string{"map", "map", "map"},
			[]string{"map<string NOT NULL, int>", "map<int NOT NULL, string>", "map<string NOT NULL, array<int>>"}},
		{"SELECT MAP['a', 1, 'b', 2.5], MAP['a', NULL], MAP[]", []string{"map", "map", "map"},
			[]string{"map<string NOT NULL, numeric>", "map<string NOT NULL, string>", "map<string NOT NULL, string>"}},
		{"SELECT (ROW(1, 'x')).f2, MAP['a', 1]['a'], ROW(1, ARRAY[2])", []string{"f2", "map", "row"},
			[]string{"string", "int", "row<f1 int, f2 array<int>>"}},
		{"SELECT '{\"a\": 1}'::map<string, bigint>, MAP[]::map<string, int>, ROW(1, 'x')::row<a bigint, b string>", []string{"map", "map", "row"},
			[]string{"map<string NOT NULL, bigint>", "map<string NOT NULL, int>", "row<a bigint, b string>"}},
		{"SELECT cardinality(m), map_keys(m), map_values(m), r::text, m::text FROM cx", []string{"cardinality", "map_keys", "map_values", "r", "m"},
			[]string{"int", "array<string>", "array<int>", "string", "string"}},
	}
	for _, c := range cases {
		st, err := bindCx(t, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		cols := st.(*binder.Query).Plan.Columns()
		if len(cols) != len(c.names) {
			t.Errorf("%s: %d columns, want %d", c.sql, len(cols), len(c.names))
			continue
		}
		for i, col := range cols {
			if col.T.String() != c.types[i] {
				t.Errorf("%s: column %d is %s %s, want %s %s", c.sql, i, col.Name, col.T, c.names[i], c.types[i])
			}
		}
	}
}

// TestRowAndMapAssignment: constructors and text assigned to MAP and ROW
// columns are re-typed per field, entry, key and value; mistakes fail at
// bind time with PostgreSQL's codes.
func TestRowAndMapAssignment(t *testing.T) {
	cases := []struct {
		sql  string
		want any // the bound constant of the column written, if checked
		col  int
		code sqlerr.Code
	}{
		{sql: "INSERT INTO cx (id, r) VALUES (1, ROW(1, 'x'))", col: 2, want: []any{int64(1), "x"}},
		{sql: "INSERT INTO cx (id, r) VALUES (1, ROW('5', 7))", col: 2, want: []any{int64(5), "7"}},
		{sql: "INSERT INTO cx (id, r) VALUES (1, (2.6, NULL))", col: 2, want: []any{int64(3), nil}},
		{sql: "INSERT INTO cx (id, r) VALUES (1, '{\"a\": 4, \"b\": \"q\"}')", col: 2, want: []any{int64(4), "q"}},
		{sql: "INSERT INTO cx (id, r) VALUES (1, '[4, null]')", col: 2, want: []any{int64(4), nil}},
		{sql: "INSERT INTO cx (id, m) VALUES (1, MAP['a', 1, 'b', '2'])", col: 1,
			want: []types.MapEntry{{Key: "a", Value: int64(1)}, {Key: "b", Value: int64(2)}}},
		{sql: "INSERT INTO cx (id, m) VALUES (1, MAP[1, 2.4])", col: 1, want: []types.MapEntry{{Key: "1", Value: int64(2)}}},
		{sql: "INSERT INTO cx (id, m) VALUES (1, '{\"a\": 1, \"b\": null}')", col: 1,
			want: []types.MapEntry{{Key: "a", Value: int64(1)}, {Key: "b", Value: nil}}},
		{sql: "INSERT INTO cx (id, m) VALUES (1, '[[\"z\", 3]]')", col: 1, want: []types.MapEntry{{Key: "z", Value: int64(3)}}},
		{sql: "INSERT INTO cx (id, m) VALUES (1, MAP[]::map<string, int>)", col: 1, want: []types.MapEntry{}},
		{sql: "INSERT INTO cx (id, m) VALUES (1, MAP[])", col: 1, want: []types.MapEntry{}},
		{sql: "INSERT INTO cx (id, nr) VALUES (1, ROW(1, ARRAY['a'], ROW(2, MAP[3, 'c'])))", col: 4,
			want: []any{int64(1), []any{"a"}, []any{2.0, []types.MapEntry{{Key: int64(3), Value: "c"}}}}},
		{sql: "INSERT INTO cx (id, nr) VALUES (1, '{\"x\": 1, \"z\": {\"q\": [[3, \"c\"]]}}')", col: 4,
			want: []any{int64(1), nil, []any{nil, []types.MapEntry{{Key: int64(3), Value: "c"}}}}},
		{sql: "INSERT INTO cx (id, r) SELECT id, ROW(id, name) FROM t"},
		{sql: "INSERT INTO cx (id, m) SELECT id, MAP[name, n] FROM t"},
		{sql: "UPDATE cx SET r = ROW(id, 'u'), m = MAP['k', id] WHERE id = 1"},
		{sql: "INSERT INTO cx (id, r) VALUES (1, ROW(1, 'a')) ON CONFLICT (id) DO UPDATE SET r = ROW(excluded.id, 'c')"},
		{sql: "INSERT INTO cx (id, r) VALUES (1, ROW(1, true))"}, // boolean to text is an assignment cast

		{sql: "INSERT INTO cx (id, r) VALUES (1, ROW(1, 'x', 3))", code: sqlerr.DatatypeMismatch},
		{sql: "INSERT INTO cx (id, r) VALUES (1, ROW(1))", code: sqlerr.DatatypeMismatch},
		{sql: "INSERT INTO cx (id, r) VALUES (1, ROW(true, 'x'))", code: sqlerr.DatatypeMismatch},
		{sql: "INSERT INTO cx (id, r) VALUES (1, ROW('abc', 'x'))", code: sqlerr.InvalidTextRepresentation},
		{sql: "INSERT INTO cx (id, r) VALUES (1, 5)", code: sqlerr.DatatypeMismatch},
		{sql: "INSERT INTO cx (id, r) VALUES (1, MAP['a', 1])", code: sqlerr.DatatypeMismatch},
		{sql: "INSERT INTO cx (id, r) VALUES (1, '{\"c\": 1}')", code: sqlerr.InvalidTextRepresentation},
		{sql: "INSERT INTO cx (id, r) VALUES (1, '{\"a\": ')", code: sqlerr.InvalidTextRepresentation},
		{sql: "INSERT INTO cx (id, r) SELECT id, ROW(id) FROM t", code: sqlerr.DatatypeMismatch},
		{sql: "INSERT INTO cx (id, nr) VALUES (1, ROW(NULL, NULL, NULL))", code: sqlerr.NotNullViolation},
		{sql: "INSERT INTO cx (id, m) VALUES (1, MAP['a'])", code: sqlerr.SyntaxError},
		{sql: "INSERT INTO cx (id, m) VALUES (1, MAP[NULL, 1])", code: sqlerr.NullValueNotAllowed},
		{sql: "INSERT INTO cx (id, m) VALUES (1, '[[null, 1]]')", code: sqlerr.NullValueNotAllowed},
		{sql: "INSERT INTO cx (id, m) VALUES (1, MAP['a', 'x'])", code: sqlerr.InvalidTextRepresentation},
		{sql: "INSERT INTO cx (id, m) VALUES (1, MAP['a', true])", code: sqlerr.DatatypeMismatch},
		{sql: "INSERT INTO cx (id, m) VALUES (1, '{\"a\": \"x\"}')", code: sqlerr.InvalidTextRepresentation},
		{sql: "INSERT INTO cx (id, m) VALUES (1, '[1, 2]')", code: sqlerr.InvalidTextRepresentation},
		{sql: "UPDATE cx SET r = ROW(1, 2, 3)", code: sqlerr.DatatypeMismatch},
		{sql: "SELECT MAP['a', 1, 'b']", code: sqlerr.SyntaxError},
		{sql: "SELECT MAP['a', 1, 'b', true]", code: sqlerr.DatatypeMismatch},
		{sql: "SELECT map_keys(arr) FROM cx", code: sqlerr.UndefinedFunction},
		{sql: "SELECT ROW(1, 2)::row<a int>", code: sqlerr.CannotCoerce},
		{sql: "SELECT (1, 2) = (1, 2, 3)", code: sqlerr.SyntaxError},
		{sql: "SELECT (1, 2) < (1, true)", code: sqlerr.UndefinedFunction},
		{sql: "SELECT 'x'::map<string, int>", code: sqlerr.InvalidTextRepresentation},
	}
	for _, c := range cases {
		st, err := bindCx(t, c.sql)
		if c.code != "" {
			if se := sqlerr.As(err); se == nil || se.Code != c.code {
				t.Errorf("%s: err %v, want %s", c.sql, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if c.want == nil {
			continue
		}
		ins, ok := st.(*binder.Insert)
		if !ok {
			t.Errorf("%s: bound to %T", c.sql, st)
			continue
		}
		vals, ok := ins.Source.(*binder.Values)
		if !ok || len(vals.Rows) != 1 {
			t.Errorf("%s: source %T", c.sql, ins.Source)
			continue
		}
		v, err := fold(vals.Rows[0][c.col])
		if err != nil {
			t.Errorf("%s: column %d bound to %s: %v", c.sql, c.col, vals.Rows[0][c.col], err)
			continue
		}
		if !reflect.DeepEqual(v, c.want) {
			t.Errorf("%s: column %d = %#v, want %#v", c.sql, c.col, v, c.want)
		}
	}
}

// fold evaluates a constant expression of constants, casts and ROW/MAP
// constructors, as the planner's constant folding would.
func fold(e binder.Expr) (any, error) {
	switch x := e.(type) {
	case *binder.Const:
		return x.Value, nil
	case *binder.Cast:
		v, err := fold(x.X)
		if err != nil {
			return nil, err
		}
		return exec.CastValue(v, x.X.Type(), x.T)
	case *binder.FuncCall:
		args := make([]any, len(x.Args))
		for i, a := range x.Args {
			v, err := fold(a)
			if err != nil {
				return nil, err
			}
			args[i] = v
		}
		switch x.Name {
		case "row":
			return args, nil
		case "map":
			out := []types.MapEntry{}
			for i := 0; i+1 < len(args); i += 2 {
				out = append(out, types.MapEntry{Key: args[i], Value: args[i+1]})
			}
			return out, nil
		}
	}
	return nil, sqlerr.New(sqlerr.InternalError, "not constant: %s", e)
}
