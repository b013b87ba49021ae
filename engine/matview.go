package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/exec/relop"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/views"
)

// Materialized views (CREATE / REFRESH / DROP / ALTER MATERIALIZED VIEW,
// CREATE INDEX on one). A materialized view is a view in views.Store
// whose Matview names the Fluss log table holding its rows (the backing
// table, views/matview.go); the binder reads it as the view
// SELECT * FROM <backing table> (GetView, views.go).
//
// The rows are a log table, never a primary-key one: a refresh writes a
// whole new table once, which a log table appends in batches with nothing
// to merge, and a unique index is checked by the refresh itself (an
// upsert would silently fold duplicate rows that PostgreSQL refuses).
//
// CREATE and REFRESH fill a new backing table outside the DDL lock (readers
// keep reading the old rows meanwhile, CONCURRENTLY or not), then switch
// the view to it in one metadata commit under the DDL lock: readers and a
// crash see the old rows or the new. The table the switch replaced stays
// for readers that bound it before, until the next refresh drops it;
// tables left by a CREATE or REFRESH that failed or crashed are swept by
// the next CREATE, REFRESH or DROP in their schema (sweepBacking).

// matviewStatement runs CREATE, REFRESH, DROP and ALTER MATERIALIZED VIEW.
func (s *session) matviewStatement(ctx context.Context, d *sql.DDLStmt) (pgwire.Result, error) {
	switch d.Verb {
	case "CREATE MATERIALIZED VIEW":
		return s.createMatview(ctx, d.Matview)
	case "REFRESH MATERIALIZED VIEW":
		return s.refreshMatview(ctx, d.Matview)
	case "ALTER MATERIALIZED VIEW":
		return s.alterMatview(ctx, d.Matview)
	}
	return s.dropMatviews(ctx, d)
}

// notMatview is PostgreSQL's refusal of a DROP / REFRESH MATERIALIZED VIEW
// that names a table or a view (nil when path holds neither).
func (s *session) notMatview(ctx context.Context, verb string, path fluss.TablePath) error {
	_, tableErr := s.eng.storeTable(ctx, path)
	v, isView := s.eng.meta.Views().Get(path)
	switch {
	case isView && v.Materialized():
		return nil
	case verb == "REFRESH MATERIALIZED VIEW" && isView:
		return sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is not a table or materialized view", path.Table)
	case verb == "REFRESH MATERIALIZED VIEW" && tableErr == nil:
		// PostgreSQL 15's words and SQLSTATE for a table.
		return sqlerr.New(sqlerr.FeatureNotSupported, "\"%s\" is not a materialized view", path.Table)
	case isView:
		return notA("materialized view", path.Table).WithHint("Use DROP VIEW to remove a view.")
	case tableErr == nil:
		return notA("materialized view", path.Table).WithHint("Use DROP TABLE to remove a table.")
	}
	return nil
}

// matviewNamed finds the materialized view n names: ok false when nothing
// is there (the caller says so in its words).
func (s *session) matviewNamed(ctx context.Context, verb string, n sql.ObjectName) (views.View, bool, error) {
	path, err := s.resolvePath(ctx, n)
	if err != nil {
		if sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
			return views.View{}, false, nil
		}
		return views.View{}, false, err
	}
	if err := s.notMatview(ctx, verb, path); err != nil {
		return views.View{}, false, err
	}
	v, ok := s.eng.meta.Views().Get(path)
	return v, ok && v.Materialized(), nil
}

