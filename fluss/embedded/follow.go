package embedded

import (
	"context"
	"encoding/binary"
	"errors"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/cockroachdb/pebble/v2"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Following a table's changelog (fluss.ChangelogFollower): SUBSCRIBE.
//
// A follower keeps, per bucket, its byte position in the bucket log and
// reads the batches committed past it straight from the log file, so a
// follower that falls behind holds nothing in memory: the log is its
// buffer, and one Poll holds at most MaxRows rows of one bucket (plus the
// read of the stored batches they come from). Commits wake followers
// through the table's followSignal, which publish closes once the new
// committed lengths are visible: a follower arms the signal before it
// reads the lengths, so a commit after that read always wakes it, and no
// follower ever polls on a timer.
//
// A follow with a snapshot of a primary-key table reads the state from
// one pebble snapshot and starts each bucket at the committed length that
// same snapshot records (the lengths commit in the state's pebble batch),
// so every change lands either in the snapshot or after it, once.

// followSignal wakes a table's followers (fluss.FollowSignal). A table
// state an ALTER TABLE replaces shares it with its successor (replaced),
// like its lock.
type followSignal = fluss.FollowSignal

// defaultFollowRows is a ChangeBatch's row bound when the caller sets none.
const defaultFollowRows = 4096

var _ fluss.ChangelogFollower = (*tableHandle)(nil)

// FollowChangelog implements fluss.ChangelogFollower.
func (h *tableHandle) FollowChangelog(ctx context.Context, opts fluss.FollowOptions) (fluss.ChangelogFollow, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := h.checkLive(); err != nil {
		return nil, err
	}
	t := h.t
	n := len(t.buckets)
	f := &follower{s: h.s, t: t, pos: make([]int64, n), from: make([]int64, n), next: make([]int64, n),
		fromMicros: opts.FromTimestamp, maxRows: opts.MaxRows, readers: make([]*logReader, n), mapped: make([]bool, n)}
	if f.maxRows <= 0 {
		f.maxRows = defaultFollowRows
	}
	switch {
	case opts.Snapshot && t.info.HasPrimaryKey():
		snap := h.s.iters.view()
		for b := range n {
			length, next, err := committedIn(snap, t, b)
			if err != nil {
				_ = snap.Close()
				return nil, err
			}
			f.pos[b], f.from[b], f.next[b] = length, next, next
		}
		f.snap = snap
	case opts.Snapshot:
		// A log table's rows are its log: every bucket from its start.
	default:
		t.mu.RLock()
		for b, bl := range t.buckets {
			start := fluss.FollowLatest
			if opts.From != nil {
				start = 0
				if b < len(opts.From) {
					start = opts.From[b]
				}
			}
			if start == fluss.FollowLatest {
				f.pos[b], f.from[b], f.next[b] = bl.committed, bl.next, bl.next
			} else {
				f.from[b], f.next[b] = start, start
			}
		}
		t.mu.RUnlock()
	}
	return f, nil
}

// committedIn reads bucket b's committed length and next offset as snap
// records them (zero for a bucket never written).
func committedIn(snap *readView, t *tableState, b int) (length, next int64, err error) {
	v, closer, err := snap.Get(bucketKey(prefixCommitted, t.info.TableID, b))
	if errors.Is(err, pebble.ErrNotFound) {
		return 0, 0, nil
	}
	if err != nil {
		return 0, 0, ioErr(err, "reading the committed length of %s bucket %d", t.info.Path, b)
	}
	defer closer.Close()
	if len(v) != 16 {
		return 0, 0, corrupt("committed length record of %s bucket %d is malformed", t.info.Path, b)
	}
	return int64(binary.LittleEndian.Uint64(v)), int64(binary.LittleEndian.Uint64(v[8:])), nil
}

// follower is one follow of a table (fluss.ChangelogFollow).
type follower struct {
	s *Store
	t *tableState
	// pos[b] is the byte position of the next batch to read in bucket b;
	// from[b] the first log offset wanted (changes below it, in a batch
	// that straddles it, are cut); next[b] the offset after the last
	// change returned or stepped over.
	pos, from, next []int64
	fromMicros      int64
	maxRows         int
	readers         []*logReader
	// mapped[b]: readers[b] holds a mapping of the log (logmap.go), put
	// back when the next poll maps the grown log or at Close.
	mapped []bool
	decs   batchReaders
	wait   <-chan struct{}
	// rr is the bucket the next Poll looks at first, so that a busy
	// bucket does not starve the others.
	rr int
	// The snapshot still to read (a primary-key table's): snap, the
	// bucket being read and its scan.
	snap       *readView
	snapBucket int
	snapScan   *stateScan
}

func (f *follower) Wait() <-chan struct{} { return f.wait }

func (f *follower) Next() []int64 { return append([]int64(nil), f.next...) }

func (f *follower) Close() {
	for i, r := range f.readers {
		if r != nil {
			r.close()
			f.readers[i] = nil
		}
		if f.mapped[i] {
			f.t.buckets[i].maps.put()
			f.mapped[i] = false
		}
	}
	f.decs.release()
	f.closeSnapshot()
}

func (f *follower) closeSnapshot() {
	if f.snapScan != nil {
		f.snapScan.Close()
		f.snapScan = nil
	}
	if f.snap != nil {
		_ = f.snap.Close()
		f.snap = nil
	}
}

// Poll implements fluss.ChangelogFollow.
func (f *follower) Poll(ctx context.Context) (fluss.ChangeBatch, error) {
	if err := ctx.Err(); err != nil {
		return fluss.ChangeBatch{}, err
	}
	if f.s.closed.Load() {
		return fluss.ChangeBatch{}, errClosed()
	}
	if f.snap != nil {
		if cb, err := f.pollSnapshot(ctx); err != nil || cb.Record != nil {
			return cb, err
		}
	}
	// Armed before the lengths are read: a commit published after the
	// read closes this channel.
	f.wait = f.t.follow.Arm()
	t := f.t
	t.mu.RLock()
	dropped, altered := t.dropped, t.altered
	limits := make([]int64, len(t.buckets))
	for b, bl := range t.buckets {
		limits[b] = bl.committed
	}
	t.mu.RUnlock()
	switch {
	case altered:
		return fluss.ChangeBatch{}, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "table \"%s\" was altered; subscribe to it again", t.info.Path.Table)
	case dropped:
		return fluss.ChangeBatch{}, undefinedTable(t.info.Path)
	}
	n := len(limits)
	for i := range n {
		b := (f.rr + i) % n
		if f.pos[b] >= limits[b] {
			continue
		}
		cb, err := f.readBucket(b, limits[b])
		if err != nil {
			return fluss.ChangeBatch{}, err
		}
		if cb.Record != nil {
			f.rr = (b + 1) % n
			return cb, nil
		}
	}
	return fluss.ChangeBatch{}, nil
}

