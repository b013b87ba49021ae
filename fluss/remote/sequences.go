package remote

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Sequences on a cluster (fluss.SequenceStore), shared by every sqlgate
// server pointed at it.
//
// A sequence needs an atomic increment, and Fluss 0.9.1 has no conditional
// write: two servers that read a counter row and write it back would hand
// out the same values. What a Fluss log does give is one total order per
// bucket, the same for every reader. So the sequences are a replicated
// state machine over a log table of one bucket, sqlgate_system.sequences:
// every change (create, alter, drop, setval, and the reservation of a
// block of values) is one record appended to it (acks=all, by the Store's
// idempotent writer), and every server computes the sequences' state by
// applying the records in offset order, with the same deterministic rules
// (fluss.NextSequenceValue, fluss.SequenceBlockEnd). A request's outcome
// (the block a reservation got, whether a CREATE met an existing name) is
// what applying its own record gives, so the requester appends, then reads
// the log up to its record. Two servers reserving at the same instant get
// two records, one after the other in the log, and so two disjoint blocks:
// no value is handed out twice, across servers, restarts and crashes (a
// reserved block that a server never used is skipped, as PostgreSQL skips
// cached values after a crash). The other designs considered need what
// Fluss lacks: a single-writer lease needs a compare-and-set to take the
// lease; per-server disjoint ranges need an agreement on the ranges (the
// same problem again) and break a sequence's order across servers more.
//
// nextval takes values from the block this server reserved, without a
// request; a block holds CACHE values, at least seqBlock, so the log grows
// by one record per block. Which sequences exist is read at each statement
// that uses one (GetSequence / ListSequences catch up with the log: one
// FetchLog); a create, alter, setval or drop applied from the log drops
// this server's block of that sequence, so a setval or ALTER ... RESTART
// through another server applies to the next statement here. Across
// servers values are unique but not in one order (server A may hand out 5
// after server B handed out 105), as PostgreSQL's sessions with CACHE > 1.
//
// The log is the state: a server replays it from offset 0 when it starts,
// so the table keeps its log for a century (table.log.ttl). A change whose
// append failed with an unknown fate may still be applied (a CREATE
// SEQUENCE reported as failed that exists after all), as any DDL whose
// answer was lost.

// SequencesPath is the log table of the sequences' changes.
var SequencesPath = fluss.TablePath{Database: fluss.SystemDatabase, Table: "sequences"}

// seqBlock is how many values one reservation takes at least.
const seqBlock = 100

// seqLogTTL keeps the log as long as the sequences live (the log is their
// state).
const seqLogTTL = "36500 d"

// seqEvent is one record of the log (JSON in its one column).
type seqEvent struct {
	Op   string `json:"op"` // create, alter, drop, setval, reserve
	DB   string `json:"db"`
	Name string `json:"name"`
	// ID is the sequence the request meant (alter, setval, reserve): a
	// sequence of the same name created since is another one.
	ID          int64              `json:"id,omitempty"`
	Def         *fluss.SequenceDef `json:"def,omitempty"`
	IfNotExists bool               `json:"ine,omitempty"`
	Restart     *int64             `json:"restart,omitempty"`
	Value       int64              `json:"v,omitempty"`
	Called      bool               `json:"called,omitempty"`
	N           int64              `json:"n,omitempty"`
	// Unused gives back the rest of the requester's block (alter, release).
	Unused *seqUnused `json:"unused,omitempty"`
	Nonce  string     `json:"nonce"`
}

// seqUnused is what a server hands back of its block, whose last value is
// End: the sequence resumes after Last (at Last itself when !Called). It
// applies only while the block is still the sequence's last reservation
// (the state's last value is End), so no other server holds a value it
// gives back.
type seqUnused struct {
	Last, End int64
	Called    bool
}

type seqEntry struct {
	id     int64
	def    fluss.SequenceDef
	last   int64
	called bool
}

// seqValues is a block of values this server reserved: next is the next
// one to hand out, end the last; last is the last handed out (valid when
// handed).
type seqValues struct {
	next, end, last int64
	handed, empty   bool
	// first is the block's first value: RewindValue goes no further back.
	first int64
}

type seqResult struct {
	done        bool
	err         error
	id          int64
	first, last int64
}

