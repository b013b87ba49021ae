package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/views"
)

// A PostgreSQL-partitioned table's DEFAULT partition and DETACH PARTITION.
//
// CREATE TABLE d PARTITION OF t DEFAULT (or ATTACH PARTITION d DEFAULT)
// names the rows of t whose value no other partition holds. Fluss keeps
// one partition per value, so each such value's rows are in a Fluss
// partition of their own that no partition relation names (a write of t
// creates it, as Fluss's writers do); d is the view of t's rows whose key
// is none of its siblings' values (defaultWhere), bound again whenever a
// sibling is created, dropped or detached (refreshPartitionsOf). A new
// partition of v takes the Fluss partition of v that d held, which must
// be empty then, as PostgreSQL checks the default partition's rows
// (23514). Dropping or truncating d drops or empties those Fluss
// partitions (partitionValues). Fluss stores no row whose partition key is
// NULL nor a value its names cannot spell, which PostgreSQL's DEFAULT
// partition takes: such a row is refused with 0A000.
//
// DETACH PARTITION p makes p a table of its own with p's rows: a table
// like its parent (columns, defaults, constraints, key) is created under
// a name of its own, p's rows are copied into it, then p's Fluss
// partitions and name are dropped and the table takes the name. The
// parent is locked whole (its writers wait) from the copy to the end. A
// crash before the rename leaves the copy under its own name
// (detachTableName) beside the partition, both whole. CONCURRENTLY does
// the same at once (PostgreSQL's two transactions have nothing to wait
// for here), so FINALIZE never has a pending detach to complete.

// defaultPartitionOf is info's DEFAULT partition, if it has one.
func (s *session) defaultPartitionOf(info fluss.TableInfo) (views.View, bool) {
	for _, v := range s.partitionsOf(info) {
		if v.Partition.Default {
			return v, true
		}
	}
	return views.View{}, false
}

// defaultWhere is the condition of the DEFAULT partition's rows of info
// given its partitions parts: a key none of the others' values ("" when
// there are none), and those values (Fluss's names) in the order
// PostgreSQL lists a list partition's bounds (by value).
func defaultWhere(info fluss.TableInfo, parts []views.View) (string, []string) {
	var named []views.View
	for _, v := range parts {
		if !v.Partition.Default && len(v.Partition.Values) == 1 {
			named = append(named, v)
		}
	}
	if len(named) == 0 {
		return "", nil
	}
	keyType := info.Descriptor.Schema.Columns[info.ColumnIndex(info.Descriptor.PartitionKeys[0])].Type
	slices.SortFunc(named, func(a, b views.View) int {
		return lower.ComparePartitionValues(a.Partition.Values[0], b.Partition.Values[0], keyType)
	})
	lits := make([]string, len(named))
	names := make([]string, len(named))
	for i, v := range named {
		lits[i], names[i] = v.Partition.Literal(), v.Partition.Values[0]
	}
	return "NOT (" + quoteIdent(info.Descriptor.PartitionKeys[0]) + " IN (" + strings.Join(lits, ", ") + "))", names
}

// defaultConflict is PostgreSQL's error for a second DEFAULT partition of
// parent (check_new_partition_bound).
func (s *session) defaultConflict(parent fluss.TableInfo, po *sql.PartitionOfStmt) error {
	if d, ok := s.defaultPartitionOf(parent); ok {
		return sqlerr.New(sqlerr.InvalidObjectDefinition, "partition \"%s\" conflicts with existing default partition \"%s\"", po.Table.Name, d.Path.Table).
			WithPosition(po.BoundPos)
	}
	return nil
}

// createDefaultPartition runs CREATE TABLE name PARTITION OF parent
// DEFAULT: the view of parent's rows no other partition holds.
func (s *session) createDefaultPartition(ctx context.Context, po *sql.PartitionOfStmt, parent fluss.TableInfo) (pgwire.Result, error) {
	if err := s.mayDrop(parent); err != nil {
		return nil, err
	}
	where, others := defaultWhere(parent, s.partitionsOf(parent))
	b, err := s.bindPartitionView(ctx, partitionRelName(po.Table), parent, where)
	if err != nil {
		return nil, err
	}
	if res, err := s.partitionNameFree(ctx, po, b.Path); res != nil || err != nil {
		return res, err
	}
	if err := s.defaultConflict(parent, po); err != nil {
		return nil, err
	}
	v := views.View{Path: b.Path, CreatedAt: time.Now().UnixMilli(),
		Partition: &views.Partition{Parent: parent.Path, ParentID: parent.TableID, Bound: "DEFAULT", Default: true, Others: others}}
	setPartitionView(&v, parent, b)
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	if err := s.storePartitionView(ctx, v); err != nil {
		return nil, err
	}
	return tagOnly("CREATE TABLE"), nil
}

