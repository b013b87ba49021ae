package engine

import (
	"context"
	"testing"

	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
)

// BenchmarkCursorFetch reads 2M rows (about 60 MB) through FETCH 2000 as
// psycopg2's named cursors do, from a NO SCROLL cursor and from one
// declared with neither SCROLL nor NO SCROLL over a plan PostgreSQL can
// run backward (a function scan): the second keeps every row it read,
// 32 MiB in memory and the rest in its temporary file (cursorstore.go).
// The ratio of the two is the cost of PostgreSQL's implicit SCROLL.
func BenchmarkCursorFetch(b *testing.B) {
	store, err := embedded.Open(b.TempDir(), embedded.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	ps, err := New(store, Options{SpillDir: b.TempDir()}).NewSession(context.Background(), pgwire.SessionInfo{User: "u"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(ps.Close)
	s := ps.(*session)
	const query = "SELECT g, repeat('x', 20) AS pad FROM generate_series(1, 2000000) g"
	for _, kind := range []string{"NO SCROLL", ""} {
		name := "no_scroll"
		if kind == "" {
			name = "implicit_scroll"
		}
		b.Run(name, func(b *testing.B) {
			for range b.N {
				execAll(b, s, "BEGIN")
				execAll(b, s, "DECLARE c "+kind+" CURSOR FOR "+query)
				var rows int64
				for {
					n, _ := execAll(b, s, "FETCH 2000 FROM c")
					rows += n
					if n < 2000 {
						break
					}
				}
				if rows != 2000000 {
					b.Fatalf("read %d rows", rows)
				}
				if kind == "" && !s.cursors.get("c").scrollable {
					b.Fatal("the cursor does not scroll")
				}
				execAll(b, s, "COMMIT")
			}
			b.ReportMetric(float64(2000000*b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
