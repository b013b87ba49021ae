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

// viewCatalog is fakeCatalog plus views, stored as CREATE VIEW left them.
type viewCatalog struct {
	fakeCatalog
	views map[string]*binder.CreateView
	// expanding records, per relation looked up, the view being expanded.
	expanding map[string]string
}

func (c *viewCatalog) GetTable(ctx context.Context, p fluss.TablePath) (fluss.TableInfo, error) {
	if v := binder.ExpandingView(ctx); v != nil {
		c.expanding[p.Table] = v.Path.Table
	}
	return c.fakeCatalog.GetTable(ctx, p)
}

func (c *viewCatalog) GetView(ctx context.Context, p fluss.TablePath) (*binder.View, error) {
	cv, ok := c.views[p.Table]
	if !ok {
		return nil, nil
	}
	if v := binder.ExpandingView(ctx); v != nil {
		c.expanding[p.Table] = v.Path.Table
	}
	sts, err := sql.NewParser().Parse(cv.Definition)
	if err != nil {
		return nil, err
	}
	v := &binder.View{Path: cv.Path, ID: int64(len(p.Table)), Query: sts[0], Named: len(cv.ColumnNames)}
	v.Columns = cv.Columns
	return v, nil
}

func (c *viewCatalog) bind(t *testing.T, text string) (binder.Statement, error) {
	t.Helper()
	stmts, err := sql.NewParser().Parse(text)
	if err != nil {
		return nil, err
	}
	return binder.Bind(context.Background(), c, stmts[0], nil)
}

