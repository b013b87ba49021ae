package engine

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/views"
)

// Views: CREATE [OR REPLACE] VIEW and DROP VIEW run here against the
// views.Store; the binder expands a view named in FROM through
// recordingCatalog.GetView, which parses the stored definition with the
// session's view parser (a parser of its own, since the session's parser
// may still own the AST of the statements being run).

// parseView parses a view's definition with the session's view parser,
// created on first use.
func (s *session) parseView(text string) ([]*sql.Statement, error) {
	if s.viewParser == nil {
		s.viewParser = sql.NewParser()
		s.viewParser.AcceptAnyCatalog() // checked when the view was created
	}
	return s.viewParser.Parse(text)
}

// GetView implements binder.ViewCatalog.
func (c *recordingCatalog) GetView(ctx context.Context, p fluss.TablePath) (*binder.View, error) {
	if c.views == nil || c.parse == nil || c.hidden[p] {
		return nil, nil
	}
	v, ok := c.views.Get(p)
	if !ok {
		return nil, nil
	}
	def := v.Definition
	if v.Materialized() { // its rows, not its query (matview.go)
		if !v.Populated() {
			return nil, notPopulated(v.Path.Table)
		}
		def = matviewQuery(v)
	}
	sts, err := c.parse(def)
	if err != nil || len(sts) != 1 || sts[0].AST == nil {
		return nil, sqlerr.New(sqlerr.DataCorrupted, "the stored definition of view \"%s\" does not parse: %v", v.Path.Table, err)
	}
	c.seen = append(c.seen, tableRef{id: v.ACLKey(), path: v.Path, view: true, matview: v.Materialized(), via: viaOf(ctx)})
	bv := &binder.View{Path: v.Path, ID: v.ID, Query: sts[0], Named: len(v.ColumnNames), Stored: v.Materialized(), AutoUpdatable: v.AutoUpdatable, CheckOption: v.CheckOption(),
		SecurityInvoker: v.BoolOption("security_invoker"), Partition: v.IsPartition()}
	for _, col := range v.Columns {
		bv.Columns = append(bv.Columns, binder.ViewColumn{Name: col.Name, T: col.Type, Updatable: col.Updatable})
	}
	return bv, nil
}

// Partitions implements binder.PartitionCatalog.
func (c *recordingCatalog) Partitions(ctx context.Context, tableID int64) []binder.PartitionRelation {
	if c.views == nil {
		return nil
	}
	var out []binder.PartitionRelation
	for _, v := range c.views.List("") {
		if v.Partition != nil && v.Partition.ParentID == tableID && !c.hidden[v.Path] {
			out = append(out, binder.PartitionRelation{Path: v.Path, Value: v.Partition.Literal(), Default: v.Partition.Default})
		}
	}
	return out
}

// viaOf is the view through which the binder is resolving a relation, as
// a privilege reference (nil at the top level).
func viaOf(ctx context.Context) *tableRef {
	v := binder.ExpandingView(ctx)
	if v == nil {
		return nil
	}
	return &tableRef{id: views.ACLKeyOf(v.ID), path: v.Path, view: true}
}

// createView runs CREATE [OR REPLACE] VIEW.
func (s *session) createView(ctx context.Context, b *binder.CreateView) (pgwire.Result, error) {
	if err := s.blockDDL("CREATE VIEW", nil); err != nil {
		return nil, err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	if _, err := s.eng.storeTable(ctx, b.Path); err == nil {
		if b.OrReplace {
			return nil, notA("view", b.Path.Table)
		}
		return nil, sqlerr.RelationExists(b.Path.Table)
	} else if sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		return nil, err
	}
	old, exists := s.eng.meta.Views().Get(b.Path)
	if exists && b.OrReplace {
		// A definition naming the view itself is accepted, as PostgreSQL
		// does; querying it then fails with 42P17 (binder/view.go).
		if err := s.mayOwnView(old); err != nil {
			return nil, err
		}
	}
	v := views.View{Path: b.Path, Definition: b.Definition, Pretty: b.Printed.Pretty, Plain: b.Printed.Plain,
		ColumnNames: b.ColumnNames, CreatedAt: time.Now().UnixMilli()}
	for _, c := range b.Columns {
		v.Columns = append(v.Columns, views.Column{Name: c.Name, Type: c.T, Updatable: c.Updatable})
	}
	v.AutoUpdatable, v.Options = b.AutoUpdatable, b.Options
	for _, u := range b.Uses {
		v.Uses = append(v.Uses, views.Relation{Path: u.Path, TableID: u.TableID, ViewID: u.ViewID})
	}
	v.Functions = b.Functions
	// The view and its owner commit together.
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		stored, err := tx.Views.Create(v, b.OrReplace)
		if err != nil || exists {
			return err
		}
		if err := tx.Access.SetOwner(stored.ACLKey(), stored.Path.String(), s.info.User); err != nil {
			return err
		}
		return grantDefaults(tx, stored.ACLKey(), stored.Path, s.info.User) // schemaprivs.go
	})
	if err != nil {
		return nil, metaErr(err)
	}
	if exists { // txddl.go: the view as it was, or none
		s.undoWith(func(ctx context.Context) error { return s.restoreView(ctx, old) })
	} else {
		s.undoStatement("DROP VIEW IF EXISTS " + quoteIdent(b.Path.Database) + "." + quoteIdent(b.Path.Table) + " CASCADE")
	}
	return tagOnly("CREATE VIEW"), nil
}

