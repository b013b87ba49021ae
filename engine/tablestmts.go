package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/engine/txnstore"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/views"
)

// CREATE TABLE [AS] and DROP TABLE as the binder binds them (the other
// schema statements: ddlstmts.go; TRUNCATE and DESCRIBE: ddl.go).

// execCreateTable is CREATE TABLE [AS]: the table with its owner and
// sequences (metadata.go), then, for AS, its rows (reported as SELECT n,
// as PostgreSQL does).
func (s *session) execCreateTable(ctx context.Context, ps *statement, b *binder.CreateTable, rt *lower.Runtime, ec *exec.EvalContext) (pgwire.Result, error) {
	if err := s.blockDDL("CREATE TABLE", nil); err != nil {
		return nil, err
	}
	onCommit := ps.parsed.OnCommit
	if onCommit != "" && !ps.parsed.Temporary {
		return nil, sqlerr.New(sqlerr.InvalidTableDefinition, "ON COMMIT can only be used on temporary tables")
	}
	if onCommit == "DELETE ROWS" {
		// Every commit empties it: the overlay never writes its rows
		// (txnstore.DeleteRowsProperty).
		c := *b
		c.Descriptor.CustomProperties = maps.Clone(c.Descriptor.CustomProperties)
		if c.Descriptor.CustomProperties == nil {
			c.Descriptor.CustomProperties = map[string]string{}
		}
		c.Descriptor.CustomProperties[txnstore.DeleteRowsProperty] = "true"
		b = &c
	}
	if err := s.dropNow(ctx, b.Path); err != nil { // a table this block dropped
		return nil, err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	if _, isView := s.eng.meta.Views().Get(b.Path); isView {
		s.eng.ddl.Unlock()
		if b.IfNotExists {
			s.changedNothing() // txddl.go
			return noticeResult(createTableTag(b), existsSkipping(sqlerr.DuplicateTable, "relation", b.Path.Table)), nil
		}
		return nil, sqlerr.RelationExists(b.Path.Table)
	}
	if b.IfNotExists {
		// The store's CreateTable skips an existing table silently;
		// PostgreSQL says so in a NOTICE.
		if _, err := s.eng.storeTable(ctx, b.Path); err == nil {
			s.eng.ddl.Unlock()
			s.changedNothing() // txddl.go
			return noticeResult(createTableTag(b), existsSkipping(sqlerr.DuplicateTable, "relation", b.Path.Table)), nil
		}
	}
	err := s.noteTempSchema(ctx, b.Path.Database)
	var info fluss.TableInfo
	if err == nil {
		c := *b
		c.Descriptor = s.markCreated(c.Descriptor) // txddl.go: dropped at a restart until its block commits
		info, err = s.createTable(ctx, &c)         // metadata.go: with its owner and sequences
	}
	s.eng.ddl.Unlock()
	if err != nil {
		return nil, err
	}
	if info.Descriptor.CustomProperties[createdProperty] != "" {
		s.noteCreated(info.Path) // txddl.go: a ROLLBACK drops it
	} else {
		s.changedNothing() // IF NOT EXISTS met one made meanwhile
	}
	if err := s.applyTableDefaults(ctx, info); err != nil { // schemaprivs.go
		return nil, err
	}
	if onCommit == "DROP" {
		// Dropped when the block ends; outside one, at once, as
		// PostgreSQL's implicit transaction commits.
		drop := func() { s.dropOnCommit(info) }
		if s.tx == nil {
			drop()
		} else {
			s.tx.AtEnd(drop)
		}
	}
	if b.Source == nil {
		return tagOnly("CREATE TABLE"), nil
	}
	// CREATE TABLE ... AS: fill the new table; PostgreSQL reports SELECT n.
	t, src, err := s.openWrite(rt, "CREATE TABLE AS", ps.plan, info)
	if err != nil {
		return nil, err
	}
	ins := &exec.Insert{EC: ec, Table: t, Source: src}
	if err := ins.Run(ctx); err != nil {
		return nil, err
	}
	return tagOnly(fmt.Sprintf("SELECT %d", ins.Rows)), nil
}

// createTableTag is the tag of a CREATE TABLE [AS] that skipped an
// existing table (PostgreSQL's CREATE TABLE AS reports no row count then).
func createTableTag(b *binder.CreateTable) string {
	if b.Source != nil {
		return "CREATE TABLE AS"
	}
	return "CREATE TABLE"
}

// execDropTable is DROP TABLE of one or more tables, with the views that
// depend on them when CASCADE (cascade.go) and the sequences they own.
// Inside a transaction block it is the block's (dropInBlock).
func (s *session) execDropTable(ctx context.Context, ps *statement, b *binder.DropTable) (pgwire.Result, error) {
	touches := pathIn(b.Paths)
	if s.tx != nil && s.eng.locks != nil {
		touches = nil // dropped at COMMIT, after the block's rows (dropInBlock)
	}
	if err := s.blockDDL("DROP TABLE", touches); err != nil {
		return nil, err
	}
	for _, p := range b.Paths { // ddllock.go: their writers first, before the server-wide lock
		if _, err := s.lockDDLTable(ctx, p); err != nil && sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
			return nil, err
		}
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	// Every name is looked up (and may be dropped) before any table is:
	// DROP TABLE a, missing drops nothing, as PostgreSQL's
	var notices []*sqlerr.Error
	infos := make([]fluss.TableInfo, 0, len(b.Paths))
	paths := make([]fluss.TablePath, 0, len(b.Paths))
	var parts []views.View // partitions named (pgpartitions.go)
	for _, p := range b.Paths {
		if err := systemTable(p); err != nil {
			return nil, err
		}
		info, err := s.eng.storeTable(ctx, p)
		if err == nil && s.droppedInBlock(p) {
			err = sqlerr.New(sqlerr.UndefinedTable, "table \"%s\" does not exist", p.Table)
		}
		if err != nil {
			if v, isView := s.eng.meta.Views().Get(p); isView {
				if v.IsPartition() { // a partition relation: its Fluss partition
					if err := s.mayOwnView(v); err != nil {
						return nil, err
					}
					parts = append(parts, v)
					continue
				}
				if v.Materialized() {
					return nil, notA("table", p.Table).WithHint("Use DROP MATERIALIZED VIEW to remove a materialized view.")
				}
				return nil, notA("table", p.Table).WithHint("Use DROP VIEW to remove a view.")
			}
			if sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
				if b.IfExists {
					notices = append(notices, s.skippedNamed(ctx, "table", p.Database, p.Table))
					continue
				}
				return nil, s.dropMissing(ctx, p, "table")
			}
			return nil, err
		}
		if err := s.mayDrop(info); err != nil {
			return nil, err
		}
		if err := s.functionRowTypeUsers(info, sql.DropCascade(ps.parsed)); err != nil { // sqlfunctions.go
			return nil, err
		}
		infos, paths = append(infos, info), append(paths, p)
	}
	if err := s.dropPartitionRelations(ctx, parts, true); err != nil { // pgpartitions.go
		return nil, err
	}
	if s.tx != nil && s.eng.locks != nil {
		return s.dropInBlock(ctx, infos, b.Paths, sql.DropCascade(ps.parsed), notices)
	}
	for i, info := range infos {
		p := paths[i]
		// a partitioned table's partitions go with it, as PostgreSQL's do
		own, dropping := s.partitionsDropped(info, nil)                                     // pgpartitions.go
		cascaded, err := s.dependentViews("table", p, dropping, sql.DropCascade(ps.parsed)) // cascade.go
		if err != nil {
			return nil, err
		}
		fkNotices, err := s.fkDropDependents(ctx, p, pathSet(b.Paths), sql.DropCascade(ps.parsed)) // fkddl.go
		if err != nil {
			return nil, err
		}
		notices = append(notices, fkNotices...)
		if err := s.dropTable(ctx, info, b.IfExists); err != nil {
			return nil, err
		}
		if err := s.dropPartitionRelations(ctx, own, false); err != nil {
			return nil, err
		}
		if n, err := s.dropCascaded(ctx, cascaded); err != nil || n != nil {
			if err != nil {
				return nil, err
			}
			notices = append(notices, n)
		}
		if err := s.dropOwnedSequences(ctx, p); err != nil {
			return nil, err
		}
	}
	return noticeResult("DROP TABLE", notices...), nil
}

