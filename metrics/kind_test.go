package metrics

import "testing"

func TestKind(t *testing.T) {
	for _, c := range []struct{ sql, kind string }{
		{"SELECT 1", "select"},
		{"  \n\tselect 1", "select"},
		{"-- a comment\nINSERT INTO t VALUES (1)", "insert"},
		{"/* hint */ update t set a = 1", "update"},
		{"((SELECT 1))", "select"},
		{"WITH x AS (SELECT 1) SELECT * FROM x", "with"},
		{"CREATE TABLE t (a int)", "create"},
		{"frobnicate", "other"},
		{"averyveryverylongwordindeed", "other"},
		{"", "empty"},
		{"-- only a comment", "empty"},
		{"/* unterminated", "empty"},
		{"123", "empty"},
	} {
		if got := Kind(c.sql); got != c.kind {
			t.Errorf("Kind(%q) = %q, want %q", c.sql, got, c.kind)
		}
	}
}

func TestIsCopyFrom(t *testing.T) {
	for _, c := range []struct {
		sql  string
		from bool
	}{
		{"COPY t FROM STDIN", true},
		{"copy t (a, b) from stdin with (format csv)", true},
		{"COPY t TO STDOUT", false},
		{"COPY (SELECT a FROM t) TO STDOUT", false},
		{"COPY t FROM '/data/x.parquet' (FORMAT parquet)", true},
	} {
		if got := isCopyFrom(c.sql); got != c.from {
			t.Errorf("isCopyFrom(%q) = %v", c.sql, got)
		}
	}
}
