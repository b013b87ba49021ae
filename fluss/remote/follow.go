package remote

import (
	"context"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Following a table's changelog on the cluster (fluss.ChangelogFollower):
// SUBSCRIBE, as Fluss's own LogScanner reads a table.
//
// Each bucket has a fetcher goroutine that long-polls the bucket's leader
// with FetchLog from the bucket's next offset: the tablet server holds the
// request (up to Config.FollowWait) until the bucket's high watermark
// passes the offset or the wait ends, and the fetcher asks again, so a
// change reaches the follower within FollowWait of its commit (Fluss 0.9.1
// answers a waiting fetch early only when a follower replica's catching up
// moves the high watermark); a write this server makes to the table wakes
// its fetchers at once (Store.wroteTo), so its own writes arrive without
// that wait. A
// fetcher hands its answer (whole log batches) to Poll through a channel
// of one and then waits until Poll has taken it before it fetches again:
// a follower whose reader falls behind stops fetching, and holds at most
// two fetches per bucket (followFetchBytes each, more only for a single
// larger batch). Poll decodes the batches, with the change types of
// their change-type vector, into ChangeBatches of at most MaxRows rows.
//
// Where a follow starts (fluss.FollowOptions): FollowLatest and a
// follow without From at each bucket's high watermark (ListOffsets
// LATEST); offset 0 at the log's first offset (table.log.ttl may have
// deleted older segments); an offset inside a batch returns the batch's
// records from it on; an offset past the high watermark waits for the log
// to reach it; a stored offset the log no longer holds fails (55000)
// rather than skip changes. FromTimestamp starts each bucket at the
// offset ListOffsets gives for the time and leaves out the batches
// committed before it. A snapshot of a log table is its log from the
// first offset; of a primary-key table, each bucket's changelog replayed
// up to the high watermark read when the follow starts (replayBucketTo:
// Fluss 0.9.1 has no KV scan that names the log offset it reflects, so
// the replay is what makes the snapshot and the changes after it meet
// exactly), the changes following from that offset.

// followFetchBytes is what one fetch of a follower asks for per bucket.
const followFetchBytes = 1 << 20

// defaultFollowWait is Config.FollowWait's default: a tenth of a second
// of latency at most on a bucket without follower replicas, where Fluss
// 0.9.1 answers a waiting fetch only when its wait ends, for ten fetches a
// second per bucket of an idle subscription (Fluss's own LogScanner waits
// up to 500ms).
const defaultFollowWait = 100 * time.Millisecond

// defaultFollowRows is a ChangeBatch's row bound when the caller sets none.
const defaultFollowRows = 4096

var _ fluss.ChangelogFollower = (*table)(nil)

// FollowChangelog implements fluss.ChangelogFollower.
func (t *table) FollowChangelog(ctx context.Context, opts fluss.FollowOptions) (fluss.ChangelogFollow, error) {
	n := t.nb
	buckets := make([]int32, n)
	for i := range buckets {
		buckets[i] = int32(i)
	}
	list := func(typ OffsetType, ts int64) ([]int64, error) {
		out, err := t.s.c.ListOffsets(ctx, t.tab, buckets, typ, ts)
		if err != nil {
			return nil, t.s.noteTableErr(err, t.info.Path)
		}
		return out, nil
	}
	f := &follower{t: t, next: make([]int64, n), fromMicros: opts.FromTimestamp, maxRows: opts.MaxRows,
		pending: make([][][]byte, n), results: make([]chan fetched, n), decs: t.logDecoders()}
	if f.maxRows <= 0 {
		f.maxRows = defaultFollowRows
	}
	ends, err := list(OffsetLatest, 0)
	if err != nil {
		return nil, err
	}
	switch {
	case opts.Snapshot && t.info.HasPrimaryKey():
		copy(f.next, ends)
		f.snapEnds = ends
	case opts.Snapshot:
		// A log table's rows are its log: every bucket from its start.
		if f.next, err = list(OffsetEarliest, 0); err != nil {
			return nil, err
		}
	case opts.From == nil:
		copy(f.next, ends)
	default:
		starts, err := list(OffsetEarliest, 0)
		if err != nil {
			return nil, err
		}
		for b := range n {
			from := int64(0)
			if b < len(opts.From) {
				from = opts.From[b]
			}
			switch {
			case from == fluss.FollowLatest:
				from = ends[b]
			case from == 0:
				from = starts[b]
			case from < starts[b]:
				return nil, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState,
					"changes of table \"%s\" bucket %d before offset %d are no longer in its log (the subscription asked for offset %d)",
					t.info.Path.Table, b, starts[b], from).
					WithHint("Fluss deletes log segments older than the table's table.log.ttl; subscribe FROM EARLIEST to read what is left.")
			}
			f.next[b] = from
		}
		if opts.FromTimestamp > 0 {
			if err := f.startAtTime(ctx, buckets, ends); err != nil {
				return nil, err
			}
		}
	}
	f.start(ends)
	return f, nil
}