// dropOnCommit drops a temporary table created ON COMMIT DROP, with its
// sequences, when its transaction ends. Nothing waits for the outcome: a
// failure leaves the table to the end of the session, which drops its
// temporary schema.
func (s *session) dropOnCommit(info fluss.TableInfo) {
	ctx := context.Background()
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	if err := s.dropTable(ctx, info, true); err == nil {
		_ = s.dropOwnedSequences(ctx, info.Path)
	}
}

// dropInBlock is DROP TABLE inside a transaction block, transactional as
// PostgreSQL's: each table is locked ACCESS EXCLUSIVE until the block ends
// (execDropTable's lockDDLTable: other sessions' reads and writes of it
// wait), is gone at once for this session (droppedInBlock: its statements
// bind as if it were dropped, and so are the views CASCADE takes), and is
// dropped at COMMIT, under the lock, so that a statement that waited for
// it finds it gone (42P01 when it binds again). ROLLBACK, or ROLLBACK TO a
// savepoint made before, keeps the tables, their rows and their views.
// What it would drop is checked now (dependent views and foreign keys
// without CASCADE fail it now, as in PostgreSQL); the block's own writes
// to the tables are committed, then dropped with them.
//
// A store without row locks (a Fluss cluster) has no lock to keep other
// sessions off the table until COMMIT: there DROP TABLE drops at once and
// a ROLLBACK warns (txddl.go).
func (s *session) dropInBlock(ctx context.Context, infos []fluss.TableInfo, named []fluss.TablePath, cascade bool, notices []*sqlerr.Error) (pgwire.Result, error) {
	tx := s.tx
	tx.ddlRunning = "" // undone by a rollback: no warning names it
	// What the block dropped already depends on nothing any more: DROP
	// TABLE child; DROP TABLE parent in one block, as a migration's
	// downgrade sends them.
	gone := pathSet(named) // fkddl.go
	for p := range s.hidden {
		gone[p] = true
	}
	var hide []fluss.TablePath
	for _, info := range infos {
		p := info.Path
		own, _ := s.partitionsDropped(info, gone) // pgpartitions.go: its partitions go with it
		for _, v := range own {
			hide = append(hide, v.Path)
		}
		cascaded, err := s.dependentViews("table", p, gone, cascade) // cascade.go
		if err != nil {
			return nil, err
		}
		refs, err := s.fkOthers(ctx, p, gone) // fkddl.go
		if err != nil {
			return nil, err
		}
		if len(refs) > 0 && !cascade {
			_, err := s.fkDropDependents(ctx, p, gone, false) // its 2BP01
			return nil, err
		}
		for _, r := range refs {
			notices = append(notices, sqlerr.New(sqlerr.SuccessfulCompletion, "drop cascades to constraint %s on table %s", r.fk.Name, r.child.Table))
		}
		if len(cascaded) > 0 {
			notices = append(notices, cascadeNotice(cascaded))
		}
		hide = append(hide, p)
		for _, v := range cascaded {
			hide = append(hide, v.Path)
		}
	}
	d := &blockDrop{infos: infos, named: named, cascade: cascade, hide: hide, stmt: s.stmtText}
	if s.hidden == nil {
		s.hidden = map[fluss.TablePath]bool{}
		tx.AtEnd(func() { s.hidden, s.blockDrops = nil, nil })
	}
	s.blockDrops = append(s.blockDrops, d)
	for _, p := range hide {
		s.hidden[p] = true
	}
	tx.OnRollback(func() {
		if !d.done {
			d.done = true
			s.unhide(d)
		}
	})
	s.eng.catalog.Add(1) // this session's prepared statements bind again
	tx.AtCommit(func(ctx context.Context) error {
		if d.done {
			return nil
		}
		d.done = true
		return s.dropCommitted(ctx, infos, named, cascade)
	})
	return noticeResult("DROP TABLE", notices...), nil
}

