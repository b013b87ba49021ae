package embedded

import (
	"context"
	"fmt"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
)

// TestRowHints: a commit takes the stored row of a key it writes from the
// point lookup that read it (rowhints.go) only when no write since may
// have changed it; the changelog's before image is the stored row either
// way.
func TestRowHints(t *testing.T) {
	type step struct {
		op    string // lookup, upsert, delete
		id, v int32
	}
	cases := []struct {
		name  string
		steps []step
		// wantUsed counts the writes that took the row from a hint: the
		// first write after a lookup, never a later one.
		wantUsed int64
		// wantLog is the changelog after the rows 1..4 were inserted.
		wantLog string
	}{
		{"lookup then update", []step{{"lookup", 1, 0}, {"upsert", 1, 50}}, 1, "-U1:10 +U1:50"},
		{"another key written between", []step{{"lookup", 1, 0}, {"upsert", 2, 60}, {"upsert", 1, 50}}, 1, "-U2:20 +U2:60 -U1:10 +U1:50"},
		{"the key written between", []step{{"lookup", 1, 0}, {"upsert", 1, 70}, {"upsert", 1, 50}}, 1, "-U1:10 +U1:70 -U1:70 +U1:50"},
		{"the key deleted between", []step{{"lookup", 1, 0}, {"delete", 1, 0}, {"upsert", 1, 50}}, 1, "-D1:10 +I1:50"},
		{"deleted after the lookup", []step{{"lookup", 1, 0}, {"delete", 1, 0}}, 1, "-D1:10"},
		{"looked up again after a write", []step{{"lookup", 1, 0}, {"upsert", 1, 70}, {"lookup", 1, 0}, {"upsert", 1, 50}}, 2, "-U1:10 +U1:70 -U1:70 +U1:50"},
		{"no lookup", []step{{"upsert", 1, 50}}, 0, "-U1:10 +U1:50"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			s := openStore(t, t.TempDir())
			defer s.Close()
			tb := createTable(t, s, "h", fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("id", "v"), PrimaryKey: []string{"id"}}})
			for id := int32(1); id <= 4; id++ {
				rec := intRecord([]string{"id", "v"}, []int32{id, id * 10})
				if _, err := tb.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
					t.Fatal(err)
				}
				rec.Release()
			}
			before := len(readChangelog(t, s, "h"))
			for _, st := range tc.steps {
				var err error
				switch st.op {
				case "lookup":
					keys := intRecord([]string{"id"}, []int32{st.id})
					var got interface{ Release() }
					got, err = tb.Lookup(ctx, keys, nil)
					if err == nil {
						got.Release()
					}
					keys.Release()
				case "upsert":
					rec := intRecord([]string{"id", "v"}, []int32{st.id, st.v})
					_, err = tb.Upsert(ctx, rec, fluss.UpsertOptions{})
					rec.Release()
				case "delete":
					keys := intRecord([]string{"id"}, []int32{st.id})
					_, err = tb.Delete(ctx, keys)
					keys.Release()
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			log := ""
			for _, e := range readChangelog(t, s, "h")[before:] {
				if log != "" {
					log += " "
				}
				log += fmt.Sprintf("%s%d:%d", map[format.ChangeType]string{format.Insert: "+I", format.UpdateBefore: "-U", format.UpdateAfter: "+U", format.Delete: "-D"}[e.change], e.id, e.v)
			}
			if log != tc.wantLog {
				t.Errorf("changelog %q, want %q", log, tc.wantLog)
			}
			s.hints.mu.Lock()
			used := s.hints.used
			s.hints.mu.Unlock()
			if used != tc.wantUsed {
				t.Errorf("%d rows from hints, want %d", used, tc.wantUsed)
			}
		})
	}
}

// TestRowHintFloor: a state write of unmarked keys, or a group's batch
// after another write ran since its prepare started, retires every hint
// read before it ends; a group's batch with nothing between keeps the
// hints of keys it did not mark.
func TestRowHintFloor(t *testing.T) {
	cases := []struct {
		name  string
		write func(c *iterCache)
		ok    bool
	}{
		{"no write", func(*iterCache) {}, true},
		{"unmarked write", func(c *iterCache) { c.beginWrite(); c.endWrite() }, false},
		{"group batch", func(c *iterCache) {
			base, _ := c.writeSeq()
			c.beginWriteAfter(base)
			c.endWrite()
		}, true},
		{"group batch after another write", func(c *iterCache) {
			base, _ := c.writeSeq()
			c.beginWrite()
			c.endWrite()
			c.beginWriteAfter(base)
			c.endWrite()
		}, false},
		{"invalidate", func(c *iterCache) { c.invalidate() }, true},
		{"during a write", nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var c iterCache
			c.closed = true // no pebble: takeSeq only reads wseq
			var h rowHints
			if tc.write == nil {
				c.beginWrite()
			}
			_, seq, _ := c.takeSeq([]byte("k"), true)
			h.record([]byte("k"), []byte("row"), seq)
			if tc.write != nil {
				tc.write(&c)
			} else {
				c.endWrite()
			}
			_, floor := c.writeSeq()
			row, ok := h.stored([]byte("k"), floor, nil)
			if ok != tc.ok || (ok && string(row) != "row") {
				t.Errorf("hint %q %v, want ok %v", row, ok, tc.ok)
			}
		})
	}
}
