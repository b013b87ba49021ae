package sql

import (
	"reflect"
	"testing"
)

// TestDriverStatements: the shapes pgx, pgJDBC and ORMs send with $n
// parameters all reach TiDB with markers in the right places.
func TestDriverStatements(t *testing.T) {
	tests := []struct {
		in, want string
		params   []int
	}{
		{"SELECT x FROM t LIMIT $1 OFFSET $2", "select x from t limit ? offset ?", []int{1, 2}},
		{"INSERT INTO t (a) VALUES ($1), ($2)", "insert into t (a) values (?), (?)", []int{1, 2}},
		{"UPDATE t SET a = $1 WHERE b = $2", "update t set a = ? where b = ?", []int{1, 2}},
		{"SELECT count(*) FROM t GROUP BY a HAVING count(*) > $1", "select count(*) from t group by a having count(*) > ?", []int{1}},
		{"SELECT a FROM t WHERE b BETWEEN $1 AND $2 AND c LIKE $3", "select a from t where b between ? and ? and c like ?", []int{1, 2, 3}},
		{"SELECT CASE WHEN $1::int > 0 THEN 'a' ELSE 'b' END", "select case when pg__cast(?, 'int') > 0 then 'a' else 'b' end", []int{1}},
		{"DELETE FROM t WHERE id = $1", "delete from t where id = ?", []int{1}},
		{"SELECT t.key FROM kv t", `select t."key" from kv t`, nil},
		{"SELECT a FROM t WHERE a IN (SELECT b FROM u WHERE u.c = $1)", "select a from t where a in (select b from u where u.c = ?)", []int{1}},
		{"SELECT a FROM t ORDER BY $1 NULLS FIRST", "select a from t order by pg__nulls(?, 'first')", []int{1}},
	}
	p := NewParser()
	for _, tc := range tests {
		stmts, err := p.Parse(tc.in)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		st := stmts[0]
		if st.Rewritten != tc.want || !reflect.DeepEqual(st.ParamNumbers, tc.params) {
			t.Errorf("%q -> %q %v, want %q %v", tc.in, st.Rewritten, st.ParamNumbers, tc.want, tc.params)
		}
	}
}