// dropCommitted is the drop a block's DROP TABLE left to its COMMIT
// (dropInBlock): the tables as they are now (a TRUNCATE of a log table in
// the block made it anew), their foreign keys from other tables and
// dependent views when cascade, and their sequences.
func (s *session) dropCommitted(ctx context.Context, infos []fluss.TableInfo, named []fluss.TablePath, cascade bool) error {
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	for _, was := range infos {
		p := was.Path
		info, err := s.eng.storeTable(ctx, p)
		if sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
			continue
		}
		if err != nil {
			return err
		}
		own, dropping := s.partitionsDropped(info, nil) // pgpartitions.go
		cascaded, err := s.dependentViews("table", p, dropping, cascade)
		if err != nil {
			return err
		}
		if _, err := s.fkDropDependents(ctx, p, pathSet(named), cascade); err != nil {
			return err
		}
		if err := s.dropTable(ctx, info, true); err != nil {
			return err
		}
		if err := s.dropPartitionRelations(ctx, own, false); err != nil {
			return err
		}
		if _, err := s.dropCascaded(ctx, cascaded); err != nil {
			return err
		}
		if err := s.dropOwnedSequences(ctx, p); err != nil {
			return err
		}
	}
	return nil
}

// blockDrop is a DROP TABLE the block left to its COMMIT (dropInBlock).
type blockDrop struct {
	infos   []fluss.TableInfo
	named   []fluss.TablePath
	cascade bool
	// hide is the tables and views it hides from the session.
	hide []fluss.TablePath
	// stmt is its text, for ROLLBACK's warning once dropNow ran it.
	stmt string
	// done: rolled back, or run (dropNow, COMMIT).
	done bool
}