type seqState struct {
	mu      sync.Mutex
	t       *table // the log table, opened on first use
	dec     *format.BatchDecoder
	applied int64 // the next offset to apply
	nextID  int64
	seqs    map[fluss.TablePath]*seqEntry
	blocks  map[int64]*seqValues
	waiting map[string]*seqResult
	server  string
	counter uint64
}

var _ fluss.SequenceStore = (*Store)(nil)

// sequencesLocked opens the log and catches up with it; the caller holds
// q.mu. Only create makes the log when it is missing: reading sequences
// (DROP TABLE looks for the ones the table owns) never creates a table.
// Without a log there are no sequences (q.t stays nil).
func (s *Store) sequencesLocked(ctx context.Context, create bool) (*seqState, error) {
	q := &s.seqs
	if q.t == nil {
		if !create {
			if _, err := s.GetTable(ctx, SequencesPath); sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
				return q, nil
			}
		}
		if err := s.openSequenceLog(ctx); err != nil {
			return nil, err
		}
	}
	return q, s.catchUp(ctx, -1)
}

func (s *Store) openSequenceLog(ctx context.Context) error {
	q := &s.seqs
	desc := fluss.TableDescriptor{BucketCount: 1,
		Schema:     fluss.Schema{Columns: []fluss.Column{{Name: "e", Type: types.T{Kind: types.String}}}},
		Properties: map[string]string{"table.log.ttl": seqLogTTL}}
	tb, err := s.systemTable(ctx, SequencesPath, desc)
	if err != nil {
		return err
	}
	t := tb.(*table)
	b := make([]byte, 8)
	rand.Read(b)
	q.t, q.dec, q.server = t, format.NewTableBatchDecoder(t.info.ArrowSchema(), t.ts), hex.EncodeToString(b)
	q.applied, q.nextID = 0, 1
	q.seqs, q.blocks, q.waiting = map[fluss.TablePath]*seqEntry{}, map[int64]*seqValues{}, map[string]*seqResult{}
	return nil
}

