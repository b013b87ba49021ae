package psql

import (
	"strings"
	"testing"
)

// typesAndTextSearchMatchPostgres compares psql's type, domain and
// function listings with comments and defaults (\dT+, \dD+, \df, \dTS:
// pg_description rows of pg_type, proargdefaults) and its text search
// listings (\dF, \dFd, \dFp, \dFt: pg_ts_config, pg_ts_config_map,
// pg_ts_dict, pg_ts_parser, pg_ts_template) with PostgreSQL's. The same
// statements create the objects on both servers; \dF and \dFd name the
// configurations and dictionaries sqlgate has (simple, english).
func typesAndTextSearchMatchPostgres(t *testing.T, pg, sg int) {
	ddl := []string{`CREATE TYPE ds_mood AS ENUM ('sad', 'happy')`, `CREATE DOMAIN ds_pos AS integer DEFAULT 1 CHECK (VALUE > 0)`,
		`CREATE TYPE ds_pair AS (a int, b text)`, `COMMENT ON TYPE ds_mood IS 'how one feels'`,
		`COMMENT ON DOMAIN ds_pos IS 'a positive integer'`, `COMMENT ON TYPE ds_pair IS 'two values'`,
		`CREATE FUNCTION ds_f(a integer, b text DEFAULT 'x', c numeric DEFAULT 1 + 2) RETURNS integer LANGUAGE sql IMMUTABLE AS 'SELECT a'`}
	for _, port := range []int{pg, sg} {
		for _, stmt := range ddl {
			if out := runPsql(t, port, "sqlgate", "sqlgate", "-q", "-c", stmt); out != "" {
				t.Fatalf("%s on port %d: %s", stmt, port, out)
			}
		}
	}
	for _, cmd := range []string{`\dT ds_*`, `\dT+ ds_*`, `\dD ds_*`, `\dD+ ds_*`, `\df ds_f`, `\dTS int4`, `\dTS jsonb`, `\dTS tsvector`,
		`\dF simple`, `\dF+ english`, `\dF+ simple`, `\dFd simple`, `\dFd+ english_stem`, `\dFp`, `\dFp+`, `\dFp+ default`, `\dFt`, `\dFt+`} {
		got := runPsql(t, sg, "sqlgate", "sqlgate", "-c", cmd)
		if want := runPsql(t, pg, "sqlgate", "sqlgate", "-c", cmd); got != want {
			t.Errorf("%s differs\n--- sqlgate:\n%s\n--- PostgreSQL:\n%s", cmd, got, want)
		}
		if strings.Contains(got, "(0 rows)") {
			t.Errorf("%s lists nothing", cmd)
		}
	}
}