// startAtTime moves each bucket's start up to the first batch committed
// at or after the follow's time, as far as ListOffsets TIMESTAMP knows;
// Poll still leaves out the batches before the time.
func (f *follower) startAtTime(ctx context.Context, buckets []int32, ends []int64) error {
	t := f.t
	for b, bucket := range buckets {
		at, err := t.s.c.ListOffsets(ctx, t.tab, []int32{bucket}, OffsetTimestamp, f.fromMicros/1000)
		switch {
		case CodeOf(err) == CodeInvalidTimestamp:
			at = []int64{ends[b]} // a time after every commit so far
		case err != nil:
			return t.s.noteTableErr(err, t.info.Path)
		}
		f.next[b] = max(f.next[b], min(at[0], ends[b]))
	}
	return nil
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// fetched is one fetch's answer for a bucket: whole batches, or the
// error that ended the bucket's fetcher.
type fetched struct {
	batches [][]byte
	err     error
}

// follower is one follow of a table on the cluster (fluss.ChangelogFollow).
type follower struct {
	t *table
	// next[b] is the first offset of bucket b not yet returned (or
	// stepped over): records below it are cut from a batch straddling it.
	next       []int64
	fromMicros int64
	maxRows    int
	decs       logDecoders
	// pending[b] is bucket b's fetched batches Poll has not decoded yet;
	// results[b] the channel its fetcher hands the next fetch through.
	pending [][][]byte
	results []chan fetched
	// signal is woken by a fetcher that handed over an answer; wait is
	// the channel the last Poll that found nothing armed.
	signal fluss.FollowSignal
	wait   <-chan struct{}
	// rr is the bucket the next Poll looks at first, so that a busy
	// bucket does not starve the others.
	rr     int
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// The snapshot of a primary-key table still to read: snapEnds[b] is
	// the offset bucket b's state is replayed to, snapBucket the bucket
	// being read and snap the rest of its rows.
	snapEnds   []int64
	snapBucket int
	snap       arrow.RecordBatch
}

// start starts the buckets' fetchers. Their context is the follow's own:
// they outlive the statement that opened the follow (a cursor's FETCHes
// read it later) and end at Close.
func (f *follower) start(ends []int64) {
	ctx, cancel := context.WithCancel(context.Background())
	f.cancel = cancel
	for b := range f.results {
		f.results[b] = make(chan fetched, 1)
		// An offset past the high watermark waits for the log to
		// reach it: the fetch starts at the watermark, Poll cuts the
		// records below the offset.
		at := min(f.next[b], max(ends[b], 0))
		f.wg.Add(1)
		go f.fetch(ctx, int32(b), at)
	}
}

// fetch is bucket b's fetcher: it long-polls the bucket from offset at and
// hands each answer with records to Poll, one at a time.
func (f *follower) fetch(ctx context.Context, b int32, at int64) {
	defer f.wg.Done()
	t := f.t
	out := f.results[b]
	hand := func(r fetched) bool {
		select {
		case out <- r:
			f.signal.Wake()
			return true
		case <-ctx.Done():
			return false
		}
	}
	size := int32(followFetchBytes)
	wait := orDefault(t.s.c.cfg.FollowWait, defaultFollowWait)
	written := t.s.writtenSignal(t.info.TableID)
	immediate := false
	for ctx.Err() == nil {
		asked := time.Now()
		// A long poll the server holds is given up when this server
		// writes to the table, and an immediate fetch (no wait, which
		// no write interrupts, so that writes cannot starve the
		// follow) follows. Armed before the fetch: a write
		// acknowledged after it wakes the fetch, and one acknowledged
		// before it is in the fetch's answer.
		var woken <-chan struct{}
		w := time.Duration(0)
		if !immediate {
			woken, w = written.Arm(), wait
		}
		wasImmediate := immediate
		immediate = false
		res, err := f.fetchWoken(ctx, woken, b, at, size, w)
		if err == nil && len(res.Records) == 0 && woken != nil && isClosed(woken) {
			immediate = true
			continue
		}
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			hand(fetched{err: f.fetchErr(err, b, at)})
			return
		}
		batches, next, err := cutBatches(res.Records)
		if err != nil {
			hand(fetched{err: sqlerr.Wrap(err, sqlerr.DataCorrupted, "FetchLog of %s bucket %d: %v", t.info.Path, b, err)})
			return
		}
		switch {
		case len(batches) > 0 && next > at:
			size = followFetchBytes
			at = next
			if !hand(fetched{batches: batches}) {
				return
			}
		case len(batches) > 0:
			hand(fetched{err: sqlerr.New(sqlerr.DataCorrupted, "FetchLog of %s bucket %d at offset %d did not advance", t.info.Path, b, at)})
			return
		case len(res.Records) > 0 && size < fetchMaxBytes:
			size = fetchMaxBytes // one batch larger than a follower's fetch
		case len(res.Records) > 0:
			hand(fetched{err: sqlerr.New(sqlerr.ProgramLimitExceeded, "a log batch of %s bucket %d at offset %d is larger than a fetch (%d bytes)",
				t.info.Path, b, at, fetchMaxBytes)})
			return
		case !wasImmediate && time.Since(asked) < wait/10:
			// No records, and the server did not hold the fetch (a
			// bucket read from remote storage, say): pause rather than
			// spin.
			select {
			case <-time.After(wait / 10):
			case <-ctx.Done():
				return
			}
		}
		// Otherwise the server's wait ended with nothing new: ask again.
	}
}

