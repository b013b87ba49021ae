package embedded

import (
	"context"
	"maps"
	"slices"
	"strings"
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
	// oldParts are old's partitions when staged, with their committed
	// log lengths; parts the staged table's (guarded by pmu: the copy
	// may make one).
	oldParts       []*partState
	oldPartLengths [][]int64
	pmu            sync.Mutex
	parts          []*partState
}

// StageReplacement implements fluss.TableReplacer. A partitioned table is
// replaced by a partitioned table with as many partition keys (the same
// columns, maybe renamed), its partitions staged with it; a table does not
// become partitioned nor stop being so (0A000).
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
	if len(old.info.Descriptor.PartitionKeys) != len(norm.PartitionKeys) {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "cannot rewrite table \"%s\" into a table partitioned otherwise", path.Table)
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
	st := &stagedTable{s: s, path: path, old: old, lengths: old.committedLengths(), t: t}
	if info.IsPartitioned() {
		st.oldParts = slices.Clone(s.partitions.of(old.info.TableID))
		for _, ps := range st.oldParts {
			st.oldPartLengths = append(st.oldPartLengths, ps.t.committedLengths())
			if _, err := st.stagePartitionLocked(ps.info.Values); err != nil {
				for _, t := range st.states() { // (as createPartitionsLocked undoes its own)
					t.closeFiles()
					_ = s.removeAll(t.dir)
				}
				return nil, err
			}
		}
	}
	return st, nil
}

// stagePartitionLocked opens a partition of values of the staged table
// (catMu held: it takes an id).
func (st *stagedTable) stagePartitionLocked(values []string) (fluss.PartitionInfo, error) {
	s := st.s
	id := s.catalog.NextTableID
	pt, err := s.openTable(partitionTableInfo(st.t.info, id), true)
	if err != nil {
		return fluss.PartitionInfo{}, err
	}
	s.catalog.NextTableID++
	pt.setSchemas(st.t.schemaCols)
	ps := &partState{info: fluss.PartitionInfo{ID: id, Name: fluss.PartitionName(values), Values: slices.Clone(values)}, t: pt}
	st.pmu.Lock()
	st.parts = append(st.parts, ps)
	st.pmu.Unlock()
	return ps.info, nil
}

// states are the staged table's state and its partitions'.
func (st *stagedTable) states() []*tableState {
	st.pmu.Lock()
	defer st.pmu.Unlock()
	out := []*tableState{st.t}
	for _, ps := range st.parts {
		out = append(out, ps.t)
	}
	return out
}

// stagedParts is the fluss.PartitionSource of a staged partitioned table.
type stagedParts struct{ st *stagedTable }

