package engine

import (
	"context"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
)

// TestForeignKeyIndexNotKeptMidDDL: a DDL bumps the catalog count at its
// start (under the DDL lock) and changes the store after; an index of the
// foreign keys built in between (by another session) holds the store
// before the change under the count after it, and was kept and reused
// after the DDL: a new foreign key unenforced until the next DDL. The DDL
// is played here step by step (the lock, the bump, the store change) with
// another session building the index in between.
func TestForeignKeyIndexNotKeptMidDDL(t *testing.T) {
	ctx := context.Background()
	store, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	eng := New(store, Options{})
	open := func() *session {
		ps, err := eng.NewSession(ctx, pgwire.SessionInfo{User: "u"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(ps.Close)
		return ps.(*session)
	}
	a, b := open(), open()
	for _, q := range []string{
		"CREATE TABLE kp (id int PRIMARY KEY)",
		"CREATE TABLE kc0 (id int PRIMARY KEY, pid int REFERENCES kp (id))",
	} {
		stmts, err := a.Prepare(ctx, q, nil)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for _, st := range stmts {
			res, err := st.Execute(ctx, nil)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			for b, err := res.Next(ctx); b != nil || err != nil; b, err = res.Next(ctx) {
				if err != nil {
					t.Fatalf("%s: %v", q, err)
				}
				b.Release()
			}
			res.Close()
		}
	}
	kp := fluss.TablePath{Database: "public", Table: "kp"}
	model, err := store.GetTable(ctx, fluss.TablePath{Database: "public", Table: "kc0"})
	if err != nil {
		t.Fatal(err)
	}
	referencing := func(s *session) int {
		idx, err := s.fkIndexNow(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return len(idx.referencing[kp])
	}
	if n := referencing(b); n != 1 {
		t.Fatalf("keys referencing kp before: %d, want 1", n)
	}
	// the DDL: lock, bump, (another session builds the index), change
	a.eng.ddl.Lock()
	a.eng.catalog.Add(1)
	done := make(chan int)
	go func() { done <- referencing(b) }()
	if n := <-done; n != 1 {
		t.Errorf("keys referencing kp during the DDL: %d, want 1 (the store not changed yet)", n)
	}
	if _, err := store.CreateTable(ctx, fluss.TablePath{Database: "public", Table: "kc1"}, model.Descriptor, false); err != nil {
		a.eng.ddl.Unlock()
		t.Fatal(err)
	}
	if n := referencing(a); n != 2 { // the DDL's own session, lock held
		t.Errorf("keys referencing kp in the DDL after its change: %d, want 2", n)
	}
	a.eng.ddl.Unlock()
	if n := referencing(b); n != 2 {
		t.Errorf("keys referencing kp after the DDL: %d, want 2 (an index built mid-DDL was kept)", n)
	}
}
