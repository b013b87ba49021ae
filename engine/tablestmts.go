package engine

import (
	"context"
	"fmt"
	"maps"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/engine/txnstore"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
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
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	if _, isView := s.eng.meta.Views().Get(b.Path); isView {
		s.eng.ddl.Unlock()
		if b.IfNotExists {
			return noticeResult(createTableTag(b), existsSkipping(sqlerr.DuplicateTable, "relation", b.Path.Table)), nil
		}
		return nil, sqlerr.RelationExists(b.Path.Table)
	}
	if b.IfNotExists {
		// The store's CreateTable skips an existing table silently;
		// PostgreSQL says so in a NOTICE.
		if _, err := s.eng.store.GetTable(ctx, b.Path); err == nil {
			s.eng.ddl.Unlock()
			return noticeResult(createTableTag(b), existsSkipping(sqlerr.DuplicateTable, "relation", b.Path.Table)), nil
		}
	}
	err := s.noteTempSchema(ctx, b.Path.Database)
	var info fluss.TableInfo
	if err == nil {
		info, err = s.createTable(ctx, b) // metadata.go: with its owner and sequences
	}
	s.eng.ddl.Unlock()
	if err != nil {
		return nil, err
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
func (s *session) execDropTable(ctx context.Context, ps *statement, b *binder.DropTable) (pgwire.Result, error) {
	if err := s.blockDDL("DROP TABLE", pathIn(b.Paths)); err != nil {
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
	for _, p := range b.Paths {
		if err := systemTable(p); err != nil {
			return nil, err
		}
		info, err := s.eng.store.GetTable(ctx, p)
		if err != nil {
			if v, isView := s.eng.meta.Views().Get(p); isView {
				if v.Materialized() {
					return nil, notA("table", p.Table).WithHint("Use DROP MATERIALIZED VIEW to remove a materialized view.")
				}
				return nil, notA("table", p.Table).WithHint("Use DROP VIEW to remove a view.")
			}
			if sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
				if b.IfExists {
					notices = append(notices, skipped("table", p.Table))
					continue
				}
				return nil, sqlerr.New(sqlerr.UndefinedTable, "table \"%s\" does not exist", p.Table)
			}
			return nil, err
		}
		if err := s.mayDrop(info); err != nil {
			return nil, err
		}
		infos, paths = append(infos, info), append(paths, p)
	}
	for i, info := range infos {
		p := paths[i]
		cascaded, err := s.dependentViews("table", p, nil, sql.DropCascade(ps.parsed)) // cascade.go
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
