package engine_test

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
)

// sixColBatches is a COPY source of n six-column rows (BIGINT key, INT,
// BIGINT, DOUBLE, BOOLEAN, TEXT) in batches of 8192, built beforehand so
// that the benchmark measures the engine and the store, not the source.
type sixColBatches struct {
	batches []arrow.RecordBatch
	next    int
}

func newSixColBatches(first, n int64) *sixColBatches {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "b", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "c", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "d", Type: arrow.FixedWidthTypes.Boolean, Nullable: true}, {Name: "e", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	names := [...]string{"ab", "cde", "fghi", "j"}
	s := &sixColBatches{}
	for lo := first; lo < first+n; lo += 8192 {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := lo; i < min(lo+8192, first+n); i++ {
			rb.Field(0).(*array.Int64Builder).Append(i)
			rb.Field(1).(*array.Int32Builder).Append(int32(i % 1000))
			rb.Field(2).(*array.Int64Builder).Append(i * 7)
			rb.Field(3).(*array.Float64Builder).Append(float64(i) * 0.5)
			rb.Field(4).(*array.BooleanBuilder).Append(i%2 == 0)
			rb.Field(5).(*array.StringBuilder).Append(names[i%4])
		}
		s.batches = append(s.batches, rb.NewRecordBatch())
		rb.Release()
	}
	return s
}

func (s *sixColBatches) Next(context.Context) (arrow.RecordBatch, error) {
	if s.next == len(s.batches) {
		return nil, nil
	}
	b := s.batches[s.next]
	b.Retain()
	s.next++
	return b, nil
}

// BenchmarkCopyPK: COPY FROM STDIN of 1M rows into a fresh primary-key
// table, engine and store in process, from decoded batches (what pgwire
// hands over): held in memory until the commit, and staged on disk past
// the store's default budget. It reports the process's CPU time per row
// beside the rate, which a shared machine disturbs less.
func BenchmarkCopyPK(b *testing.B) {
	for _, c := range []struct {
		name  string
		stage int64
	}{{"memory", -1}, {"staged", 0}} {
		b.Run(c.name, func(b *testing.B) { benchCopyPK(b, c.stage) })
	}
}

// BenchmarkCopyLog: BenchmarkCopyPK into a log table (no primary key),
// bench's W8 COPY into its log table.
func BenchmarkCopyLog(b *testing.B) {
	for _, c := range []struct {
		name  string
		stage int64
	}{{"memory", -1}, {"staged", 0}} {
		b.Run(c.name, func(b *testing.B) { benchCopy(b, c.stage, "") })
	}
}

func benchCopyPK(b *testing.B, stage int64) { benchCopy(b, stage, " PRIMARY KEY") }

// benchCopy copies 1M rows into a fresh table whose id column is declared
// with key (" PRIMARY KEY" or "").
func benchCopy(b *testing.B, stage int64, key string) {
	const rows = 1 << 20
	src := newSixColBatches(0, rows)
	b.ReportAllocs()
	var cpu time.Duration
	for i := range b.N {
		b.StopTimer()
		store, err := embedded.Open(b.TempDir(), embedded.Options{StageBytes: stage})
		if err != nil {
			b.Fatal(err)
		}
		s, err := engine.New(store, engine.Options{}).NewSession(context.Background(), pgwire.SessionInfo{User: "u"})
		if err != nil {
			b.Fatal(err)
		}
		table := fmt.Sprintf("pk%d", i)
		if _, err := execB(s, "CREATE TABLE "+table+" (id BIGINT"+key+", a INT, b BIGINT, c DOUBLE PRECISION, d BOOLEAN, e TEXT)"); err != nil {
			b.Fatal(err)
		}
		src.next = 0
		before := cpuTime()
		b.StartTimer()
		if tag, err := copyFromB(s, "COPY "+table+" FROM STDIN", src); err != nil || tag != fmt.Sprintf("COPY %d", rows) {
			b.Fatal(tag, err)
		}
		b.StopTimer()
		cpu += cpuTime() - before
		s.Close()
		store.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(rows*b.N), "cpu-ns/row")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// execB runs one statement outside a test.
func execB(s pgwire.Session, sql string) (string, error) {
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, sql, nil)
	if err != nil {
		return "", err
	}
	res, err := stmts[0].Execute(ctx, nil)
	if err != nil {
		return "", err
	}
	return res.Tag(), nil
}

