package engine

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/views"
)

// PostgreSQL's declarative partitioning over Fluss's partitions.
//
// CREATE TABLE t (...) PARTITION BY LIST (col) is a Fluss partitioned
// table on col (binder: fluss.PartitionStrategyProperty marks it).
// CREATE TABLE p PARTITION OF t FOR VALUES IN (v) creates t's Fluss
// partition of v and names it p: p is kept as a view (views.View with a
// Partition) whose definition selects t's rows of v, so that reading p
// reads that one partition (the scan prunes the others) and writing p
// writes t through the view. The catalog shows p as PostgreSQL's
// partition (relkind 'r', relispartition, relpartbound) and t as its
// partitioned table (relkind 'p', pg_partitioned_table, pg_inherits).
//
// Rows follow PostgreSQL's rules, not Fluss's writers': a row of t whose
// value has no partition is refused with 23514 (Fluss's writers would
// create the partition, which a PostgreSQL user never asked for) unless t
// has a DEFAULT partition (pgpartdefault.go), and a
// row written through p must belong to p (23514, its partition
// constraint). DROP TABLE p drops the Fluss partition and its rows; DROP
// TABLE t drops its partitions with it.
//
// Fluss has one partition per value: a partition of several values,
// RANGE and HASH bounds map onto nothing it has and are refused (the
// DEFAULT partition is the values no partition names, each its own Fluss
// partition: pgpartdefault.go).
//
// TRUNCATE of p drops its Fluss partition and creates it again; of t,
// each of its partitions (recreating t, as TRUNCATE of a log table does,
// would lose them). ALTER TABLE t ADD COLUMN rebinds every p over t's new
// columns (refreshPartitions), as does a rewrite of t (ADD PRIMARY KEY,
// DROP / RENAME COLUMN, ALTER COLUMN ... TYPE: rewrite.go), after which
// every p follows t's new id. ATTACH PARTITION of an empty table with t's
// columns replaces the table by the partition (pg_dump's shape); COPY into
// p writes t, checked against p's constraint; LOCK TABLE p locks t. The
// binder reads tableoid of t's rows as their partition's OID
// (binder.PartitionCatalog) and checks an UPDATE through p against p's
// WHERE (binder.View.Partition).

// createPartitionOf runs CREATE TABLE name PARTITION OF parent FOR VALUES
// IN (v) | DEFAULT, then binds the parent's DEFAULT partition again over
// its siblings as they are now (pgpartdefault.go).
func (s *session) createPartitionOf(ctx context.Context, po *sql.PartitionOfStmt) (pgwire.Result, error) {
	res, err := s.createPartition(ctx, po)
	if err != nil {
		return nil, err
	}
	if err := s.refreshPartitions(ctx, po.Parent); err != nil {
		return nil, err
	}
	return res, nil
}

