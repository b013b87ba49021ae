package engine

import (
	"context"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
)

// execAll runs each statement of text and returns the last one's row
// count and tag.
// internalSession opens a session of a new engine over a new embedded
// store, both closed when the test ends.
func internalSession(t testing.TB) *session {
	t.Helper()
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
	return ps.(*session)
}

func execAll(t testing.TB, s pgwire.Session, text string) (int64, string) {
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
	ps := internalSession(t)
	s := ps
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
		for _, b := range f.store.parts {
			maxBatch = max(maxBatch, b.rows)
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
	execAll(t, s, "DECLARE f3 NO SCROLL CURSOR FOR SELECT g FROM generate_series(1, 200000) g")
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
	// A SCROLL cursor keeps every row, in memory up to its store's
	// bound (lowered here) and on disk past it.
	sc := s.cursors.get("sc")
	sc.store.limit = 256 << 10
	execAll(t, s, "MOVE FORWARD ALL IN sc")
	if got := sc.stored; got != total {
		t.Errorf("SCROLL cursor keeps %d rows after reading all, want %d", got, total)
	}
	spilled := 0
	for _, p := range sc.store.parts {
		if p.rec == nil {
			spilled++
		}
	}
	if sc.store.inMem > sc.store.limit+int64(maxBatch)*8 || spilled == 0 {
		t.Errorf("SCROLL cursor holds %d bytes in memory (bound %d), %d of %d batches on disk", sc.store.inMem, sc.store.limit, spilled, len(sc.store.parts))
	}
	if got := fetchInts(t, s, "FETCH ABSOLUTE 12345 FROM sc"); len(got) != 1 || got[0] != 12345 {
		t.Errorf("FETCH ABSOLUTE 12345 from the spilled cursor: %v", got)
	}
	if got := fetchInts(t, s, "FETCH BACKWARD 3 FROM sc"); len(got) != 3 || got[0] != 12344 || got[2] != 12342 {
		t.Errorf("FETCH BACKWARD 3 after row 12345: %v", got)
	}
	execAll(t, s, "MOVE ABSOLUTE -1 IN sc")
	back := fetchInts(t, s, "FETCH BACKWARD ALL FROM sc")
	var sum int64
	for i, v := range back {
		sum += v
		if i > 0 && v != back[i-1]-1 {
			t.Fatalf("FETCH BACKWARD ALL: %d after %d", v, back[i-1])
		}
	}
	if len(back) != total-1 || sum != int64(total-1)*int64(total)/2 {
		t.Errorf("FETCH BACKWARD ALL returned %d rows summing to %d", len(back), sum)
	}
	execAll(t, s, "COMMIT")
	if len(s.cursors.byName) != 0 {
		t.Errorf("cursors left after COMMIT: %v", s.cursors.order)
	}
}

// fetchInts runs a FETCH of one integer column and returns its values.
func fetchInts(t *testing.T, s pgwire.Session, text string) []int64 {
	t.Helper()
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, text, nil)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	res, err := stmts[0].Execute(ctx, nil)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	defer res.Close()
	var out []int64
	for {
		b, err := res.Next(ctx)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		if b == nil {
			return out
		}
		for i := 0; i < int(b.NumRows()); i++ {
			switch c := b.Column(0).(type) {
			case *array.Int64:
				out = append(out, c.Value(i))
			case *array.Int32:
				out = append(out, int64(c.Value(i)))
			default:
				t.Fatalf("%s: column of %s", text, c.DataType())
			}
		}
		b.Release()
	}
}
