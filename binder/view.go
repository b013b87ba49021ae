package binder

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/views"
)

// Views.
//
// CREATE VIEW binds its query like any SELECT (so it fails as that SELECT
// would: 42P01, 42703 ...) and records the output columns and the
// relations the query names directly. A view named in FROM is expanded:
// its stored definition, parsed by the catalog, is bound afresh by a
// binder of its own (no outer scope, no CTEs of the query naming it), and
// its output must still start with the columns stored when it was
// created, with the same names and types; if a table it uses changed
// under it, the query fails naming the view and the column instead of
// answering differently.

// ViewColumn is one output column of a view.
type ViewColumn struct {
	Name string
	T    types.T
	// Updatable: a plain column of the base relation of an automatically
	// updatable view (viewwrite.go).
	Updatable bool
}

// View is a stored view as the binder expands it.
type View struct {
	Path fluss.TablePath
	ID   int64
	// Query is the parsed definition: a SELECT, a set operation or a
	// WITH query.
	Query *sql.Statement
	// Columns are the view's columns as stored when it was created (or
	// last replaced); the first Named of them were named by CREATE VIEW's
	// column list, the others take their query's column names.
	Columns []ViewColumn
	Named   int
	// AutoUpdatable: the view was automatically updatable when created
	// (viewwrite.go); the catalog reports it.
	AutoUpdatable bool
	// CheckOption is the view's WITH CHECK OPTION: "local", "cascaded"
	// or "" (viewcheck.go).
	CheckOption string
	// SecurityInvoker: the relations the view reads are checked against
	// the role using it, not its owner (security_invoker = true).
	SecurityInvoker bool
	// Stored: Query reads the rows a materialized view stored, in a table
	// whose columns may hold a type in Fluss's wider form (an unbounded
	// numeric as a DECIMAL(38, s)); each is cast back to the view's type.
	Stored bool
	// Partition: the view names a partition of a PostgreSQL-partitioned
	// table (CREATE TABLE ... PARTITION OF), which PostgreSQL has as a
	// table: its tableoid is its own OID, and a row an UPDATE writes
	// through it must meet its partition constraint (its WHERE), as a
	// check option would, failing with 23514 (viewcheck.go).
	Partition bool
}

// PartitionCatalog is implemented by catalogs that know the partitions of
// PostgreSQL-partitioned tables (fluss.TableInfo.PartitionStrategy).
type PartitionCatalog interface {
	// Partitions are the partition relations of the table with Fluss id
	// tableID.
	Partitions(ctx context.Context, tableID int64) []PartitionRelation
}

// PartitionRelation is one partition: its path and the value of the
// partition key it holds, as an SQL literal of the key's type ('x', 1,
// true); Default is set on the DEFAULT partition (no Value), which holds
// every value the others do not.
type PartitionRelation struct {
	Path    fluss.TablePath
	Value   string
	Default bool
}

// ViewCatalog is implemented by catalogs that also hold views.
type ViewCatalog interface {
	// GetView returns the view at path, or nil (and no error) if there is
	// none.
	GetView(ctx context.Context, path fluss.TablePath) (*View, error)
}

// ViewRelation is a relation a view's definition names directly.
type ViewRelation struct {
	Path fluss.TablePath
	// TableID is a table's Fluss id (0 for a view); ViewID a view's (0
	// for a table).
	TableID, ViewID int64
}

// CreateView is CREATE [OR REPLACE] VIEW.
type CreateView struct {
	Path      fluss.TablePath
	OrReplace bool
	// Definition is the query as the user wrote it.
	Definition string
	// ColumnNames is the explicit column list, nil when none.
	ColumnNames []string
	Columns     []ViewColumn
	// Uses are the tables and views the query names directly; Functions
	// the signatures of the LANGUAGE sql functions it calls directly.
	Uses      []ViewRelation
	Functions []string
	// Printed is the definition as PostgreSQL would print it, for the
	// simple views printViewDef knows (zero otherwise).
	Printed ViewText
	// AutoUpdatable: INSERT, UPDATE and DELETE may write through the view
	// (viewwrite.go); Columns say which columns they may set.
	AutoUpdatable bool
	// Options are the view's options as pg_class.reloptions shows them
	// (WITH (..) and WITH CHECK OPTION; views.ApplyOptions).
	Options []string
}

// DropView is DROP VIEW [IF EXISTS] v, ...
type DropView struct {
	Paths    []fluss.TablePath
	IfExists bool
}

func (*CreateView) Params() []types.T { return nil }
func (*DropView) Params() []types.T   { return nil }

type expandingKey struct{}

// ExpandingView returns the innermost view whose definition is being
// bound when the binder passes ctx to its Catalog (nil outside views):
// PostgreSQL checks the relations a view reads with its owner's
// privileges, not the querying role's.
func ExpandingView(ctx context.Context) *View {
	v, _ := ctx.Value(expandingKey{}).(*View)
	return v
}

