package binder_test

import (
	"context"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// fakeCatalog serves fixed tables.
type fakeCatalog map[string]fluss.TableInfo

func (c fakeCatalog) GetTable(_ context.Context, p fluss.TablePath) (fluss.TableInfo, error) {
	if t, ok := c[p.Table]; ok && p.Database == fluss.DefaultDatabase {
		return t, nil
	}
	return fluss.TableInfo{}, sqlerr.New(sqlerr.UndefinedTable, "relation %q does not exist", p.Table)
}

func catalog() fakeCatalog {
	nn := func(t types.T) types.T { t.NotNull = true; return t }
	return fakeCatalog{
		"t": {Path: fluss.TablePath{Database: "public", Table: "t"}, TableID: 1, Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{
			Columns: []fluss.Column{
				{Name: "id", Type: nn(types.Int64Type)},
				{Name: "name", Type: types.T{Kind: types.String, Length: 20}},
				{Name: "score", Type: types.Float64Type},
				{Name: "n", Type: types.Int32Type},
			},
			PrimaryKey: []string{"id"},
		}}},
		"u": {Path: fluss.TablePath{Database: "public", Table: "u"}, TableID: 2, Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{
			Columns: []fluss.Column{{Name: "id", Type: types.Int32Type}, {Name: "label", Type: types.StringType}},
		}}},
	}
}

func bind(t *testing.T, text string) (binder.Statement, error) {
	t.Helper()
	stmts, err := sql.NewParser().Parse(text)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		t.Fatalf("%q: %d statements", text, len(stmts))
	}
	return binder.Bind(context.Background(), catalog(), stmts[0], nil)
}