func (c *viewCatalog) create(t *testing.T, text string) *binder.CreateView {
	t.Helper()
	st, err := c.bind(t, text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	cv := st.(*binder.CreateView)
	c.views[cv.Path.Table] = cv
	return cv
}

func newViewCatalog() *viewCatalog {
	return &viewCatalog{fakeCatalog: catalog(), views: map[string]*binder.CreateView{}, expanding: map[string]string{}}
}

func TestCreateViewRecordsDefinitionColumnsAndUses(t *testing.T) {
	c := newViewCatalog()
	cv := c.create(t, "CREATE OR REPLACE VIEW Big (Ident, \"Label\") AS\n  SELECT t.id, u.label, 'x', NULL AS z, t.n::TEXT FROM t JOIN u ON t.n = u.id -- comment\n")
	if cv.Path != (fluss.TablePath{Database: "public", Table: "big"}) || !cv.OrReplace {
		t.Errorf("path %v replace %v", cv.Path, cv.OrReplace)
	}
	// the text as written (not the rewrite: no pg__cast, case kept), up
	// to the statement's end (the trailing comment is not part of it)
	if want := "SELECT t.id, u.label, 'x', NULL AS z, t.n::TEXT FROM t JOIN u ON t.n = u.id"; cv.Definition != want {
		t.Errorf("definition %q, want %q", cv.Definition, want)
	}
	var got []string
	for _, col := range cv.Columns {
		got = append(got, col.Name+" "+col.T.String())
	}
	if want := "ident bigint|Label string|?column? string|z string|n string"; strings.Join(got, "|") != want {
		t.Errorf("columns %q, want %q", strings.Join(got, "|"), want)
	}
	if strings.Join(cv.ColumnNames, ",") != "ident,Label" {
		t.Errorf("column names %v", cv.ColumnNames)
	}
	if len(cv.Uses) != 2 || cv.Uses[0].Path.Table != "t" || cv.Uses[0].TableID != 1 || cv.Uses[1].Path.Table != "u" {
		t.Errorf("uses %+v", cv.Uses)
	}
	// a view over the view uses the view only, not its tables
	// a parenthesised query, a trailing semicolon
	if p := c.create(t, "CREATE VIEW p AS (SELECT id FROM t);"); p.Definition != "(SELECT id FROM t)" {
		t.Errorf("parenthesised: %q", p.Definition)
	}
	v2 := c.create(t, "CREATE VIEW v2 AS SELECT ident FROM big WHERE ident > (SELECT max(id) FROM t)")
	if len(v2.Uses) != 2 || v2.Uses[0].Path.Table != "big" || v2.Uses[0].ViewID == 0 || v2.Uses[1].Path.Table != "t" {
		t.Errorf("v2 uses %+v", v2.Uses)
	}
}

func TestCreateViewErrors(t *testing.T) {
	c := newViewCatalog()
	for _, tc := range []struct {
		sql  string
		code sqlerr.Code
	}{
		{"CREATE VIEW v AS SELECT nope FROM t", sqlerr.UndefinedColumn},
		{"CREATE VIEW v AS SELECT * FROM nope", sqlerr.UndefinedTable},
		{"CREATE VIEW v (a, b, c) AS SELECT id, n FROM t", sqlerr.SyntaxError},
		{"CREATE VIEW v AS SELECT id, n AS id FROM t", sqlerr.DuplicateColumn},
		{"CREATE VIEW v AS SELECT 1, 2", sqlerr.DuplicateColumn}, // two ?column?, as on PostgreSQL
		{"CREATE VIEW v AS SELECT id FROM t WHERE id = $1", sqlerr.UndefinedParameter},
		{"CREATE VIEW pg_catalog.v AS SELECT 1", sqlerr.InsufficientPrivilege},
		// a check option on a view that is not automatically updatable
		{"CREATE VIEW v AS SELECT DISTINCT id FROM t WITH LOCAL CHECK OPTION", sqlerr.FeatureNotSupported},
		{"CREATE VIEW v AS SELECT 1 AS x WITH CASCADED CHECK OPTION", sqlerr.FeatureNotSupported},
		{"CREATE VIEW v WITH (check_option = sideways) AS SELECT id FROM t", sqlerr.InvalidParameterValue},
		{"CREATE VIEW v WITH (nope) AS SELECT id FROM t", sqlerr.InvalidParameterValue},
	} {
		if _, err := c.bind(t, tc.sql); sqlerr.CodeOf(err) != tc.code {
			t.Errorf("%s: %v, want %s", tc.sql, err, tc.code)
		}
	}
}

func TestViewExpansion(t *testing.T) {
	c := newViewCatalog()
	c.create(t, "CREATE VIEW v (k, label) AS SELECT id, name FROM t WHERE n > 0")
	c.create(t, "CREATE VIEW lit AS SELECT 'x' AS s, 1 AS one")
	c.create(t, "CREATE VIEW vv AS SELECT k * 2 AS kk FROM v")
	for _, tc := range []struct {
		sql, cols string
	}{
		{"SELECT * FROM v", "k bigint|label string"},
		{"SELECT v.k, x.label FROM v JOIN v AS x ON v.k = x.k", "k bigint|label string"},
		{"SELECT s, one FROM lit", "s string|one int"},
		{"SELECT kk FROM vv WHERE kk IN (SELECT k FROM v)", "kk bigint"},
		{"WITH v AS (SELECT 1 AS z) SELECT * FROM v", "z int"}, // a CTE hides the view
		{"SELECT u.label FROM u, public.v WHERE u.id = v.k", "label string"},
	} {
		st, err := c.bind(t, tc.sql)
		if err != nil {
			t.Errorf("%s: %v", tc.sql, err)
			continue
		}
		var got []string
		for _, col := range st.(*binder.Query).Plan.Columns() {
			got = append(got, col.Name+" "+col.T.String())
		}
		if strings.Join(got, "|") != tc.cols {
			t.Errorf("%s: columns %q, want %q", tc.sql, strings.Join(got, "|"), tc.cols)
		}
	}
	if st, err := c.bind(t, "DESCRIBE v"); err != nil || len(st.(*binder.Describe).Table.Descriptor.Schema.Columns) != 2 {
		t.Errorf("DESCRIBE v: %v %v", st, err)
	}
	// tables are looked up on behalf of the innermost view naming them
	c.expanding = map[string]string{}
	if _, err := c.bind(t, "SELECT * FROM vv, u"); err != nil {
		t.Fatal(err)
	}
	if c.expanding["v"] != "vv" || c.expanding["t"] != "v" {
		t.Errorf("expanding %v", c.expanding)
	}
	if _, ok := c.expanding["u"]; ok {
		t.Error("u was read through a view")
	}
}

// A table changed under a view (dropped and created again by another
// path) makes the view's queries fail, naming the view and the column.
func TestStaleViewFailsNamingViewAndColumn(t *testing.T) {
	c := newViewCatalog()
	c.create(t, "CREATE VIEW v AS SELECT * FROM u")
	c.create(t, "CREATE VIEW outer_v AS SELECT id FROM v")
	mk := func(cols ...fluss.Column) {
		c.fakeCatalog["u"] = fluss.TableInfo{Path: fluss.TablePath{Database: "public", Table: "u"}, TableID: 9,
			Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{Columns: cols}}}
	}
	for _, tc := range []struct {
		cols []fluss.Column
		code sqlerr.Code
		msg  string
	}{
		{[]fluss.Column{{Name: "id", Type: types.Int64Type}, {Name: "label", Type: types.StringType}}, sqlerr.DatatypeMismatch,
			`view "v" no longer matches the relations it uses: column "id" was of type integer and is now of type bigint`},
		{[]fluss.Column{{Name: "id", Type: types.Int32Type}}, sqlerr.UndefinedColumn, `view "v" no longer matches the relations it uses: column "label" is missing`},
		{[]fluss.Column{{Name: "id", Type: types.Int32Type}, {Name: "tag", Type: types.StringType}}, sqlerr.UndefinedColumn, `column "label" is now "tag"`},
		{[]fluss.Column{{Name: "label", Type: types.StringType}}, sqlerr.DatatypeMismatch, `column "id" was of type integer and is now of type text`},
		// more columns: the view keeps its own (as PostgreSQL expanded *)
		{[]fluss.Column{{Name: "id", Type: types.Int32Type}, {Name: "label", Type: types.StringType}, {Name: "extra", Type: types.BoolType}}, "", ""},
	} {
		mk(tc.cols...)
		for _, q := range []string{"SELECT * FROM v", "SELECT * FROM outer_v"} {
			st, err := c.bind(t, q)
			if tc.code == "" {
				if err != nil {
					t.Errorf("%v: %s: %v", tc.cols, q, err)
				} else if n := len(st.(*binder.Query).Plan.Columns()); q == "SELECT * FROM v" && n != 2 {
					t.Errorf("%v: %d columns", tc.cols, n)
				}
				continue
			}
			if sqlerr.CodeOf(err) != tc.code || err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("%v: %s: %v, want %s %q", tc.cols, q, err, tc.code, tc.msg)
			}
		}
	}
	// the table is gone altogether
	delete(c.fakeCatalog, "u")
	if _, err := c.bind(t, "SELECT * FROM outer_v"); sqlerr.CodeOf(err) != sqlerr.UndefinedTable || !strings.Contains(err.Error(), `view "v"`) {
		t.Errorf("dropped table: %v", err)
	}
}