// createMatview runs CREATE MATERIALIZED VIEW: the definition is bound as
// CREATE VIEW binds one (columns, printed definition, dependencies), the
// rows are written unless WITH NO DATA, and the view with its owner is
// stored in one commit.
func (s *session) createMatview(ctx context.Context, m *sql.MatviewStmt) (pgwire.Result, error) {
	if err := s.blockDDL("CREATE MATERIALIZED VIEW", nil); err != nil {
		return nil, err
	}
	name := quoteIdent(m.Name.Name)
	if m.Name.Schema != "" {
		name = quoteIdent(m.Name.Schema) + "." + name
	}
	cols := ""
	if len(m.Columns) > 0 {
		q := make([]string, len(m.Columns))
		for i, c := range m.Columns {
			q[i] = quoteIdent(c)
		}
		cols = " (" + strings.Join(q, ", ") + ")"
	}
	prefix := "CREATE VIEW " + name + cols + " AS "
	ps, err := s.prepareInternal(ctx, prefix+m.Query)
	if err != nil {
		return nil, placeInQuery(err, prefix, m.QueryPos)
	}
	b, ok := ps.bound.(*binder.CreateView)
	if !ok {
		return nil, sqlerr.New(sqlerr.InternalError, "CREATE MATERIALIZED VIEW bound as %T", ps.bound)
	}
	if err := s.authorize(ps); err != nil {
		return nil, err
	}
	s.eng.matviewMu.Lock()
	defer s.eng.matviewMu.Unlock()
	if exists, err := s.relationAt(ctx, b.Path); err != nil {
		return nil, err
	} else if exists {
		if m.IfNotExists {
			s.changedNothing() // txddl.go
			return noticeResult("CREATE MATERIALIZED VIEW", sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists, skipping", b.Path.Table)), nil
		}
		return nil, sqlerr.RelationExists(b.Path.Table)
	}
	v := views.View{Path: b.Path, Definition: b.Definition, Pretty: b.Printed.Pretty, Plain: b.Printed.Plain,
		ColumnNames: b.ColumnNames, CreatedAt: time.Now().UnixMilli(), Matview: &views.Matview{}}
	for _, c := range b.Columns {
		v.Columns = append(v.Columns, views.Column{Name: c.Name, Type: c.T})
	}
	for _, u := range b.Uses {
		v.Uses = append(v.Uses, views.Relation{Path: u.Path, TableID: u.TableID, ViewID: u.ViewID})
	}
	s.sweepBacking(ctx, b.Path.Database)
	var rows int64
	if !m.NoData {
		backing, n, err := s.fillBacking(ctx, v, s.info.User)
		if err != nil {
			return nil, err
		}
		v.Matview.Backing, rows = backing, n
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	err = s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		stored, err := tx.Views.Create(v, false)
		if err != nil {
			return err
		}
		return tx.Access.SetOwner(stored.ACLKey(), stored.Path.String(), s.info.User)
	})
	s.eng.ddl.Unlock()
	if err != nil {
		s.dropBackingTables(ctx, v.Matview.Backing)
		return nil, metaErr(err)
	}
	s.undoStatement("DROP MATERIALIZED VIEW IF EXISTS " + quoteIdent(b.Path.Database) + "." + quoteIdent(b.Path.Table) + " CASCADE") // txddl.go
	if m.NoData {
		return tagOnly("CREATE MATERIALIZED VIEW"), nil
	}
	return tagOnly(fmt.Sprintf("SELECT %d", rows)), nil
}

// placeInQuery moves an error's position in the composed text prefix+query
// to the query's place in the statement as written (queryPos).
func placeInQuery(err error, prefix string, queryPos int) error {
	e := sqlerr.As(err)
	n := utf8.RuneCountInString(prefix)
	if e == nil || e.Position <= n {
		return err
	}
	return e.WithPosition(queryPos + e.Position - n - 1)
}

// relationAt reports whether a table or view is at path.
func (s *session) relationAt(ctx context.Context, path fluss.TablePath) (bool, error) {
	if _, ok := s.eng.meta.Views().Get(path); ok {
		return true, nil
	}
	_, err := s.eng.storeTable(ctx, path)
	switch {
	case err == nil:
		return true, nil
	case sqlerr.CodeOf(err) == sqlerr.UndefinedTable:
		return false, nil
	}
	return false, err
}

// prepareInternal parses and binds a statement sqlgate composes (with the
// view parser, as the session's parser may own the running statement's
// AST).
func (s *session) prepareInternal(ctx context.Context, text string) (*statement, error) {
	sts, err := s.parseView(text)
	if err != nil {
		return nil, err
	}
	if len(sts) != 1 {
		return nil, sqlerr.New(sqlerr.SyntaxError, "a materialized view's query must be one statement")
	}
	return s.prepareOne(ctx, sts[0], nil)
}

