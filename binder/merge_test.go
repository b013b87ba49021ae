package binder_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// joinType finds the first join of a plan.
func joinType(n binder.Node) (binder.JoinType, bool) {
	if j, ok := n.(*binder.Join); ok {
		return j.Type, true
	}
	for _, c := range n.Children() {
		if t, ok := joinType(c); ok {
			return t, true
		}
	}
	return 0, false
}

// TestMergeBindsItsClauses: MERGE's join is inner without WHEN NOT MATCHED,
// a right join (every source row) with it; each clause numbers the rows it
// takes, and the clauses that change a target row are the ones the
// engine checks for a row changed twice.
func TestMergeBindsItsClauses(t *testing.T) {
	cases := []struct {
		sql                 string
		join                binder.JoinType
		changes             []int32
		updates, inserts    int
		deletes, keyChanged bool
	}{
		{"MERGE INTO t USING u ON t.n = u.id WHEN MATCHED THEN UPDATE SET name = u.label", binder.InnerJoin, []int32{1}, 1, 0, false, false},
		{"MERGE INTO t USING u ON t.n = u.id WHEN MATCHED AND u.id > 1 THEN DELETE WHEN MATCHED THEN DO NOTHING WHEN NOT MATCHED THEN INSERT (id) VALUES (u.id)", binder.RightJoin, []int32{1}, 0, 1, true, false},
		{"MERGE INTO t AS x USING (SELECT 1 AS k) s ON x.id = s.k WHEN MATCHED AND x.n > 0 THEN UPDATE SET id = x.id + 10 WHEN MATCHED THEN UPDATE SET n = 0", binder.InnerJoin, []int32{1, 2}, 2, 0, false, true},
	}
	for _, c := range cases {
		st, err := bind(t, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		m, ok := st.(*binder.Merge)
		if !ok {
			t.Errorf("%s: bound as %T", c.sql, st)
			continue
		}
		jt, _ := joinType(m.Rows)
		keyChanged := false
		for _, u := range m.Updates {
			keyChanged = keyChanged || u.KeyChanged
		}
		if jt != c.join || fmt.Sprint(m.Changes) != fmt.Sprint(c.changes) || len(m.Updates) != c.updates || len(m.Inserts) != c.inserts ||
			(m.Delete != nil) != c.deletes || keyChanged != c.keyChanged || m.ActionAt != len(m.Rows.Columns())-1 {
			t.Errorf("%s: join %v changes %v updates %d inserts %d delete %v keyChanged %v", c.sql, jt, m.Changes, len(m.Updates), len(m.Inserts), m.Delete != nil, keyChanged)
		}
	}
}

// TestMergeRefusals: what PostgreSQL refuses while it analyses a MERGE.
func TestMergeRefusals(t *testing.T) {
	for _, c := range []struct {
		sql  string
		code sqlerr.Code
		msg  string
	}{
		{"MERGE INTO t USING u ON t.n = u.id WHEN NOT MATCHED AND t.n > 0 THEN DO NOTHING", sqlerr.UndefinedTable, `invalid reference to FROM-clause entry for table "t"`},
		{"MERGE INTO t USING u ON t.n = u.id WHEN NOT MATCHED THEN INSERT (id) VALUES (t.id)", sqlerr.UndefinedTable, `invalid reference to FROM-clause entry for table "t"`},
		{"MERGE INTO t USING u AS t ON true WHEN MATCHED THEN DELETE", sqlerr.DuplicateAlias, `name "t" specified more than once`},
		{"MERGE INTO t USING u ON true WHEN MATCHED THEN DELETE WHEN MATCHED THEN DELETE", sqlerr.SyntaxError, "unreachable WHEN clause specified after unconditional WHEN clause"},
		{"MERGE INTO u USING t ON u.id = t.n WHEN MATCHED THEN UPDATE SET label = 'x'", sqlerr.FeatureNotSupported, `cannot update table "u"`},
		{"MERGE INTO t USING u ON u.id WHEN MATCHED THEN DELETE", sqlerr.DatatypeMismatch, "argument of JOIN/ON must be type boolean"},
		{"MERGE INTO t USING u ON true WHEN NOT MATCHED THEN INSERT (id) VALUES (1, 2)", sqlerr.SyntaxError, "INSERT has more expressions than target columns"},
		{"MERGE INTO t USING u ON true WHEN NOT MATCHED THEN INSERT (id, n) VALUES (1)", sqlerr.SyntaxError, "INSERT has more target columns than expressions"},
	} {
		_, err := bind(t, c.sql)
		if sqlerr.CodeOf(err) != c.code || err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s: %v, want %s %q", c.sql, err, c.code, c.msg)
		}
	}
}

// TestMergeReadsTarget: MERGE needs SELECT on its target only where the
// statement reads the target's columns (ON, a WHEN condition, a SET
// value), as PostgreSQL checks column privileges: an insert-only MERGE
// ON false needs INSERT alone.
func TestMergeReadsTarget(t *testing.T) {
	cases := []struct {
		sql   string
		reads bool
	}{
		{"MERGE INTO t USING u ON false WHEN NOT MATCHED THEN INSERT (id) VALUES (u.id)", false},
		{"MERGE INTO t USING u ON true WHEN MATCHED THEN UPDATE SET n = 7", false},
		{"MERGE INTO t USING u ON true WHEN MATCHED THEN UPDATE SET n = DEFAULT", false},
		{"MERGE INTO t USING u ON t.n = u.id WHEN NOT MATCHED THEN INSERT (id) VALUES (u.id)", true},
		{"MERGE INTO t USING u ON t.id = u.id WHEN NOT MATCHED THEN INSERT (id) VALUES (u.id + 200)", true},
		{"MERGE INTO t USING u ON u.id > 0 WHEN MATCHED AND t.n > 0 THEN DELETE", true},
		{"MERGE INTO t USING u ON true WHEN MATCHED THEN UPDATE SET n = n + 1", true},
		{"MERGE INTO t USING u ON true WHEN MATCHED THEN UPDATE SET n = (SELECT max(u2.id) FROM u u2 WHERE u2.id = t.n)", true},
	}
	for _, c := range cases {
		st, err := bind(t, c.sql)
		if err != nil {
			t.Errorf("%s: %v", c.sql, err)
			continue
		}
		if m := st.(*binder.Merge); m.ReadsTarget != c.reads {
			t.Errorf("%s: ReadsTarget %v, want %v", c.sql, m.ReadsTarget, c.reads)
		}
	}
}