// copyFromB is copyFrom outside a test.
func copyFromB(s pgwire.Session, sql string, src pgwire.BatchSource) (string, error) {
	stmts, err := s.Prepare(context.Background(), sql, nil)
	if err != nil {
		return "", err
	}
	return stmts[0].(pgwire.CopyStatement).CopyFrom(context.Background(), src)
}

// BenchmarkInsert1000: INSERT statements of 1000 literal rows into a
// primary-key table, each its own implicit transaction.
func BenchmarkInsert1000(b *testing.B) {
	b.Run("six", func(b *testing.B) {
		benchInsert1000(b, "CREATE TABLE ins (id BIGINT PRIMARY KEY, a INT, b BIGINT, c DOUBLE PRECISION, d BOOLEAN, e TEXT)",
			"INSERT INTO ins VALUES ", func(sb *strings.Builder, id int) {
				fmt.Fprintf(sb, "(%d, %d, %d, %d.5, %t, 'n%d')", id, id%1000, id*7, id, id%2 == 0, id%4)
			})
	})
	// bench's W8 INSERT: a column list, a NULL now and then, timestamp literals.
	b.Run("w8", func(b *testing.B) {
		benchInsert1000(b, "CREATE TABLE ins (id BIGINT PRIMARY KEY, user_id INT, amount DOUBLE PRECISION, qty INT, name VARCHAR, ts TIMESTAMP(6))",
			"INSERT INTO ins (id, user_id, amount, qty, name, ts) VALUES ", func(sb *strings.Builder, id int) {
				amount := "NULL"
				if id%10 != 0 {
					amount = fmt.Sprintf("%d.25", id%5000)
				}
				fmt.Fprintf(sb, "(%d, %d, %s, %d, 'n%x', '2024-%02d-%02d %02d:%02d:%02d.%06d')", id, id%100000, amount, id%17,
					id*7919, 1+id%12, 1+id%28, id%24, id%60, (id/60)%60, id%1000000)
			})
	})
}

func benchInsert1000(b *testing.B, create, prefix string, row func(sb *strings.Builder, id int)) {
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
	if _, err := execB(s, create); err != nil {
		b.Fatal(err)
	}
	stmts := make([]string, b.N)
	for i := range stmts {
		var sb strings.Builder
		sb.WriteString(prefix)
		for j := range 1000 {
			if j > 0 {
				sb.WriteString(", ")
			}
			row(&sb, i*1000+j)
		}
		stmts[i] = sb.String()
	}
	before := cpuTime()
	b.ResetTimer()
	for _, q := range stmts {
		if _, err := execB(s, q); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(1000*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64((cpuTime()-before).Microseconds())/float64(b.N), "cpu-us/stmt")
}

// BenchmarkInsertSelect: INSERT ... SELECT of 100k generated rows into a
// fresh primary-key table, one implicit transaction (about a hundred
// records of one table in one atomic commit: issue 33's quadratic overlay
// search).
func BenchmarkInsertSelect(b *testing.B) {
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
	before := cpuTime()
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		table := fmt.Sprintf("ins%d", i)
		if _, err := execB(s, "CREATE TABLE "+table+" (id BIGINT PRIMARY KEY, bal BIGINT NOT NULL)"); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if tag, err := execB(s, "INSERT INTO "+table+" SELECT g, 0 FROM generate_series(1, 100000) AS g"); err != nil || tag != "INSERT 0 100000" {
			b.Fatal(tag, err)
		}
	}
	b.StopTimer()
	b.ReportMetric(100_000*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64((cpuTime()-before).Milliseconds())/float64(b.N), "cpu-ms/op")
}
