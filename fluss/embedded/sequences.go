package embedded

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Sequences live in the store directory's sequences.json, replaced
// atomically (writeFileAtomic: fsync, rename, fsync of the directory).
// nextval hands values out of a block logged ahead, as PostgreSQL logs
// SEQ_LOG_VALS values ahead in its WAL: when the next value passes the
// logged bound, the bound moves a block further and is made durable before
// the value is returned. The file keeps the bound as last_value (called),
// so after a crash the sequence resumes after every value that could have
// been handed out: values are skipped, never repeated.
const (
	sequencesFile = "sequences.json"
	// sequenceLogBlock is how many values one durable write reserves at
	// least (a sequence's CACHE, when larger, is used instead).
	sequenceLogBlock = 32
)

var _ fluss.SequenceStore = (*Store)(nil)

// seqStore is the store's sequences, guarded by mu (fsync included: a
// block write is rare, and ordering the writes keeps the file monotonic).
type seqStore struct {
	mu     sync.Mutex
	loaded bool
	file   seqFile
	// cur is each sequence's in-memory state (by id): the last value
	// handed out and whether one was; logged is the value the file holds,
	// up to which values may be handed out without writing.
	cur map[int64]*seqState
}

type seqState struct {
	last   int64
	called bool
	logged int64
	// loggedCalled is the file's is_called: false until a block is logged.
	loggedCalled bool
}

type seqFile struct {
	NextID    int64      `json:"next_id"`
	Sequences []seqEntry `json:"sequences"`
}

type seqEntry struct {
	Database string            `json:"database"`
	Name     string            `json:"name"`
	ID       int64             `json:"id"`
	Def      fluss.SequenceDef `json:"def"`
	Last     int64             `json:"last_value"`
	Called   bool              `json:"is_called"`
	// OwnerID is the id of the table Def.OwnedBy named when the sequence
	// was made or altered, if it existed then (OWNED BY names an existing
	// table; a SERIAL column's sequence is made before its table, which
	// names it instead): what settleSequences finds the table by after a
	// crash left Def.OwnedBy behind a rename.
	OwnerID int64 `json:"owned_by_table_id,omitempty"`
}

// loadSequences reads the file once; the caller holds q.mu.
func (s *Store) loadSequences() (*seqStore, error) {
	q := &s.seqs
	if s.closed.Load() {
		return nil, errClosed()
	}
	if q.loaded {
		return q, nil
	}
	b, err := os.ReadFile(filepath.Join(s.dir, sequencesFile))
	switch {
	case errors.Is(err, os.ErrNotExist):
		q.file = seqFile{NextID: 1}
	case err != nil:
		return nil, ioErr(err, "reading %s", sequencesFile)
	default:
		if err := json.Unmarshal(b, &q.file); err != nil {
			return nil, corrupt("%s is damaged: %v", sequencesFile, err)
		}
	}
	q.cur = map[int64]*seqState{}
	for _, e := range q.file.Sequences {
		q.cur[e.ID] = &seqState{last: e.Last, called: e.Called, logged: e.Last, loggedCalled: e.Called}
	}
	q.loaded = true
	return q, nil
}

// save writes the file; on an error the caller restores what it changed.
func (s *Store) saveSequences(q *seqStore) error {
	b, err := json.MarshalIndent(q.file, "", "  ")
	if err != nil {
		return sqlerr.Wrap(err, sqlerr.InternalError, "encoding %s: %v", sequencesFile, err)
	}
	return s.writeFileAtomic(filepath.Join(s.dir, sequencesFile), b)
}

func (q *seqStore) find(path fluss.TablePath) int {
	return slices.IndexFunc(q.file.Sequences, func(e seqEntry) bool { return e.Database == path.Database && e.Name == path.Table })
}

func missingSequence(path fluss.TablePath) error {
	return sqlerr.New(sqlerr.UndefinedTable, "relation \"%s\" does not exist", path.Table)
}

// withSequences runs fn with the loaded sequences, holding their lock.
func (s *Store) withSequences(ctx context.Context, fn func(q *seqStore) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.seqs.mu.Lock()
	defer s.seqs.mu.Unlock()
	q, err := s.loadSequences()
	if err != nil {
		return err
	}
	return fn(q)
}

// update changes the file with change and saves it, undoing the change in
// memory when the save fails.
func (s *Store) updateSequences(q *seqStore, change func()) error {
	prev := seqFile{NextID: q.file.NextID, Sequences: slices.Clone(q.file.Sequences)}
	change()
	if err := s.saveSequences(q); err != nil {
		q.file = prev
		return err
	}
	return nil
}

