package sql

import (
	"reflect"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestUniqueClauses: CREATE TABLE's and ALTER TABLE ... ADD's UNIQUE
// clauses are taken out of the text TiDB parses, with their names,
// columns and the position PostgreSQL's errors point at (the CONSTRAINT
// keyword of a named one); what sqlgate has no use for is 0A000.
func TestUniqueClauses(t *testing.T) {
	for _, c := range []struct {
		sql  string
		want []UniqueClause
	}{
		{"CREATE TABLE t (id int PRIMARY KEY, a int UNIQUE)", []UniqueClause{{Column: "a", Columns: []string{"a"}, Pos: 43}}},
		{"CREATE TABLE t (id int PRIMARY KEY UNIQUE, a int)", []UniqueClause{{Column: "id", Columns: []string{"id"}, Pos: 36}}},
		{"CREATE TABLE t (id int PRIMARY KEY, a int, b text, CONSTRAINT n UNIQUE NULLS NOT DISTINCT (b, \"A\"))",
			[]UniqueClause{{Name: "n", Columns: []string{"b", "A"}, Pos: 52, NullsNotDistinct: true}}},
		{"CREATE TABLE t (id int PRIMARY KEY, a int CONSTRAINT k UNIQUE NOT NULL, UNIQUE (id, a))",
			[]UniqueClause{{Name: "k", Column: "a", Columns: []string{"a"}, Pos: 43}, {Columns: []string{"id", "a"}, Pos: 73}}},
	} {
		st := parseOne(t, c.sql)
		if !reflect.DeepEqual(st.Uniques, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.sql, st.Uniques, c.want)
		}
	}
	st := parseOne(t, "ALTER TABLE t ADD CONSTRAINT n UNIQUE (a, b)")
	if a := st.DDL.Actions[0]; a.Kind != AlterAddUnique || a.Unique == nil || a.Unique.Name != "n" || !reflect.DeepEqual(a.Unique.Columns, []string{"a", "b"}) {
		t.Errorf("ALTER TABLE ... ADD UNIQUE: %+v", a)
	}
	st = parseOne(t, "CREATE UNIQUE INDEX ix ON t (a) WHERE a > 0")
	if !st.DDL.Unique || !st.DDL.IndexPartial {
		t.Errorf("CREATE UNIQUE INDEX ... WHERE: %+v", st.DDL)
	}
	if _, err := NewParser().Parse("CREATE TABLE t (id int PRIMARY KEY, a int UNIQUE DEFERRABLE)"); sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
		t.Errorf("UNIQUE DEFERRABLE: %v, want 0A000", err)
	}
}
