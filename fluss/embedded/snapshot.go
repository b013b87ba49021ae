package embedded

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/cockroachdb/pebble/v2"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// storeSnapshot is a fluss.Snapshot: one pebble snapshot (the primary-key
// tables' state) and every log table's committed lengths, captured together
// (a REPEATABLE READ transaction's view).
type storeSnapshot struct {
	s      *Store
	snap   *readView
	limits map[*tableState][]int64
	closed atomic.Bool
}

var _ fluss.Snapshotter = (*Store)(nil)

// Snapshot implements fluss.Snapshotter.
func (s *Store) Snapshot(ctx context.Context) (fluss.Snapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.closed.Load() {
		return nil, errClosed()
	}
	ss := &storeSnapshot{s: s, snap: s.iters.view(), limits: map[*tableState][]int64{}}
	s.catMu.RLock()
	for _, t := range s.tables {
		ss.capture(t)
	}
	s.snapshotPartitionsLocked(ss) // partitions.go
	s.catMu.RUnlock()
	return ss, nil
}

// capture records a log table's committed lengths in the snapshot (a
// primary-key table's state is the pebble snapshot's).
func (ss *storeSnapshot) capture(t *tableState) {
	if t.info.HasPrimaryKey() {
		return
	}
	t.mu.RLock()
	l := make([]int64, len(t.buckets))
	for i, b := range t.buckets {
		l[i] = b.committed
	}
	t.mu.RUnlock()
	ss.limits[t] = l
}

// Close implements fluss.Snapshot.
func (ss *storeSnapshot) Close() {
	if ss.closed.CompareAndSwap(false, true) {
		_ = ss.snap.Close()
	}
}

// Table implements fluss.Snapshot.
func (ss *storeSnapshot) Table(t fluss.Table) (fluss.Table, bool) {
	if pt, ok := t.(*partitioned); ok {
		return ss.partitionedTable(pt) // partitions.go
	}
	h, ok := t.(*tableHandle)
	if !ok || h.s != ss.s {
		return t, false
	}
	return &snapTable{h: h, ss: ss}, true
}

// RowChanged implements fluss.Snapshot by comparing the stored values of
// the key in the snapshot and in the newest state. The key's bucket is its
// hash when the bucket key is the primary key; otherwise it cannot be told
// from the key alone, and every bucket is probed (a key lives in one).
func (ss *storeSnapshot) RowChanged(ctx context.Context, tb fluss.Table, key []byte) (fluss.RowChange, error) {
	if err := ctx.Err(); err != nil {
		return fluss.RowUnchanged, err
	}
	if ss.closed.Load() {
		return fluss.RowUnchanged, snapshotClosed()
	}
	if st, ok := tb.(*snapTable); ok {
		tb = st.h
	}
	if pt, ok := tb.(*partitioned); ok {
		return ss.partitionRowChanged(ctx, pt, key) // partitions.go
	}
	if pt, ok := tb.(*fluss.PartitionedTable); ok { // a snapshot's own (partitionedTable)
		return ss.partitionRowChanged(ctx, pt, key)
	}
	h, ok := tb.(*tableHandle)
	if !ok || h.s != ss.s {
		return fluss.RowUnchanged, sqlerr.New(sqlerr.InternalError, "table %s is not of the snapshot's store", tb.Info().Path)
	}
	t := h.t
	buckets := []int{format.BucketOf(key, len(t.buckets))}
	if !slices.Equal(t.pkIdx, t.bkIdx) {
		buckets = buckets[:0]
		for b := range t.buckets {
			buckets = append(buckets, b)
		}
	}
	k := make([]byte, dataKeyPrefix, dataKeyPrefix+len(key))
	k = append(k, key...)
	for _, b := range buckets {
		putBucketKey(k, prefixData, t.info.TableID, b)
		old, oldOK, err := getValue(ss.snap, k)
		if err != nil {
			return fluss.RowUnchanged, ioErr(err, "reading %s", t.info.Path)
		}
		cur, curOK, err := getValue(ss.s.db, k)
		if err != nil {
			return fluss.RowUnchanged, ioErr(err, "reading %s", t.info.Path)
		}
		switch {
		case oldOK && !curOK:
			return fluss.RowDeleted, nil
		case oldOK != curOK || oldOK && !bytes.Equal(old, cur):
			return fluss.RowUpdated, nil
		}
	}
	return fluss.RowUnchanged, nil
}

// getValue copies the value of key in r (found false when absent).
func getValue(r pebble.Reader, key []byte) ([]byte, bool, error) {
	v, c, err := r.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	out := bytes.Clone(v)
	_ = c.Close()
	return out, true, nil
}

// logLimits is the committed length of each of t's buckets when the
// snapshot was taken (none: the table was created after it).
func (ss *storeSnapshot) logLimits(t *tableState) []int64 {
	if l, ok := ss.limits[t]; ok {
		return l
	}
	return make([]int64, len(t.buckets))
}

// snapTable reads a table through a snapshot and writes it as its handle
// does. Besides fluss.Table it implements the read interfaces that can read
// a snapshot (prefix scans); the others (cached point lookups, changelog
// scans) it leaves out, so that nothing reads past the snapshot.
type snapTable struct {
	h  *tableHandle
	ss *storeSnapshot
}

var _ fluss.PrefixScanner = (*snapTable)(nil)

func (st *snapTable) Info() fluss.TableInfo { return st.h.Info() }

func (st *snapTable) Append(ctx context.Context, rec arrow.RecordBatch) (fluss.WriteResult, error) {
	return st.h.Append(ctx, rec)
}

func (st *snapTable) Upsert(ctx context.Context, rec arrow.RecordBatch, opts fluss.UpsertOptions) (fluss.WriteResult, error) {
	return st.h.Upsert(ctx, rec, opts)
}

func (st *snapTable) Delete(ctx context.Context, keys arrow.RecordBatch) (fluss.WriteResult, error) {
	return st.h.Delete(ctx, keys)
}

func (st *snapTable) Lookup(ctx context.Context, keys arrow.RecordBatch, projection []int) (arrow.RecordBatch, error) {
	if st.ss.closed.Load() {
		return nil, snapshotClosed()
	}
	return st.h.lookupIn(ctx, keys, projection, nil, st.ss.snap)
}

func (st *snapTable) Scan(ctx context.Context, opts fluss.ScanOptions) (fluss.RecordReader, error) {
	if st.ss.closed.Load() {
		return nil, snapshotClosed()
	}
	return st.h.scanIn(ctx, opts, st.ss)
}

func snapshotClosed() error {
	return sqlerr.New(sqlerr.InternalError, "the transaction's snapshot is closed")
}

func (st *snapTable) ScanPrefix(ctx context.Context, keys arrow.RecordBatch, opts fluss.ScanOptions) (fluss.RecordReader, error) {
	if st.ss.closed.Load() {
		return nil, snapshotClosed()
	}
	return st.h.scanPrefixIn(ctx, keys, opts, st.ss.snap)
}