// asOwner is ctx under which v's definition reads its relations: as its
// owner, or, for a security_invoker view, as whoever reads the view (the
// role, or the owner of a view over it).
func asOwner(ctx context.Context, v *View) context.Context {
	if v.SecurityInvoker {
		return ctx
	}
	return context.WithValue(ctx, expandingKey{}, v)
}

// noteUse records a relation named directly by the CREATE VIEW query
// being bound (not by the views it names, whose binders have no uses).
func (b *binder) noteUse(r ViewRelation) {
	if b.uses == nil {
		return
	}
	switch r.Path.Database {
	case "pg_catalog", "information_schema":
		return
	}
	for _, u := range *b.uses {
		if u == r {
			return
		}
	}
	*b.uses = append(*b.uses, r)
}

// bindCreateView binds CREATE VIEW.
func (b *binder) bindCreateView(cv *pt.CreateView) (Statement, error) {
	if b.stmt != nil && b.stmt.NumParams > 0 {
		return nil, sqlerr.New(sqlerr.UndefinedParameter, "there is no parameter $1")
	}
	path, err := b.createPath(cv.Name)
	if err != nil {
		return nil, err
	}
	switch path.Database {
	case "pg_catalog", "information_schema":
		return nil, sqlerr.New(sqlerr.InsufficientPrivilege, "permission denied to create \"%s.%s\"", path.Database, path.Table).
			WithDetail("System catalog modifications are currently disallowed.")
	}
	uses, funcs := []ViewRelation{}, []string{}
	b.uses, b.funcUses = &uses, &funcs
	plan, ok, err := b.bindQuery(cv.Query)
	b.uses, b.funcUses = nil, nil
	if !ok {
		err = sqlerr.NotSupported("a view over this kind of query")
	}
	if err != nil {
		return nil, err
	}
	cols := plan.Columns()
	if len(cv.Columns) > len(cols) {
		return nil, sqlerr.New(sqlerr.SyntaxError, "CREATE VIEW specifies more column names than columns")
	}
	out := &CreateView{Path: path, OrReplace: cv.OrReplace, Uses: uses, Functions: funcs}
	seen := map[string]bool{}
	for i, c := range cols {
		name := c.Name
		if i < len(cv.Columns) {
			name = cv.Columns[i]
			out.ColumnNames = append(out.ColumnNames, name)
		}
		if seen[name] {
			return nil, sqlerr.New(sqlerr.DuplicateColumn, "column \"%s\" specified more than once", name)
		}
		seen[name] = true
		out.Columns = append(out.Columns, ViewColumn{Name: name, T: viewColumnType(c.T)})
	}
	if b.stmt != nil {
		// The query is the rewritten text's tail (sql took WITH CHECK
		// OPTION off it: viewopts.go).
		sel := strings.TrimSpace(cv.Query.Text)
		start := strings.LastIndex(b.stmt.Rewritten, sel)
		if start < 0 {
			return nil, sqlerr.New(sqlerr.InternalError, "cannot find the query of CREATE VIEW in its text")
		}
		out.Definition = b.stmt.OriginalFrom(start)
		var err error
		if out.Options, err = views.ApplyOptions(nil, ViewOptions(b.stmt.ViewOptions), false); err != nil {
			return nil, err
		}
	}
	why := b.markUpdatable(out, cv.Query) // viewwrite.go
	if why != "" && (views.View{Options: out.Options}).CheckOption() != "" {
		// PostgreSQL's DefineView: only the view's own query counts (a
		// view over a view that is not updatable passes)
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "WITH CHECK OPTION is supported only on automatically updatable views").
			WithHint("%s", why)
	}
	if len(uses) == 1 && uses[0].TableID != 0 {
		if info, err := b.cat.GetTable(b.ctx, uses[0].Path); err == nil {
			names := make([]string, len(out.Columns))
			for i, c := range out.Columns {
				names[i] = c.Name
			}
			if q, err := b.trees.SubqueryTree(cv.Query, b.stmt); err == nil {
				out.Printed, _ = printViewDef(q, info, names)
			}
		}
	}
	return out, nil
}

// viewColumnType is the type a view column gets: an untyped literal's
// column is text, as in PostgreSQL 10 and later; nullability is the
// query's business, not the view's.
func viewColumnType(t types.T) types.T {
	switch t.Kind {
	case types.Unknown, types.Null:
		return types.StringType
	}
	return t.Nullable()
}

// bindQuery binds the query a statement of the tree holds (CREATE VIEW's,
// CREATE TABLE AS's): still TiDB's SELECT or set operation until the
// queries move onto the tree. ok is false for another kind of query.
func (b *binder) bindQuery(q *pt.Subquery) (Node, bool, error) {
	return b.bindQueryNode(q.Query)
}

func (b *binder) bindDropView(dt *pt.DropTable) (Statement, error) {
	out := &DropView{IfExists: dt.IfExists}
	for _, tn := range dt.Names {
		out.Paths = append(out.Paths, b.treePath(tn))
	}
	return out, nil
}