// fillBacking creates a new backing table for v, owned by owner, and
// writes v's rows into it (each batch durably), outside any transaction:
// the rows must be in the store before the view is switched to them. It
// returns the table and the number of rows.
func (s *session) fillBacking(ctx context.Context, v views.View, owner string) (fluss.TablePath, int64, error) {
	path := fluss.TablePath{Database: v.Path.Database, Table: views.BackingName(v.ID, time.Now().UnixNano())}
	names := make([]string, len(v.Columns))
	items := make([]string, len(v.Columns))
	for i, c := range v.Columns {
		names[i] = quoteIdent(c.Name)
		items[i] = storedColumn(c)
	}
	text := fmt.Sprintf("CREATE TABLE %s.%s AS SELECT %s FROM (%s) AS q (%s)", quoteIdent(path.Database), quoteIdent(path.Table),
		strings.Join(items, ", "), v.Definition, strings.Join(names, ", "))
	ps, err := s.prepareInternal(ctx, text)
	if err != nil {
		return path, 0, err
	}
	b, ok := ps.bound.(*binder.CreateTable)
	if !ok || ps.plan == nil {
		return path, 0, sqlerr.New(sqlerr.InternalError, "a materialized view's rows bound as %T", ps.bound)
	}
	if err := s.authorize(ps); err != nil {
		return path, 0, err
	}
	user := s.info.User
	s.info.User = owner // the table is the view's owner's
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	info, err := s.createTable(ctx, b)
	s.eng.ddl.Unlock()
	s.info.User = user
	if err != nil {
		return path, 0, err
	}
	n, err := s.insertInto(ctx, ps, info)
	if err != nil {
		s.dropBackingTables(ctx, path)
		return path, 0, err
	}
	return path, n, nil
}

// storedColumn is how a view column is written to the backing table: as
// it is, or as its text when Fluss cannot keep its values exactly
// (storedAsText), cast back when read (binder.View.Stored).
func storedColumn(c views.Column) string {
	q := "q." + quoteIdent(c.Name)
	if c.Type.Kind == types.Oid { // oid and the reg* types: the number, named again when read
		return "CAST(CAST(" + q + " AS oid) AS bigint) AS " + quoteIdent(c.Name)
	}
	if storedAsText(c.Type) {
		return "CAST(" + q + " AS text) AS " + quoteIdent(c.Name)
	}
	return q
}

// storedAsText reports whether a column of type t is kept as text: an
// unbounded numeric (a Fluss DECIMAL is bounded to 38 digits and one
// scale, and PostgreSQL keeps each value's own scale), the types Fluss has
// no column for (interval, time with time zone, name, character without
// a length, oid in an array: a lone one is kept as its number,
// storedColumn), and arrays of them.
func storedAsText(t types.T) bool {
	switch t.Kind {
	case types.Decimal:
		return t.Precision == 0
	case types.Interval, types.TimeTZ, types.Oid, types.Name:
		return true
	case types.Char:
		return t.Length <= 0
	case types.Array:
		return t.Elem != nil && storedAsText(*t.Elem)
	}
	return false
}

// insertInto runs ps's source plan into the table info straight through
// the store (not the session's transaction), as an ordinary statement's
// execution state would run it (execBound); the plan reads the tables as
// the session's transaction block sees them.
func (s *session) insertInto(ctx context.Context, ps *statement, info fluss.TableInfo) (int64, error) {
	now := time.Now()
	ci, _ := s.eng.opts.Virtual.(functions.CatalogInfo)
	ctx = functions.WithStatement(ctx, functions.Clock{TransactionStart: now, StatementStart: now}, ci,
		functions.Session{User: s.info.User, Database: s.info.Database, BackendPID: int32(s.info.ProcessID), Setting: s.statusFn, Style: &s.parsedStyle, Location: s.location()})
	tables := s.eng.runtime
	if s.tx != nil {
		// in a transaction block the query reads the block's own
		// pending writes, as PostgreSQL's refresh does (pg_restore -1:
		// CREATE TABLE, COPY, then REFRESH, all in one block)
		tables = s.runtimeTables()
	}
	rt, err := s.internalRuntime(ctx, ps, tables, true)
	if err != nil {
		return 0, err
	}
	defer rt.Close()
	ec := rt.EC
	src, err := lower.Build(rt, ps.plan)
	if err != nil {
		return 0, err
	}
	t, err := s.eng.store.Table(ctx, info.Path)
	if err != nil {
		src.Close()
		return 0, err
	}
	ins := &exec.Insert{EC: ec, Table: t, Source: src}
	if err := ins.Run(ctx); err != nil {
		return 0, mapContextError(ctx, err)
	}
	return ins.Rows, nil
}