func TestSelfReferencingViewIsRecursion(t *testing.T) {
	c := newViewCatalog()
	c.create(t, "CREATE VIEW s AS SELECT 1 AS x")
	c.create(t, "CREATE OR REPLACE VIEW s AS SELECT * FROM s")
	if _, err := c.bind(t, "SELECT * FROM s"); sqlerr.CodeOf(err) != sqlerr.InvalidObjectDefinition {
		t.Errorf("recursive view: %v", err)
	}
}

// TestViewDefinitionPrintedAsPostgres compares the definitions of simple
// views with what PostgreSQL 15's pg_get_viewdef(v, true) and
// pg_get_viewdef(v) print for them.
func TestViewDefinitionPrintedAsPostgres(t *testing.T) {
	c := newViewCatalog()
	c.fakeCatalog["events"] = fluss.TableInfo{Path: fluss.TablePath{Database: "public", Table: "events"}, TableID: 5,
		Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
			{Name: "ts", Type: types.TimestampType(6)}, {Name: "msg", Type: types.StringType}}}}}
	c.fakeCatalog["w"] = fluss.TableInfo{Path: fluss.TablePath{Database: "public", Table: "w"}, TableID: 6,
		Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
			{Name: "id", Type: types.Int32Type}, {Name: "name", Type: types.StringType}, {Name: "big", Type: types.Int64Type},
			{Name: "Odd", Type: types.StringType}, {Name: "user", Type: types.StringType}}}}}
	for _, tc := range []struct {
		sql, pretty, plain string
	}{
		{"CREATE VIEW a1 AS SELECT ts, msg FROM events WHERE msg IS NOT NULL",
			" SELECT events.ts,\n    events.msg\n   FROM events\n  WHERE events.msg IS NOT NULL;",
			" SELECT events.ts,\n    events.msg\n   FROM events\n  WHERE (events.msg IS NOT NULL);"},
		{"CREATE VIEW a2 AS SELECT id AS ident, name FROM w WHERE id > 1 AND name = 'x' OR big <= 7",
			" SELECT w.id AS ident,\n    w.name\n   FROM w\n  WHERE w.id > 1 AND w.name = 'x'::text OR w.big <= 7;",
			" SELECT w.id AS ident,\n    w.name\n   FROM w\n  WHERE (((w.id > 1) AND (w.name = 'x'::text)) OR (w.big <= 7));"},
		{"CREATE VIEW a3 AS SELECT * FROM public.w",
			" SELECT w.id,\n    w.name,\n    w.big,\n    w.\"Odd\",\n    w.\"user\"\n   FROM w;", ""},
		{"CREATE VIEW a4 AS SELECT e.ts FROM events e WHERE e.msg <> 'a' AND (e.msg = 'b' OR e.msg IS NULL)",
			" SELECT e.ts\n   FROM events e\n  WHERE e.msg <> 'a'::text AND (e.msg = 'b'::text OR e.msg IS NULL);",
			" SELECT e.ts\n   FROM events e\n  WHERE ((e.msg <> 'a'::text) AND ((e.msg = 'b'::text) OR (e.msg IS NULL)));"},
		{"CREATE VIEW a8 (x, y) AS SELECT id, name FROM w WHERE name = 'it''s' AND id >= 1 AND big < id",
			" SELECT w.id AS x,\n    w.name AS y\n   FROM w\n  WHERE w.name = 'it''s'::text AND w.id >= 1 AND w.big < w.id;",
			" SELECT w.id AS x,\n    w.name AS y\n   FROM w\n  WHERE ((w.name = 'it''s'::text) AND (w.id >= 1) AND (w.big < w.id));"},
		// beyond the printer: shown as written
		{"CREATE VIEW n1 AS SELECT upper(msg) FROM events", "", ""},
		{"CREATE VIEW n2 AS SELECT id FROM w WHERE big = -3", "", ""},
		{"CREATE VIEW n3 AS SELECT w.id FROM w JOIN u ON u.id = w.id", "", ""},
		{"CREATE VIEW n4 AS SELECT id FROM w ORDER BY id", "", ""},
		{"CREATE VIEW n5 AS SELECT ts FROM events WHERE ts > '2024-01-01'", "", ""},
	} {
		cv := c.create(t, tc.sql)
		plain := tc.plain
		if plain == "" {
			plain = tc.pretty
		}
		if cv.Printed.Pretty != tc.pretty || cv.Printed.Plain != plain {
			t.Errorf("%s:\npretty %q\nwant   %q\nplain  %q\nwant   %q", tc.sql, cv.Printed.Pretty, tc.pretty, cv.Printed.Plain, plain)
		}
	}
}

// A WITH query naming itself reads the table of that name (none here),
// as in PostgreSQL, rather than recursing without end (found by
// FuzzPipeline); two WITH queries naming each other end the same way.
func TestSelfReferencingCTEIsNoRecursion(t *testing.T) {
	c := newViewCatalog()
	for _, q := range []string{
		"WITH x AS (SELECT id FROM x) SELECT * FROM x UNION SELECT 1",
		"WITH a AS (SELECT * FROM b), b AS (SELECT * FROM a) SELECT * FROM a",
	} {
		if _, err := c.bind(t, q); sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
			t.Errorf("%s: %v, want 42P01", q, err)
		}
	}
	if _, err := c.bind(t, "WITH t AS (SELECT id FROM t WHERE id > 1) SELECT count(*) FROM t"); err != nil {
		t.Errorf("a WITH query over the table it shadows: %v", err)
	}
}
