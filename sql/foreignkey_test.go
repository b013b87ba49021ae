package sql

import (
	"reflect"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestForeignKeyClauses: CREATE TABLE's REFERENCES and FOREIGN KEY clauses
// are read with PostgreSQL's grammar into Statement.ForeignKeys (and TiDB
// never sees them); what PostgreSQL refuses is refused with its error.
func TestForeignKeyClauses(t *testing.T) {
	cases := []struct {
		sql  string
		want []ForeignKeyClause
		code sqlerr.Code
		msg  string
	}{
		{sql: "CREATE TABLE c (id int PRIMARY KEY, pid int REFERENCES p)",
			want: []ForeignKeyClause{{Columns: []string{"pid"}, RefTable: "p", Match: 's', OnDelete: 'a', OnUpdate: 'a', Pos: 45}}},
		{sql: "CREATE TABLE c (a int, b int, CONSTRAINT k FOREIGN KEY (a, b) REFERENCES s.p (x, y) MATCH FULL ON UPDATE CASCADE ON DELETE SET NULL (b) DEFERRABLE INITIALLY DEFERRED)",
			want: []ForeignKeyClause{{Name: "k", Columns: []string{"a", "b"}, RefSchema: "s", RefTable: "p", RefColumns: []string{"x", "y"},
				Match: 'f', OnDelete: 'n', OnUpdate: 'c', DeleteSetColumns: []string{"b"}, Deferrable: true, Deferred: true, Pos: 44}}},
		{sql: "CREATE TABLE c (a int NOT NULL REFERENCES p ON DELETE RESTRICT ON UPDATE SET DEFAULT)",
			want: []ForeignKeyClause{{Columns: []string{"a"}, RefTable: "p", Match: 's', OnDelete: 'r', OnUpdate: 'd', Pos: 32}}},
		{sql: "CREATE TABLE c (a int REFERENCES p MATCH PARTIAL)", code: sqlerr.FeatureNotSupported, msg: "MATCH PARTIAL not yet implemented"},
		{sql: "CREATE TABLE c (a int REFERENCES p ON UPDATE SET NULL (a))", code: sqlerr.FeatureNotSupported,
			msg: "a column list with SET NULL is only supported for ON DELETE actions"},
		{sql: "CREATE TABLE c (a int REFERENCES p NOT DEFERRABLE INITIALLY DEFERRED)", code: sqlerr.SyntaxError,
			msg: "constraint declared INITIALLY DEFERRED must be DEFERRABLE"},
		{sql: "CREATE TABLE c (a int REFERENCES p DEFERRABLE MATCH FULL)", code: sqlerr.SyntaxError, msg: `syntax error at or near "MATCH"`},
	}
	p := NewParser()
	for _, c := range cases {
		stmts, err := p.Parse(c.sql)
		if c.code != "" {
			e := sqlerr.As(err)
			if e == nil || e.Code != c.code || e.Message != c.msg {
				t.Errorf("%s: got %v, want %s %q", c.sql, err, c.code, c.msg)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if got := stmts[0].ForeignKeys; !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.sql, got, c.want)
		}
	}
}

// TestSetConstraints: SET CONSTRAINTS takes ALL or names, quoted ones too
// (a bare quoted name was a syntax error), [schema.]name keeping the name.
func TestSetConstraints(t *testing.T) {
	cases := []struct {
		sql  string
		want SetConstraints
	}{
		{`SET CONSTRAINTS ALL DEFERRED`, SetConstraints{Deferred: true}},
		{`SET CONSTRAINTS c_pid_fkey IMMEDIATE`, SetConstraints{Names: []string{"c_pid_fkey"}}},
		{`SET CONSTRAINTS "Mixed_Fkey", b DEFERRED`, SetConstraints{Names: []string{"Mixed_Fkey", "b"}, Deferred: true}},
		{`SET CONSTRAINTS public."Ab" IMMEDIATE`, SetConstraints{Names: []string{"Ab"}}},
	}
	p := NewParser()
	for _, c := range cases {
		stmts, err := p.Parse(c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if got := stmts[0].Set; got == nil || got.Constraints == nil || !reflect.DeepEqual(*got.Constraints, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.sql, got, c.want)
		}
	}
}