// dropBackingTables drops backing tables no view uses any more; a failure
// leaves the table to the next sweep.
func (s *session) dropBackingTables(ctx context.Context, paths ...fluss.TablePath) {
	s.eng.ddl.Lock()
	defer s.eng.ddl.Unlock()
	s.eng.catalog.Add(1)
	s.dropBackingTablesHeld(ctx, paths...)
}

// dropBackingTablesHeld is dropBackingTables for a caller that holds the
// DDL lock.
func (s *session) dropBackingTablesHeld(ctx context.Context, paths ...fluss.TablePath) {
	for _, p := range paths {
		if p.Table == "" {
			continue
		}
		info, err := s.eng.storeTable(ctx, p)
		if err != nil {
			continue
		}
		if err := s.dropTable(ctx, info, true); err != nil {
			s.eng.log.Error("dropping a materialized view's old rows (swept later)", "table", p.String(), "error", err)
		}
	}
}

// sweepBacking drops the backing tables of schema db that no materialized
// view holds: left by a CREATE or REFRESH that failed or crashed before
// its switch. The caller holds Engine.matviewMu, so none of them is being filled.
func (s *session) sweepBacking(ctx context.Context, db string) {
	ts, err := s.eng.store.ListTables(ctx, db)
	if err != nil {
		return
	}
	held := s.eng.meta.Views().BackingTables()
	for _, t := range ts {
		if views.IsBacking(t.Path.Table) && !held[t.Path] {
			s.dropBackingTables(ctx, t.Path)
		}
	}
}

// refreshMatview runs REFRESH MATERIALIZED VIEW [CONCURRENTLY] [WITH [NO]
// DATA]: new rows in a new backing table, then the switch (the rows of
// the refresh before last are dropped then).
func (s *session) refreshMatview(ctx context.Context, m *sql.MatviewStmt) (pgwire.Result, error) {
	const tag = "REFRESH MATERIALIZED VIEW"
	if m.Concurrently && m.NoData {
		return nil, sqlerr.New(sqlerr.SyntaxError, "CONCURRENTLY and WITH NO DATA options cannot be used together")
	}
	v, ok, err := s.matviewNamed(ctx, tag, m.Name)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, sqlerr.UndefinedRelation(m.Name.Name)
	}
	if err := s.blockDDL(tag, nil); err != nil {
		return nil, err
	}
	if err := s.mayOwnMatview(v); err != nil {
		return nil, err
	}
	if m.Concurrently {
		if !v.Populated() {
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "CONCURRENTLY cannot be used when the materialized view is not populated")
		}
		if !slices.ContainsFunc(v.Matview.Indexes, func(ix views.Index) bool { return ix.Unique }) {
			return nil, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "cannot refresh materialized view \"%s.%s\" concurrently", v.Path.Database, v.Path.Table).
				WithHint("Create a unique index with no WHERE clause on one or more columns of the materialized view.")
		}
	}
	s.eng.matviewMu.Lock()
	defer s.eng.matviewMu.Unlock()
	s.sweepBacking(ctx, v.Path.Database)
	var next fluss.TablePath
	if !m.NoData {
		owner := s.eng.meta.Access().Owner(v.ACLKey())
		if owner == "" {
			owner = s.info.User
		}
		if next, _, err = s.fillBacking(ctx, v, owner); err != nil {
			return nil, err
		}
		if err := s.checkUniqueIndexes(ctx, v, next); err != nil {
			s.dropBackingTables(ctx, next)
			return nil, err
		}
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	cur, still := s.eng.meta.Views().Get(v.Path)
	if !still || cur.ID != v.ID || !cur.Materialized() {
		s.eng.ddl.Unlock()
		s.dropBackingTables(ctx, next)
		return nil, sqlerr.UndefinedRelation(m.Name.Name)
	}
	mv := *cur.Matview
	old := mv.Previous
	mv.Previous, mv.Backing = mv.Backing, next
	err = s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		_, err := tx.Views.SetMatview(v.Path, mv)
		return err
	})
	s.eng.ddl.Unlock()
	if err != nil {
		s.dropBackingTables(ctx, next)
		return nil, metaErr(err)
	}
	s.dropBackingTables(ctx, old)
	return tagOnly(tag), nil
}

