package embedded

import (
	"context"
	"slices"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Partitioned tables (fluss/partitions.go). A partition is kept as Fluss's
// coordinator keeps it: an id of its own (taken from the table ids, so
// that its bucket logs, tables/<id>/, and its pebble state, keyed by the
// id, are apart from every other table's and partition's), its name, and
// as many buckets as the table declares. Each partition is an entry of the
// catalog file beside its table's (catalogEntry.Partition: the table's id
// and the partition's name; no descriptor, which is the table's), so that
// creating or dropping one, and a table with all of its partitions, is one
// atomic replacement of the catalog: after a crash the catalog holds the
// partition or not, and Open removes the files and state of a partition no
// longer in it as it does a dropped table's. A partition's rows are a
// tableState under the table's info with the partition's id; the table's
// fluss.Table is a fluss.PartitionedTable over them, whose writes to
// several partitions commit as one atomic group (atomic.go's collector).
//
// Auto-partitioning (table.auto-partition.*) runs when the table is
// created and then whenever its partitions are listed (every scan and
// write does) in a new time unit (a new day for DAY): the partitions past
// the retention are dropped and the pre-created ones created, as Fluss's
// AutoPartitionManager does every check interval.

// partitionRef marks a catalog entry as a partition of the table whose id
// is Table.
type partitionRef struct {
	Table int64  `json:"table_id"`
	Name  string `json:"partition_name"`
}

// partState is one open partition.
type partState struct {
	info fluss.PartitionInfo
	t    *tableState
}

// partitionMap holds the open partitions of the store's tables, by table
// id, each table's sorted by name; it is guarded by Store.catMu.
type partitionMap struct {
	parts map[int64][]*partState
	// autoChecked is, per table, the time value of the last
	// auto-partition check (a new one runs in a new time unit).
	autoChecked map[int64]string
}

func (m *partitionMap) of(table int64) []*partState { return m.parts[table] }

func (m *partitionMap) put(table int64, ps *partState) {
	if m.parts == nil {
		m.parts = map[int64][]*partState{}
	}
	l := append(m.parts[table], ps)
	slices.SortFunc(l, func(a, b *partState) int {
		switch {
		case a.info.Name < b.info.Name:
			return -1
		case a.info.Name > b.info.Name:
			return 1
		}
		return 0
	})
	m.parts[table] = l
}

// take removes and returns a table's partitions.
func (m *partitionMap) take(table int64) []*partState {
	l := m.parts[table]
	delete(m.parts, table)
	delete(m.autoChecked, table)
	return l
}

func (m *partitionMap) remove(table int64, ps *partState) {
	m.parts[table] = slices.DeleteFunc(m.parts[table], func(p *partState) bool { return p == ps })
}

// partitionTableInfo is the info a partition's rows are kept under: the
// table's physical info (its key less the partition keys, as Fluss
// encodes a partition's keys: fluss.PhysicalInfo), with the partition's
// id.
func partitionTableInfo(table fluss.TableInfo, id int64) fluss.TableInfo {
	table = fluss.PhysicalInfo(table)
	table.TableID = id
	return table
}

// recoverPartitions opens the partitions of the catalog (Open, after the
// tables) and marks them live; a partition whose table is gone (which
// the one-file catalog never leaves) is left out of the catalog.
func (s *Store) recoverPartitions(live map[int64]bool) error {
	byID := make(map[int64]*tableState, len(s.tables))
	counts := map[int64][]int{}
	for _, t := range s.tables {
		byID[t.info.TableID] = t
	}
	for _, e := range s.catalog.Tables {
		if e.Partition == nil && e.SchemaColumns != nil {
			counts[e.TableID] = e.SchemaColumns
		}
	}
	var orphans []int64
	for _, e := range s.catalog.Tables {
		if e.Partition == nil {
			continue
		}
		parent := byID[e.Partition.Table]
		if parent == nil || !parent.info.IsPartitioned() {
			orphans = append(orphans, e.TableID)
			continue
		}
		values, err := fluss.PartitionValues(e.Partition.Name, len(parent.info.Descriptor.PartitionKeys))
		if err != nil {
			return corrupt("catalog: partition %d of %s: %v", e.TableID, parent.info.Path, err)
		}
		t, err := s.openTable(partitionTableInfo(parent.info, e.TableID), false)
		if err != nil {
			return err
		}
		t.setSchemas(counts[parent.info.TableID])
		if err := s.loadNDV(t); err != nil {
			return err
		}
		s.partitions.put(parent.info.TableID, &partState{info: fluss.PartitionInfo{ID: e.TableID, Name: e.Partition.Name, Values: values}, t: t})
		live[e.TableID] = true
	}
	if len(orphans) > 0 {
		s.log.Warn("catalog lists partitions of tables it does not have; leaving them out", "ids", orphans)
		s.catalog.Tables = slices.DeleteFunc(slices.Clone(s.catalog.Tables), func(e catalogEntry) bool { return slices.Contains(orphans, e.TableID) })
	}
	return nil
}

// isPartitionOf reports whether e is a partition of the table id.
func (e catalogEntry) isPartitionOf(id int64) bool {
	return e.Partition != nil && e.Partition.Table == id
}

// partitionedTable is the fluss.Table of a partitioned table.
func (s *Store) partitionedTable(t *tableState) fluss.Table {
	src := &partSource{s: s, t: t}
	return &partitioned{PartitionedTable: fluss.NewPartitionedTable(t.info, src), src: src}
}

// partitioned is a partitioned table of the store: fluss.PartitionedTable
// that also estimates its rows (the planner orders joins by them).
type partitioned struct {
	*fluss.PartitionedTable
	src *partSource
}

var _ fluss.RowEstimator = (*partitioned)(nil)

// EstimateRows implements fluss.RowEstimator: the partitions' estimates
// (tableHandle.EstimateRows) summed.
func (p *partitioned) EstimateRows() int64 {
	p.src.s.catMu.RLock()
	parts := slices.Clone(p.src.s.partitions.of(p.src.t.info.TableID))
	p.src.s.catMu.RUnlock()
	var n int64
	for _, ps := range parts {
		n += (&tableHandle{s: p.src.s, t: ps.t}).EstimateRows()
	}
	return n
}

// partSource is fluss.PartitionSource over one table state.
type partSource struct {
	s *Store
	t *tableState
}

// live checks, under catMu, that the table is still the one of its path.
func (p *partSource) live() error {
	if p.s.tables == nil {
		return errClosed()
	}
	if cur := p.s.tables[p.t.info.Path]; cur == nil || cur.info.TableID != p.t.info.TableID {
		return undefinedTable(p.t.info.Path)
	}
	return nil
}

// Partitions implements fluss.PartitionSource, running the table's
// auto-partitioning first when its time unit turned.
func (p *partSource) Partitions(ctx context.Context) ([]fluss.PartitionInfo, error) {
	return p.s.listPartitions(ctx, p.t.info.Path, p.t.info.TableID)
}

// Partition implements fluss.PartitionSource.
func (p *partSource) Partition(ctx context.Context, pi fluss.PartitionInfo) (fluss.Table, error) {
	p.s.catMu.Lock()
	defer p.s.catMu.Unlock()
	if err := p.live(); err != nil {
		return nil, err
	}
	for _, ps := range p.s.partitions.of(p.t.info.TableID) {
		if ps.info.ID == pi.ID {
			return &tableHandle{s: p.s, t: ps.t}, nil
		}
	}
	return nil, fluss.ErrNoPartition(p.t.info.Path, pi.Name)
}

// EnsurePartition implements fluss.PartitionSource: a missing partition is
// created (Fluss's writers create partitions by default:
// client.writer.dynamic-create-partition.enabled).
func (p *partSource) EnsurePartition(ctx context.Context, values []string) (fluss.PartitionInfo, error) {
	p.s.catMu.Lock()
	defer p.s.catMu.Unlock()
	if err := p.live(); err != nil {
		return fluss.PartitionInfo{}, err
	}
	name := fluss.PartitionName(values)
	for _, ps := range p.s.partitions.of(p.t.info.TableID) {
		if ps.info.Name == name {
			return ps.info, nil
		}
	}
	made, err := p.s.createPartitionsLocked(p.s.tables[p.t.info.Path], [][]string{values})
	if err != nil {
		return fluss.PartitionInfo{}, err
	}
	return made[0], nil
}

// Write implements fluss.PartitionSource: the writes to the partitions
// commit as one atomic group, or join the group being collected (a
// transaction's WriteAtomically).
func (p *partSource) Write(ctx context.Context, write func(ctx context.Context) (fluss.WriteResult, error)) (fluss.WriteResult, error) {
	return p.s.writeGroup(ctx, write)
}

// writeGroup runs the writes of write to several partitions as one
// atomic group, or in the group being collected.
func (s *Store) writeGroup(ctx context.Context, write func(ctx context.Context) (fluss.WriteResult, error)) (fluss.WriteResult, error) {
	if _, collecting := ctx.Value(collectKey{}).(*collector); collecting {
		return write(ctx)
	}
	c := &collector{}
	defer c.release()
	if _, err := write(context.WithValue(ctx, collectKey{}, c)); err != nil {
		return fluss.WriteResult{}, err
	}
	if err := s.commitCollected(ctx, c); err != nil {
		return fluss.WriteResult{}, err
	}
	var out fluss.WriteResult
	for _, r := range c.reqs {
		out.Rows += r.groupRows
	}
	return out, nil
}

// ListPartitions implements fluss.PartitionCatalog.
func (s *Store) ListPartitions(ctx context.Context, path fluss.TablePath) ([]fluss.PartitionInfo, error) {
	return s.listPartitions(ctx, path, -1)
}

// listPartitions lists the partitions of path (whose id must be id, unless
// -1), running auto-partitioning when due.
func (s *Store) listPartitions(ctx context.Context, path fluss.TablePath, id int64) ([]fluss.PartitionInfo, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.catMu.Lock()
	t, err := s.partitionedLocked(path)
	if err == nil && id >= 0 && t.info.TableID != id {
		err = undefinedTable(path)
	}
	if err != nil {
		s.catMu.Unlock()
		return nil, err
	}
	dropped := s.autoPartitionLocked(t)
	out := make([]fluss.PartitionInfo, 0, len(s.partitions.of(t.info.TableID)))
	for _, ps := range s.partitions.of(t.info.TableID) {
		out = append(out, ps.info)
	}
	s.catMu.Unlock()
	if err := s.dropStates(ctx, dropped); err != nil {
		// out of the catalog already: Open removes what is left
		s.log.Error("auto partitioning could not remove an expired partition's files", "table", path, "error", err)
	}
	return out, nil
}

// partitionedLocked is the state of the partitioned table at path.
func (s *Store) partitionedLocked(path fluss.TablePath) (*tableState, error) {
	t, err := s.tableLocked(path)
	if err != nil {
		return nil, err
	}
	if !t.info.IsPartitioned() {
		return nil, fluss.ErrNotPartitioned(path)
	}
	return t, nil
}

// CreatePartition implements fluss.PartitionCatalog.
func (s *Store) CreatePartition(ctx context.Context, path fluss.TablePath, values []string, ignoreIfExists bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.catMu.Lock()
	defer s.catMu.Unlock()
	t, err := s.partitionedLocked(path)
	if err != nil {
		return err
	}
	name := fluss.PartitionName(values)
	for _, ps := range s.partitions.of(t.info.TableID) {
		if ps.info.Name == name {
			if ignoreIfExists {
				return nil
			}
			return fluss.ErrPartitionExists(path, name)
		}
	}
	_, err = s.createPartitionsLocked(t, [][]string{values})
	return err
}

// DropPartition implements fluss.PartitionCatalog: the partition leaves
// the catalog first (atomically), then its files and state go, as a
// dropped table's do.
func (s *Store) DropPartition(ctx context.Context, path fluss.TablePath, values []string, ignoreIfNotExists bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.catMu.Lock()
	t, err := s.partitionedLocked(path)
	if err != nil {
		s.catMu.Unlock()
		return err
	}
	if len(values) != len(t.info.Descriptor.PartitionKeys) {
		s.catMu.Unlock()
		return errSpecSize(path, len(values), len(t.info.Descriptor.PartitionKeys))
	}
	name := fluss.PartitionName(values)
	var found *partState
	for _, ps := range s.partitions.of(t.info.TableID) {
		if ps.info.Name == name {
			found = ps
		}
	}
	if found == nil {
		s.catMu.Unlock()
		if ignoreIfNotExists {
			return nil
		}
		return fluss.ErrNoPartition(path, name)
	}
	if err := s.dropPartitionsLocked(t, []*partState{found}); err != nil {
		s.catMu.Unlock()
		return err
	}
	s.catMu.Unlock()
	s.dropStates(ctx, []*tableState{found.t})
	return nil
}

func errSpecSize(path fluss.TablePath, got, want int) error {
	return sqlerr.New(sqlerr.InvalidParameterValue, "a partition of table \"%s\" is named by %d partition-key values, not %d", path.Table, want, got)
}

// createPartitionsLocked creates partitions of t, in one replacement of
// the catalog.
func (s *Store) createPartitionsLocked(t *tableState, values [][]string) ([]fluss.PartitionInfo, error) {
	nkeys := len(t.info.Descriptor.PartitionKeys)
	if len(s.partitions.of(t.info.TableID))+len(values) > fluss.MaxPartitions {
		return nil, fluss.ErrTooManyPartitions(t.info.Path)
	}
	prev := s.catalog
	s.catalog.Tables = slices.Clone(s.catalog.Tables)
	var made []*partState
	undo := func() {
		s.catalog = prev
		for _, ps := range made {
			ps.t.closeFiles()
			_ = s.removeAll(ps.t.dir)
		}
	}
	for _, v := range values {
		if len(v) != nkeys {
			undo()
			return nil, errSpecSize(t.info.Path, len(v), nkeys)
		}
		for _, x := range v {
			if err := fluss.ValidatePartitionValue(x, true); err != nil {
				undo()
				return nil, err
			}
		}
		id := s.catalog.NextTableID
		s.catalog.NextTableID++
		pt, err := s.openTable(partitionTableInfo(t.info, id), true)
		if err != nil {
			undo()
			return nil, err
		}
		pt.setSchemas(t.schemaCols)
		ps := &partState{info: fluss.PartitionInfo{ID: id, Name: fluss.PartitionName(v), Values: slices.Clone(v)}, t: pt}
		made = append(made, ps)
		s.catalog.Tables = append(s.catalog.Tables, catalogEntry{Database: t.info.Path.Database, Table: t.info.Path.Table,
			TableID: id, CreatedAt: s.opts.Now().UnixMilli(), Partition: &partitionRef{Table: t.info.TableID, Name: ps.info.Name}})
	}
	if err := s.saveCatalog(); err != nil {
		undo()
		return nil, err
	}
	out := make([]fluss.PartitionInfo, len(made))
	for i, ps := range made {
		s.partitions.put(t.info.TableID, ps)
		out[i] = ps.info
	}
	return out, nil
}

// dropPartitionsLocked takes partitions of t out of the catalog (one
// replacement) and out of the open ones; the caller drops their states
// (dropStates) once it has let go of catMu.
func (s *Store) dropPartitionsLocked(t *tableState, drop []*partState) error {
	prev := s.catalog
	s.catalog.Tables = slices.DeleteFunc(slices.Clone(s.catalog.Tables), func(e catalogEntry) bool {
		return e.isPartitionOf(t.info.TableID) && slices.ContainsFunc(drop, func(ps *partState) bool { return ps.info.ID == e.TableID })
	})
	if err := s.saveCatalog(); err != nil {
		s.catalog = prev
		return err
	}
	for _, ps := range drop {
		s.partitions.remove(t.info.TableID, ps)
	}
	return nil
}

// dropStates removes the files and state of dropped tables or partitions,
// through the committer (after the writes queued for them).
func (s *Store) dropStates(ctx context.Context, ts []*tableState) error {
	var first error
	for _, t := range ts {
		r := &request{table: t, kind: reqDrop, done: make(chan result, 1)}
		res, err := s.submit(context.WithoutCancel(ctx), r)
		if err == nil {
			err = res.err
		}
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}

// takePartitionStates removes a dropped table's partitions from the open
// ones and returns their states to drop (DropTable, DropDatabase: their
// catalog entries went with the table's).
func (s *Store) takePartitionStates(table int64) []*tableState {
	var out []*tableState
	for _, ps := range s.partitions.take(table) {
		out = append(out, ps.t)
	}
	return out
}

// autoPartitionLocked runs t's auto-partitioning when it is enabled and
// has not run in the current time unit: it drops the partitions past the
// retention and creates the pre-created ones. It returns the dropped
// partitions' states for the caller to drop after letting go of catMu.
// Failures are logged, not returned, as Fluss's AutoPartitionManager logs
// them: reads and writes go on with the partitions there are.
func (s *Store) autoPartitionLocked(t *tableState) []*tableState {
	auto := fluss.AutoPartitionOf(t.info.Descriptor)
	if !auto.Enabled {
		return nil
	}
	now := s.opts.Now()
	unit := auto.TimeValue(now, 0)
	if s.partitions.autoChecked[t.info.TableID] == unit {
		return nil
	}
	have := s.partitions.of(t.info.TableID)
	infos := make([]fluss.PartitionInfo, len(have))
	for i, ps := range have {
		infos[i] = ps.info
	}
	drop, create := auto.Plan(len(t.info.Descriptor.PartitionKeys), infos, now)
	var dropped []*tableState
	if len(drop) > 0 {
		var ds []*partState
		for _, ps := range have {
			if slices.ContainsFunc(drop, func(d fluss.PartitionInfo) bool { return d.ID == ps.info.ID }) {
				ds = append(ds, ps)
			}
		}
		if err := s.dropPartitionsLocked(t, ds); err != nil {
			s.log.Error("auto partitioning could not drop expired partitions", "table", t.info.Path, "error", err)
			return nil
		}
		for _, ps := range ds {
			dropped = append(dropped, ps.t)
		}
	}
	if len(create) > 0 {
		room := fluss.MaxPartitions - len(s.partitions.of(t.info.TableID))
		if len(create) > room {
			create = create[:max(room, 0)]
		}
		if _, err := s.createPartitionsLocked(t, create); err != nil {
			s.log.Error("auto partitioning could not create partitions", "table", t.info.Path, "error", err)
			return dropped
		}
	}
	if s.partitions.autoChecked == nil {
		s.partitions.autoChecked = map[int64]string{}
	}
	s.partitions.autoChecked[t.info.TableID] = unit
	return dropped
}

// alterPartitionsLocked gives t's partitions its new info after an ALTER
// TABLE (alter.go), retiring their old states as the table's was.
func (s *Store) alterPartitionsLocked(ctx context.Context, t *tableState) error {
	for _, ps := range s.partitions.of(t.info.TableID) {
		r := &request{table: ps.t, kind: reqAlter, done: make(chan result, 1)}
		res, err := s.submit(context.WithoutCancel(ctx), r)
		if err == nil {
			err = res.err
		}
		if err != nil {
			return err
		}
		ps.t = ps.t.replaced(partitionTableInfo(t.info, ps.info.ID), t.schemaCols)
	}
	return nil
}

// A held snapshot (snapshot.go) of a partitioned table reads each of its
// partitions as it reads a table: the partitions' log lengths are captured
// with the tables' (snapshotPartitionsLocked), their state is the
// snapshot's pebble state, and a partition created after the snapshot
// reads empty.

// snapshotPartitionsLocked records the committed lengths of every log
// partition in ss (Snapshot, with catMu held).
func (s *Store) snapshotPartitionsLocked(ss *storeSnapshot) {
	for _, parts := range s.partitions.parts {
		for _, ps := range parts {
			ss.capture(ps.t)
		}
	}
}

// snapPartSource is partSource whose partitions read through a snapshot.
type snapPartSource struct {
	*partSource
	ss *storeSnapshot
}

// Partition implements fluss.PartitionSource.
func (p *snapPartSource) Partition(ctx context.Context, pi fluss.PartitionInfo) (fluss.Table, error) {
	t, err := p.partSource.Partition(ctx, pi)
	if err != nil {
		return nil, err
	}
	return &snapTable{h: t.(*tableHandle), ss: p.ss}, nil
}

// partitionedTable is Snapshot.Table of a partitioned table of the store.
func (ss *storeSnapshot) partitionedTable(pt *partitioned) (fluss.Table, bool) {
	if pt.src.s != ss.s {
		return pt, false
	}
	return fluss.NewPartitionedTable(pt.Info(), &snapPartSource{partSource: pt.src, ss: ss}), true
}

// partitionRowChanged is RowChanged of a partitioned table: key (the
// encoding of its whole primary key) names the partition by its
// partition-key fields and the row by the others (the physical key the
// partition keeps). A partition that no longer exists has no row to
// compare.
func (ss *storeSnapshot) partitionRowChanged(ctx context.Context, pt fluss.Table, key []byte) (fluss.RowChange, error) {
	info := pt.Info()
	values, phys, err := splitPartitionedKey(info, key)
	if err != nil {
		return fluss.RowUnchanged, sqlerr.Wrap(err, sqlerr.DataCorrupted, "key of %s: %v", info.Path, err)
	}
	name := fluss.PartitionName(values)
	ss.s.catMu.RLock()
	var t *tableState
	for _, ps := range ss.s.partitions.of(info.TableID) {
		if ps.info.Name == name {
			t = ps.t
		}
	}
	ss.s.catMu.RUnlock()
	if t == nil {
		return fluss.RowUnchanged, nil
	}
	return ss.RowChanged(ctx, &tableHandle{s: ss.s, t: t}, phys)
}

// splitPartitionedKey splits the CompactedKeyEncoder bytes of a
// partitioned table's primary key into its partition values (as Fluss
// names them) and the bytes of its physical key (the other fields, in
// key order: CompactedKeyEncoder writes fields one after another).
func splitPartitionedKey(info fluss.TableInfo, key []byte) ([]string, []byte, error) {
	d := info.Descriptor
	values := make([]string, len(d.PartitionKeys))
	var phys []byte
	pos := 0
	for _, name := range d.Schema.PrimaryKey {
		t := d.Schema.Columns[info.ColumnIndex(name)].Type
		k := slices.Index(d.PartitionKeys, name)
		if k < 0 {
			n, err := format.DecodeValue(key[pos:], t, nil)
			if err != nil {
				return nil, nil, err
			}
			phys = append(phys, key[pos:pos+n]...)
			pos += n
			continue
		}
		b := array.NewBuilder(memory.DefaultAllocator, t.ArrowType())
		n, err := format.DecodeValue(key[pos:], t, b)
		if err != nil {
			b.Release()
			return nil, nil, err
		}
		arr := b.NewArray()
		b.Release()
		v, err := fluss.PartitionValue(t, arr, 0, name)
		arr.Release()
		if err != nil {
			return nil, nil, err
		}
		values[k] = v
		pos += n
	}
	return values, phys, nil
}