// pollSnapshot returns the next batch of the snapshot's rows, bucket by
// bucket (Record nil once all are read; the snapshot is closed then).
func (f *follower) pollSnapshot(ctx context.Context) (fluss.ChangeBatch, error) {
	t := f.t
	for f.snapBucket < len(t.buckets) {
		if f.snapScan == nil {
			plan, err := projectionFor(t, nil)
			if err != nil {
				return fluss.ChangeBatch{}, err
			}
			p := bucketKey(prefixData, t.info.TableID, f.snapBucket)
			it, err := f.snap.NewIter(&pebble.IterOptions{LowerBound: p, UpperBound: prefixEnd(p)})
			if err != nil {
				return fluss.ChangeBatch{}, ioErr(err, "scanning %s", t.info.Path)
			}
			it.First()
			f.snapScan = &stateScan{t: t, schema: plan.schema, pos: plan.pos, snap: f.snap, held: true, it: it,
				batchRows: f.maxRows, dec: format.NewRowDecoder(t.colTypes)}
		}
		rec, err := f.snapScan.Next(ctx)
		if err != nil {
			return fluss.ChangeBatch{}, err
		}
		if rec != nil {
			return fluss.ChangeBatch{Bucket: f.snapBucket, Record: rec, Snapshot: true}, nil
		}
		f.snapScan.Close()
		f.snapScan = nil
		f.snapBucket++
	}
	f.closeSnapshot()
	return fluss.ChangeBatch{}, nil
}