func TestOutputColumnsNamedAndTypedAsPostgres(t *testing.T) {
	cases := []struct {
		sql   string
		names []string
		types []string
	}{
		{"SELECT 1, 'x', 2.50, 9999999999", []string{"?column?", "?column?", "?column?", "?column?"}, []string{"int", "string", "numeric", "bigint"}},
		{"SELECT id, name AS who, score * 2, n / 2 FROM t", []string{"id", "who", "?column?", "?column?"}, []string{"bigint", "string", "double", "int"}},
		{"SELECT 1::int, n::text, CAST(n AS BIGINT) FROM t", []string{"int4", "n", "n"}, []string{"int", "string", "bigint"}},
		{"SELECT count(*), sum(n), sum(id), avg(n), max(name) FROM t", []string{"count", "sum", "sum", "avg", "max"}, []string{"bigint", "bigint", "numeric", "numeric", "string"}},
		{"SELECT t.id, u.label FROM t JOIN u ON t.n = u.id", []string{"id", "label"}, []string{"bigint", "string"}},
		{"SELECT lower(name), name || '!' FROM t", []string{"lower", "?column?"}, []string{"string", "string"}},
		// || and concat() parse alike: the statement text tells them apart, in any case
		{"SELECT CONCAT(name, 'x'), Concat(name, 'x'), name||'x', name || concat('a', 'b') FROM t", []string{"concat", "concat", "?column?", "?column?"}, []string{"string", "string", "string", "string"}},
		{"SELECT 'a'||'b'", []string{"?column?"}, []string{"string"}},
		{"SELECT CASE WHEN n > 0 THEN 1 ELSE 2.5 END FROM t", []string{"case"}, []string{"numeric"}},
		{"SELECT array_agg(n ORDER BY id), string_agg(name, ',' ORDER BY name DESC) FROM t", []string{"array_agg", "string_agg"}, []string{"array<int>", "string"}},
	}
	for _, c := range cases {
		st, err := bind(t, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		cols := st.(*binder.Query).Plan.Columns()
		if len(cols) != len(c.names) {
			t.Errorf("%s: %d columns", c.sql, len(cols))
			continue
		}
		for i, col := range cols {
			if col.Name != c.names[i] || col.T.String() != c.types[i] {
				t.Errorf("%s: column %d is %s %s, want %s %s", c.sql, i, col.Name, col.T, c.names[i], c.types[i])
			}
		}
	}
}

func TestParameterTypesInferredFromContext(t *testing.T) {
	cases := []struct {
		sql  string
		want []string
	}{
		{"SELECT name FROM t WHERE id = $1", []string{"bigint"}},
		{"SELECT $1 + 1", []string{"int"}},
		{"SELECT $1", []string{"unknown"}},
		{"SELECT name FROM t WHERE name = $2 AND score > $1", []string{"double", "string"}},
		{"INSERT INTO t (id, name) VALUES ($1, $2)", []string{"bigint", "string"}},
		{"SELECT id FROM t LIMIT $1", []string{"bigint"}},
	}
	for _, c := range cases {
		st, err := bind(t, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		var got []string
		for _, p := range st.Params() {
			s := p.String()
			if p.Kind == types.String {
				s = "string"
			}
			got = append(got, s)
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: params %v, want %v", c.sql, got, c.want)
		}
	}
}

func TestBindErrorsCarrySQLSTATEAndPosition(t *testing.T) {
	cases := []struct {
		sql  string
		code sqlerr.Code
		pos  int
	}{
		{"SELECT * FROM missing", sqlerr.UndefinedTable, 15},
		{"SELECT nope FROM t", sqlerr.UndefinedColumn, 8},
		{"SELECT x.id FROM t", sqlerr.UndefinedTable, 8},
		{"SELECT id FROM t, u", sqlerr.AmbiguousColumn, 8},
		{"SELECT id FROM t WHERE n", sqlerr.DatatypeMismatch, 0},
		{"SELECT name + 1 FROM t", sqlerr.UndefinedFunction, 0},
		{"SELECT lower(1)", sqlerr.UndefinedFunction, 8},
		{"SELECT id, count(*) FROM t", sqlerr.GroupingError, 8},
		{"SELECT n FROM t GROUP BY name", sqlerr.GroupingError, 8},
		// INSERT INTO t (name) VALUES ('x') leaves the key NULL: refused
		// per row by the store (fluss.CheckNotNull), not when bound.
		{"INSERT INTO t (id, id) VALUES (1, 2)", sqlerr.DuplicateColumn, 0},
		{"INSERT INTO t (id) VALUES (1, 2)", sqlerr.SyntaxError, 0},
		{"INSERT INTO t (id, n) VALUES (1, 'abc')", sqlerr.InvalidTextRepresentation, 0},
		{"INSERT INTO t (id, n) VALUES (1, true)", sqlerr.DatatypeMismatch, 0},
		{"UPDATE u SET label = 'x'", sqlerr.FeatureNotSupported, 0},
		{"SELECT id FROM t ORDER BY 9", sqlerr.InvalidColumnReference, 0},
		{"SELECT (SELECT id, n FROM t)", sqlerr.SyntaxError, 0},
		// the operators of IN's and BETWEEN's expansions point at the
		// keyword, as PostgreSQL's do
		{"SELECT id FROM t WHERE n IN (1, true)", sqlerr.UndefinedFunction, 26},
		{"SELECT id FROM t WHERE name IN ('a', 1)", sqlerr.UndefinedFunction, 29},
		{"SELECT id FROM t WHERE n BETWEEN true AND 2", sqlerr.UndefinedFunction, 26},
	}
	for _, c := range cases {
		_, err := bind(t, c.sql)
		e := sqlerr.As(err)
		if e == nil {
			t.Errorf("%s: want %s, got %v", c.sql, c.code, err)
			continue
		}
		if e.Code != c.code {
			t.Errorf("%s: code %s (%s), want %s", c.sql, e.Code, e.Message, c.code)
		}
		if c.pos != 0 && e.Position != c.pos {
			t.Errorf("%s: position %d, want %d", c.sql, e.Position, c.pos)
		}
	}
}
