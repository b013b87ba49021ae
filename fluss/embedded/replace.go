package embedded

import (
	"context"
	"maps"
	"slices"
	"sync"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// A table rewrite (fluss.TableReplacer): ALTER TABLE's new column types,
// dropped and renamed columns. The new table is a table of its own (a new
// id, its own directory and state) that no catalog entry names while it
// is filled: a crash then leaves files and state of an id the catalog
// lacks, which Open removes as it removes an interrupted drop's. Replace
// puts its entry in the old one's place in one replacement of
// catalog.json (the commit point: a crash leaves the old table or the
// new one, whole, with the properties Replace was given; the sequences
// the old table owned are owned by the new one after it: followReplace),
// after the old table's state was retired through the committer (the writes queued before it are committed; the old table
// takes no more, its writers fail with 40001 and run again against the
// new table). The old table's committed log lengths, noted when the
// replacement was staged (before the copy read the table), tell whether a
// write landed since: then the copy missed it, and Replace gives the old
// state back and fails with 40001, for the caller to copy again.

var _ fluss.TableReplacer = (*Store)(nil)

// stagedTable is a replacement being filled (StageReplacement).
type stagedTable struct {
	s    *Store
	path fluss.TablePath
	old  *tableState
	// lengths are old's committed log lengths when staged.
	lengths []int64
	t       *tableState
	mu      sync.Mutex
	done    bool
}

// StageReplacement implements fluss.TableReplacer. A partitioned table
// (its partitions are tables of their own) is not replaced: 0A000.
func (s *Store) StageReplacement(ctx context.Context, path fluss.TablePath, desc fluss.TableDescriptor) (fluss.StagedReplacement, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	norm, err := fluss.ValidateDescriptor(desc)
	if err != nil {
		return nil, err
	}
	s.catMu.Lock()
	defer s.catMu.Unlock()
	old, err := s.tableLocked(path)
	if err != nil {
		return nil, err
	}
	if old.info.IsPartitioned() || len(norm.PartitionKeys) > 0 {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "cannot rewrite partitioned table \"%s\": each of its partitions is a table of its own, which one catalog change cannot replace together", path.Table)
	}
	info := fluss.TableInfo{Path: path, TableID: s.catalog.NextTableID, SchemaID: 1,
		Descriptor: norm, CreatedAt: s.opts.Now().UnixMilli()}
	if _, err := entryFromInfo(info); err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.FeatureNotSupported, "%v", err)
	}
	t, err := s.openTable(info, true)
	if err != nil {
		return nil, err
	}
	// The id is taken from here on (a later CreateTable's catalog write
	// saves it); a crash before Replace leaves an id no entry names.
	s.catalog.NextTableID++
	return &stagedTable{s: s, path: path, old: old, lengths: old.committedLengths(), t: t}, nil
}

// committedLengths are t's bucket logs' committed lengths: every write
// (an append, an upsert's changelog, a delete's) lengthens one.
func (t *tableState) committedLengths() []int64 {
	t.mu.RLock()
	defer t.mu.RUnlock()
	out := make([]int64, len(t.buckets))
	for i, b := range t.buckets {
		out[i] = b.committed
	}
	return out
}

func (st *stagedTable) Table() fluss.Table { return st.t.handleOf(st.s) }

// Replace implements fluss.StagedReplacement.
func (st *stagedTable) Replace(ctx context.Context, props map[string]string) (fluss.TableInfo, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.done {
		return fluss.TableInfo{}, sqlerr.New(sqlerr.InternalError, "the replacement of \"%s\" is finished", st.path.Table)
	}
	s := st.s
	s.catMu.Lock()
	cur, err := s.tableLocked(st.path)
	if err == nil && cur != st.old {
		err = sqlerr.New(sqlerr.SerializationFailure, "could not serialize access due to concurrent change of table \"%s\"", st.path.Table).
			WithHint("Run the statement again.")
	}
	if err == nil {
		err = s.retireState(ctx, st.old) // the writes queued before are committed
	}
	if err != nil {
		s.catMu.Unlock()
		return fluss.TableInfo{}, err
	}
	if !slices.Equal(st.old.committedLengths(), st.lengths) {
		st.old.unretire()
		s.catMu.Unlock()
		return fluss.TableInfo{}, errWrittenDuringRewrite(st.path)
	}
	newInfo := st.t.info
	if len(props) > 0 {
		newInfo.Descriptor.CustomProperties = maps.Clone(newInfo.Descriptor.CustomProperties)
		if newInfo.Descriptor.CustomProperties == nil {
			newInfo.Descriptor.CustomProperties = map[string]string{}
		}
		maps.Copy(newInfo.Descriptor.CustomProperties, props)
	}
	entry, err := entryFromInfo(newInfo)
	if err != nil {
		st.old.unretire()
		s.catMu.Unlock()
		return fluss.TableInfo{}, sqlerr.Wrap(err, sqlerr.FeatureNotSupported, "%v", err)
	}
	prev := s.catalog
	oldID := st.old.info.TableID
	tables := slices.Clone(s.catalog.Tables)
	for i := range tables {
		if tables[i].TableID == oldID {
			tables[i] = entry
		}
	}
	s.catalog.Tables = tables
	if err := s.saveCatalog(); err != nil { // the commit point
		s.catalog = prev
		st.old.unretire()
		s.catMu.Unlock()
		return fluss.TableInfo{}, err
	}
	st.t.info.Descriptor = newInfo.Descriptor // (no reader holds the staged state's info: it had no name)
	s.tables[st.path] = st.t
	st.done = true
	s.catMu.Unlock()
	info := st.t.info
	info.ArrowSchemas = nil
	ferr := s.followReplace(ctx, oldID, info.TableID) // sequences.go
	if err := s.dropStates(ctx, []*tableState{st.old}); err != nil {
		return info, err
	}
	return info, ferr
}

// Discard implements fluss.StagedReplacement.
func (st *stagedTable) Discard(ctx context.Context) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.done {
		return nil
	}
	st.done = true
	return st.s.dropStates(ctx, []*tableState{st.t})
}

// retireState retires t through the committer (alter.go's reqAlter).
func (s *Store) retireState(ctx context.Context, t *tableState) error {
	r := &request{table: t, kind: reqAlter, done: make(chan result, 1)}
	res, err := s.submit(context.WithoutCancel(ctx), r)
	if err == nil {
		err = res.err
	}
	return err
}

// unretire gives a retired state back its reads and writes: a Replace
// that does not happen after all.
func (t *tableState) unretire() {
	t.mu.Lock()
	t.dropped, t.altered = false, false
	t.mu.Unlock()
}

func errWrittenDuringRewrite(path fluss.TablePath) error {
	return sqlerr.New(sqlerr.SerializationFailure, "could not serialize access due to concurrent write: rows were written to table \"%s\" while it was rewritten", path.Table).
		WithHint("Run the statement again.")
}
