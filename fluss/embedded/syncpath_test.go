package embedded

import (
	"log/slog"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// BenchmarkSyncPath prices the commit point of a group, the part of a
// synced commit that does not depend on what the group wrote: a
// 400-byte record made durable, one per op, from one writer.
//
//   - pebble: a synced pebble batch commit through the store's pebble
//     options and file system (the WAL zero-filled ahead, fsys.go), as a
//     group commit makes it: the committing goroutine hands the record to
//     pebble's WAL flusher goroutine, which writes and fdatasyncs it and
//     wakes the committer.
//   - inline: the same bytes written at the end of a WAL file of the same
//     kind (zero-filled ahead, fsys.go) and fdatasynced by the writer's
//     own goroutine, as a PostgreSQL backend flushes its own commit
//     record: no goroutine hand-off.
//
// Both report the process's CPU µs per op (user+system, and system alone)
// and its context switches per op (voluntary and involuntary), from
// getrusage: the difference is what the hand-offs between goroutines, and
// the scheduler's wake-ups of idle threads they cause, cost per group
// (bench/LEDGER.md, w33tx: nothing measurable above the sync itself).
func BenchmarkSyncPath(b *testing.B) {
	rec := make([]byte, 400)
	for i := range rec {
		rec[i] = byte(i)
	}
	b.Run("pebble", func(b *testing.B) {
		dir := b.TempDir()
		o := pebbleOptions(slog.New(slog.DiscardHandler), 8<<20)
		o.FS = syncFS{FS: vfs.Default, syncer: directSyncer{}}
		db, err := pebble.Open(filepath.Join(dir, "kv"), o)
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		key := []byte("k")
		runSyncPath(b, func() error {
			batch := db.NewBatch()
			defer batch.Close()
			if err := batch.Set(key, rec, nil); err != nil {
				return err
			}
			return batch.Commit(pebble.Sync)
		})
	})
	b.Run("inline", func(b *testing.B) {
		fs := syncFS{FS: vfs.Default, syncer: directSyncer{}}
		f, err := fs.Create(filepath.Join(b.TempDir(), "log"), walCategory)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		runSyncPath(b, func() error {
			if _, err := f.Write(rec); err != nil {
				return err
			}
			return f.SyncData()
		})
	})
}

// runSyncPath times op b.N times and reports CPU µs and context switches
// per op.
func runSyncPath(b *testing.B, op func() error) {
	before := processUsage()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := op(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	after := processUsage()
	n := float64(b.N)
	b.ReportMetric(float64((after.cpu-before.cpu).Microseconds())/n, "cpu-us/op")
	b.ReportMetric(float64((after.sys-before.sys).Microseconds())/n, "sys-us/op")
	b.ReportMetric(float64(after.switches-before.switches)/n, "ctxsw/op")
}

// processUsage is the process's CPU time and context switches so far.
func processUsage() (u struct {
	cpu, sys time.Duration
	switches int64
}) {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	u.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	u.sys = time.Duration(ru.Stime.Nano())
	u.switches = ru.Nvcsw + ru.Nivcsw
	return u
}