// readBucket reads bucket b's committed batches past its position, up to
// limit, into one ChangeBatch of at most maxRows rows (more when a single
// stored batch has more); Record nil when every batch there was stepped
// over.
func (f *follower) readBucket(b int, limit int64) (fluss.ChangeBatch, error) {
	t := f.t
	r := f.readers[b]
	if r == nil {
		var err error
		if r, err = openLogReader(t.buckets[b].path, limit); err != nil {
			return fluss.ChangeBatch{}, err
		}
		f.readers[b] = r
	}
	r.limit = limit
	// Read from the log's mapping, as scans do: the page cache is shared
	// by every follower and nothing is copied; without one, pread into a
	// chunk the records keep alive only while they live.
	bl := t.buckets[b]
	if f.mapped[b] {
		bl.maps.put()
	}
	r.mapped = bl.maps.get(r.f, limit)
	f.mapped[b] = r.mapped != nil
	defer func() { r.chunk, r.base = nil, 0 }()
	var parts []arrow.RecordBatch
	release := func() {
		for _, p := range parts {
			p.Release()
		}
	}
	var rows, last int64
	for f.pos[b] < limit {
		h, err := r.header(f.pos[b])
		if err != nil {
			release()
			return fluss.ChangeBatch{}, err
		}
		if h.NextOffset() <= f.from[b] || f.fromMicros > 0 && h.CommitTimestamp*1000 < f.fromMicros || h.RecordCount == 0 {
			f.pos[b] += h.Size()
			f.next[b] = max(f.next[b], h.NextOffset())
			continue
		}
		if rows > 0 && rows+int64(h.RecordCount) > int64(f.maxRows) {
			break
		}
		rec, err := f.decode(r, b, h)
		if err != nil {
			release()
			return fluss.ChangeBatch{}, err
		}
		f.pos[b] += h.Size()
		f.next[b] = h.NextOffset()
		if cut := f.from[b] - h.BaseOffset; cut > 0 {
			part := rec.NewSlice(cut, rec.NumRows())
			rec.Release()
			rec = part
		}
		parts = append(parts, rec)
		rows += rec.NumRows()
		last = h.CommitTimestamp
	}
	if len(parts) == 0 {
		return fluss.ChangeBatch{}, nil
	}
	out := parts[0]
	if len(parts) > 1 {
		cat, err := concatRecords(parts[0].Schema(), parts)
		release()
		if err != nil {
			return fluss.ChangeBatch{}, err
		}
		out = cat
	}
	return fluss.ChangeBatch{Bucket: b, Record: out, CommitMillis: last}, nil
}

// decode reads the stored batch at bucket b's position with the
// changelog's metadata columns (a batch of an older schema widened to the
// table's, as scans do).
func (f *follower) decode(r *logReader, b int, h format.BatchHeader) (arrow.RecordBatch, error) {
	t := f.t
	var oldDec *format.BatchDecoder
	if h.SchemaID != t.info.SchemaID && len(t.oldDecoders) > 0 {
		if oldDec = t.oldDecoders[h.SchemaID]; oldDec == nil {
			return nil, corrupt("log file %s: batch at byte offset %d: %v", r.path, f.pos[b], errOldSchema(t, h.SchemaID))
		}
	}
	batch, _, err := r.batch(f.decs.reader(t, oldDec), f.pos[b])
	if err != nil {
		return nil, err
	}
	if oldDec != nil {
		if batch.Record, err = t.widenRecord(batch.Record); err != nil {
			return nil, err
		}
	}
	rec := fluss.ChangelogRecord(batch)
	batch.Record.Release()
	return rec, nil
}
