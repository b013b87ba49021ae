package sql

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestUnsupportedStatements: a statement of PostgreSQL's grammar that
// sqlgate does not run is 0A000 naming it, at the word PostgreSQL's
// feature starts with; a statement that is nobody's grammar keeps its
// syntax error.
func TestUnsupportedStatements(t *testing.T) {
	tests := []struct {
		in, msg string
		pos     int
	}{
		{`CREATE POLICY p ON t USING (true)`, `CREATE POLICY is not supported`, 1},
		{`create or replace trigger tr after insert on t for each row execute function f()`, `CREATE TRIGGER is not supported`, 1},
		{`CREATE CONSTRAINT TRIGGER tr AFTER INSERT ON t FOR EACH ROW EXECUTE FUNCTION f()`, `CREATE CONSTRAINT TRIGGER is not supported`, 1},
		{`DROP TEXT SEARCH DICTIONARY IF EXISTS d`, `DROP TEXT SEARCH DICTIONARY is not supported`, 1},
		{`ALTER OPERATOR FAMILY f USING btree RENAME TO g`, `ALTER OPERATOR FAMILY is not supported`, 1},
		{`SECURITY LABEL ON TABLE t IS 'x'`, `SECURITY LABEL is not supported`, 1},
		{`ALTER SEQUENCE s SET LOGGED`, `ALTER SEQUENCE ... SET LOGGED is not supported`, 18},
		{`ALTER FUNCTION f(int) SET SCHEMA s`, `ALTER FUNCTION ... SET SCHEMA is not supported: sqlgate's functions are all in schema public`, 23},
		{`GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO PUBLIC`, `GRANT ... ON ALL SEQUENCES IN SCHEMA is not supported`, 11},
		{`GRANT pg_monitor TO alice`, `GRANT of role membership is not supported`, 1},
		{`CREATE TABLE t (a int, EXCLUDE USING gist (a WITH =))`, `EXCLUDE constraints is not supported`, 24},
		{`CREATE TABLE t (a int PRIMARY KEY USING INDEX TABLESPACE ts)`, `USING INDEX TABLESPACE is not supported`, 35},
		{`CREATE TABLE t OF comp`, `typed tables (CREATE TABLE ... OF type) is not supported`, 16},
		{`CREATE TABLE t (id int PRIMARY KEY DEFERRABLE)`, `a DEFERRABLE primary key is not supported`, 36},
		{`CREATE TABLE t (id int, PRIMARY KEY (id) DEFERRABLE INITIALLY DEFERRED)`, `a DEFERRABLE primary key is not supported`, 42},
		{`SELECT 1 AS x INTO t`, `SELECT ... INTO is not supported`, 15},
	}
	p := NewParser()
	for _, tc := range tests {
		_, err := p.Parse(tc.in)
		e := sqlerr.As(err)
		if e == nil || e.Code != sqlerr.FeatureNotSupported || e.Message != tc.msg || e.Position != tc.pos {
			t.Errorf("%s: got %v (position %d), want 0A000 %q at %d", tc.in, err, func() int {
				if e == nil {
					return 0
				}
				return e.Position
			}(), tc.msg, tc.pos)
		}
	}
	for _, in := range []string{`CREATE POLICE p`, `ALTER SEQUENCE s FROB`, `CREATE TABLE t (a int,, b int)`, `SELECT 1 +`, `CREATE TABLE c (a int REFERENCES p DEFERRABLE MATCH FULL)`} {
		if _, err := p.Parse(in); sqlerr.CodeOf(err) != sqlerr.SyntaxError {
			t.Errorf("%s: got %v, want 42601", in, err)
		}
	}
	// WITHOUT OIDS and SET XML OPTION are PostgreSQL's and sqlgate's
	for _, in := range []string{`CREATE TABLE t (a int) WITHOUT OIDS`, `SET XML OPTION DOCUMENT`} {
		if _, err := p.Parse(in); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
}