// bindViewRef expands src if it names a view; ok is false when it does
// not (a table, or a catalog without views).
func (b *binder) bindViewRef(src *pt.TableName, alias string) (n Node, ok bool, err error) {
	vc, isViews := b.cat.(ViewCatalog)
	if !isViews {
		return nil, false, nil
	}
	path := b.treePath(src)
	v, err := vc.GetView(b.ctx, path)
	if err != nil {
		if se := sqlerr.As(err); se != nil {
			return nil, true, b.errAt(src, se)
		}
		return nil, true, err
	}
	if v == nil {
		return nil, false, nil
	}
	b.noteUse(ViewRelation{Path: v.Path, ViewID: v.ID})
	for _, p := range b.viewStack {
		if p == v.Path {
			return nil, true, sqlerr.New(sqlerr.InvalidObjectDefinition, "infinite recursion detected in rules for relation \"%s\"", v.Path.Table)
		}
	}
	if alias == "" {
		alias = v.Path.Table
	}
	if v.Partition {
		b.partitions = append(b.partitions, partitionItem{alias: alias, path: v.Path})
	}
	n, err = b.expandView(v, alias)
	return n, true, err
}

// describeView is DESCRIBE of a view: its stored columns (no key).
func (b *binder) describeView(path fluss.TablePath) (Statement, bool, error) {
	vc, isViews := b.cat.(ViewCatalog)
	if !isViews {
		return nil, false, nil
	}
	v, err := vc.GetView(b.ctx, path)
	if err != nil || v == nil {
		return nil, err != nil, err
	}
	info := fluss.TableInfo{Path: v.Path}
	for _, c := range v.Columns {
		info.Descriptor.Schema.Columns = append(info.Descriptor.Schema.Columns, fluss.Column{Name: c.Name, Type: c.T})
	}
	return &Describe{Table: info}, true, nil
}

// expandView binds v's definition and checks it against v's stored columns.
func (b *binder) expandView(v *View, alias string) (Node, error) {
	if v.Query == nil || v.Query.AST == nil {
		return nil, sqlerr.New(sqlerr.InternalError, "view \"%s\" has no definition", v.Path.Table)
	}
	stack := append(append([]fluss.TablePath(nil), b.viewStack...), v.Path)
	sub := &binder{ctx: asOwner(b.ctx, v), cat: b.cat, stmt: v.Query, viewStack: stack}
	inner, ok, err := sub.bindQueryNode(v.Query.AST)
	if !ok {
		err = sqlerr.NotSupported("a view over this kind of query")
	}
	if err != nil {
		if se := sqlerr.As(err); se != nil {
			if se.Code == sqlerr.InvalidObjectDefinition || strings.HasPrefix(se.Message, "view \"") {
				return nil, se // already names the view at fault
			}
			return nil, staleView(v, se.Code, "%s", se.Message)
		}
		return nil, err
	}
	cols := inner.Columns()
	p := &Project{Input: inner}
	for i, want := range v.Columns {
		if i >= len(cols) {
			return nil, staleView(v, sqlerr.UndefinedColumn, "column \"%s\" is missing from its query's result", want.Name)
		}
		got := cols[i]
		var e Expr = &ColumnRef{Index: i, Name: got.Name, T: got.T}
		switch {
		case got.T.Kind == types.Unknown || got.T.Kind == types.Null || v.Stored && !got.T.Equal(want.T):
			e = b.castTo(e, want.T)
		case !got.T.Equal(want.T):
			return nil, staleView(v, sqlerr.DatatypeMismatch, "column \"%s\" was of type %s and is now of type %s", want.Name, want.T.PGName(), got.T.PGName())
		}
		if i >= v.Named && got.Name != want.Name {
			return nil, staleView(v, sqlerr.UndefinedColumn, "column \"%s\" is now \"%s\"", want.Name, got.Name)
		}
		p.Exprs = append(p.Exprs, e)
		p.Cols = append(p.Cols, Column{Name: want.Name, T: e.Type(), Table: alias})
	}
	return p, nil
}

// staleView is the error of a view whose tables changed under it.
func staleView(v *View, code sqlerr.Code, format string, args ...any) *sqlerr.Error {
	e := sqlerr.New(code, "view \"%s\" no longer matches the relations it uses: "+format, append([]any{v.Path.Table}, args...)...)
	return e.WithHint("A table the view uses was dropped and created again with other columns; re-create the view with CREATE OR REPLACE VIEW.")
}

// ViewOptions are a statement's view options as views.ApplyOptions takes
// them.
func ViewOptions(opts []sql.ViewOption) []views.Option {
	out := make([]views.Option, len(opts))
	for i, o := range opts {
		out[i] = views.Option{Name: o.Name, Value: o.Value, HasValue: o.HasValue}
	}
	return out
}
