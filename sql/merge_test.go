package sql

import (
	"testing"

	pt "github.com/sqlgate/sqlgate/sql/tree"
)

func TestMergeParse(t *testing.T) {
	p := NewParser()
	sts, err := p.Parse(`WITH w AS (SELECT 1 AS id) MERGE INTO t AS a USING (SELECT id, x FROM s) AS s ON a.id = s.id
	  WHEN MATCHED AND s.x > $1 THEN UPDATE SET x = s.x::int, y = DEFAULT
	  WHEN MATCHED THEN DELETE
	  WHEN NOT MATCHED AND s.x IS NULL THEN DO NOTHING
	  WHEN NOT MATCHED THEN INSERT (id, x) OVERRIDING SYSTEM VALUE VALUES (s.id, $2)
	  WHEN NOT MATCHED THEN INSERT DEFAULT VALUES`)
	if err != nil {
		t.Fatal(err)
	}
	st := sts[0]
	if st.Kind != Merge || st.NumParams != 2 {
		t.Fatalf("kind %v params %d: %s", st.Kind, st.NumParams, st.Rewritten)
	}
	var tr Transformer
	tree, err := tr.BindStatement(st)
	if err != nil {
		t.Fatal(err)
	}
	m := tree.(*pt.Merge)
	if m.Table.Name != "t" || m.Alias != "a" || m.With == nil || len(m.Clauses) != 5 {
		t.Fatalf("%+v", m)
	}
	c := m.Clauses
	if c[0].Action != pt.MergeUpdate || c[0].Cond == nil || len(c[0].Set) != 2 || c[1].Action != pt.MergeDelete ||
		c[2].Action != pt.MergeNothing || c[2].Matched || c[3].Overriding != "system" || len(c[3].Values) != 2 || len(c[4].Values) != 0 {
		t.Fatalf("%+v %+v %+v %+v %+v", c[0], c[1], c[2], c[3], c[4])
	}
}

func TestMergeSyntaxErrors(t *testing.T) {
	for _, tc := range []struct{ sql, msg string }{
		{"MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN INSERT VALUES (1)", `syntax error at or near "INSERT"`},
		{"MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED THEN UPDATE SET x = 1", `syntax error at or near "UPDATE"`},
		{"MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE RETURNING *", `syntax error at or near "RETURNING"`},
		{"MERGE INTO t USING s ON t.id = s.id", `syntax error at end of input`},
	} {
		_, err := NewParser().Parse(tc.sql)
		if err == nil || err.Error() != tc.msg {
			t.Errorf("%s: %v, want %s", tc.sql, err, tc.msg)
		}
	}
}

// TestMergeWordElsewhere: merge as a name is no MERGE statement.
func TestMergeWordElsewhere(t *testing.T) {
	for _, q := range []string{
		"CREATE TABLE merge (merge int)",
		"SELECT merge FROM merge",
		"WITH merge AS (SELECT 1 AS merge) SELECT merge FROM merge",
		"INSERT INTO merge VALUES (1)",
		"DROP TABLE merge",
		"EXPLAIN SELECT merge FROM merge",
	} {
		sts, err := NewParser().Parse(q)
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		if sts[0].Merge != nil || sts[0].Kind == Merge {
			t.Errorf("%s: parsed as MERGE", q)
		}
	}
	for _, q := range []string{
		"EXPLAIN ANALYZE MERGE INTO t USING s ON true WHEN MATCHED THEN DELETE",
		"EXPLAIN (FORMAT JSON) MERGE INTO t USING s ON true WHEN MATCHED THEN DELETE",
		"WITH RECURSIVE r(n) AS (SELECT 1), q AS (SELECT 2) MERGE INTO t USING r ON true WHEN MATCHED THEN DELETE",
	} {
		sts, err := NewParser().Parse(q)
		if err != nil || sts[0].Merge == nil {
			t.Errorf("%s: %v, not parsed as MERGE", q, err)
		}
	}
}