// defaultHoldsNone checks that parent's DEFAULT partition, if it has one,
// holds no row of bound, a new partition's value: PostgreSQL's 23514 when
// it does (check_default_partition_contents). (Every row of the value is
// the default's: no other partition holds it.)
func (s *session) defaultHoldsNone(ctx context.Context, parent fluss.TableInfo, bound string) error {
	d, ok := s.defaultPartitionOf(parent)
	if !ok {
		return nil
	}
	empty, err := s.queryEmpty(ctx, "SELECT 1 FROM "+quoteIdent(parent.Path.Database)+"."+quoteIdent(parent.Path.Table)+
		" WHERE "+partitionWhere(parent, bound)+" LIMIT 1")
	if err != nil {
		return err
	}
	if !empty {
		return sqlerr.New(checkViolationCode, "updated partition constraint for default partition \"%s\" would be violated by some row", d.Path.Table)
	}
	return nil
}

// partitionValues are the values of the Fluss partitions of the table at
// parent that partition v holds: its own value, or for the DEFAULT
// partition each value no other partition names.
func (s *session) partitionValues(ctx context.Context, parent fluss.TablePath, v views.View) ([][]string, error) {
	if !v.Partition.Default {
		return [][]string{v.Partition.Values}, nil
	}
	pc, err := s.partitionCatalog()
	if err != nil {
		return nil, err
	}
	infos, err := pc.ListPartitions(ctx, parent)
	if err != nil {
		return nil, err
	}
	named := map[string]bool{}
	for _, w := range s.eng.meta.Views().List("") {
		if w.Partition != nil && w.Partition.ParentID == v.Partition.ParentID && !w.Partition.Default {
			named[fluss.PartitionName(w.Partition.Values)] = true
		}
	}
	var out [][]string
	for _, p := range infos {
		if !named[p.Name] {
			out = append(out, p.Values)
		}
	}
	return out, nil
}

// defaultRowStorable checks that the DEFAULT partition d can keep a row
// whose partition key column col has value (Fluss's name of it): Fluss
// names the row's partition by its value, which must spell a name.
func defaultRowStorable(d views.View, value, col string) error {
	if err := fluss.ValidatePartitionValue(value, true); err != nil {
		return sqlerr.NotSupported("a row of a DEFAULT partition whose partition key is not a Fluss partition name").
			WithDetail("Default partition \"%s\" keeps each value of \"%s\" in a Fluss partition named by it: %s.", d.Path.Table, col, err.Error()).
			WithHint("Create a partition for the value, or use values of 1 to 200 ASCII letters, digits, '_' or '-'.")
	}
	return nil
}

// nullInDefault is the error of a row whose partition key is NULL in a
// table with a DEFAULT partition d, which PostgreSQL routes to d.
func nullInDefault(d views.View) error {
	return sqlerr.NotSupported("a NULL partition key in a DEFAULT partition").
		WithDetail("Default partition \"%s\" keeps each value in a Fluss partition named by it, and Fluss stores no row whose partition key is NULL.", d.Path.Table).
		WithHint("Use a value of the key for the rows that have none (a DEFAULT on the column).")
}

// partitionRelName is the SQL name of the partition relation n names.
func partitionRelName(n sql.ObjectName) string {
	name := quoteIdent(n.Name)
	if n.Schema != "" {
		name = quoteIdent(n.Schema) + "." + name
	}
	return name
}