// CreateSequence implements fluss.SequenceStore.
func (s *Store) CreateSequence(ctx context.Context, path fluss.TablePath, def fluss.SequenceDef, ifNotExists bool) (fluss.SequenceInfo, error) {
	var out fluss.SequenceInfo
	err := s.withSequences(ctx, func(q *seqStore) error {
		if i := q.find(path); i >= 0 {
			if ifNotExists {
				out = q.info(i)
				return nil
			}
			return sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists", path.Table)
		}
		if _, err := s.GetTable(ctx, path); err == nil {
			return sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists", path.Table)
		}
		e := seqEntry{Database: path.Database, Name: path.Table, ID: q.file.NextID, Def: def, Last: def.Start, OwnerID: s.ownerID(def)}
		if err := s.updateSequences(q, func() {
			q.file.NextID++
			q.file.Sequences = append(q.file.Sequences, e)
		}); err != nil {
			return err
		}
		q.cur[e.ID] = &seqState{last: e.Last, logged: e.Last}
		out = q.info(len(q.file.Sequences) - 1)
		return nil
	})
	return out, err
}

// info is entry i with its in-memory state: last_value is the last value
// handed out (PostgreSQL's pg_sequences shows the logged bound; sqlgate
// shows what a client saw, which is what a test can check).
func (q *seqStore) info(i int) fluss.SequenceInfo {
	e := q.file.Sequences[i]
	st := q.cur[e.ID]
	return fluss.SequenceInfo{Path: fluss.TablePath{Database: e.Database, Table: e.Name}, ID: e.ID, Def: e.Def, Last: st.last, Called: st.called}
}

// AlterSequence implements fluss.SequenceStore.
func (s *Store) AlterSequence(ctx context.Context, path fluss.TablePath, def fluss.SequenceDef, restart *int64) error {
	return s.withSequences(ctx, func(q *seqStore) error {
		i := q.find(path)
		if i < 0 {
			return missingSequence(path)
		}
		e := &q.file.Sequences[i]
		st := q.cur[e.ID]
		last, called := st.logged, st.loggedCalled
		if restart != nil {
			last, called = *restart, false
		}
		owner := s.ownerID(def)
		if err := s.updateSequences(q, func() {
			e := &q.file.Sequences[i]
			e.Def, e.Last, e.Called, e.OwnerID = def, last, called, owner
		}); err != nil {
			return err
		}
		if restart != nil {
			*st = seqState{last: last, logged: last}
		}
		return nil
	})
}

// DropSequence implements fluss.SequenceStore.
func (s *Store) DropSequence(ctx context.Context, path fluss.TablePath, ifExists bool) error {
	return s.withSequences(ctx, func(q *seqStore) error {
		i := q.find(path)
		if i < 0 {
			if ifExists {
				return nil
			}
			return missingSequence(path)
		}
		id := q.file.Sequences[i].ID
		if err := s.updateSequences(q, func() { q.file.Sequences = slices.Delete(q.file.Sequences, i, i+1) }); err != nil {
			return err
		}
		delete(q.cur, id)
		return nil
	})
}

var _ fluss.SequenceRenamer = (*Store)(nil)

// RenameSequence implements fluss.SequenceRenamer: one write of the file.
func (s *Store) RenameSequence(ctx context.Context, from, to fluss.TablePath) error {
	return s.withSequences(ctx, func(q *seqStore) error {
		i := q.find(from)
		if i < 0 {
			return missingSequence(from)
		}
		if q.find(to) >= 0 {
			return sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists", to.Table)
		}
		if _, err := s.GetTable(ctx, to); err == nil {
			return sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists", to.Table)
		}
		return s.updateSequences(q, func() {
			e := &q.file.Sequences[i]
			e.Database, e.Name = to.Database, to.Table
		})
	})
}

// GetSequence implements fluss.SequenceStore.
func (s *Store) GetSequence(ctx context.Context, path fluss.TablePath) (fluss.SequenceInfo, error) {
	var out fluss.SequenceInfo
	err := s.withSequences(ctx, func(q *seqStore) error {
		i := q.find(path)
		if i < 0 {
			return missingSequence(path)
		}
		out = q.info(i)
		return nil
	})
	return out, err
}

// ListSequences implements fluss.SequenceStore.
func (s *Store) ListSequences(ctx context.Context, database string) ([]fluss.SequenceInfo, error) {
	var out []fluss.SequenceInfo
	err := s.withSequences(ctx, func(q *seqStore) error {
		for i, e := range q.file.Sequences {
			if e.Database == database {
				out = append(out, q.info(i))
			}
		}
		return nil
	})
	slices.SortFunc(out, func(a, b fluss.SequenceInfo) int { return strings.Compare(a.Path.Table, b.Path.Table) })
	return out, err
}

