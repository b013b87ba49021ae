package embedded

import (
	"bytes"
	"context"
	"slices"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Bulk upserts (fluss.BulkUpserter): COPY FROM STDIN hands its rows over in
// parts of a few thousand as it decodes them. A worker goroutine validates
// and encodes each part (keys, rows, sketch) and sorts its keys into a run,
// merging runs of equal length as they pile up, while the caller decodes the
// next part; the commit after the last row then starts from the keys in
// order. Nothing reaches the store before Commit, which queues the parts as
// one request (one group commit: atomic and durable like one Upsert). When
// the keys are distinct and many, the state the commit will ingest is known
// then (every key with its row: a full-row upsert does not depend on what the
// table held), so Commit starts building its sstables (prebuild) while the
// committer prepares the changelog and appends the logs.
//
// Why a worker: on two cores, a connection decoding a COPY stream leaves the
// other core mostly to the client producing it, and the encoding and the key
// sort done after the stream were the larger part of a million-row COPY's
// time (bench/LEDGER.md, W8).

var _ fluss.BulkUpserter = (*tableHandle)(nil)

// bulkQueue is how many parts Add queues ahead of the worker.
const bulkQueue = 4

// BeginUpsert implements fluss.BulkUpserter.
func (h *tableHandle) BeginUpsert(ctx context.Context) (fluss.BulkUpsert, error) {
	if err := h.requirePK("upsert into"); err != nil {
		return nil, err
	}
	b := &bulkUpsert{h: h, parts: make(chan arrow.RecordBatch, bulkQueue), done: make(chan struct{})}
	go b.work()
	return b, nil
}

// bulkUpsert is one upsert in parts.
type bulkUpsert struct {
	h     *tableHandle
	parts chan arrow.RecordBatch
	// done is closed when the worker has stopped; the fields below it are
	// the worker's until then.
	done     chan struct{}
	finished bool        // Commit or Discard closed parts
	discard  atomic.Bool // Discard: the worker skips what is queued
	failed   atomic.Bool // err is set: Add stops queueing

	err  error
	recs []arrow.RecordBatch // validated parts, in order
	// rows are each part's keys and rows (one growing slice was copied
	// over and over; the commit lays them end to end only when it needs
	// to: request.allRows), starts their first rows.
	rows   [][]pkRow
	starts []int32
	n      int32 // rows so far
	bytes  int64 // their keys' and rows' bytes, as the commit sizes its batch
	ndv    *ndvDelta
	// runs are sorted runs of key entries (global row numbers), earlier
	// rows in earlier runs, each run longer than the next.
	runs [][]keyEntry
	pool entryPool // for the sorts and merges
	// stage, once the upsert outgrew the memory budget, is its sorted
	// runs on disk (stagedupsert.go); the fields above then hold only
	// what came since the last run was written.
	stage *upsertStage
}

// Add implements fluss.BulkUpsert.
func (b *bulkUpsert) Add(ctx context.Context, rec arrow.RecordBatch) error {
	if b.finished {
		return sqlerr.New(sqlerr.InternalError, "bulk upsert used after it finished")
	}
	if b.failed.Load() {
		b.stop()
		return b.err
	}
	rec.Retain()
	select {
	case b.parts <- rec:
		return nil
	case <-b.done: // the worker stopped on a panic
		rec.Release()
		b.stop()
		return b.err
	case <-ctx.Done():
		rec.Release()
		return ctx.Err()
	}
}

// stop closes the queue, waits for the worker and releases what it left
// queued.
func (b *bulkUpsert) stop() {
	if b.finished {
		return
	}
	b.finished = true
	close(b.parts)
	<-b.done
	for rec := range b.parts {
		rec.Release()
	}
}

// Discard implements fluss.BulkUpsert. It also releases the parts of an
// upsert that Add found failed (stop ran, nothing was released).
func (b *bulkUpsert) Discard() {
	b.discard.Store(true)
	b.stop()
	b.release()
}

func (b *bulkUpsert) release() {
	for _, r := range b.recs {
		r.Release()
	}
	b.recs, b.rows, b.starts, b.runs, b.pool = nil, nil, nil, nil, entryPool{}
	b.discardStage()
}

// Commit implements fluss.BulkUpsert.
func (b *bulkUpsert) Commit(ctx context.Context) (fluss.WriteResult, error) {
	if b.finished {
		return fluss.WriteResult{}, sqlerr.New(sqlerr.InternalError, "bulk upsert committed after it finished")
	}
	b.stop()
	defer b.release()
	if b.err != nil {
		return fluss.WriteResult{}, b.err
	}
	if b.stage != nil {
		rows, err := b.commitStage(ctx)
		return fluss.WriteResult{Rows: rows}, err
	}
	if b.n == 0 {
		return fluss.WriteResult{}, nil
	}
	if err := b.h.checkLive(); err != nil {
		return fluss.WriteResult{}, err
	}
	sorted := b.mergeAll()
	order := make([]int32, len(sorted))
	distinct := true
	for i, e := range sorted {
		order[i] = e.i
		if i > 0 && distinct {
			p := sorted[i-1]
			distinct = p.hi != e.hi || p.lo != e.lo || !bytes.Equal(b.key(p.i), b.key(e.i))
		}
	}
	r := &request{table: b.h.t, kind: reqUpsert, parts: b.rows, order: order, distinct: distinct, recs: b.recs, ndv: b.ndv, done: make(chan result, 1)}
	if s := b.h.s; distinct && s.opts.IngestBytes > 0 && b.bytes >= int64(s.opts.IngestBytes) {
		// The group commit will ingest the state, which is every key with
		// its row whatever the table held (a full-row upsert): its sstables
		// are built from now on, beside the commit's other work.
		r.state = make([]kvEntry, len(order))
		for g, i := range order {
			pr := b.row(i)
			r.state[g] = kvEntry{key: pr.key, value: pr.row}
		}
		r.prebuilt = s.prebuild(r.state)
	}
	res, err := b.h.s.submit(ctx, r)
	if err != nil {
		if r.prebuilt != nil {
			r.prebuilt.discard() // never committed: the committer did not take it
		}
		return fluss.WriteResult{}, err
	}
	return fluss.WriteResult{Rows: res.rows}, res.err
}

// work encodes the queued parts until the queue closes. A part's error
// (or a panic) ends the encoding; the rest is released unread.
func (b *bulkUpsert) work() {
	defer close(b.done)
	defer func() {
		if p := recover(); p != nil {
			b.fail(sqlerr.New(sqlerr.InternalError, "internal error: bulk upsert of %s: %v", b.h.t.info.Path, p))
		}
	}()
	for rec := range b.parts {
		if b.err == nil && !b.discard.Load() {
			if err := b.addPart(rec); err != nil {
				b.fail(err)
			}
		}
		rec.Release()
	}
}

func (b *bulkUpsert) fail(err error) {
	b.err = err
	b.failed.Store(true)
}

// addPart validates and encodes one part and adds its keys as a sorted run.
func (b *bulkUpsert) addPart(rec arrow.RecordBatch) error {
	t := b.h.t
	conv, err := fluss.ValidateRecordAs(t.info, t.schema, rec)
	if err != nil {
		return err
	}
	if conv.NumRows() == 0 {
		conv.Release()
		return nil
	}
	b.recs = append(b.recs, conv)
	base := b.n
	p, err := encodePart(t, conv, base, &b.pool, b.h.s.opts.ParallelEncodeRows) // bulkencode.go
	if err != nil {
		return err
	}
	for i := range p.rows {
		b.bytes += int64(p.rows[i].stateBytes())
	}
	b.ndv = b.ndv.fold(p.ndv)
	b.rows = append(b.rows, p.rows)
	b.starts = append(b.starts, base)
	b.n += int32(len(p.rows))
	b.pushRun(p.run)
	if budget := b.h.s.stageBudget(); budget > 0 && b.bytes >= budget {
		return b.spill()
	}
	return nil
}

// key is row i's key, for comparing keys whose prefixes tie.
func (b *bulkUpsert) key(i int32) []byte { return b.row(i).key }

// row is row i (of all parts).
func (b *bulkUpsert) row(i int32) *pkRow { return rowOf(b.rows, b.starts, i) }

// rowOf is row i of parts, whose first rows are starts.
func rowOf(parts [][]pkRow, starts []int32, i int32) *pkRow {
	// The parts are mostly of one size (the caller's batches): try the
	// part that size puts row i in before searching.
	if size := int32(len(parts[0])); size > 0 {
		if p := int(i / size); p < len(parts) && starts[p] <= i && i-starts[p] < int32(len(parts[p])) {
			return &parts[p][i-starts[p]]
		}
	}
	p, found := slices.BinarySearch(starts, i)
	if !found {
		p--
	}
	return &parts[p][i-starts[p]]
}

// pushRun adds the run of the latest part, merging it with the runs before
// it while they are no longer (a binary counter: every entry is merged about
// log2(parts) times, and the runs left number log2(parts) at most).
func (b *bulkUpsert) pushRun(run []keyEntry) {
	for len(b.runs) > 0 && len(b.runs[len(b.runs)-1]) <= len(run) {
		last := len(b.runs) - 1
		run = b.merge(b.runs[last], run, keyOrder(b.key))
		b.runs = b.runs[:last]
	}
	b.runs = append(b.runs, run)
}

// mergeAll merges the runs left into one.
func (b *bulkUpsert) mergeAll() []keyEntry {
	if len(b.runs) == 0 {
		return nil
	}
	cmpEntries := keyOrder(b.key)
	run := b.runs[len(b.runs)-1]
	for i := len(b.runs) - 2; i >= 0; i-- {
		run = b.merge(b.runs[i], run, cmpEntries)
	}
	return run
}

// merge merges two sorted runs into a slice from the pool, to which it
// gives theirs back.
func (b *bulkUpsert) merge(x, y []keyEntry, cmpEntries func(x, y keyEntry) int) []keyEntry {
	out := mergeRuns(b.pool.get(len(x) + len(y))[:0], x, y, cmpEntries)
	b.pool.put(x)
	b.pool.put(y)
	return out
}

// mergeRuns appends to out the merge of two sorted runs, a's rows before
// b's: on a tie a's entry goes first, so equal keys stay in row order.
func mergeRuns(out, a, b []keyEntry, cmpEntries func(x, y keyEntry) int) []keyEntry {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		x, y := b[j], a[i]
		if x.hi < y.hi || x.hi == y.hi && (x.lo < y.lo || x.lo == y.lo && cmpEntries(x, y) < 0) {
			out, j = append(out, b[j]), j+1
		} else {
			out, i = append(out, a[i]), i+1
		}
	}
	return append(append(out, a[i:]...), b[j:]...)
}
