package engine

import (
	"context"
	"fmt"

	"github.com/sqlgate/sqlgate/binder"
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
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	if _, isView := s.eng.meta.Views().Get(b.Path); isView {
		s.eng.ddl.Unlock()
		if b.IfNotExists {
			return tagOnly("CREATE TABLE"), nil
		}
		return nil, sqlerr.RelationExists(b.Path.Table)
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

// execDropTable is DROP TABLE of one or more tables, with the views that
// depend on them when CASCADE (cascade.go) and the sequences they own.
func (s *session) execDropTable(ctx context.Context, ps *statement, b *binder.DropTable) (pgwire.Result, error) {
	if err := s.blockDDL("DROP TABLE", pathIn(b.Paths)); err != nil {
		return nil, err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	var notices []*sqlerr.Error
	for _, p := range b.Paths {
		if err := systemTable(p); err != nil {
			return nil, err
		}
		info, err := s.eng.store.GetTable(ctx, p)
		if err != nil {
			if _, isView := s.eng.meta.Views().Get(p); isView {
				return nil, notA("table", p.Table).WithHint("Use DROP VIEW to remove a view.")
			}
			if b.IfExists && sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
				continue
			}
			return nil, err
		}
		if err := s.mayDrop(info); err != nil {
			return nil, err
		}
		cascaded, err := s.dependentViews("table", p, nil, sql.DropCascade(ps.parsed)) // cascade.go
		if err != nil {
			return nil, err
		}
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