// NextValue implements fluss.SequenceStore.
func (s *Store) NextValue(ctx context.Context, path fluss.TablePath) (int64, error) {
	var v int64
	err := s.withSequences(ctx, func(q *seqStore) error {
		i := q.find(path)
		if i < 0 {
			return missingSequence(path)
		}
		e := &q.file.Sequences[i]
		st := q.cur[e.ID]
		next, err := fluss.NextSequenceValue(path.Table, e.Def, st.last, st.called)
		if err != nil {
			return err
		}
		wrapped := st.called && (e.Def.Increment > 0) != (next > st.last) // CYCLE went round
		if !st.loggedCalled || wrapped || pastBound(e.Def, next, st.logged) {
			// reserve a block from next on, up to the bound
			bound := blockEnd(e.Def, next)
			if err := s.updateSequences(q, func() {
				e := &q.file.Sequences[i]
				e.Last, e.Called = bound, true
			}); err != nil {
				return err
			}
			st.logged, st.loggedCalled = bound, true
		}
		st.last, st.called = next, true
		v = next
		return nil
	})
	return v, err
}

// pastBound reports whether next lies beyond the logged bound in the
// increment's direction, or wrapped (CYCLE) behind it.
func pastBound(def fluss.SequenceDef, next, logged int64) bool {
	if def.Increment > 0 {
		return next > logged
	}
	return next < logged
}

// blockEnd is the last value of the block that starts at next, within the
// sequence's bounds.
func blockEnd(def fluss.SequenceDef, next int64) int64 {
	return fluss.SequenceBlockEnd(def, next, max(def.Cache, sequenceLogBlock))
}

// SetValue implements fluss.SequenceStore.
func (s *Store) SetValue(ctx context.Context, path fluss.TablePath, v int64, called bool) error {
	return s.withSequences(ctx, func(q *seqStore) error {
		i := q.find(path)
		if i < 0 {
			return missingSequence(path)
		}
		e := &q.file.Sequences[i]
		if err := fluss.CheckSetValue(path.Table, e.Def, v); err != nil {
			return err
		}
		if err := s.updateSequences(q, func() {
			e := &q.file.Sequences[i]
			e.Last, e.Called = v, called
		}); err != nil {
			return err
		}
		*q.cur[e.ID] = seqState{last: v, called: called, logged: v, loggedCalled: called}
		return nil
	})
}

// flushSequences writes each sequence's exact state at a clean Close, so
// that a restart after one continues where the values stopped instead of
// after the block logged ahead (only a crash skips values).
func (s *Store) flushSequences() error {
	q := &s.seqs
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.loaded {
		return nil
	}
	changed := false
	for i := range q.file.Sequences {
		e := &q.file.Sequences[i]
		st := q.cur[e.ID]
		if st.called != e.Called || st.last != e.Last {
			e.Last, e.Called = st.last, st.called
			st.logged, st.loggedCalled = st.last, st.called
			changed = true
		}
	}
	if !changed {
		return nil
	}
	return s.saveSequences(q)
}

// ownerID is the id of the table def is OWNED BY, 0 for none or a table
// not made yet (a SERIAL column's sequence, made before its table).
func (s *Store) ownerID(def fluss.SequenceDef) int64 {
	if def.OwnedBy == (fluss.TablePath{}) {
		return 0
	}
	s.catMu.Lock()
	defer s.catMu.Unlock()
	if t, ok := s.tables[def.OwnedBy]; ok {
		return t.info.TableID
	}
	return 0
}

// A sequence owned by a table (SERIAL, identity, OWNED BY) lives in
// sequences.json, its table in catalog.json: two files that no single
// write spans. The tables are the truth and the sequences follow them:
// CREATE TABLE makes its sequences before the table (so a column never
// names a missing sequence), DROP TABLE drops them after it, and a rename
// moves their OWNED BY after the catalog's rename (followRename). What a
// crash between the two writes leaves, settleSequences mends when the
// store opens, before any statement runs:
//   - a sequence a column names (fluss.ColumnMeta.Sequence: SERIAL and
//     identity columns) is owned by that column, under the table's
//     current name;
//   - another sequence OWNED BY a table follows the table's id
//     (seqEntry.OwnerID) to its current name, and to the table that
//     replaced it (ALTER TABLE's rewrite, TRUNCATE's re-creation: the new
//     table names the old id, replacedIDs), whose id it takes;
//   - a sequence OWNED BY a table that is gone (dropped, or never made)
//     is dropped, as DROP TABLE would have dropped it.
// A sequence without OWNED BY is nobody's and is left alone.

// followRename makes the sequences the table renamed from owned by it
// under its new name.
func (s *Store) followRename(ctx context.Context, from, to fluss.TablePath) error {
	return s.withSequences(context.WithoutCancel(ctx), func(q *seqStore) error {
		if !slices.ContainsFunc(q.file.Sequences, func(e seqEntry) bool { return e.Def.OwnedBy == from }) {
			return nil
		}
		return s.updateSequences(q, func() {
			for i := range q.file.Sequences {
				if e := &q.file.Sequences[i]; e.Def.OwnedBy == from {
					e.Def.OwnedBy = to
				}
			}
		})
	})
}

