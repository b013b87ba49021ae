package engine

import (
	"context"
	"strconv"
	"testing"

	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
)

// execAll runs each statement of text and returns the last one's row
// count and tag.
func execAll(t *testing.T, s pgwire.Session, text string) (int64, string) {
	t.Helper()
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, text, nil)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	var rows int64
	var tag string
	for _, st := range stmts {
		res, err := st.Execute(ctx, nil)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		rows = 0
		for {
			b, err := res.Next(ctx)
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			if b == nil {
				break
			}
			rows += b.NumRows()
			b.Release()
		}
		tag = res.Tag()
		res.Close()
	}
	return rows, tag
}

// TestCursorMemoryBounded: a cursor that cannot scroll keeps only the
// rows it has not returned (at most a batch of the executor's beyond the
// FETCH), whatever the length of its result; a SCROLL cursor keeps every
// row it read.
func TestCursorMemoryBounded(t *testing.T) {
	store, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	ps, err := New(store, Options{}).NewSession(context.Background(), pgwire.SessionInfo{User: "u"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ps.Close)
	s := ps.(*session)
	const total = 200000
	execAll(t, s, "BEGIN")
	execAll(t, s, "DECLARE f NO SCROLL CURSOR FOR SELECT g, g * 2 AS h FROM generate_series(1, 200000) g")
	execAll(t, s, "DECLARE sc SCROLL CURSOR FOR SELECT g FROM generate_series(1, 200000) g")
	f := s.cursors.get("f")
	var fetched, maxBatch, maxStored int64
	for {
		n, tag := execAll(t, s, "FETCH 1000 FROM f")
		if want := "FETCH " + strconv.FormatInt(n, 10); tag != want {
			t.Fatalf("tag %q after %d rows, want %q", tag, n, want)
		}
		fetched += n
		for _, b := range f.store {
			maxBatch = max(maxBatch, b.NumRows())
		}
		maxStored = max(maxStored, f.stored)
		if n < 1000 {
			break
		}
	}
	if fetched != total {
		t.Fatalf("fetched %d rows, want %d", fetched, total)
	}
	t.Logf("NO SCROLL cursor: up to %d rows kept, batches of up to %d", maxStored, maxBatch)
	if maxBatch >= total/4 || maxStored > 2*maxBatch {
		t.Errorf("NO SCROLL cursor kept up to %d rows (batches of up to %d) of %d", maxStored, maxBatch, total)
	}
	// FETCH ALL streams: the cursor holds a batch at a time while the
	// client reads, and MOVE ALL passes rows without keeping them.
	execAll(t, s, "DECLARE f2 NO SCROLL CURSOR FOR SELECT g FROM generate_series(1, 200000) g")
	execAll(t, s, "DECLARE f3 CURSOR FOR SELECT g FROM generate_series(1, 200000) g")
	stmts, err := s.Prepare(context.Background(), "FETCH ALL FROM f2", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := stmts[0].Execute(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var streamed int64
	for {
		b, err := res.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b == nil {
			break
		}
		streamed += b.NumRows()
		b.Release()
		if kept := s.cursors.get("f2").stored; kept > 2*maxBatch {
			t.Fatalf("FETCH ALL: the cursor holds %d rows after %d were sent", kept, streamed)
		}
	}
	if tag := res.Tag(); streamed != total || tag != "FETCH 200000" {
		t.Errorf("FETCH ALL streamed %d rows, tag %q", streamed, tag)
	}
	res.Close()
	if n, tag := execAll(t, s, "MOVE FORWARD ALL IN f3"); n != 0 || tag != "MOVE 200000" || s.cursors.get("f3").stored != 0 {
		t.Errorf("MOVE ALL: %d rows, tag %q, %d kept", n, tag, s.cursors.get("f3").stored)
	}
	execAll(t, s, "MOVE FORWARD ALL IN sc")
	if got := s.cursors.get("sc").stored; got != total {
		t.Errorf("SCROLL cursor keeps %d rows after reading all, want %d", got, total)
	}
	if n, _ := execAll(t, s, "FETCH BACKWARD ALL FROM sc"); n != total {
		t.Errorf("FETCH BACKWARD ALL returned %d rows, want %d", n, total)
	}
	execAll(t, s, "COMMIT")
	if len(s.cursors.byName) != 0 {
		t.Errorf("cursors left after COMMIT: %v", s.cursors.order)
	}
}