// checkUniqueIndexes refuses new rows that break one of v's unique
// indexes, as PostgreSQL's refresh does when it builds the index (23505).
func (s *session) checkUniqueIndexes(ctx context.Context, v views.View, backing fluss.TablePath) error {
	for _, ix := range v.Matview.Indexes {
		if !ix.Unique {
			continue
		}
		key := strings.Join(ix.Columns, ", ")
		text := fmt.Sprintf("SELECT (%s)::text FROM %s.%s WHERE %s GROUP BY %s HAVING count(*) > 1 LIMIT 1", key,
			quoteIdent(backing.Database), quoteIdent(backing.Table), notNullAll(ix.Columns), key)
		ps, err := s.prepareInternal(ctx, text)
		if err != nil {
			return err
		}
		dup, found, err := s.firstText(ctx, ps)
		if err != nil {
			return err
		}
		if found {
			return sqlerr.New(sqlerr.UniqueViolation, "could not create unique index \"%s\"", ix.Name).
				WithDetail("Key (%s)=%s is duplicated.", key, strings.TrimSuffix(strings.TrimPrefix(dup, "("), ")"))
		}
	}
	return nil
}

// notNullAll is a condition that every key column is not null (rows with
// a null key never collide in a unique index).
func notNullAll(cols []string) string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = "(" + c + ") IS NOT NULL"
	}
	return strings.Join(out, " AND ")
}

// firstText runs a one-column text query and returns its first row's
// value (found false when there is none, or it is NULL).
func (s *session) firstText(ctx context.Context, ps *statement) (string, bool, error) {
	res, err := s.execBound(ctx, ps, nil)
	if err != nil {
		return "", false, err
	}
	defer res.Close()
	for {
		b, err := res.Next(ctx)
		if err != nil || b == nil {
			return "", false, err
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		col, ok := b.Column(0).(*array.String)
		text, found := "", ok && col.IsValid(0)
		if found {
			text = col.Value(0)
		}
		b.Release()
		return text, found, nil
	}
}

// mayOwnMatview checks that the session may refresh, alter or drop v.
func (s *session) mayOwnMatview(v views.View) error {
	if s.superuser || (s.info.User != "" && s.eng.meta.Access().Owner(v.ACLKey()) == s.info.User) {
		return nil
	}
	return mustOwn("materialized view", v.Path.Table)
}

// dropMatviews runs DROP MATERIALIZED VIEW [IF EXISTS] ... [CASCADE]: the
// views and their grants in one commit, then their rows.
func (s *session) dropMatviews(ctx context.Context, d *sql.DDLStmt) (pgwire.Result, error) {
	const tag = "DROP MATERIALIZED VIEW"
	var notices []*sqlerr.Error
	dropping := map[fluss.TablePath]bool{}
	var drop []views.View
	for _, n := range d.Tables {
		v, ok, err := s.matviewNamed(ctx, tag, n)
		if err != nil {
			return nil, err
		}
		if !ok {
			if !d.IfExists {
				return nil, sqlerr.New(sqlerr.UndefinedTable, "materialized view \"%s\" does not exist", n.Name)
			}
			notices = append(notices, s.skippedNamed(ctx, "materialized view", n.Schema, n.Name))
			continue
		}
		if err := s.mayOwnMatview(v); err != nil {
			return nil, err
		}
		dropping[v.Path] = true
		drop = append(drop, v)
	}
	if len(drop) == 0 {
		return noticeResult(tag, notices...), nil
	}
	if err := s.blockDDL(tag, nil); err != nil {
		return nil, err
	}
	s.eng.matviewMu.Lock()
	defer s.eng.matviewMu.Unlock()
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	var cascaded []views.View
	for _, v := range drop {
		deps, err := s.dependentViews("materialized view", v.Path, dropping, d.Cascade)
		if err != nil {
			s.eng.ddl.Unlock()
			return nil, err
		}
		for _, dep := range deps {
			dropping[dep.Path] = true
		}
		cascaded = append(cascaded, deps...)
	}
	all := append(drop, cascaded...)
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error { return dropViewsIn(tx, all) })
	s.eng.ddl.Unlock()
	if err != nil {
		return nil, metaErr(err)
	}
	s.dropBackingOf(ctx, all)
	if len(cascaded) > 0 {
		notices = append(notices, cascadeNotice(cascaded))
	}
	return noticeResult(tag, notices...), nil
}