// catchUp applies the log's records from q.applied on: up to the high
// watermark, and at least past offset until (-1: none).
func (s *Store) catchUp(ctx context.Context, until int64) error {
	q := &s.seqs
	for wait := 0; ; {
		res, err := s.c.FetchLog(ctx, q.t.tab, 0, q.applied, fetchMaxBytes, nil)
		if err != nil {
			return storeErr(err, SequencesPath)
		}
		if res.LogStartOffset > q.applied {
			return sqlerr.New(sqlerr.DataCorrupted, "the sequences' log (%s) no longer starts at offset %d: its records are their state", SequencesPath, q.applied)
		}
		batches, next, err := cutBatches(res.Records)
		if err != nil {
			return sqlerr.Wrap(err, sqlerr.DataCorrupted, "FetchLog of %s: %v", SequencesPath, err)
		}
		for _, raw := range batches {
			if err := s.applyBatch(raw); err != nil {
				return err
			}
		}
		if len(batches) > 0 {
			q.applied = max(q.applied, next)
			continue
		}
		if q.applied > until {
			return nil
		}
		// Our own record is acknowledged but not yet below the high
		// watermark this server was answered with: ask again shortly.
		if wait++; wait > 100 {
			return sqlerr.New(sqlerr.ConnectionFailure, "the sequences' log did not reach offset %d", until)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func (s *Store) applyBatch(raw []byte) error {
	q := &s.seqs
	h, err := format.ParseHeader(raw)
	if err != nil {
		return sqlerr.Wrap(err, sqlerr.DataCorrupted, "log batch of %s: %v", SequencesPath, err)
	}
	if h.RecordCount == 0 || h.BaseOffset+int64(h.LastOffsetDelta) < q.applied {
		return nil
	}
	bt, err := q.dec.Decode(raw)
	if err != nil {
		return sqlerr.Wrap(err, sqlerr.DataCorrupted, "log batch of %s: %v", SequencesPath, err)
	}
	defer bt.Record.Release()
	col, ok := bt.Record.Column(0).(*array.String)
	if !ok {
		return sqlerr.New(sqlerr.DataCorrupted, "log batch of %s: column e is not a string", SequencesPath)
	}
	for i := 0; i < col.Len(); i++ {
		if h.BaseOffset+int64(i) < q.applied || col.IsNull(i) {
			continue
		}
		var ev seqEvent
		if err := json.Unmarshal([]byte(col.Value(i)), &ev); err != nil {
			return sqlerr.Wrap(err, sqlerr.DataCorrupted, "record %d of %s: %v", h.BaseOffset+int64(i), SequencesPath, err)
		}
		r := q.apply(ev)
		if w := q.waiting[ev.Nonce]; w != nil {
			*w = r
			w.done = true
		}
	}
	return nil
}

// apply is the state machine: ev's effect on the sequences and its
// outcome, the same on every server.
func (q *seqState) apply(ev seqEvent) seqResult {
	path := fluss.TablePath{Database: ev.DB, Table: ev.Name}
	e := q.seqs[path]
	if e != nil && ev.ID != 0 && e.id != ev.ID {
		e = nil // the sequence the request meant was dropped
	}
	if ev.Op != "create" && e == nil {
		return seqResult{err: missingSequence(path)}
	}
	switch ev.Op {
	case "alter", "setval", "drop", "release":
		delete(q.blocks, e.id) // this server's values follow the change
		if u := ev.Unused; u != nil && e.called && e.last == u.End {
			e.last, e.called = u.Last, u.Called
		}
	}
	switch ev.Op {
	case "create":
		if e != nil {
			if ev.IfNotExists {
				return seqResult{id: e.id}
			}
			return seqResult{err: sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists", path.Table)}
		}
		if ev.Def == nil {
			return seqResult{err: sqlerr.New(sqlerr.DataCorrupted, "a CREATE SEQUENCE record without its definition")}
		}
		e = &seqEntry{id: q.nextID, def: *ev.Def, last: ev.Def.Start}
		q.nextID++
		q.seqs[path] = e
	case "alter":
		if ev.Def != nil {
			e.def = *ev.Def
		}
		if ev.Restart != nil {
			e.last, e.called = *ev.Restart, false
		}
	case "drop":
		delete(q.seqs, path)
	case "release":
	case "setval":
		if err := fluss.CheckSetValue(path.Table, e.def, ev.Value); err != nil {
			return seqResult{err: err}
		}
		e.last, e.called = ev.Value, ev.Called
	case "reserve":
		first, err := fluss.NextSequenceValue(path.Table, e.def, e.last, e.called)
		if err != nil {
			return seqResult{err: err}
		}
		last := fluss.SequenceBlockEnd(e.def, first, max(ev.N, 1))
		e.last, e.called = last, true
		return seqResult{id: e.id, first: first, last: last}
	default:
		return seqResult{err: sqlerr.New(sqlerr.DataCorrupted, "unknown sequence record %q", ev.Op)}
	}
	return seqResult{id: e.id}
}

func missingSequence(path fluss.TablePath) error {
	return sqlerr.New(sqlerr.UndefinedTable, "relation \"%s\" does not exist", path.Table)
}

// request appends ev and returns its outcome; the caller holds q.mu and
// has caught up (sequencesLocked).
func (s *Store) request(ctx context.Context, ev seqEvent) (seqResult, error) {
	q := &s.seqs
	q.counter++
	ev.Nonce = fmt.Sprintf("%s-%d", q.server, q.counter)
	js, err := json.Marshal(ev)
	if err != nil {
		return seqResult{}, sqlerr.Wrap(err, sqlerr.InternalError, "encoding a sequence record: %v", err)
	}
	b := array.NewStringBuilder(memory.DefaultAllocator)
	b.Append(string(js))
	col := b.NewArray()
	b.Release()
	rec := array.NewRecordBatch(q.t.info.ArrowSchema(), []arrow.Array{col}, 1)
	col.Release()
	defer rec.Release()
	batch, err := format.EncodeTableBatchCompressed(rec, q.t.ts, nil, q.t.info.SchemaID, q.t.codec)
	if err != nil {
		return seqResult{}, sqlerr.Wrap(err, sqlerr.InternalError, "encoding a sequence record: %v", err)
	}
	r := &seqResult{}
	q.waiting[ev.Nonce] = r
	defer delete(q.waiting, ev.Nonce)
	off, err := s.writer.Append(ctx, q.t.tab, 0, batch)
	if err != nil {
		return seqResult{}, storeErr(err, SequencesPath)
	}
	if err := s.catchUp(ctx, off); err != nil {
		return seqResult{}, err
	}
	if !r.done {
		return seqResult{}, sqlerr.New(sqlerr.DataCorrupted, "the sequences' log lacks the record appended at offset %d", off)
	}
	return *r, nil
}

// systemTable opens a table of sqlgate's own in the reserved database,
// creating both when missing: three replicas, as the state it keeps must
// outlive a tablet server (the cluster's default when it has fewer
// servers, which Fluss tells with INVALID_REPLICATION_FACTOR).
func (s *Store) systemTable(ctx context.Context, path fluss.TablePath, desc fluss.TableDescriptor) (fluss.Table, error) {
	t, err := s.Table(ctx, path)
	if sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		return t, err
	}
	if err := s.CreateDatabase(ctx, path.Database, true); err != nil {
		return nil, err
	}
	props := map[string]string{"table.replication.factor": "3"}
	maps.Copy(props, desc.Properties)
	desc.Properties = props
	// Not IF NOT EXISTS: a table this call creates is created again when
	// the coordinator gives it no leader (create_wait.go); one another
	// server created meanwhile is taken as it is.
	_, err = s.CreateTable(ctx, path, desc, false)
	if err != nil && strings.Contains(err.Error(), "INVALID_REPLICATION_FACTOR") {
		delete(props, "table.replication.factor")
		_, err = s.CreateTable(ctx, path, desc, false)
	}
	if err != nil && sqlerr.CodeOf(err) != sqlerr.DuplicateTable {
		return nil, err
	}
	return s.Table(ctx, path)
}

// withSequences runs fn holding the sequences' lock, caught up (create:
// making the log when missing).
func (s *Store) withSequences(ctx context.Context, create bool, fn func(q *seqState) error) error {
	s.seqs.mu.Lock()
	defer s.seqs.mu.Unlock()
	q, err := s.sequencesLocked(ctx, create)
	if err != nil {
		return err
	}
	return fn(q)
}

func (q *seqState) info(path fluss.TablePath, e *seqEntry) fluss.SequenceInfo {
	out := fluss.SequenceInfo{Path: path, ID: e.id, Def: e.def, Last: e.last, Called: e.called}
	if b := q.blocks[e.id]; b != nil && b.handed {
		out.Last, out.Called = b.last, true // what a client of this server saw
	}
	return out
}

// CreateSequence implements fluss.SequenceStore.
func (s *Store) CreateSequence(ctx context.Context, path fluss.TablePath, def fluss.SequenceDef, ifNotExists bool) (fluss.SequenceInfo, error) {
	var out fluss.SequenceInfo
	err := s.withSequences(ctx, true, func(q *seqState) error {
		if _, err := s.GetTable(ctx, path); err == nil {
			return sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists", path.Table)
		}
		r, err := s.request(ctx, seqEvent{Op: "create", DB: path.Database, Name: path.Table, Def: &def, IfNotExists: ifNotExists})
		if err == nil {
			err = r.err
		}
		if err != nil {
			return err
		}
		out = q.info(path, q.seqs[path])
		return nil
	})
	return out, err
}

// AlterSequence implements fluss.SequenceStore. Without RESTART the
// sequence goes on from the last value this server handed out, as
// PostgreSQL's goes on from its last_value (change gives the rest of the
// block back).
func (s *Store) AlterSequence(ctx context.Context, path fluss.TablePath, def fluss.SequenceDef, restart *int64) error {
	return s.change(ctx, path, seqEvent{Op: "alter", Def: &def, Restart: restart})
}

// releaseSequences gives back the unused values of this server's blocks
// (Close), so that a clean restart skips none; best effort: values not
// given back are skipped, never repeated.
func (s *Store) releaseSequences(ctx context.Context) {
	q := &s.seqs
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.t == nil {
		return
	}
	for p, e := range q.seqs {
		b := q.blocks[e.id]
		if b == nil || b.empty {
			continue
		}
		if _, err := s.request(ctx, seqEvent{Op: "release", DB: p.Database, Name: p.Table, ID: e.id, Unused: b.unused()}); err != nil {
			return
		}
	}
}

// unused is what of b is not handed out yet.
func (b *seqValues) unused() *seqUnused {
	if b.handed {
		return &seqUnused{Last: b.last, End: b.end, Called: true}
	}
	return &seqUnused{Last: b.next, End: b.end}
}

// DropSequence implements fluss.SequenceStore.
func (s *Store) DropSequence(ctx context.Context, path fluss.TablePath, ifExists bool) error {
	err := s.change(ctx, path, seqEvent{Op: "drop"})
	if ifExists && sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
		return nil
	}
	return err
}

// SetValue implements fluss.SequenceStore.
func (s *Store) SetValue(ctx context.Context, path fluss.TablePath, v int64, called bool) error {
	return s.change(ctx, path, seqEvent{Op: "setval", Value: v, Called: called})
}

// change appends a change of the existing sequence at path.
func (s *Store) change(ctx context.Context, path fluss.TablePath, ev seqEvent) error {
	return s.withSequences(ctx, false, func(q *seqState) error {
		e := q.seqs[path]
		if e == nil {
			return missingSequence(path)
		}
		ev.DB, ev.Name, ev.ID = path.Database, path.Table, e.id
		if b := q.blocks[e.id]; b != nil && !b.empty && ev.Op == "alter" {
			ev.Unused = b.unused()
		}
		r, err := s.request(ctx, ev)
		if err != nil {
			return err
		}
		return r.err
	})
}

// GetSequence implements fluss.SequenceStore.
func (s *Store) GetSequence(ctx context.Context, path fluss.TablePath) (fluss.SequenceInfo, error) {
	var out fluss.SequenceInfo
	err := s.withSequences(ctx, false, func(q *seqState) error {
		e := q.seqs[path]
		if e == nil {
			return missingSequence(path)
		}
		out = q.info(path, e)
		return nil
	})
	return out, err
}

// ListSequences implements fluss.SequenceStore.
func (s *Store) ListSequences(ctx context.Context, database string) ([]fluss.SequenceInfo, error) {
	var out []fluss.SequenceInfo
	err := s.withSequences(ctx, false, func(q *seqState) error {
		for p, e := range q.seqs {
			if p.Database == database {
				out = append(out, q.info(p, e))
			}
		}
		return nil
	})
	slices.SortFunc(out, func(a, b fluss.SequenceInfo) int { return strings.Compare(a.Path.Table, b.Path.Table) })
	return out, err
}

// NextValue implements fluss.SequenceStore: a value of this server's block,
// or of a new block reserved in the log. The sequence is the one the log
// had at the last catch-up (the statement's GetSequence or ListSequences).
func (s *Store) NextValue(ctx context.Context, path fluss.TablePath) (int64, error) {
	q := &s.seqs
	q.mu.Lock()
	defer q.mu.Unlock()
	e := q.seqs[path]
	if e == nil || q.t == nil {
		if _, err := s.sequencesLocked(ctx, false); err != nil {
			return 0, err
		}
		if e = q.seqs[path]; e == nil {
			return 0, missingSequence(path)
		}
	}
	b := q.blocks[e.id]
	if b == nil || b.empty {
		r, err := s.request(ctx, seqEvent{Op: "reserve", DB: path.Database, Name: path.Table, ID: e.id, N: max(e.def.Cache, seqBlock)})
		if err == nil {
			err = r.err
		}
		if err != nil {
			return 0, err
		}
		b = &seqValues{next: r.first, end: r.last, first: r.first}
		q.blocks[r.id] = b
	}
	v := b.next
	b.last, b.handed = v, true
	if v == b.end {
		b.empty = true
	} else {
		b.next = v + e.def.Increment
	}
	return v, nil
}

// RewindValue implements fluss.SequenceRewinder within this server's
// block: values of it no other server can hold are handed out again; a
// value of an earlier block (or a block another server released) is not
// taken back.
func (s *Store) RewindValue(ctx context.Context, path fluss.TablePath, from, to int64, toCalled bool) (bool, error) {
	q := &s.seqs
	q.mu.Lock()
	defer q.mu.Unlock()
	e := q.seqs[path]
	if e == nil {
		return false, nil
	}
	b := q.blocks[e.id]
	inc := e.def.Increment
	within := func(v int64) bool {
		if inc > 0 {
			return v >= b.first && v <= from
		}
		return v <= b.first && v >= from
	}
	if b == nil || !b.handed || b.last != from || !within(to) {
		return false, nil
	}
	b.empty = false
	switch {
	case toCalled:
		b.last, b.next = to, to+inc
		b.empty = to == b.end
	case to == b.first:
		b.next, b.handed = to, false
	default:
		b.next, b.last = to, to-inc
	}
	return true, nil
}

var _ fluss.SequenceRewinder = (*Store)(nil)