// createPartition is createPartitionOf's partition.
func (s *session) createPartition(ctx context.Context, po *sql.PartitionOfStmt) (pgwire.Result, error) {
	if err := s.blockDDL("CREATE TABLE", nil); err != nil {
		return nil, err
	}
	parent, err := s.resolveTable(ctx, po.Parent)
	if err != nil {
		return nil, err
	}
	if parent.PartitionStrategy() == "" {
		e := sqlerr.New(sqlerr.InvalidObjectDefinition, "\"%s\" is not partitioned", parent.Path.Table)
		if parent.IsPartitioned() {
			e = e.WithHint("Table \"%s\" is partitioned by Fluss's PARTITIONED BY: add its partitions with ALTER TABLE %s ADD PARTITION (col = 'v').", parent.Path.Table, parent.Path.Table)
		}
		return nil, e
	}
	switch po.Bound {
	case "DEFAULT":
		return s.createDefaultPartition(ctx, po, parent) // pgpartdefault.go
	case "FROM", "WITH":
		return nil, sqlerr.New(sqlerr.InvalidTableDefinition, "invalid bound specification for a list partition").WithPosition(po.BoundPos)
	}
	if len(po.Values) > 1 {
		return nil, sqlerr.NotSupported("a partition of several values").WithPosition(po.ValuePos[1]).
			WithHint("A Fluss partition holds one value of the partition key: create a partition for each value (FOR VALUES IN (v)).")
	}
	key := parent.Descriptor.PartitionKeys[0]
	col := parent.Descriptor.Schema.Columns[parent.ColumnIndex(key)]
	value, bound, err := s.partitionBound(ctx, col, po.Values[0], po.ValuePos[0])
	if err != nil {
		return nil, err
	}
	if err := fluss.ValidatePartitionValue(value, true); err != nil {
		// No escape: Fluss's own writers (Flink's too) name a row's
		// partition by its key's value as it is, so an encoded name
		// would be a partition none of them writes to
		return nil, sqlerr.As(err).WithPosition(po.ValuePos[0]).
			WithHint("A Fluss partition is named by its value, which must be 1 to 200 ASCII letters, digits, '_' or '-', not starting with '__'.")
	}
	if err := s.mayDrop(parent); err != nil {
		return nil, err
	}
	// The view that names the partition, bound as CREATE VIEW binds one
	// (which also places an unqualified name in the creation schema).
	b, err := s.bindPartitionView(ctx, partitionRelName(po.Table), parent, partitionWhere(parent, bound))
	if err != nil {
		return nil, err
	}
	path := b.Path
	if res, err := s.partitionNameFree(ctx, po, path); res != nil || err != nil { // pgpartdefault.go
		return res, err
	}
	for _, v := range s.partitionsOf(parent) {
		if slices.Equal(v.Partition.Values, []string{value}) {
			return nil, sqlerr.New(sqlerr.InvalidObjectDefinition, "partition \"%s\" would overlap partition \"%s\"", path.Table, v.Path.Table).WithPosition(po.ValuePos[0])
		}
	}
	// the DEFAULT partition must hold no row of value (pgpartdefault.go)
	if err := s.defaultHoldsNone(ctx, parent, bound); err != nil {
		return nil, err
	}
	pc, err := s.partitionCatalog()
	if err != nil {
		return nil, err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	// The Fluss partition first, then the name: a crash between the two
	// leaves a partition without a name, whose rows the parent still
	// reads (and a second CREATE ... PARTITION OF names it).
	if err := pc.CreatePartition(ctx, parent.Path, []string{value}, true); err != nil {
		return nil, err
	}
	v := views.View{Path: b.Path, CreatedAt: time.Now().UnixMilli(),
		Partition: &views.Partition{Parent: parent.Path, ParentID: parent.TableID, Values: []string{value}, Bound: "FOR VALUES IN (" + bound + ")"}}
	setPartitionView(&v, parent, b)
	if err := s.storePartitionView(ctx, v); err != nil {
		return nil, err
	}
	return tagOnly("CREATE TABLE"), nil
}

// storePartitionView stores the new partition relation v, owned by the
// session's user (under the DDL lock).
func (s *session) storePartitionView(ctx context.Context, v views.View) error {
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		stored, err := tx.Views.Create(v, false)
		if err != nil {
			return err
		}
		if err := tx.Access.SetOwner(stored.ACLKey(), stored.Path.String(), s.info.User); err != nil {
			return err
		}
		return grantDefaults(tx, stored.ACLKey(), stored.Path, s.info.User) // schemaprivs.go
	})
	if err != nil {
		return metaErr(err)
	}
	return nil
}

// bindPartitionView binds the view that names parent's partition of the
// rows where selects (partitionWhere, defaultWhere) as name, as CREATE
// VIEW binds one (which also places an unqualified name in the creation
// schema).
func (s *session) bindPartitionView(ctx context.Context, name string, parent fluss.TableInfo, where string) (*binder.CreateView, error) {
	def := "SELECT * FROM " + quoteIdent(parent.Path.Database) + "." + quoteIdent(parent.Path.Table)
	if where != "" {
		def += " WHERE " + where
	}
	ps, err := s.prepareInternal(ctx, "CREATE VIEW "+name+" AS "+def)
	if err != nil {
		return nil, err
	}
	b, ok := ps.bound.(*binder.CreateView)
	if !ok {
		return nil, sqlerr.New(sqlerr.InternalError, "a partition's view bound as %T", ps.bound)
	}
	return b, nil
}

// partitionWhere is the condition of parent's rows of the partition of
// bound (a literal of its partition key).
func partitionWhere(parent fluss.TableInfo, bound string) string {
	return quoteIdent(parent.Descriptor.PartitionKeys[0]) + " = " + bound
}