// followReplace makes the sequences OWNED BY the table with id from owned
// by the table that replaced it (id to: ALTER TABLE's rewrite, TRUNCATE's
// re-creation), so that they follow it from then on whatever replaces it
// next. A crash before it is mended by settleSequences (the new table
// names the id it replaced).
func (s *Store) followReplace(ctx context.Context, from, to int64) error {
	return s.withSequences(context.WithoutCancel(ctx), func(q *seqStore) error {
		if !slices.ContainsFunc(q.file.Sequences, func(e seqEntry) bool { return e.OwnerID == from }) {
			return nil
		}
		return s.updateSequences(q, func() {
			for i := range q.file.Sequences {
				if e := &q.file.Sequences[i]; e.OwnerID == from {
					e.OwnerID = to
				}
			}
		})
	})
}

// settleSequences brings the sequences in line with the tables (above),
// at Open.
func (s *Store) settleSequences() error {
	s.catMu.Lock()
	byID := map[int64]fluss.TableInfo{}
	type column struct {
		table fluss.TablePath
		name  string
		id    int64
	}
	named := map[fluss.TablePath]column{} // sequence -> the column drawing from it
	present := map[fluss.TablePath]bool{}
	for _, t := range s.tables {
		byID[t.info.TableID] = t.info
		present[t.info.Path] = true
		for _, id := range replacedIDs(t.info.Descriptor) {
			if _, ok := byID[id]; !ok {
				byID[id] = t.info // (a live table's own id wins: below)
			}
		}
		for i, c := range fluss.MetaOf(t.info.Descriptor).Columns {
			if c.Sequence != "" && i < len(t.info.Descriptor.Schema.Columns) {
				named[fluss.TablePath{Database: t.info.Path.Database, Table: c.Sequence}] = column{t.info.Path, t.info.Descriptor.Schema.Columns[i].Name, t.info.TableID}
			}
		}
	}
	for _, t := range s.tables {
		byID[t.info.TableID] = t.info
	}
	s.catMu.Unlock()
	return s.withSequences(context.Background(), func(q *seqStore) error {
		next := make([]seqEntry, 0, len(q.file.Sequences))
		changed := false
		for _, e := range q.file.Sequences {
			if e.Def.OwnedBy == (fluss.TablePath{}) {
				next = append(next, e)
				continue
			}
			path := fluss.TablePath{Database: e.Database, Table: e.Name}
			was := e
			if c, ok := named[path]; ok {
				e.Def.OwnedBy, e.Def.OwnedColumn, e.OwnerID = c.table, c.name, c.id
			} else if t, ok := byID[e.OwnerID]; ok && e.OwnerID != 0 {
				e.Def.OwnedBy, e.OwnerID = t.Path, t.TableID
			} else if e.OwnerID != 0 || !present[e.Def.OwnedBy] {
				s.log.Info("dropping a sequence whose table is gone", "sequence", path.String(), "owned_by", e.Def.OwnedBy.String())
				delete(q.cur, e.ID)
				changed = true
				continue
			}
			if e != was {
				s.log.Info("a sequence follows its table", "sequence", path.String(), "owned_by", e.Def.OwnedBy.String())
				changed = true
			}
			next = append(next, e)
		}
		if !changed {
			return nil
		}
		return s.updateSequences(q, func() { q.file.Sequences = next })
	})
}

// replacedIDs are the ids of the tables d's table replaced: the one
// TRUNCATE re-created it from (fluss.GrantsFromProperty) and those ALTER
// TABLE rewrote it from (fluss.RewrittenFromProperty, newest first).
func replacedIDs(d fluss.TableDescriptor) []int64 {
	var out []int64
	for _, text := range append([]string{d.CustomProperties[fluss.GrantsFromProperty]}, strings.Split(d.CustomProperties[fluss.RewrittenFromProperty], ",")...) {
		if id, err := strconv.ParseInt(text, 10, 64); err == nil {
			out = append(out, id)
		}
	}
	return out
}

// RewindValue implements fluss.SequenceRewinder: the block logged ahead
// already covers from, and so to behind it (a nextval past the block logs
// a new one, as ever): nothing is written.
func (s *Store) RewindValue(ctx context.Context, path fluss.TablePath, from, to int64, toCalled bool) (bool, error) {
	ok := false
	err := s.withSequences(ctx, func(q *seqStore) error {
		i := q.find(path)
		if i < 0 {
			return missingSequence(path)
		}
		st := q.cur[q.file.Sequences[i].ID]
		if st.called && st.last == from {
			st.last, st.called = to, toCalled
			ok = true
		}
		return nil
	})
	return ok, err
}

var _ fluss.SequenceRewinder = (*Store)(nil)