// unhide shows again what d hid, and makes the session's plans bind again.
func (s *session) unhide(d *blockDrop) {
	for _, p := range d.hide {
		delete(s.hidden, p)
	}
	s.eng.catalog.Add(1)
}

// dropNow runs at once the block's pending DROP TABLE statements that hide
// a relation of which (dropNowIn: of a schema), before a statement that
// needs the store to be without them: one that makes a relation of the
// name (CREATE TABLE, a RENAME to it: a migration or dbt may drop a table
// and make it again in one block), or DROP SCHEMA of their schema. The
// drop is then no longer the block's own: a ROLLBACK warns that it was not
// rolled back (txddl.go), as for the other DDL. The caller does not hold
// the DDL lock.
func (s *session) dropNow(ctx context.Context, p fluss.TablePath) error {
	if !s.hidden[p] {
		return nil
	}
	return s.dropNowIf(ctx, func(q fluss.TablePath) bool { return q == p })
}

// dropNowIn is dropNow of the pending drops of tables of the schemas dbs.
func (s *session) dropNowIn(ctx context.Context, dbs []string) error {
	if len(s.hidden) == 0 {
		return nil
	}
	return s.dropNowIf(ctx, inDatabases(dbs)) // txddl.go
}

func (s *session) dropNowIf(ctx context.Context, of func(fluss.TablePath) bool) error {
	if s.tx == nil {
		return nil
	}
	for _, d := range s.blockDrops {
		if d.done || !slices.ContainsFunc(d.hide, of) {
			continue
		}
		if err := s.dropCommitted(ctx, d.infos, d.named, d.cascade); err != nil {
			return err
		}
		d.done = true
		s.unhide(d)
		s.tx.ddl = append(s.tx.ddl, blockChange{stmt: d.stmt})
	}
	return nil
}

// droppedInBlock reports whether the session's transaction block dropped
// the table or view at p (dropInBlock): gone for this session, still there
// for the others until COMMIT.
func (s *session) droppedInBlock(p fluss.TablePath) bool {
	return s.hidden[p]
}