// dropBackingOf drops the rows of the materialized views among vs, which
// are dropped. Called without the DDL lock.
func (s *session) dropBackingOf(ctx context.Context, vs []views.View) {
	s.eng.ddl.Lock()
	defer s.eng.ddl.Unlock()
	s.dropBackingHeld(ctx, vs)
}

// dropBackingHeld is dropBackingOf for a caller that holds the DDL lock
// (DROP TABLE | VIEW ... CASCADE).
func (s *session) dropBackingHeld(ctx context.Context, vs []views.View) {
	for _, v := range vs {
		if m := v.Matview; m != nil {
			s.dropBackingTablesHeld(ctx, m.Backing, m.Previous)
		}
	}
}

// relationKind is how PostgreSQL names v in messages.
func relationKind(v views.View) string {
	if v.Materialized() {
		return "materialized view"
	}
	return "view"
}

// alterMatview runs ALTER MATERIALIZED VIEW ... RENAME [COLUMN], OWNER TO
// and SET SCHEMA.
func (s *session) alterMatview(ctx context.Context, m *sql.MatviewStmt) (pgwire.Result, error) {
	const tag = "ALTER MATERIALIZED VIEW"
	if m.Action == "" {
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "this ALTER MATERIALIZED VIEW action is not supported").
			WithHint("sqlgate renames materialized views and their columns, and changes their owner and schema.")
	}
	path, err := s.resolvePath(ctx, m.Name)
	if err != nil && sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		return nil, err
	}
	v, ok := s.eng.meta.Views().Get(path)
	if err != nil || !ok || !v.Materialized() {
		if err == nil {
			if _, tErr := s.eng.storeTable(ctx, path); tErr == nil || ok {
				return nil, notA("materialized view", path.Table)
			}
		}
		if m.IfExists {
			return noticeResult(tag, skipped("relation", m.Name.Name)), nil
		}
		return nil, sqlerr.UndefinedRelation(m.Name.Name)
	}
	switch m.Action {
	case "RENAME", "SET SCHEMA":
		to := fluss.TablePath{Database: path.Database, Table: m.NewName}
		if m.Action == "SET SCHEMA" {
			to = fluss.TablePath{Database: m.NewName, Table: path.Table}
			if dbs, err := s.eng.store.ListDatabases(ctx); err != nil {
				return nil, err
			} else if !slices.Contains(dbs, to.Database) {
				return nil, sqlerr.New(sqlerr.InvalidSchemaName, "schema \"%s\" does not exist", to.Database)
			}
		}
		if exists, err := s.relationAt(ctx, to); err != nil {
			return nil, err
		} else if exists {
			if m.Action == "SET SCHEMA" {
				return nil, sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists in schema \"%s\"", to.Table, to.Database)
			}
			return nil, sqlerr.RelationExists(to.Table)
		}
		deps, err := followers(s.eng.meta.Views().Dependents(path), path, to)
		if err != nil {
			return nil, err
		}
		return s.renameView(ctx, tag, v, to, deps) // rename.go
	case "RENAME COLUMN":
		return s.renameMatviewColumn(ctx, v, m.Column, m.NewName)
	}
	return s.matviewOwner(ctx, v, m.NewName)
}

