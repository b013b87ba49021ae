package pgcatalog

import (
	"context"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/views"
)

// fakeViews lists fixed views (of every database for "", as views.Store).
type fakeViews []views.View

func (f fakeViews) List(db string) []views.View {
	var out []views.View
	for _, v := range f {
		if db == "" || v.Path.Database == db {
			out = append(out, v)
		}
	}
	return out
}

func testViews() fakeViews {
	return fakeViews{
		{ID: 3, Path: fluss.TablePath{Database: "public", Table: "recent"}, Definition: "SELECT ts, msg FROM events",
			Columns: []views.Column{{Name: "ts", Type: types.TimestampType(3)}, {Name: "msg", Type: types.StringType}}},
		{ID: 4, Path: fluss.TablePath{Database: "elsewhere", Table: "hidden"}, Definition: "SELECT 1 AS one",
			Columns: []views.Column{{Name: "one", Type: types.Int32Type}}},
	}
}

func TestViewRows(t *testing.T) {
	c := New(testStore(), Options{Views: testViews()})
	oid := ViewOID(3)
	if oid != 16384+4<<22+3 {
		t.Fatalf("view oid %d", oid)
	}
	cases := []struct {
		schema, rel string
		cols        []string
		want        []string
	}{
		{"pg_catalog", "pg_class", []string{"relname", "relkind", "relnatts", "relhasrules", "relfilenode", "relam"},
			[]string{"recent|v|2|true|0|0", "hidden|v|1|true|0|0"}},
		{"pg_catalog", "pg_views", []string{"schemaname", "viewname", "viewowner", "definition"},
			[]string{"public|recent|sqlgate| SELECT ts, msg FROM events;", "elsewhere|hidden|sqlgate| SELECT 1 AS one;"}},
		{"information_schema", "tables", []string{"table_schema", "table_name", "table_type", "is_insertable_into"}, []string{"public|recent|VIEW|NO", "elsewhere|hidden|VIEW|NO"}},
		{"information_schema", "views", []string{"table_name", "view_definition", "check_option", "is_updatable"},
			[]string{"recent| SELECT ts, msg FROM events;|NONE|NO", "hidden| SELECT 1 AS one;|NONE|NO"}},
		{"information_schema", "columns", []string{"table_name", "column_name", "data_type", "is_updatable"},
			[]string{"recent|ts|timestamp without time zone|NO", "recent|msg|text|NO", "hidden|one|integer|NO"}},
	}
	for _, tc := range cases {
		var got []string
		for _, r := range scanAll(t, c, tc.schema, tc.rel, tc.cols...) {
			if strings.Contains(r, "recent") || strings.Contains(r, "hidden") {
				got = append(got, r)
			}
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s.%s:\n%s\nwant\n%s", tc.schema, tc.rel, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
	var attrs []string
	for _, r := range scanAll(t, c, "pg_catalog", "pg_attribute", "attrelid", "attname", "attnum", "attnotnull") {
		if strings.HasPrefix(r, "16793603|") {
			attrs = append(attrs, r)
		}
	}
	// no system columns for a view, as PostgreSQL
	if strings.Join(attrs, ",") != "16793603|ts|1|false,16793603|msg|2|false" {
		t.Errorf("pg_attribute of the view: %v", attrs)
	}

	ctx := context.Background()
	if got, ok, err := c.LookupRelation(ctx, "recent"); err != nil || !ok || got != oid {
		t.Errorf("regclass of the view: %d %v %v", got, ok, err)
	}
	if name, ok, err := c.RelationName(ctx, oid); err != nil || !ok || name != "recent" {
		t.Errorf("regclass output: %q %v %v", name, ok, err)
	}
	if vis, err := c.RelationVisible(ctx, oid); err != nil || !vis {
		t.Errorf("visible: %v %v", vis, err)
	}
	if def, ok, err := c.ViewDef(ctx, oid, true); err != nil || !ok || def != " SELECT ts, msg FROM events;" {
		t.Errorf("ViewDef: %q %v %v", def, ok, err)
	}
	if _, ok, _ := c.ViewDef(ctx, RelationOID(2), false); ok {
		t.Error("a table has a view definition")
	}
	if _, ok, _ := c.Description(ctx, oid, "pg_class"); ok {
		t.Error("a view has a description")
	}
}