// dropView runs DROP VIEW [IF EXISTS] v, ... [CASCADE] (cascade.go).
func (s *session) dropView(ctx context.Context, b *binder.DropView, cascade bool) (pgwire.Result, error) {
	if err := s.blockDDL("DROP VIEW", nil); err != nil {
		return nil, err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	dropping := map[fluss.TablePath]bool{}
	var drop []views.View
	var notices []*sqlerr.Error
	for _, p := range b.Paths {
		v, ok := s.eng.meta.Views().Get(p)
		if ok && v.IsPartition() { // pgpartitions.go
			return nil, notA("view", p.Table).WithHint("Use DROP TABLE to remove a table.")
		}
		if ok && v.Materialized() {
			return nil, notA("view", p.Table).WithHint("Use DROP MATERIALIZED VIEW to remove a materialized view.")
		}
		if !ok {
			if _, err := s.eng.storeTable(ctx, p); err == nil {
				return nil, notA("view", p.Table).WithHint("Use DROP TABLE to remove a table.")
			}
			if b.IfExists {
				notices = append(notices, s.skippedNamed(ctx, "view", p.Database, p.Table))
				continue
			}
			return nil, s.dropMissing(ctx, p, "view")
		}
		if err := s.mayOwnView(v); err != nil {
			return nil, err
		}
		dropping[p] = true
		drop = append(drop, v)
	}
	var cascaded []views.View
	for _, v := range drop {
		deps, err := s.dependentViews("view", v.Path, dropping, cascade)
		if err != nil {
			return nil, err
		}
		for _, d := range deps {
			dropping[d.Path] = true
		}
		cascaded = append(cascaded, deps...)
	}
	drop = append(drop, cascaded...)
	// Every view named, with its grants, goes in one commit.
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error { return dropViewsIn(tx, drop) })
	if err != nil {
		return nil, metaErr(err)
	}
	s.dropBackingHeld(ctx, cascaded) // matview.go
	if len(cascaded) > 0 {
		notices = append(notices, cascadeNotice(cascaded))
	}
	return noticeResult("DROP VIEW", notices...), nil
}

// noDependents refuses to drop the relation at path (a "table" or a
// "view") while views outside dropping use it, with PostgreSQL's 2BP01:
// the detail lists every dependent view, directly or through others.
func (s *session) noDependents(kind string, path fluss.TablePath, dropping map[fluss.TablePath]bool) error {
	var lines []string
	seen := map[fluss.TablePath]bool{}
	var walk func(kind string, p fluss.TablePath)
	walk = func(kind string, p fluss.TablePath) {
		for _, d := range s.eng.meta.Views().Dependents(p) {
			if dropping[d.Path] || seen[d.Path] {
				continue
			}
			seen[d.Path] = true
			lines = append(lines, fmt.Sprintf("%s %s depends on %s %s", relationKind(d), d.Path.Table, kind, p.Table))
			walk(relationKind(d), d.Path)
		}
	}
	walk(kind, path)
	if len(lines) == 0 {
		return nil
	}
	return sqlerr.New(sqlerr.DependentObjectsStillExist, "cannot drop %s %s because other objects depend on it", kind, path.Table).
		WithDetail("%s", strings.Join(lines, "\n")).
		WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
}

// mayOwnView checks that the session may drop or replace a view.
func (s *session) mayOwnView(v views.View) error {
	if s.superuser || (s.info.User != "" && s.eng.meta.Access().Owner(v.ACLKey()) == s.info.User) {
		return nil
	}
	return mustOwn(relationKind(v), v.Path.Table)
}

// viewTarget refuses a TRUNCATE whose target is a view (42809, as in
// PostgreSQL) and a write to a materialized view, before either is
// bound; a write to a plain view binds (binder/viewwrite.go: it writes
// the view's base table when the view is automatically updatable).
func (s *session) viewTarget(st *sql.Statement) error {
	if st.AST == nil {
		return nil
	}
	var target *ast.TableName
	verb := ""
	switch x := st.AST.(type) {
	case *ast.InsertStmt:
		target, verb = singleTable(x.Table), "insert into"
	case *ast.UpdateStmt:
		target, verb = singleTable(x.TableRefs), "update"
	case *ast.DeleteStmt:
		target, verb = singleTable(x.TableRefs), "delete from"
	case *ast.TruncateTableStmt:
		target = x.Table
	}
	if target == nil {
		return nil
	}
	p := fluss.TablePath{Database: target.Schema.O, Table: target.Name.O}
	if p.Database == "" || p.Database == "public" {
		p.Database = fluss.DefaultDatabase
	}
	v, ok := s.eng.meta.Views().Get(p)
	if !ok {
		return nil
	}
	if verb == "" {
		return notA("table", p.Table)
	}
	if v.Materialized() {
		return sqlerr.New(sqlerr.WrongObjectType, "cannot change materialized view \"%s\"", p.Table)
	}
	return nil
}