// renameMatviewColumn renames one output column: the view's names change
// (all are then explicit, as CREATE ... (cols) makes them), the backing
// table keeps its own (the binder reads it by position).
func (s *session) renameMatviewColumn(ctx context.Context, v views.View, from, to string) (pgwire.Result, error) {
	const tag = "ALTER MATERIALIZED VIEW"
	if err := s.mayOwnMatview(v); err != nil {
		return nil, err
	}
	i := slices.IndexFunc(v.Columns, func(c views.Column) bool { return c.Name == from })
	if i < 0 {
		return nil, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" does not exist", from)
	}
	if slices.ContainsFunc(v.Columns, func(c views.Column) bool { return c.Name == to }) {
		return nil, sqlerr.New(sqlerr.DuplicateColumn, "column \"%s\" of relation \"%s\" already exists", to, v.Path.Table)
	}
	if err := s.blockDDL(tag, nil); err != nil {
		return nil, err
	}
	r := v
	r.Columns = slices.Clone(v.Columns)
	r.Columns[i].Name = to
	r.ColumnNames = make([]string, len(r.Columns))
	for k, c := range r.Columns {
		r.ColumnNames[k] = c.Name
	}
	r.Pretty, r.Plain = "", "" // printed with the old name
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	if err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error { return tx.Views.Replace(r) }); err != nil {
		return nil, metaErr(err)
	}
	return tagOnly(tag), nil
}