// partitionBound evaluates a FOR VALUES IN item as a value of col: the
// Fluss partition value it names and the bound as PostgreSQL prints it (a
// number or boolean bare, anything else as a quoted literal).
func (s *session) partitionBound(ctx context.Context, col fluss.Column, item string, pos int) (string, string, error) {
	typ := col.Type.PGName()
	if strings.EqualFold(strings.TrimSpace(item), "null") {
		return "", "", nullPartition(pos)
	}
	ps, err := s.prepareInternal(ctx, "SELECT CAST(("+item+") AS "+typ+"), CAST(CAST(("+item+") AS "+typ+") AS text)")
	if err != nil {
		if e := sqlerr.As(err); e != nil {
			return "", "", e.WithPosition(pos)
		}
		return "", "", err
	}
	res, err := ps.execute(ctx, nil)
	if err != nil {
		if e := sqlerr.As(err); e != nil {
			return "", "", e.WithPosition(pos)
		}
		return "", "", err
	}
	defer res.Close()
	var value, text string
	var got bool
	for {
		b, err := res.Next(ctx)
		if err != nil {
			if e := sqlerr.As(err); e != nil {
				return "", "", e.WithPosition(pos)
			}
			return "", "", err
		}
		if b == nil {
			break
		}
		if b.NumRows() > 0 && !got {
			if b.Column(0).IsNull(0) {
				b.Release()
				return "", "", nullPartition(pos)
			}
			value, err = fluss.PartitionValue(col.Type, b.Column(0), 0, col.Name)
			text = types.ValueAt(b.Column(1), 0).(string)
			got = true
		}
		b.Release()
		if err != nil {
			return "", "", err
		}
	}
	if !got {
		return "", "", sqlerr.New(sqlerr.InternalError, "the partition bound %s gave no value", item)
	}
	// PostgreSQL prints a non-negative integer and a boolean bare, any
	// other value (bigint and smallint too) as a quoted literal
	if col.Type.Kind == types.Bool || col.Type.Kind == types.Int32 && col.Type.Variant == types.NoVariant && !strings.HasPrefix(text, "-") {
		return value, text, nil
	}
	return value, "'" + strings.ReplaceAll(text, "'", "''") + "'", nil
}

// nullPartition is the error of FOR VALUES IN (NULL), which PostgreSQL
// accepts: Fluss names a partition by its key's value and refuses a row
// whose partition key is NULL (its writers' PartitionGetter), so no
// partition can hold one.
func nullPartition(pos int) *sqlerr.Error {
	return sqlerr.NotSupported("a partition for NULL").WithPosition(pos).
		WithDetail("Fluss names a partition by its partition key's value and stores no row whose partition key is NULL.").
		WithHint("Use a value of the key for the rows that have none (a DEFAULT on the column), and a partition for that value.")
}

// partitionsOf are the partition relations of a partitioned table.
func (s *session) partitionsOf(info fluss.TableInfo) []views.View {
	var out []views.View
	for _, v := range s.eng.meta.Views().List("") {
		if v.Partition != nil && v.Partition.ParentID == info.TableID {
			out = append(out, v)
		}
	}
	return out
}

// partitionRowCheck is the check that a row of a PostgreSQL-partitioned
// table has a partition: its partition-key value must be one of names'
// (the Fluss partition names of the table's partition relations).
type partitionRowCheck struct {
	info  fluss.TableInfo
	key   int
	names map[string]bool
	// dflt is the table's DEFAULT partition, if it has one: it takes a
	// row whose value no other partition holds (pgpartdefault.go).
	dflt *views.View
}

// partitionCheckFor is info's partition check, nil for a table that is
// not PostgreSQL-partitioned.
func (s *session) partitionCheckFor(info fluss.TableInfo) *partitionRowCheck {
	if info.PartitionStrategy() == "" {
		return nil
	}
	pc := &partitionRowCheck{info: info, key: info.ColumnIndex(info.Descriptor.PartitionKeys[0]), names: map[string]bool{}}
	for _, v := range s.partitionsOf(info) {
		if v.Partition.Default {
			pc.dflt = &v
			continue
		}
		pc.names[fluss.PartitionName(v.Partition.Values)] = true
	}
	return pc
}

// check refuses the first row of rec (the table's columns) whose value
// has no partition, as PostgreSQL's ExecFindPartition does.
func (pc *partitionRowCheck) check(ctx context.Context, rec arrow.RecordBatch) (int, error) {
	if pc == nil || pc.key < 0 {
		return -1, nil
	}
	col := rec.Column(pc.key)
	t := pc.info.Descriptor.Schema.Columns[pc.key]
	for i := 0; i < int(rec.NumRows()); i++ {
		if !col.IsNull(i) {
			v, err := fluss.PartitionValue(t.Type, col, i, t.Name)
			if err != nil {
				return i, err
			}
			if pc.names[v] {
				continue
			}
			if pc.dflt != nil {
				if err := defaultRowStorable(*pc.dflt, v, t.Name); err != nil {
					return i, err
				}
				continue
			}
		} else if pc.dflt != nil {
			return i, nullInDefault(*pc.dflt)
		}
		return i, sqlerr.New(checkViolationCode, "no partition of relation \"%s\" found for row", pc.info.Path.Table).
			WithDetail("Partition key of the failing row contains (%s) = (%s).", t.Name, keyValueText(ctx, t, col, i))
	}
	return -1, nil
}