// singleTable is the one table a write statement names, or nil.
func singleTable(refs *ast.TableRefsClause) *ast.TableName {
	if refs == nil || refs.TableRefs == nil {
		return nil
	}
	if ts, ok := refs.TableRefs.Left.(*ast.TableSource); ok {
		tn, _ := ts.Source.(*ast.TableName)
		return tn
	}
	return nil
}

// ViewUpdatability derives whether v is automatically updatable, and
// which of its columns are, from its definition now (pgcatalog's
// Options.ViewUpdatability): PostgreSQL answers from the view's query,
// so a view stored before sqlgate recorded the flags, or over a view
// replaced since, answers as it would there.
func (e *Engine) ViewUpdatability(ctx context.Context, v views.View) (bool, []bool) {
	if v.Materialized() || e.meta == nil {
		return false, nil
	}
	bv, cat, err := e.bindableView(ctx, v.Path)
	if err != nil || bv == nil {
		return v.AutoUpdatable, storedUpdatable(v)
	}
	auto, cols, _ := binder.ViewUpdatability(ctx, cat, bv)
	return auto, cols
}

// bindableView is the view at path as the binder reads it, and a catalog
// to bind it in (the views in it parsed by a parser of their own).
func (e *Engine) bindableView(ctx context.Context, path fluss.TablePath) (*binder.View, *recordingCatalog, error) {
	p := sql.NewParser()
	p.AcceptAnyCatalog() // checked when the view was created
	cat := &recordingCatalog{tables: e.tables, views: e.meta.Views(), meta: e.meta, parse: p.Parse}
	bv, err := cat.GetView(ctx, path)
	return bv, cat, err
}

// storedUpdatable are the columns' Updatable flags stored with v.
func storedUpdatable(v views.View) []bool {
	out := make([]bool, len(v.Columns))
	for i, c := range v.Columns {
		out[i] = c.Updatable
	}
	return out
}

// alterViewOptions runs ALTER VIEW ... SET (..) | RESET (..): the view's
// options (views.ApplyOptions' rules); a check option needs the view to
// be automatically updatable, as PostgreSQL's ATExecSetRelOptions checks.
func (s *session) alterViewOptions(ctx context.Context, v views.View, a sql.AlterAction, tag string) (pgwire.Result, error) {
	if err := s.blockDDL(tag, nil); err != nil {
		return nil, err
	}
	if err := s.mayOwnView(v); err != nil {
		return nil, err
	}
	opts, err := views.ApplyOptions(v.Options, binder.ViewOptions(a.ViewOptions), a.Kind == sql.AlterResetProperties)
	if err != nil {
		return nil, err
	}
	if (views.View{Options: opts}).CheckOption() != "" {
		if bv, cat, err := s.eng.bindableView(s.sessionCtx(ctx), v.Path); err == nil && bv != nil {
			if _, _, why := binder.ViewUpdatability(s.sessionCtx(ctx), cat, bv); why != "" {
				return nil, sqlerr.New(sqlerr.FeatureNotSupported, "WITH CHECK OPTION is supported only on automatically updatable views").
					WithHint("%s", why)
			}
		}
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	err = s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		cur, ok := tx.Views.Get(v.Path)
		if !ok {
			return sqlerr.New(sqlerr.UndefinedTable, "view \"%s\" does not exist", v.Path.Table)
		}
		cur.Options = opts
		_, err := tx.Views.Create(cur, true)
		return err
	})
	if err != nil {
		return nil, metaErr(err)
	}
	return tagOnly(tag), nil
}

// viewOptionsByAlterTable is ALTER TABLE v SET (..) | RESET (..) of a view
// (PostgreSQL's ALTER TABLE takes a view's options too), as ALTER VIEW's
// action; ok false for any other ALTER TABLE.
func (s *session) viewOptionsByAlterTable(ctx context.Context, d *sql.DDLStmt) (views.View, sql.AlterAction, bool) {
	if len(d.Actions) != 1 {
		return views.View{}, sql.AlterAction{}, false
	}
	a := d.Actions[0]
	if a.Kind != sql.AlterSetProperties && a.Kind != sql.AlterResetProperties {
		return views.View{}, sql.AlterAction{}, false
	}
	path, err := s.resolvePath(ctx, d.Table)
	if err != nil {
		return views.View{}, sql.AlterAction{}, false
	}
	v, ok := s.eng.meta.Views().Get(path)
	if !ok || v.Materialized() || s.droppedInBlock(path) {
		return views.View{}, sql.AlterAction{}, false
	}
	out := sql.AlterAction{Kind: a.Kind}
	for _, p := range a.Props {
		out.ViewOptions = append(out.ViewOptions, sql.ViewOption{Name: strings.ToLower(p[0]), Value: p[1], HasValue: true})
	}
	for _, k := range a.Keys {
		out.ViewOptions = append(out.ViewOptions, sql.ViewOption{Name: strings.ToLower(k)})
	}
	return v, out, true
}