// matviewOwner runs ALTER MATERIALIZED VIEW ... OWNER TO role: the view
// and its rows' tables change owner together (a reader reads the rows
// with the view owner's privileges).
func (s *session) matviewOwner(ctx context.Context, v views.View, role string) (pgwire.Result, error) {
	const tag = "ALTER MATERIALIZED VIEW"
	role, err := s.ownerRole(role) // owners.go
	if err != nil {
		return nil, err
	}
	if same, err := s.mayGiveTo("materialized view", v.Path.Table, s.eng.meta.Access().Owner(v.ACLKey()), role); same || err != nil {
		return tagOnly(tag), err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	err = s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		if err := tx.Access.SetOwner(v.ACLKey(), v.Path.String(), role); err != nil {
			return err
		}
		for _, p := range []fluss.TablePath{v.Matview.Backing, v.Matview.Previous} {
			if p.Table == "" {
				continue
			}
			if info, err := s.eng.storeTable(ctx, p); err == nil {
				if err := tx.Access.SetOwner(info.TableID, p.String(), role); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, metaErr(err)
	}
	return tagOnly(tag), nil
}

// matviewIndex runs CREATE [UNIQUE] INDEX on a materialized view: the
// index is kept with the view (REFRESH ... CONCURRENTLY needs a unique
// one, and each refresh checks it). done is false when d's table is not
// a materialized view.
func (s *session) matviewIndex(ctx context.Context, d *sql.DDLStmt) (res pgwire.Result, done bool, err error) {
	path, err := s.resolvePath(ctx, d.Table)
	if err != nil {
		return nil, false, nil
	}
	v, ok := s.eng.meta.Views().Get(path)
	if !ok || !v.Materialized() {
		return nil, false, nil
	}
	if err := s.mayOwnMatview(v); err != nil {
		return nil, true, err
	}
	name := d.Index
	if name == "" {
		name = v.Path.Table + "_" + strings.Join(d.IndexColumns, "_") + "_idx"
	}
	for _, ix := range v.Matview.Indexes {
		if ix.Name == name {
			if d.IfNotExists {
				return noticeResult("CREATE INDEX", sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists, skipping", name)), true, nil
			}
			return nil, true, sqlerr.RelationExists(name)
		}
	}
	cols := make([]string, len(d.IndexColumns))
	for i, c := range d.IndexColumns {
		c = strings.TrimSpace(c)
		if !slices.ContainsFunc(v.Columns, func(vc views.Column) bool { return vc.Name == strings.ToLower(c) || quoteIdent(vc.Name) == c }) {
			return nil, true, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" does not exist", strings.Trim(c, `"`))
		}
		cols[i] = c
	}
	ix := views.Index{Name: name, Unique: d.Unique, Columns: cols}
	if v.Populated() {
		if err := s.checkUniqueIndexes(ctx, views.View{Matview: &views.Matview{Indexes: []views.Index{ix}}}, v.Matview.Backing); err != nil {
			return nil, true, err
		}
	}
	if err := s.blockDDL("CREATE INDEX", nil); err != nil {
		return nil, true, err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	cur, ok := s.eng.meta.Views().Get(path)
	if !ok || cur.ID != v.ID {
		return nil, true, sqlerr.UndefinedRelation(path.Table)
	}
	mv := *cur.Matview
	mv.Indexes = append(slices.Clone(mv.Indexes), ix)
	if err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error { _, err := tx.Views.SetMatview(path, mv); return err }); err != nil {
		return nil, true, metaErr(err)
	}
	return tagOnly("CREATE INDEX"), true, nil
}

// dropMatviewIndexes runs DROP INDEX of indexes of materialized views:
// done is false when d names none (then the statement answers as for a
// table's, which has none).
func (s *session) dropMatviewIndexes(ctx context.Context, d *sql.DDLStmt) (pgwire.Result, bool, error) {
	type hit struct {
		v views.View
		i int
	}
	var hits []hit
	for _, name := range d.Names {
		for _, v := range s.eng.meta.Views().List("") {
			if v.Matview == nil {
				continue
			}
			if i := slices.IndexFunc(v.Matview.Indexes, func(ix views.Index) bool { return ix.Name == name }); i >= 0 {
				hits = append(hits, hit{v, i})
			}
		}
	}
	if len(hits) == 0 || len(hits) != len(d.Names) {
		return nil, false, nil
	}
	for _, h := range hits {
		if err := s.mayOwnMatview(h.v); err != nil {
			return nil, true, err
		}
	}
	if err := s.blockDDL("DROP INDEX", nil); err != nil {
		return nil, true, err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		for _, h := range hits {
			cur, ok := tx.Views.Get(h.v.Path)
			if !ok || cur.Matview == nil {
				continue
			}
			mv := *cur.Matview
			mv.Indexes = slices.DeleteFunc(slices.Clone(mv.Indexes), func(ix views.Index) bool { return ix.Name == h.v.Matview.Indexes[h.i].Name })
			if _, err := tx.Views.SetMatview(h.v.Path, mv); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, true, metaErr(err)
	}
	return tagOnly("DROP INDEX"), true, nil
}

// notPopulated is PostgreSQL's error for a scan of a materialized view
// created or refreshed WITH NO DATA (raised when the scan starts, so with
// no cursor).
func notPopulated(name string) error {
	return sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "materialized view \"%s\" has not been populated", name).
		WithHint("Use the REFRESH MATERIALIZED VIEW command.").AsUnplaced()
}

// matviewQuery is the query the binder expands a materialized view into:
// its backing table's rows.
func matviewQuery(v views.View) string {
	return "SELECT * FROM " + quoteIdent(v.Matview.Backing.Database) + "." + quoteIdent(v.Matview.Backing.Table)
}

// internalRuntime is the runtime of a query the engine runs for itself (a
// materialized view's fill, a function's query text): the EvalContext and
// Runtime a statement's execution builds (session.go), with a memory
// account and WITH-query runs of its own, reading tables. The caller
// closes it.
func (s *session) internalRuntime(ctx context.Context, ps *statement, tables lower.Tables, untransacted bool) (*lower.Runtime, error) {
	var req exec.BackendRequest
	backend, err := ps.backend(&req)
	if err != nil {
		return nil, err
	}
	ec := &exec.EvalContext{Ctx: ctx, Mem: s.eng.mem, Backend: backend.Default, Families: backend.Families}
	rt := &lower.Runtime{Ctx: ctx, Tables: tables, EC: ec, Backends: backend,
		Mem: relop.NewMemoryAccount(s.eng.opts.QueryMemoryLimit), SpillDir: s.eng.opts.SpillDir, Untransacted: untransacted,
		CTEs: &lower.CTERuns{}}
	ec.Env = rt
	return rt, nil
}
