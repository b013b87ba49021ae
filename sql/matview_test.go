package sql

import (
	"reflect"
	"testing"
)

func TestParseMatviewStatements(t *testing.T) {
	cases := []struct {
		text string
		verb string
		want MatviewStmt
	}{
		{"CREATE MATERIALIZED VIEW mv AS SELECT 1 AS a", "CREATE MATERIALIZED VIEW",
			MatviewStmt{Name: ObjectName{Name: "mv"}, Query: "SELECT 1 AS a", QueryPos: 32}},
		{"create materialized view if not exists s.\"Mv\" (a, b) with (fillfactor = 70) as select x, y from t with no data", "CREATE MATERIALIZED VIEW",
			MatviewStmt{Name: ObjectName{Schema: "s", Name: "Mv"}, IfNotExists: true, Columns: []string{"a", "b"}, Query: "select x, y from t", NoData: true, QueryPos: 80}},
		{"CREATE MATERIALIZED VIEW mv USING heap TABLESPACE pg_default AS WITH w AS (SELECT 1) SELECT * FROM w WITH DATA", "CREATE MATERIALIZED VIEW",
			MatviewStmt{Name: ObjectName{Name: "mv"}, Query: "WITH w AS (SELECT 1) SELECT * FROM w", QueryPos: 65}},
		{"REFRESH MATERIALIZED VIEW CONCURRENTLY public.mv", "REFRESH MATERIALIZED VIEW",
			MatviewStmt{Name: ObjectName{Schema: "public", Name: "mv"}, Concurrently: true}},
		{"REFRESH MATERIALIZED VIEW mv WITH NO DATA", "REFRESH MATERIALIZED VIEW",
			MatviewStmt{Name: ObjectName{Name: "mv"}, NoData: true}},
		{"ALTER MATERIALIZED VIEW IF EXISTS mv RENAME TO mv2", "ALTER MATERIALIZED VIEW",
			MatviewStmt{Name: ObjectName{Name: "mv"}, IfExists: true, Action: "RENAME", NewName: "mv2"}},
		{"ALTER MATERIALIZED VIEW mv RENAME COLUMN a TO b", "ALTER MATERIALIZED VIEW",
			MatviewStmt{Name: ObjectName{Name: "mv"}, Action: "RENAME COLUMN", Column: "a", NewName: "b"}},
		{"ALTER MATERIALIZED VIEW mv RENAME a TO b", "ALTER MATERIALIZED VIEW",
			MatviewStmt{Name: ObjectName{Name: "mv"}, Action: "RENAME COLUMN", Column: "a", NewName: "b"}},
		{"ALTER MATERIALIZED VIEW mv OWNER TO CURRENT_USER", "ALTER MATERIALIZED VIEW",
			MatviewStmt{Name: ObjectName{Name: "mv"}, Action: "OWNER", NewName: "current_user"}},
		{"ALTER MATERIALIZED VIEW mv SET SCHEMA s", "ALTER MATERIALIZED VIEW",
			MatviewStmt{Name: ObjectName{Name: "mv"}, Action: "SET SCHEMA", NewName: "s"}},
		{"ALTER MATERIALIZED VIEW mv SET TABLESPACE t", "ALTER MATERIALIZED VIEW",
			MatviewStmt{Name: ObjectName{Name: "mv"}}},
	}
	for _, c := range cases {
		st := parseOne(t, c.text)
		if st.DDL == nil || st.DDL.Matview == nil || st.DDL.Verb != c.verb {
			t.Errorf("%s: parsed as %+v", c.text, st.DDL)
			continue
		}
		if got := *st.DDL.Matview; !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.text, got, c.want)
		}
	}
}

func TestParseMatviewErrors(t *testing.T) {
	p := NewParser()
	for _, text := range []string{
		"CREATE MATERIALIZED VIEW mv",
		"CREATE MATERIALIZED VIEW mv AS",
		"CREATE MATERIALIZED VIEW mv (a AS SELECT 1",
		"REFRESH MATERIALIZED VIEW mv WITH",
		"ALTER MATERIALIZED VIEW mv RENAME COLUMN a b",
	} {
		if _, err := p.Parse(text); err == nil {
			t.Errorf("%s: parsed", text)
		}
	}
}

func TestParseUniqueIndex(t *testing.T) {
	st := parseOne(t, "CREATE UNIQUE INDEX i ON mv (a, lower(b)) WHERE a > 0")
	d := st.DDL
	if !d.Unique || d.UniqueRefused == nil || !reflect.DeepEqual(d.IndexColumns, []string{"a", "lower(b)"}) || d.Index != "i" {
		t.Errorf("parsed as %+v", d)
	}
}