// Partitions implements fluss.PartitionSource.
func (p stagedParts) Partitions(ctx context.Context) ([]fluss.PartitionInfo, error) {
	p.st.pmu.Lock()
	defer p.st.pmu.Unlock()
	out := make([]fluss.PartitionInfo, len(p.st.parts))
	for i, ps := range p.st.parts {
		out[i] = ps.info
	}
	slices.SortFunc(out, func(a, b fluss.PartitionInfo) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// Partition implements fluss.PartitionSource.
func (p stagedParts) Partition(ctx context.Context, pi fluss.PartitionInfo) (fluss.Table, error) {
	p.st.pmu.Lock()
	defer p.st.pmu.Unlock()
	for _, ps := range p.st.parts {
		if ps.info.ID == pi.ID {
			return &tableHandle{s: p.st.s, t: ps.t}, nil
		}
	}
	return nil, fluss.ErrNoPartition(p.st.path, pi.Name)
}

// EnsurePartition implements fluss.PartitionSource.
func (p stagedParts) EnsurePartition(ctx context.Context, values []string) (fluss.PartitionInfo, error) {
	name := fluss.PartitionName(values)
	p.st.pmu.Lock()
	for _, ps := range p.st.parts {
		if ps.info.Name == name {
			p.st.pmu.Unlock()
			return ps.info, nil
		}
	}
	p.st.pmu.Unlock()
	for _, x := range values {
		if err := fluss.ValidatePartitionValue(x, true); err != nil {
			return fluss.PartitionInfo{}, err
		}
	}
	p.st.s.catMu.Lock()
	defer p.st.s.catMu.Unlock()
	return p.st.stagePartitionLocked(values)
}

// Write implements fluss.PartitionSource: one atomic group, as a table's.
func (p stagedParts) Write(ctx context.Context, write func(ctx context.Context) (fluss.WriteResult, error)) (fluss.WriteResult, error) {
	return p.st.s.writeGroup(ctx, write)
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

func (st *stagedTable) Table() fluss.Table {
	if st.t.info.IsPartitioned() {
		return fluss.NewPartitionedTable(st.t.info, stagedParts{st})
	}
	return st.t.handleOf(st.s)
}

// oldPartsChanged reports whether the old table's partitions are others
// than when staged (catMu held).
func (st *stagedTable) oldPartsChanged() bool {
	now := st.s.partitions.of(st.old.info.TableID)
	return len(now) != len(st.oldParts) || slices.ContainsFunc(now, func(ps *partState) bool { return !slices.Contains(st.oldParts, ps) })
}

// retireOld retires the old table's state and its partitions' (catMu
// held), unretiring them all when one fails.
func (st *stagedTable) retireOld(ctx context.Context) error {
	done := []*tableState{}
	for _, t := range st.oldStates() {
		if err := st.s.retireState(ctx, t); err != nil {
			for _, d := range done {
				d.unretire()
			}
			return err
		}
		done = append(done, t)
	}
	return nil
}

// oldStates are the old table's state and its partitions'.
func (st *stagedTable) oldStates() []*tableState {
	out := []*tableState{st.old}
	for _, ps := range st.oldParts {
		out = append(out, ps.t)
	}
	return out
}

// oldWritten reports whether a row was written to the old table or one
// of its partitions since the staging.
func (st *stagedTable) oldWritten() bool {
	if !slices.Equal(st.old.committedLengths(), st.lengths) {
		return true
	}
	for i, ps := range st.oldParts {
		if !slices.Equal(ps.t.committedLengths(), st.oldPartLengths[i]) {
			return true
		}
	}
	return false
}

// unretireOld gives the old states back their reads and writes.
func (st *stagedTable) unretireOld() {
	for _, t := range st.oldStates() {
		t.unretire()
	}
}

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
	if err == nil && (cur != st.old || st.oldPartsChanged()) {
		err = sqlerr.New(sqlerr.SerializationFailure, "could not serialize access due to concurrent change of table \"%s\"", st.path.Table).
			WithHint("Run the statement again.")
	}
	if err == nil {
		err = st.retireOld(ctx) // the writes queued before are committed
	}
	if err != nil {
		s.catMu.Unlock()
		return fluss.TableInfo{}, err
	}
	if st.oldWritten() {
		st.unretireOld()
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
		st.unretireOld()
		s.catMu.Unlock()
		return fluss.TableInfo{}, sqlerr.Wrap(err, sqlerr.FeatureNotSupported, "%v", err)
	}
	prev := s.catalog
	oldID := st.old.info.TableID
	st.pmu.Lock()
	parts := slices.Clone(st.parts)
	st.pmu.Unlock()
	tables := slices.DeleteFunc(slices.Clone(s.catalog.Tables), func(e catalogEntry) bool { return e.isPartitionOf(oldID) })
	for i := range tables {
		if tables[i].TableID == oldID {
			tables[i] = entry
		}
	}
	for _, ps := range parts { // (the partitions' entries beside the table's, as createPartitionsLocked writes them)
		tables = append(tables, catalogEntry{Database: st.path.Database, Table: st.path.Table, TableID: ps.info.ID,
			CreatedAt: s.opts.Now().UnixMilli(), Partition: &partitionRef{Table: newInfo.TableID, Name: ps.info.Name}})
	}
	s.catalog.Tables = tables
	if err := s.saveCatalog(); err != nil { // the commit point
		s.catalog = prev
		st.unretireOld()
		s.catMu.Unlock()
		return fluss.TableInfo{}, err
	}
	st.t.info.Descriptor = newInfo.Descriptor // (no reader holds the staged state's info: it had no name)
	s.tables[st.path] = st.t
	s.partitions.take(oldID)
	for _, ps := range parts {
		s.partitions.put(newInfo.TableID, ps)
	}
	st.done = true
	s.catMu.Unlock()
	info := st.t.info
	info.ArrowSchemas = nil
	// Past the commit point the replacement is finished whatever ends
	// ctx (a cancelled statement): the sequences follow the new id and
	// the old states go, and an error here still returns info, which
	// says the table was replaced.
	ctx = context.WithoutCancel(ctx)
	ferr := s.followReplace(ctx, oldID, info.TableID) // sequences.go
	if err := s.dropStates(ctx, st.oldStates()); err != nil {
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
	return st.s.dropStates(ctx, st.states())
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