// wroteTo wakes this server's follows of table id after a write of its
// own to it: their fetchers ask again at once instead of waiting for the
// tablet server to answer the fetch it holds (which Fluss 0.9.1 does only
// when the fetch's wait ends, on a bucket without follower replicas).
func (s *Store) wroteTo(id int64) {
	if w, ok := s.written.Load(id); ok {
		w.(*fluss.FollowSignal).Wake()
	}
}

// writtenSignal is the signal wroteTo wakes for table id.
func (s *Store) writtenSignal(id int64) *fluss.FollowSignal {
	w, _ := s.written.LoadOrStore(id, &fluss.FollowSignal{})
	return w.(*fluss.FollowSignal)
}

// fetchWoken is FetchLogWait that returns early, with no records, when
// woken closes (this server wrote to the table); woken nil: it does not.
func (f *follower) fetchWoken(ctx context.Context, woken <-chan struct{}, b int32, at int64, size int32, wait time.Duration) (FetchResult, error) {
	t := f.t
	if woken == nil {
		return t.s.c.FetchLogWait(ctx, t.tab, b, at, size, wait)
	}
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-woken:
			cancel()
		case <-stop:
		}
	}()
	res, err := t.s.c.FetchLogWait(fctx, t.tab, b, at, size, wait)
	if err != nil && ctx.Err() == nil && fctx.Err() != nil {
		return FetchResult{}, nil // woken: ask again
	}
	return res, err
}

// fetchErr is the error that ends a follow whose fetch of bucket b at
// offset at failed.
func (f *follower) fetchErr(err error, b int32, at int64) error {
	if CodeOf(err) == CodeLogOffsetOutOfRange {
		return sqlerr.Wrap(err, sqlerr.ObjectNotInPrerequisiteState,
			"changes of table \"%s\" bucket %d at offset %d are no longer in its log", f.t.info.Path.Table, b, at).
			WithHint("Fluss deletes log segments older than the table's table.log.ttl; subscribe again FROM EARLIEST.")
	}
	return f.t.s.noteTableErr(err, f.t.info.Path)
}

func (f *follower) Wait() <-chan struct{} { return f.wait }

func (f *follower) Next() []int64 { return append([]int64(nil), f.next...) }

// Close stops the fetchers (a fetch in flight is abandoned at once) and
// waits for them.
func (f *follower) Close() {
	if f.cancel != nil {
		f.cancel()
		f.wg.Wait()
		f.cancel = nil
	}
	if f.snap != nil {
		f.snap.Release()
		f.snap = nil
	}
	f.snapEnds = nil
	clear(f.pending)
}

