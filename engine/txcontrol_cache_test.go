package engine_test

import (
	"context"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// A transaction statement's text sent again is answered from the
// session's statement of it (prepare.go's txControlCache): every round of
// each script must behave as the first, whatever the statements before
// left in the cache.
func TestTransactionStatementsReused(t *testing.T) {
	s := sessions(t, t.TempDir(), engine.Options{}, "u")[0]
	mustRun(t, s, "CREATE TABLE r (id BIGINT PRIMARY KEY, v BIGINT)")
	mustRun(t, s, "INSERT INTO r VALUES (1, 0)")
	type step struct {
		sql    string
		status byte   // the transaction status after it
		code   string // the SQLSTATE it fails with ("" = none)
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"begin commit", []step{{"BEGIN", 'T', ""}, {"UPDATE r SET v = v + 1 WHERE id = 1", 'T', ""}, {"COMMIT", 'I', ""}}},
		{"begin rollback", []step{{"begin", 'T', ""}, {"UPDATE r SET v = v + 1 WHERE id = 1", 'T', ""}, {"rollback", 'I', ""}}},
		{"read only", []step{{"BEGIN READ ONLY", 'T', ""}, {"UPDATE r SET v = v + 1 WHERE id = 1", 'E', "25006"}, {"COMMIT", 'I', ""}}},
		{"read only then plain", []step{{"BEGIN READ ONLY", 'T', ""}, {"COMMIT", 'I', ""}, {"BEGIN", 'T', ""},
			{"UPDATE r SET v = v + 1 WHERE id = 1", 'T', ""}, {"END", 'I', ""}}},
		{"chain", []step{{"BEGIN", 'T', ""}, {"COMMIT AND CHAIN", 'T', ""}, {"ROLLBACK", 'I', ""}}},
		{"aborted block", []step{{"BEGIN", 'T', ""}, {"SELECT 1/0", 'E', "22012"}, {"SELECT 1", 'E', "25P02"}, {"COMMIT", 'I', ""}}},
		{"outside a block", []step{{"COMMIT", 'I', ""}, {"ROLLBACK", 'I', ""}}},
	} {
		for round := range 3 {
			for _, st := range tc.steps {
				_, _, err := run(t, s, st.sql)
				got := ""
				if err != nil {
					got = string(sqlerr.CodeOf(err))
				}
				if got != st.code {
					t.Fatalf("%s, round %d, %s: SQLSTATE %q (%v), want %q", tc.name, round, st.sql, got, err, st.code)
				}
				if got := s.TxStatus(); got != st.status {
					t.Fatalf("%s, round %d, %s: status %c, want %c", tc.name, round, st.sql, got, st.status)
				}
			}
		}
	}
	// Three rounds of the two committed scripts.
	if got := mustRun(t, s, "SELECT v FROM r"); len(got) != 1 || got[0] != "6" {
		t.Errorf("v = %v, want 6", got)
	}
	// The same text is the same statement; another text is another one.
	prep := func(text string) pgwire.Statement {
		st, err := s.Prepare(context.Background(), text, nil)
		if err != nil || len(st) != 1 {
			t.Fatalf("%s: %v", text, err)
		}
		return st[0]
	}
	if prep("BEGIN") != prep("BEGIN") {
		t.Error("BEGIN was parsed again")
	}
	if prep("BEGIN") == prep("BEGIN READ ONLY") {
		t.Error("BEGIN and BEGIN READ ONLY share a statement")
	}
	if prep("SELECT 1") == prep("SELECT 1") {
		t.Error("a query was cached as a transaction statement")
	}
}

// BenchmarkSimpleTransactionStatements: BEGIN and COMMIT as a client sends
// them, texts of simple queries, prepared and run each time (pgwire's
// Query path), around no work: their own cost per transaction.
func BenchmarkSimpleTransactionStatements(b *testing.B) {
	s := sessions(b, b.TempDir(), engine.Options{}, "u")[0]
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		for _, text := range []string{"begin", "commit"} {
			st, err := s.Prepare(ctx, text, nil)
			if err != nil {
				b.Fatal(err)
			}
			if err := runStatement(ctx, st[0], nil, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
}
