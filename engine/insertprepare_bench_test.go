package engine_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
)

// BenchmarkPrepareInsert1000: Prepare (parse, bind, plan) of bench's W8
// INSERT of 1000 literal rows, without running it: the statement's
// per-row cost in front of the write path (issue 33), which a shared
// machine disturbs less than the end-to-end figure. It reports the
// process's CPU time per statement beside the rate.
func BenchmarkPrepareInsert1000(b *testing.B) {
	store, err := embedded.Open(b.TempDir(), embedded.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	s, err := engine.New(store, engine.Options{}).NewSession(context.Background(), pgwire.SessionInfo{User: "u"})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := execB(s, "CREATE TABLE ins (id BIGINT PRIMARY KEY, user_id INT, amount DOUBLE PRECISION, qty INT, name VARCHAR, ts TIMESTAMP(6))"); err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString("INSERT INTO ins (id, user_id, amount, qty, name, ts) VALUES ")
	for id := range 1000 {
		if id > 0 {
			sb.WriteString(", ")
		}
		amount := "NULL"
		if id%10 != 0 {
			amount = fmt.Sprintf("%d.25", id%5000)
		}
		fmt.Fprintf(&sb, "(%d, %d, %s, %d, 'n%x', '2024-%02d-%02d %02d:%02d:%02d.%06d')", id, id%100000, amount, id%17,
			id*7919, 1+id%12, 1+id%28, id%24, id%60, (id/60)%60, id%1000000)
	}
	q := sb.String()
	b.ReportAllocs()
	before := cpuTime()
	b.ResetTimer()
	for range b.N {
		if _, err := s.Prepare(context.Background(), q, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64((cpuTime()-before).Microseconds())/float64(b.N), "cpu-us/stmt")
}
