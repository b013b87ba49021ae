package binder_test

import (
	"reflect"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestDDLRefusalsKeepTheirErrors: the refusals of CREATE TABLE, CREATE
// VIEW and DROP, bound from sqlgate's parsed tree (issue 32), keep the
// SQLSTATE, message and position they had when bound from TiDB's AST (the
// expectations were taken from the binder before the move).
func TestDDLRefusalsKeepTheirErrors(t *testing.T) {
	cases := []struct {
		sql  string
		code sqlerr.Code
		msg  string
		pos  int
	}{
		{"CREATE TABLE x (a int, b int, PRIMARY KEY (a), PRIMARY KEY (b))", sqlerr.InvalidTableDefinition,
			`multiple primary keys for table "x" are not allowed`, 0},
		{"CREATE TABLE x (a int PRIMARY KEY, b int PRIMARY KEY)", sqlerr.InvalidTableDefinition,
			`multiple primary keys for table "x" are not allowed`, 0},
		{"CREATE TABLE x (a int PRIMARY KEY, b int, PRIMARY KEY (b))", sqlerr.InvalidTableDefinition,
			`multiple primary keys for table "x" are not allowed`, 0},
		// a table without a primary key (a log table) takes UNIQUE too
		{"CREATE TABLE x (a int, e text, UNIQUE (nope))", sqlerr.UndefinedColumn,
			`column "nope" named in key does not exist`, 32},
		{"CREATE TABLE x (a int PRIMARY KEY, e text, UNIQUE (e, nope))", sqlerr.UndefinedColumn,
			`column "nope" named in key does not exist`, 44},
		{"CREATE TABLE x (a int PRIMARY KEY, e text, CONSTRAINT n UNIQUE (e, e))", sqlerr.DuplicateColumn,
			`column "e" appears twice in unique constraint`, 44},
		{"CREATE TABLE x (a int REFERENCES t (nope))", sqlerr.UndefinedColumn,
			`column "nope" referenced in foreign key constraint does not exist`, 0},
		{"CREATE TABLE x (a int, FOREIGN KEY (a, a) REFERENCES t (id))", "42830",
			"number of referencing and referenced columns for foreign key disagree", 0},
		{"CREATE TABLE x (a int, PRIMARY KEY ((a + 1)))", sqlerr.FeatureNotSupported,
			"expressions in PRIMARY KEY is not supported", 0},
		{"CREATE VIEW v (a, b) AS SELECT 1", sqlerr.SyntaxError,
			"CREATE VIEW specifies more column names than columns", 0},
		{"CREATE VIEW v (a, a) AS SELECT 1, 2", sqlerr.DuplicateColumn,
			`column "a" specified more than once`, 0},
		{"CREATE VIEW v AS SELECT nope FROM t", sqlerr.UndefinedColumn,
			`column "nope" does not exist`, 25},
		{"CREATE VIEW pg_catalog.v AS SELECT 1", sqlerr.InsufficientPrivilege,
			`permission denied to create "pg_catalog.v"`, 0},
		{"CREATE VIEW v AS SELECT id FROM t GROUP BY id WITH CASCADED CHECK OPTION", sqlerr.FeatureNotSupported,
			"WITH CHECK OPTION is supported only on automatically updatable views", 0},
		{"CREATE TABLE x AS SELECT nope FROM t", sqlerr.UndefinedColumn,
			`column "nope" does not exist`, 26},
	}
	for _, c := range cases {
		_, err := bind(t, c.sql)
		e := sqlerr.As(err)
		if e == nil {
			t.Errorf("%s: want %s, got %v", c.sql, c.code, err)
			continue
		}
		if e.Code != c.code || e.Message != c.msg || e.Position != c.pos {
			t.Errorf("%s:\n got %s %q at %d\nwant %s %q at %d", c.sql, e.Code, e.Message, e.Position, c.code, c.msg, c.pos)
		}
	}
}

// TestDDLBindsFromTheTree: what the moved statements bind to.
func TestDDLBindsFromTheTree(t *testing.T) {
	public := func(name string) fluss.TablePath {
		return fluss.TablePath{Database: fluss.DefaultDatabase, Table: name}
	}
	st, err := bind(t, "CREATE TABLE IF NOT EXISTS s.x (a int NOT NULL, b text NULL, c bigint, PRIMARY KEY (a, c))")
	if err != nil {
		t.Fatal(err)
	}
	ct := st.(*binder.CreateTable)
	cols := ct.Descriptor.Schema.Columns
	if ct.Path != (fluss.TablePath{Database: "s", Table: "x"}) || !ct.IfNotExists || len(cols) != 3 ||
		!reflect.DeepEqual(ct.Descriptor.Schema.PrimaryKey, []string{"a", "c"}) || !cols[0].Type.NotNull || cols[1].Type.NotNull {
		t.Errorf("CREATE TABLE: %+v", ct)
	}
	st, err = bind(t, "CREATE TABLE x AS SELECT id, name AS label FROM t")
	if err != nil {
		t.Fatal(err)
	}
	ct = st.(*binder.CreateTable)
	if cols := ct.Descriptor.Schema.Columns; ct.Path != public("x") || ct.Source == nil || len(cols) != 2 || cols[0].Name != "id" || cols[1].Name != "label" || cols[0].Type.NotNull {
		t.Errorf("CREATE TABLE AS: %+v", ct)
	}
	st, err = bind(t, "DROP TABLE IF EXISTS x, s.y")
	if err != nil {
		t.Fatal(err)
	}
	if dt := st.(*binder.DropTable); !dt.IfExists || !reflect.DeepEqual(dt.Paths, []fluss.TablePath{public("x"), {Database: "s", Table: "y"}}) {
		t.Errorf("DROP TABLE: %+v", dt)
	}
	st, err = bind(t, "DROP VIEW v")
	if err != nil {
		t.Fatal(err)
	}
	if dv := st.(*binder.DropView); dv.IfExists || !reflect.DeepEqual(dv.Paths, []fluss.TablePath{public("v")}) {
		t.Errorf("DROP VIEW: %+v", dv)
	}
	st, err = bind(t, "CREATE OR REPLACE VIEW v (k) AS SELECT id, name FROM t")
	if err != nil {
		t.Fatal(err)
	}
	cv := st.(*binder.CreateView)
	if cv.Path != public("v") || !cv.OrReplace || !reflect.DeepEqual(cv.ColumnNames, []string{"k"}) || len(cv.Columns) != 2 ||
		cv.Columns[0].Name != "k" || cv.Columns[1].Name != "name" || cv.Definition != "SELECT id, name FROM t" ||
		len(cv.Uses) != 1 || cv.Uses[0].Path != public("t") {
		t.Errorf("CREATE VIEW: %+v", cv)
	}
}