// Poll implements fluss.ChangelogFollow.
func (f *follower) Poll(ctx context.Context) (fluss.ChangeBatch, error) {
	if err := ctx.Err(); err != nil {
		return fluss.ChangeBatch{}, err
	}
	if f.cancel == nil {
		return fluss.ChangeBatch{}, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "the follow of %s is closed", f.t.info.Path)
	}
	if f.snapEnds != nil {
		if cb, err := f.pollSnapshot(ctx); err != nil || cb.Record != nil {
			return cb, err
		}
	}
	// Armed before the fetchers' channels are looked at: an answer
	// handed over after the look closes this channel.
	f.wait = f.signal.Arm()
	n := len(f.pending)
	for i := range n {
		b := (f.rr + i) % n
		if len(f.pending[b]) == 0 {
			select {
			case r := <-f.results[b]:
				if r.err != nil {
					return fluss.ChangeBatch{}, r.err
				}
				f.pending[b] = r.batches
			default:
				continue
			}
		}
		cb, err := f.readBucket(b)
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

// pollSnapshot returns the next rows of the snapshot, bucket by bucket
// (Record nil once all are read).
func (f *follower) pollSnapshot(ctx context.Context) (fluss.ChangeBatch, error) {
	t := f.t
	for f.snapBucket < len(f.snapEnds) {
		b := f.snapBucket
		if f.snap == nil {
			d := t.newRowDecoder(nil)
			rec, err := t.replayBucketTo(ctx, int32(b), d, f.snapEnds[b], func(start int64) error {
				return sqlerr.New(sqlerr.FeatureNotSupported,
					"SUBSCRIBE with a snapshot of primary-key table \"%s\" is not supported once its changelog no longer starts at offset 0 (bucket %d starts at %d): the snapshot is a replay of the changelog, Fluss 0.9.1 having no KV scan at a known log offset",
					t.info.Path.Table, b, start).
					WithHint("Subscribe WITH (SNAPSHOT = false), or FROM EARLIEST for the changes the log still holds.")
			})
			d.release()
			if err != nil {
				return fluss.ChangeBatch{}, err
			}
			f.snap = rec
		}
		if f.snap.NumRows() == 0 {
			f.snap.Release()
			f.snap = nil
			f.snapBucket++
			continue
		}
		rows := min(f.snap.NumRows(), int64(f.maxRows))
		out := f.snap.NewSlice(0, rows)
		rest := f.snap.NewSlice(rows, f.snap.NumRows())
		f.snap.Release()
		f.snap = rest
		return fluss.ChangeBatch{Bucket: b, Record: out, Snapshot: true}, nil
	}
	f.snapEnds = nil
	return fluss.ChangeBatch{}, nil
}

// readBucket decodes bucket b's pending batches into one ChangeBatch of at
// most maxRows rows (more when a single batch has more); Record nil when
// every pending batch was stepped over.
func (f *follower) readBucket(b int) (fluss.ChangeBatch, error) {
	var parts []arrow.RecordBatch
	release := func() {
		for _, p := range parts {
			p.Release()
		}
	}
	var rows, last int64
	for len(f.pending[b]) > 0 {
		raw := f.pending[b][0]
		h, err := format.ParseHeader(raw)
		if err != nil {
			release()
			return fluss.ChangeBatch{}, sqlerr.Wrap(err, sqlerr.DataCorrupted, "log batch of %s: %v", f.t.info.Path, err)
		}
		if h.NextOffset() <= f.next[b] || f.fromMicros > 0 && h.CommitTimestamp*1000 < f.fromMicros || h.RecordCount == 0 {
			f.next[b] = max(f.next[b], h.NextOffset())
			f.pending[b] = f.pending[b][1:]
			continue
		}
		if rows > 0 && rows+int64(h.RecordCount) > int64(f.maxRows) {
			break
		}
		bt, err := f.decs.decodeBatch(raw, h)
		if err != nil {
			release()
			return fluss.ChangeBatch{}, err
		}
		rec := fluss.ChangelogRecord(bt)
		bt.Record.Release()
		if cut := f.next[b] - h.BaseOffset; cut > 0 {
			part := rec.NewSlice(cut, rec.NumRows())
			rec.Release()
			rec = part
		}
		f.pending[b] = f.pending[b][1:]
		f.next[b] = h.NextOffset()
		parts = append(parts, rec)
		rows += rec.NumRows()
		last = h.CommitTimestamp
	}
	if len(parts) == 0 {
		return fluss.ChangeBatch{}, nil
	}
	out, err := concatRecords(parts)
	release()
	if err != nil {
		return fluss.ChangeBatch{}, err
	}
	return fluss.ChangeBatch{Bucket: b, Record: out, CommitMillis: last}, nil
}