// partitionNameFree checks that no relation is at path, the partition po
// creates: a notice result for IF NOT EXISTS, else PostgreSQL's 42P07.
func (s *session) partitionNameFree(ctx context.Context, po *sql.PartitionOfStmt, path fluss.TablePath) (pgwire.Result, error) {
	exists, err := s.relationAt(ctx, path)
	if err != nil || !exists {
		return nil, err
	}
	if po.IfNotExists {
		return noticeResult("CREATE TABLE", sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists, skipping", path.Table)), nil
	}
	return nil, sqlerr.RelationExists(path.Table)
}

// detachTableName is the name the table DETACH PARTITION makes for
// partition v has until it takes v's.
func detachTableName(v views.View) string { return fmt.Sprintf("sqlgate_detach_%d", v.ID) }

// detachPartition runs ALTER TABLE parent DETACH PARTITION name
// [CONCURRENTLY | FINALIZE].
func (s *session) detachPartition(ctx context.Context, d *sql.DDLStmt) (pgwire.Result, error) {
	if len(d.Actions) != 1 {
		return nil, sqlerr.NotSupported("DETACH PARTITION with other actions in one ALTER TABLE").
			WithHint("Run DETACH PARTITION as an ALTER TABLE of its own.")
	}
	a := d.Actions[0]
	if a.Detach == "CONCURRENTLY" && s.txStatus != 'I' {
		return nil, sqlerr.New(sqlerr.ActiveSQLTransaction, "ALTER TABLE ... DETACH CONCURRENTLY cannot run inside a transaction block")
	}
	if err := s.blockDDL("ALTER TABLE", nil); err != nil {
		return nil, err
	}
	s.noInverse() // txddl.go: the table its CREATE TABLE makes holds the partition's rows
	parent, err := s.resolveTable(ctx, d.Table)
	if err != nil {
		return nil, err
	}
	if !partitionedByValues(parent) {
		return nil, sqlerr.New(sqlerr.InvalidObjectDefinition, "table \"%s\" is not partitioned", parent.Path.Table)
	}
	v, ok, err := s.partitionNamed(ctx, a.Attach.Table)
	if err != nil {
		return nil, err
	}
	if !ok || v.Partition.ParentID != parent.TableID {
		if !ok {
			path, err := s.resolvePath(ctx, a.Attach.Table)
			if err != nil {
				return nil, err
			}
			if exists, err := s.relationAt(ctx, path); err != nil {
				return nil, err
			} else if !exists {
				return nil, sqlerr.New(sqlerr.UndefinedTable, "relation \"%s\" does not exist", a.Attach.Table.Name)
			}
		}
		return nil, sqlerr.New(sqlerr.UndefinedTable, "relation \"%s\" is not a partition of relation \"%s\"", a.Attach.Table.Name, parent.Path.Table)
	}
	switch a.Detach {
	case "FINALIZE":
		return nil, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "cannot complete detaching partition \"%s\"", v.Path.Table).
			WithDetail("There's no pending concurrent detach.")
	case "CONCURRENTLY":
		if _, ok := s.defaultPartitionOf(parent); ok {
			return nil, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "cannot detach partitions concurrently when a default partition exists")
		}
	}
	if hasUniques(parent.Descriptor) { // unique.go
		// the copy is written straight to the new table (as a generated
		// column's stored values must be), past the UNIQUE constraints'
		// index tables, which LIKE would also name after the copy's name
		return nil, sqlerr.NotSupported("DETACH PARTITION of a partitioned table with UNIQUE constraints").
			WithHint("Copy its rows into a new table, then drop the partition: CREATE TABLE t_v AS SELECT * FROM p; DROP TABLE p.")
	}
	if _, ok := s.eng.store.(fluss.TableRenamer); !ok {
		// the copy takes the partition's name once its rows are out of
		// the parent: refused before anything is copied or dropped
		return nil, sqlerr.NotSupported("ALTER TABLE ... DETACH PARTITION on a Fluss cluster").
			WithDetail("The partition's rows are copied into a table that then takes its name, and Fluss 0.9.1 cannot rename a table.").
			WithHint("Copy its rows into a new table, then drop the partition: CREATE TABLE t_v AS SELECT * FROM p; DROP TABLE p.")
	}
	if s.txStatus != 'I' {
		return nil, sqlerr.NotSupported("DETACH PARTITION inside a transaction block").
			WithDetail("The partition's rows are copied into a table of its own and its Fluss partitions dropped, which a ROLLBACK could not undo.").
			WithHint("Run DETACH PARTITION outside a transaction block.")
	}
	if err := s.mayDrop(parent); err != nil {
		return nil, err
	}
	if parent, err = s.lockDDLTable(ctx, parent.Path); err != nil { // ddllock.go: its writers wait
		return nil, err
	}
	if err := s.detach(ctx, parent, v); err != nil {
		return nil, err
	}
	return tagOnly("ALTER TABLE"), nil
}

// detach makes partition v of parent a table of its own (detachPartition).
func (s *session) detach(ctx context.Context, parent fluss.TableInfo, v views.View) error {
	db := quoteIdent(v.Path.Database)
	tmp := fluss.TablePath{Database: v.Path.Database, Table: detachTableName(v)}
	tmpName := db + "." + quoteIdent(tmp.Table)
	// a partition has its parent's defaults, constraints, generated
	// columns and key, not its identity (PostgreSQL 15) nor comments
	create := "CREATE TABLE " + tmpName + " (LIKE " + quoteIdent(parent.Path.Database) + "." + quoteIdent(parent.Path.Table) +
		" INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED INCLUDING INDEXES)"
	if _, err := s.runInternal(ctx, create); err != nil {
		return err
	}
	undo := func(err error) error {
		_, _ = s.runInternal(ctx, "DROP TABLE IF EXISTS "+tmpName)
		return err
	}
	info, err := s.eng.storeTable(ctx, tmp)
	if err != nil {
		return undo(err)
	}
	ps, err := s.prepareInternal(ctx, "SELECT * FROM "+db+"."+quoteIdent(v.Path.Table))
	if err != nil {
		return undo(err)
	}
	if ps.plan == nil {
		return undo(sqlerr.New(sqlerr.InternalError, "a partition's rows bound as %T", ps.bound))
	}
	if _, err := s.insertInto(ctx, ps, info); err != nil { // matview.go
		return undo(err)
	}
	if err := s.dropPartitionRelations(ctx, []views.View{v}, true); err != nil { // pgpartitions.go
		return undo(err)
	}
	_, err = s.runInternal(ctx, "ALTER TABLE "+tmpName+" RENAME TO "+quoteIdent(v.Path.Table))
	return err
}

// runInternal prepares and runs one statement of sqlgate's own, its
// result drained.
func (s *session) runInternal(ctx context.Context, text string) (pgwire.Result, error) {
	ps, err := s.prepareInternal(ctx, text)
	if err != nil {
		return nil, err
	}
	res, err := ps.execute(ctx, nil)
	if err != nil || res == nil {
		return res, err
	}
	defer res.Close()
	for {
		b, err := res.Next(ctx)
		if err != nil || b == nil {
			return res, err
		}
		b.Release()
	}
}