// keyValueText is row i of a partition-key column as PostgreSQL's detail
// prints it.
func keyValueText(ctx context.Context, c fluss.Column, col arrow.Array, i int) string {
	info := fluss.TableInfo{Descriptor: fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{c}}}}
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: c.Name, Type: col.DataType(), Nullable: true}}, nil), []arrow.Array{col}, int64(col.Len()))
	s := failingRow(ctx, info, rec, i)
	return s[1 : len(s)-1]
}

// dropPartitionRelations drops partition relations (DROP TABLE p; DROP
// TABLE of their parent, which already dropped the Fluss partitions:
// dropData false): the Fluss partition, then its name.
func (s *session) dropPartitionRelations(ctx context.Context, parts []views.View, dropData bool) error {
	if len(parts) == 0 {
		return nil
	}
	if dropData {
		pc, err := s.partitionCatalog()
		if err != nil {
			return err
		}
		for _, v := range parts {
			parent, ok := s.partitionParent(ctx, v)
			if !ok {
				continue // the parent is gone, and its partitions with it
			}
			values, err := s.partitionValues(ctx, parent, v) // pgpartdefault.go
			if err != nil {
				return err
			}
			for _, vals := range values {
				if err := pc.DropPartition(ctx, parent, vals, true); err != nil && sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
					return err
				}
			}
		}
	}
	if err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error { return dropViewsIn(tx, parts) }); err != nil {
		return metaErr(err)
	}
	if dropData {
		// a DEFAULT partition left takes the dropped ones' values
		for _, v := range parts {
			if parent, ok := s.partitionParent(ctx, v); ok {
				if info, err := s.eng.storeTable(ctx, parent); err == nil {
					if err := s.refreshPartitionsOf(ctx, info); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// partitionSourceOf wraps the rows an INSERT through a partition relation
// writes (via: the view it names) in the partition's constraint: each row's
// key must be the partition's value, else 23514 naming the partition, as
// PostgreSQL's ExecPartitionCheck does. Any other source passes as it is.
func (s *session) partitionSourceOf(ctx context.Context, info fluss.TableInfo, via *binder.View, src exec.Operator) exec.Operator {
	if via == nil || info.PartitionStrategy() == "" {
		return src
	}
	v, ok := s.eng.meta.Views().Get(via.Path)
	if !ok || v.Partition == nil || v.Partition.ParentID != info.TableID {
		return src
	}
	return &partitionConstraint{Operator: src, info: info, view: v, key: info.ColumnIndex(info.Descriptor.PartitionKeys[0])}
}

// partitionConstraint is a partition relation's constraint over the rows
// written through it.
type partitionConstraint struct {
	exec.Operator
	info fluss.TableInfo
	view views.View
	key  int
}

// Next implements exec.Operator.
func (p *partitionConstraint) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := p.Operator.Next(ctx)
	if err != nil || b == nil || p.key < 0 {
		return b, err
	}
	if _, err := partitionViolation(ctx, p.info, p.view, b); err != nil {
		b.Release()
		return nil, err
	}
	return b, nil
}

// partitionViolation is the first row of rec (info's columns) that is not
// partition v's, with PostgreSQL's 23514 naming v (row -1 when every row
// is v's).
func partitionViolation(ctx context.Context, info fluss.TableInfo, v views.View, rec arrow.RecordBatch) (int, error) {
	key := info.ColumnIndex(info.Descriptor.PartitionKeys[0])
	if key < 0 {
		return -1, nil
	}
	col := rec.Column(key)
	t := info.Descriptor.Schema.Columns[key]
	for i := 0; i < int(rec.NumRows()); i++ {
		if !col.IsNull(i) {
			pv, err := fluss.PartitionValue(t.Type, col, i, t.Name)
			if err == nil && (v.Partition.Default && !slices.Contains(v.Partition.Others, pv) || slices.Equal([]string{pv}, v.Partition.Values)) {
				continue
			}
		}
		return i, sqlerr.New(checkViolationCode, "new row for relation \"%s\" violates partition constraint", v.Path.Table).
			WithDetail("Failing row contains %s.", failingRow(ctx, info, rec, i))
	}
	return -1, nil
}

// partitionAt is the partition relation at path, if there is one (COPY
// into a partition writes its parent's rows).
func (s *session) partitionAt(path fluss.TablePath) (views.View, bool) {
	v, ok := s.eng.meta.Views().Get(path)
	if !ok || !v.IsPartition() || s.hidden[path] {
		return views.View{}, false
	}
	return v, true
}

// partitionParent is where the parent of partition v is now: the path the
// view's definition names it by (which a rename of the parent rewrites),
// else the one it had when the partition was created, as long as the
// table there is still the parent (its Fluss table id).
func (s *session) partitionParent(ctx context.Context, v views.View) (fluss.TablePath, bool) {
	var paths []fluss.TablePath
	for _, u := range v.Uses {
		if u.TableID == v.Partition.ParentID {
			paths = append(paths, u.Path)
		}
	}
	for _, p := range append(paths, v.Partition.Parent) {
		if info, err := s.eng.storeTable(ctx, p); err == nil && info.TableID == v.Partition.ParentID {
			return p, true
		}
	}
	return fluss.TablePath{}, false
}

// partitionsDropped are the partitions DROP TABLE of info drops with it,
// added to dropping (made when nil), the relations the statement drops,
// which their dependence on info does not hold back.
func (s *session) partitionsDropped(info fluss.TableInfo, dropping map[fluss.TablePath]bool) ([]views.View, map[fluss.TablePath]bool) {
	own := s.partitionsOf(info)
	if dropping == nil {
		dropping = map[fluss.TablePath]bool{}
	}
	for _, v := range own {
		dropping[v.Path] = true
	}
	return own, dropping
}

// partitionNamed is the partition relation n names, if it names one.
func (s *session) partitionNamed(ctx context.Context, n sql.ObjectName) (views.View, bool, error) {
	path, err := s.resolvePath(ctx, n)
	if err != nil {
		return views.View{}, false, err
	}
	v, ok := s.partitionAt(path)
	return v, ok, nil
}

// partitionedByValues reports whether info is PostgreSQL-partitioned,
// whose partitions are relations of their own that TRUNCATE keeps.
func partitionedByValues(info fluss.TableInfo) bool { return info.PartitionStrategy() != "" }

// truncatePartitioned is TRUNCATE of tables and partitions where one of
// them is a PostgreSQL-partitioned table or a partition of one. A
// partition is emptied by dropping its Fluss partition and creating it
// again, so the table, its id and its other partitions stay (TRUNCATE of
// a log table recreates the table, which would lose its partitions);
// the parent empties every partition. In a transaction block this could
// not be undone at ROLLBACK (a dropped Fluss partition is gone), so it is
// refused there.
func (s *session) truncatePartitioned(ctx context.Context, infos []fluss.TableInfo, parts []views.View) error {
	if s.txStatus != 'I' {
		// an empty one has nothing to undo (pg_restore -j empties each
		// table it loads in the block that loads it)
		empty := true
		for _, info := range infos {
			if e, err := s.relationEmpty(ctx, info.Path); err != nil || !e {
				empty = false
			}
		}
		for _, v := range parts {
			if e, err := s.relationEmpty(ctx, v.Path); err != nil || !e {
				empty = false
			}
		}
		if empty {
			return nil
		}
		return sqlerr.NotSupported("TRUNCATE of a partitioned table or a partition inside a transaction block").
			WithDetail("Its rows are emptied by dropping its Fluss partitions and creating them again, which a ROLLBACK could not undo.").
			WithHint("Run TRUNCATE outside a transaction block, or DELETE the rows in it.")
	}
	type job struct {
		info   fluss.TableInfo
		values [][]string // nil: the whole table (not PostgreSQL-partitioned)
	}
	var jobs []job
	whole := map[int64]bool{}
	for _, info := range infos {
		whole[info.TableID] = true
		j := job{info: info}
		if partitionedByValues(info) {
			for _, v := range s.partitionsOf(info) {
				values, err := s.partitionValues(ctx, info.Path, v) // pgpartdefault.go
				if err != nil {
					return err
				}
				j.values = append(j.values, values...)
			}
			if j.values == nil {
				continue // no partition: no rows
			}
		}
		jobs = append(jobs, j)
	}
	for _, v := range parts {
		if whole[v.Partition.ParentID] {
			continue // its parent empties it
		}
		path, ok := s.partitionParent(ctx, v)
		if !ok {
			continue
		}
		info, err := s.eng.storeTable(ctx, path)
		if err != nil {
			return err
		}
		values, err := s.partitionValues(ctx, path, v) // pgpartdefault.go
		if err != nil {
			return err
		}
		if len(values) > 0 {
			jobs = append(jobs, job{info: info, values: values})
		}
	}
	for i, j := range jobs { // ddllock.go: their writers first
		info, err := s.lockDDLTable(ctx, j.info.Path)
		if err != nil {
			return err
		}
		jobs[i].info = info
	}
	for _, j := range jobs {
		if j.values == nil {
			if _, err := s.truncate(ctx, j.info); err != nil {
				return err
			}
			continue
		}
		if err := s.truncatePartitions(ctx, j.info, j.values); err != nil {
			return err
		}
	}
	return nil
}

// truncatePartitions empties the Fluss partitions of info with values.
func (s *session) truncatePartitions(ctx context.Context, info fluss.TableInfo, values [][]string) error {
	if hasUniques(info.Descriptor) {
		return sqlerr.NotSupported("TRUNCATE of a partitioned table with UNIQUE constraints").
			WithHint("DELETE its rows instead.")
	}
	pc, err := s.partitionCatalog()
	if err != nil {
		return err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	for _, v := range values {
		if err := pc.DropPartition(ctx, info.Path, v, true); err != nil {
			return err
		}
		if err := pc.CreatePartition(ctx, info.Path, v, true); err != nil {
			return err
		}
	}
	return nil
}

// setPartitionView sets the definition, columns and relations of the
// partition relation v of parent as b binds them; a column is NOT NULL
// where its parent's is, as a partition's columns are its parent's.
func setPartitionView(v *views.View, parent fluss.TableInfo, b *binder.CreateView) {
	v.Definition, v.AutoUpdatable, v.Columns, v.Uses = b.Definition, b.AutoUpdatable, nil, nil
	for _, c := range b.Columns {
		t := c.T
		if i := parent.ColumnIndex(c.Name); i >= 0 && parent.Descriptor.Schema.Columns[i].Type.NotNull {
			t.NotNull = true
		}
		v.Columns = append(v.Columns, views.Column{Name: c.Name, Type: t, Updatable: c.Updatable})
	}
	for _, u := range b.Uses {
		v.Uses = append(v.Uses, views.Relation{Path: u.Path, TableID: u.TableID, ViewID: u.ViewID})
	}
}

// refreshPartitions gives the partitions of the table n names (after an
// ALTER TABLE of it) the table's columns as they are now: a partition is
// PostgreSQL's table with its parent's columns, so a column added to the
// parent is every partition's too.
func (s *session) refreshPartitions(ctx context.Context, n sql.ObjectName) error {
	info, err := s.resolveTable(ctx, n)
	if err != nil {
		return nil // the ALTER succeeded: a table gone since is no error of it
	}
	return s.refreshPartitionsOf(ctx, info)
}

// refreshPartitionsOf binds the partition relations of info again over
// its columns (after ADD COLUMN, and a rewrite's new columns: renamed,
// retyped, dropped). Run again, it changes nothing more.
func (s *session) refreshPartitionsOf(ctx context.Context, info fluss.TableInfo) error {
	if !partitionedByValues(info) {
		return nil
	}
	parts := s.partitionsOf(info)
	for _, v := range parts {
		where := partitionWhere(info, v.Partition.Literal())
		others := v.Partition.Others
		if v.Partition.Default {
			where, others = defaultWhere(info, parts) // pgpartdefault.go
		}
		if partitionCurrent(v, info) && slices.Equal(others, v.Partition.Others) {
			continue
		}
		name := quoteIdent(v.Path.Database) + "." + quoteIdent(v.Path.Table)
		b, err := s.bindPartitionView(ctx, name, info, where)
		if err != nil {
			return err
		}
		setPartitionView(&v, info, b)
		v.Partition.Others = others
		err = s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
			_, err := tx.Views.Create(v, true)
			return err
		})
		if err != nil {
			return metaErr(err)
		}
	}
	s.eng.catalog.Add(1)
	return nil
}

// partitionCurrent reports whether partition v has parent's columns as
// they are (names and types, in order).
func partitionCurrent(v views.View, parent fluss.TableInfo) bool {
	cols := parent.Descriptor.Schema.Columns
	if len(v.Columns) != len(cols) {
		return false
	}
	for i, c := range cols {
		if v.Columns[i].Name != c.Name || !v.Columns[i].Type.Nullable().Equal(c.Type.Nullable()) {
			return false
		}
	}
	return true
}

// alterPartitionRefused is the error of ALTER TABLE of a partition (nil
// when d names none): PostgreSQL's for its columns, which are its parent's
// (a column is added, dropped, renamed or retyped on the parent), and a
// 0A000 for the rest, which a partition here (its parent's Fluss
// partition) has no storage of its own for.
func (s *session) alterPartitionRefused(ctx context.Context, d *sql.DDLStmt) error {
	v, ok, err := s.partitionNamed(ctx, d.Table)
	if err != nil || !ok {
		return nil // resolveTable reports it
	}
	for _, a := range d.Actions {
		switch a.Kind {
		case sql.AlterAddColumn:
			return sqlerr.New(sqlerr.WrongObjectType, "cannot add column to a partition")
		case sql.AlterDropColumn:
			return sqlerr.New(sqlerr.InvalidTableDefinition, "cannot drop inherited column \"%s\"", a.Column)
		case sql.AlterRenameColumn:
			return sqlerr.New(sqlerr.InvalidTableDefinition, "cannot rename inherited column \"%s\"", a.Column)
		case sql.AlterColumnType:
			return sqlerr.New(sqlerr.InvalidTableDefinition, "cannot alter inherited column \"%s\"", a.Column)
		}
	}
	return sqlerr.NotSupported("ALTER TABLE of a partition").
		WithDetail("Partition \"%s\" is a Fluss partition of \"%s\", with the table's columns, defaults and constraints.", v.Path.Table, v.Partition.Parent.Table).
		WithHint("Alter its partitioned table instead.")
}

// attachPartition runs ALTER TABLE parent ATTACH PARTITION name FOR
// VALUES IN (v), as pg_dump writes a partitioned table (each partition
// created as a table, then attached, then its rows copied in). A Fluss
// partition is part of its table's storage, so the table name names is
// not kept: an empty table whose columns are the parent's is replaced by
// the partition of v, named as it was (CREATE TABLE name PARTITION OF
// parent FOR VALUES IN (v)); a table with rows is refused (moving them
// would be a copy, which INSERT ... SELECT says plainly).
func (s *session) attachPartition(ctx context.Context, d *sql.DDLStmt) (pgwire.Result, error) {
	if len(d.Actions) != 1 {
		return nil, sqlerr.NotSupported("ATTACH PARTITION with other actions in one ALTER TABLE").
			WithHint("Run ATTACH PARTITION as an ALTER TABLE of its own.")
	}
	att := *d.Actions[0].Attach
	parent, err := s.resolveTable(ctx, d.Table)
	if err != nil {
		return nil, err
	}
	if v, ok, err := s.partitionNamed(ctx, att.Table); err != nil {
		return nil, err
	} else if ok {
		return nil, sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is already a partition", v.Path.Table)
	}
	child, err := s.resolveTable(ctx, att.Table)
	if err != nil {
		return nil, err
	}
	if partitionedByValues(parent) {
		if err := partitionColumnsMatch(parent, child); err != nil {
			return nil, err
		}
		if att.Bound == "IN" && len(att.Values) == 1 {
			key := parent.Descriptor.PartitionKeys[0]
			col := parent.Descriptor.Schema.Columns[parent.ColumnIndex(key)]
			if _, _, err := s.partitionBound(ctx, col, att.Values[0], att.ValuePos[0]); err != nil {
				return nil, err
			}
		}
		if err := s.mayDrop(child); err != nil {
			return nil, err
		}
		empty, err := s.relationEmpty(ctx, child.Path)
		if err != nil {
			return nil, err
		}
		if !empty {
			return nil, sqlerr.NotSupported("ATTACH PARTITION of a table with rows").
				WithDetail("A Fluss partition is part of its table's storage: table \"%s\" cannot become one.", child.Path.Table).
				WithHint("Create the partition and copy the rows into it: CREATE TABLE p PARTITION OF t FOR VALUES IN (v); INSERT INTO p SELECT * FROM old.")
		}
		if child.PartitionStrategy() != "" || child.IsPartitioned() {
			return nil, sqlerr.NotSupported("a partition that is itself partitioned").WithHint(partitionOfHint)
		}
	}
	att.Parent = d.Table
	att.Table.Schema = child.Path.Database
	// the bound's checks (CREATE TABLE ... PARTITION OF's) before the
	// table goes: an overlap, a value Fluss cannot name
	if err := s.partitionAttachable(ctx, parent, &att); err != nil {
		return nil, err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	err = s.dropTable(ctx, child, false)
	s.eng.ddl.Unlock()
	if err != nil {
		return nil, err
	}
	if _, err := s.createPartitionOf(ctx, &att); err != nil {
		return nil, err
	}
	return tagOnly("ALTER TABLE"), nil
}

// partitionOfHint says what a partition of a Fluss partitioned table is.
const partitionOfHint = "A Fluss partition holds one value of the partition key: create a partition for each value (FOR VALUES IN (v))."

// partitionAttachable runs CREATE TABLE ... PARTITION OF's checks of po
// over parent without creating anything.
func (s *session) partitionAttachable(ctx context.Context, parent fluss.TableInfo, po *sql.PartitionOfStmt) error {
	if parent.PartitionStrategy() == "" {
		return sqlerr.New(sqlerr.WrongObjectType, "table \"%s\" is not partitioned", parent.Path.Table)
	}
	switch {
	case po.Bound == "DEFAULT":
		return s.defaultConflict(parent, po) // pgpartdefault.go
	case po.Bound != "IN":
		return sqlerr.New(sqlerr.InvalidTableDefinition, "invalid bound specification for a list partition").WithPosition(po.BoundPos)
	case len(po.Values) > 1:
		return sqlerr.NotSupported("a partition of several values").WithPosition(po.ValuePos[1]).WithHint(partitionOfHint)
	}
	key := parent.Descriptor.PartitionKeys[0]
	col := parent.Descriptor.Schema.Columns[parent.ColumnIndex(key)]
	value, bound, err := s.partitionBound(ctx, col, po.Values[0], po.ValuePos[0])
	if err != nil {
		return err
	}
	if err := fluss.ValidatePartitionValue(value, true); err != nil {
		return sqlerr.As(err).WithPosition(po.ValuePos[0])
	}
	for _, v := range s.partitionsOf(parent) {
		if slices.Equal(v.Partition.Values, []string{value}) {
			return sqlerr.New(sqlerr.InvalidObjectDefinition, "partition \"%s\" would overlap partition \"%s\"", po.Table.Name, v.Path.Table).WithPosition(po.ValuePos[0])
		}
	}
	// before the table attached is dropped (pgpartdefault.go)
	return s.defaultHoldsNone(ctx, parent, bound)
}

// partitionColumnsMatch checks that child has parent's columns, as ATTACH PARTITION
// requires (MergeAttributesIntoExisting): the same names with the same
// types, no more.
func partitionColumnsMatch(parent, child fluss.TableInfo) error {
	pcols, ccols := parent.Descriptor.Schema.Columns, child.Descriptor.Schema.Columns
	for _, c := range ccols {
		if parent.ColumnIndex(c.Name) < 0 {
			return sqlerr.New(sqlerr.DatatypeMismatch, "table \"%s\" contains column \"%s\" not found in parent \"%s\"", child.Path.Table, c.Name, parent.Path.Table).
				WithDetail("The new partition may contain only the columns present in parent.")
		}
	}
	for i, c := range pcols {
		j := child.ColumnIndex(c.Name)
		if j < 0 {
			return sqlerr.New(sqlerr.DatatypeMismatch, "child table is missing column \"%s\"", c.Name)
		}
		if !ccols[j].Type.Nullable().Equal(c.Type.Nullable()) {
			return sqlerr.New(sqlerr.DatatypeMismatch, "child table \"%s\" has different type for column \"%s\"", child.Path.Table, c.Name)
		}
		if c.Type.NotNull && !ccols[j].Type.NotNull {
			return sqlerr.New(sqlerr.DatatypeMismatch, "column \"%s\" in child table must be marked NOT NULL", c.Name)
		}
		if i != j {
			return sqlerr.NotSupported("ATTACH PARTITION of a table whose columns are in another order").
				WithHint("A partition here reads its parent's columns in the parent's order.")
		}
	}
	return nil
}

// relationEmpty reports whether the relation at path has no rows, as this
// session's transaction reads it.
func (s *session) relationEmpty(ctx context.Context, path fluss.TablePath) (bool, error) {
	return s.queryEmpty(ctx, "SELECT 1 FROM "+quoteIdent(path.Database)+"."+quoteIdent(path.Table)+" LIMIT 1")
}

// queryEmpty reports whether query returns no rows.
func (s *session) queryEmpty(ctx context.Context, query string) (bool, error) {
	ps, err := s.prepareInternal(ctx, query)
	if err != nil {
		return false, err
	}
	res, err := ps.execute(ctx, nil)
	if err != nil {
		return false, err
	}
	defer res.Close()
	for {
		b, err := res.Next(ctx)
		if err != nil || b == nil {
			return err == nil, err
		}
		n := b.NumRows()
		b.Release()
		if n > 0 {
			return false, nil
		}
	}
}

// parentKeyAgain reports whether actions only add partition v the
// primary key its parent has (pg_dump adds a partition's key after its
// parent's), which a partition, its parent's Fluss partition, has already.
func (s *session) parentKeyAgain(ctx context.Context, v views.View, actions []sql.AlterAction) bool {
	if len(actions) != 1 || actions[0].Kind != sql.AlterAddPrimaryKey || actions[0].Unique == nil {
		return false
	}
	path, ok := s.partitionParent(ctx, v)
	if !ok {
		return false
	}
	parent, err := s.eng.storeTable(ctx, path)
	return err == nil && slices.Equal(parent.Descriptor.Schema.PrimaryKey, actions[0].Unique.Columns)
}
