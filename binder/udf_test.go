package binder_test

import (
	"context"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// udfCatalog is the test catalog with Go UDFs.
type udfCatalog struct {
	fakeCatalog
	reg *udf.Registry
}

func (c udfCatalog) UDFs() *udf.Registry { return c.reg }

func testRegistry(t *testing.T) *udf.Registry {
	t.Helper()
	reg := udf.NewRegistry()
	noScalar := func(context.Context, []arrow.Array) (arrow.Array, error) { return nil, nil }
	noTable := func(context.Context, []arrow.Array, func(arrow.RecordBatch) error) error { return nil }
	for _, s := range []udf.Scalar{
		{Name: "twice", Args: []types.T{types.Int64Type}, Returns: types.Int64Type, Fn: noScalar},
		{Name: "pick", Args: []types.T{types.Int32Type}, Returns: types.StringType, Fn: noScalar},
		{Name: "pick", Args: []types.T{types.Float64Type}, Returns: types.BoolType, Fn: noScalar},
		{Name: "pick", Args: []types.T{types.StringType}, Returns: types.DateType, Fn: noScalar},
		{Name: "money", Args: []types.T{types.DecimalType(10, 2)}, Returns: types.DecimalType(10, 2), Fn: noScalar},
	} {
		if err := reg.AddScalar(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := reg.AddTable(udf.Table{Name: "gen", Args: []types.T{types.Int64Type, types.StringType},
		Columns: []udf.Column{{Name: "a", Type: types.Int64Type}, {Name: "b", Type: types.StringType}}, Fn: noTable}); err != nil {
		t.Fatal(err)
	}
	return reg
}

func bindUDF(t *testing.T, reg *udf.Registry, text string) (binder.Statement, error) {
	t.Helper()
	stmts, err := sql.NewParser().Parse(text)
	if err != nil {
		return nil, err
	}
	return binder.Bind(context.Background(), udfCatalog{catalog(), reg}, stmts[0], nil)
}

func TestUDFResolution(t *testing.T) {
	reg := testRegistry(t)
	cases := []struct {
		sql   string
		types []string // output column types
		plan  string   // a fragment of the bound expression text, "" = not checked
		code  sqlerr.Code
		msg   string
	}{
		{sql: "SELECT twice(id) FROM t", types: []string{"bigint"}, plan: "twice(id)"},
		{sql: "SELECT twice(n) FROM t", types: []string{"bigint"}, plan: "twice(CAST(n AS bigint))"},
		{sql: "SELECT twice('7')", types: []string{"bigint"}},
		{sql: "SELECT twice(NULL)", types: []string{"bigint"}},
		{sql: "SELECT TWICE(id) FROM t", types: []string{"bigint"}},
		{sql: "SELECT pick(n) FROM t", types: []string{"text"}},
		{sql: "SELECT pick(score) FROM t", types: []string{"boolean"}},
		{sql: "SELECT pick(name) FROM t", types: []string{"date"}},
		{sql: "SELECT pick(id) FROM t", types: []string{"boolean"}}, // bigint -> float8 (preferred), as PostgreSQL
		{sql: "SELECT pick('x')", types: []string{"date"}},          // unknown prefers the string category
		{sql: "SELECT money(1.5)", types: []string{"numeric"}},
		{sql: "SELECT twice(score) FROM t", code: sqlerr.UndefinedFunction, msg: "function twice(double precision) does not exist"},
		{sql: "SELECT twice(id, id) FROM t", code: sqlerr.UndefinedFunction, msg: "function twice(bigint, bigint) does not exist"},
		{sql: "SELECT pick(true)", code: sqlerr.UndefinedFunction, msg: "function pick(boolean) does not exist"},
		{sql: "SELECT * FROM gen(3, 'x')", types: []string{"bigint", "text"}},
		{sql: "SELECT x, y FROM gen(3::smallint, 'x') AS g(x, y)", types: []string{"bigint", "text"}},
		{sql: "SELECT * FROM gen(3)", code: sqlerr.UndefinedFunction, msg: "function gen(integer) does not exist"},
		{sql: "SELECT * FROM gen(1, 'a') AS g(x, y, z)", code: sqlerr.InvalidColumnReference},
		{sql: "SELECT * FROM gen(1, 'a') WITH ORDINALITY", code: sqlerr.FeatureNotSupported},
		{sql: "SELECT gen(1, 'a')", code: sqlerr.UndefinedFunction}, // a record-batch UDF is no scalar function
		// a scalar UDF in FROM is PostgreSQL's one-row table, like any plain function
		{sql: "SELECT * FROM twice(1) AS d", types: []string{"bigint"}},
		{sql: "SELECT * FROM nothing_like_it(1)", code: sqlerr.UndefinedFunction, msg: "function nothing_like_it(integer) does not exist"},
	}
	for _, c := range cases {
		st, err := bindUDF(t, reg, c.sql)
		if c.code != "" {
			if sqlerr.CodeOf(err) != c.code || !strings.Contains(errText(err), c.msg) {
				t.Errorf("%s: got %v (%s), want %s %q", c.sql, err, sqlerr.CodeOf(err), c.code, c.msg)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		q := st.(*binder.Query)
		var got []string
		for _, col := range q.Plan.Columns() {
			got = append(got, col.T.PGName())
		}
		if strings.Join(got, ",") != strings.Join(c.types, ",") {
			t.Errorf("%s: types %v, want %v", c.sql, got, c.types)
		}
		if c.plan != "" && !strings.Contains(planText(q.Plan), c.plan) {
			t.Errorf("%s: plan %s lacks %s", c.sql, planText(q.Plan), c.plan)
		}
	}
	// Without UDFs in the catalog, the same calls are unknown functions.
	if _, err := bind(t, "SELECT twice(id) FROM t"); sqlerr.CodeOf(err) != sqlerr.UndefinedFunction {
		t.Errorf("no UDFs: %v", err)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// planText prints the projections' expressions of a plan.
func planText(n binder.Node) string {
	var b strings.Builder
	var walk func(binder.Node)
	walk = func(n binder.Node) {
		if p, ok := n.(*binder.Project); ok {
			for _, e := range p.Exprs {
				b.WriteString(e.String() + "; ")
			}
		}
		for _, c := range n.Children() {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func TestCheckUDFNames(t *testing.T) {
	f := func(context.Context, []arrow.Array) (arrow.Array, error) { return nil, nil }
	for _, c := range []struct {
		name string
		ok   bool
	}{{"lower", false}, {"count", false}, {"row_number", false}, {"unnest", false}, {"my_lower", true}} {
		reg := udf.NewRegistry()
		if err := reg.AddScalar(udf.Scalar{Name: c.name, Args: []types.T{types.StringType}, Returns: types.StringType, Fn: f}); err != nil {
			t.Fatal(err)
		}
		if err := binder.CheckUDFNames(reg); (err == nil) != c.ok {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
