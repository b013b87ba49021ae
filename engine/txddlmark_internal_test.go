package engine

import (
	"context"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
)

// TestCommittedBlockLeavesNoCreatedMark commits blocks that created a
// table and then made it anew or changed it (a log table's TRUNCATE is a
// new table at the commit, from the descriptor the block read): no table
// the commit leaves may carry the block's mark, which the next start
// would take for a crashed block's and drop (txddl.go withoutOwnMark).
func TestCommittedBlockLeavesNoCreatedMark(t *testing.T) {
	ctx := context.Background()
	store, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	e := New(store, Options{})
	ps, err := e.NewSession(ctx, pgwire.SessionInfo{User: "u", ProcessID: 7})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ps.Close)
	for _, tc := range []struct{ name, block string }{
		{"truncated_log", "CREATE TABLE truncated_log (a INT); INSERT INTO truncated_log VALUES (1); TRUNCATE truncated_log; INSERT INTO truncated_log VALUES (2)"},
		{"truncated_twice", "CREATE TABLE truncated_twice (a INT); TRUNCATE truncated_twice; INSERT INTO truncated_twice VALUES (2); TRUNCATE truncated_twice; INSERT INTO truncated_twice VALUES (2)"},
		{"plain_pk", "CREATE TABLE plain_pk (a INT PRIMARY KEY); INSERT INTO plain_pk VALUES (2)"},
		{"renamed_to", "CREATE TABLE renamed_from (a INT); ALTER TABLE renamed_from RENAME TO renamed_to; TRUNCATE renamed_to; INSERT INTO renamed_to VALUES (2)"},
	} {
		for _, sql := range []string{"BEGIN", tc.block, "COMMIT"} {
			execAll(t, ps, sql)
		}
		info, err := store.GetTable(ctx, fluss.TablePath{Database: "public", Table: tc.name})
		if err != nil {
			t.Fatalf("%s after COMMIT: %v", tc.name, err)
		}
		if m := info.Descriptor.CustomProperties[createdProperty]; m != "" {
			t.Errorf("%s after COMMIT still carries the block's mark %q: the next start would drop it", tc.name, m)
		}
	}
}
