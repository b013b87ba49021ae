package engine

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// CREATE INDEX of an index that is not unique (a unique one is a
// constraint's, uniqueddl.go): the store keeps no secondary index, so the
// index is a catalog object only, a row of the metadata store
// (meta.Index) that pg_class, pg_index, pg_indexes and pg_get_indexdef
// show as PostgreSQL 15 does (pgcatalog/indexes.go). Lookups do not use
// it. Its definition is checked as PostgreSQL checks it (binder.CheckIndex:
// columns, expressions, access method, operator classes, ordering), named
// as PostgreSQL names an unnamed one (binder.IndexName: t_a_idx,
// t_expr_idx, a number on collision in the schema), and DROP INDEX, ALTER
// INDEX (RENAME TO, SET / RESET storage parameters) and REINDEX reach it.
// It follows its table: DROP TABLE drops it (dropPlainIndexes), a rewrite
// or TRUNCATE that gives the table a new id moves it (meta.Tx.MoveIndexes),
// RENAME COLUMN rewrites its columns and expressions and DROP COLUMN drops
// it when it reads the column (followIndexes). In a transaction block a
// ROLLBACK restores the metadata's indexes as they were (txundo.go).

// indexStorageParams are the storage parameters (WITH, ALTER INDEX SET)
// each access method takes, with fillfactor's bounds (PostgreSQL 15's
// reloptions.c).
var indexStorageParams = map[string][]string{
	"btree":  {"fillfactor", "deduplicate_items"},
	"hash":   {"fillfactor"},
	"gist":   {"fillfactor", "buffering"},
	"gin":    {"fastupdate", "gin_pending_list_limit"},
	"spgist": {"fillfactor"},
	"brin":   {"pages_per_range", "autosummarize"},
}

// fillfactorBounds are the lowest fill factor of each method (100 the
// highest).
var fillfactorBounds = map[string]int{"btree": 10, "hash": 10, "gist": 10, "spgist": 10}

// indexParams checks storage parameters for an index of method and
// returns them as pg_class.reloptions lists them (name=value).
func indexParams(method string, opts []sql.ViewOption) ([]string, error) {
	var out []string
	for _, o := range opts {
		if !slices.Contains(indexStorageParams[method], o.Name) {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "unrecognized parameter \"%s\"", o.Name)
		}
		v := o.Value
		switch o.Name {
		case "fillfactor", "pages_per_range", "gin_pending_list_limit":
			n, err := strconv.Atoi(v)
			if !o.HasValue || err != nil {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for integer option \"%s\": %s", o.Name, v)
			}
			lo, hi := fillfactorBounds[method], 100
			switch o.Name {
			case "pages_per_range":
				lo, hi = 1, 131072
			case "gin_pending_list_limit":
				lo, hi = 64, 2147483647
			}
			if n < lo || n > hi {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "value %s out of bounds for option \"%s\"", v, o.Name).
					WithDetail("Valid values are between \"%d\" and \"%d\".", lo, hi)
			}
		case "buffering":
			switch strings.ToLower(v) {
			case "on", "off", "auto":
			default:
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for enum option \"buffering\": %s", v).
					WithDetail("Valid values are \"on\", \"off\", and \"auto\".")
			}
		default: // booleans
			if !o.HasValue {
				v = "true"
			}
			if _, ok := boolOption(v); !ok {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for boolean option \"%s\": %s", o.Name, v)
			}
		}
		out = append(out, o.Name+"="+v)
	}
	return out, nil
}

// boolOption reads a boolean option's value as parse_bool does.
func boolOption(v string) (bool, bool) {
	switch strings.ToLower(v) {
	case "on", "true", "yes", "1", "t", "y":
		return true, true
	case "off", "false", "no", "0", "f", "n":
		return false, true
	}
	return false, false
}

// createPlainIndex runs CREATE INDEX of an index that is not unique on
// info's table (d checked by binder.CheckIndex).
func (s *session) createPlainIndex(ctx context.Context, info fluss.TableInfo, d *sql.DDLStmt) (pgwire.Result, error) {
	method := strings.ToLower(d.IndexMethod)
	if method == "" {
		method = "btree"
	}
	ix := meta.Index{TableID: info.TableID, Method: method, NullsNotDistinct: d.IndexNullsNotDistinct}
	for _, text := range d.IndexColumns {
		e, err := binder.ParseIndexElem(text)
		if err != nil {
			return nil, err
		}
		k := meta.IndexKey{Column: e.Column, Expr: e.Expr, Collation: e.Collation, Opclass: e.Opclass, Desc: e.Desc, NullsFirst: e.NullsFirst}
		if col, ok := plainIndexColumn(unparen(e.Expr)); ok && e.Expr != "" && info.ColumnIndex(col) >= 0 {
			k.Column, k.Expr = col, "" // ((a)) is column a, as PostgreSQL keeps it
		}
		ix.Keys = append(ix.Keys, k)
	}
	for _, text := range d.IndexInclude {
		e, err := binder.ParseIndexElem(text)
		if err != nil {
			return nil, err
		}
		if e.Column == "" { // PostgreSQL's grammar takes only columns there
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "expressions are not supported in included columns")
		}
		ix.Include = append(ix.Include, e.Column)
	}
	if d.IndexPartial {
		ix.Where = d.IndexWhere
	}
	opts, err := indexParams(method, d.IndexOptions)
	if err != nil {
		return nil, err
	}
	ix.Options = opts
	db := info.Path.Database
	name := d.Index
	if name == "" {
		name = binder.IndexName(info.Path.Table, binder.IndexColumnNames(d.IndexColumns, d.IndexInclude), func(n string) bool { return s.relationNamed(ctx, db, n) })
	}
	if s.relationNamed(ctx, db, name) {
		if d.IfNotExists {
			return noticeResult("CREATE INDEX", existsSkipping(sqlerr.DuplicateTable, "relation", name)), nil
		}
		return nil, sqlerr.RelationExists(name)
	}
	ix.Name = name
	if err := s.blockDDL("CREATE INDEX", nil); err != nil {
		return nil, err
	}
	return tagOnly("CREATE INDEX"), s.updateIndexes(ctx, func(tx *meta.Tx) error {
		if _, err := s.eng.storeTable(ctx, info.Path); err != nil {
			return err // dropped meanwhile
		}
		ix.OID = meta.NextIndexOID(tx.Indexes, meta.IndexOIDBase)
		tx.Indexes[ix.OID] = ix
		return nil
	})
}

// updateIndexes commits change to the metadata's indexes under the DDL
// lock, with its inverse for a transaction block's ROLLBACK.
func (s *session) updateIndexes(ctx context.Context, change func(tx *meta.Tx) error) error {
	done := s.undoMetaObjects(ctx) // txundo.go
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	err := s.eng.meta.Update(ctx, change)
	s.eng.ddl.Unlock()
	if err != nil {
		return metaErr(err)
	}
	done()
	return nil
}

// createIndexOnRelation is CREATE INDEX's 42809 for a relation that is
// not a table (a view, a sequence), ok false when path is none of those.
func (s *session) createIndexOnRelation(ctx context.Context, path fluss.TablePath) (error, bool) {
	kind := ""
	if v, ok := s.eng.meta.Views().Get(path); ok && !v.Materialized() {
		kind = "views"
	} else if _, err := s.eng.storeTable(ctx, path); err != nil && s.relationAtPath(ctx, path) {
		kind = "sequences"
	}
	if kind == "" {
		return nil, false
	}
	return sqlerr.New(sqlerr.WrongObjectType, "cannot create index on relation \"%s\"", path.Table).
		WithDetail("This operation is not supported for %s.", kind), true
}

// plainIndexIn finds CREATE INDEX's index named name in schema db, with
// its table.
func (s *session) plainIndexIn(ctx context.Context, db, name string) (meta.Index, fluss.TableInfo, bool) {
	named := false
	for _, x := range s.eng.meta.Indexes() {
		named = named || x.Name == name
	}
	if !named {
		return meta.Index{}, fluss.TableInfo{}, false
	}
	ts, err := s.eng.store.ListTables(ctx, db)
	if err != nil {
		return meta.Index{}, fluss.TableInfo{}, false
	}
	for _, x := range s.eng.meta.Indexes() {
		if x.Name != name {
			continue
		}
		for _, t := range ts {
			if t.TableID == x.TableID {
				return x, t, true
			}
		}
	}
	return meta.Index{}, fluss.TableInfo{}, false
}

// dropTableIndexes runs DROP INDEX over a table's indexes (matviews' are
// matview.go's): every name is looked up first, in order, as
// RemoveRelations does (42704, or IF EXISTS's NOTICE; 42809 for a
// relation that is not an index), then a constraint's index refuses
// (2BP01), then the indexes are dropped: CREATE INDEX's from the
// metadata, unique ones by dropUniqueIndex.
func (s *session) dropTableIndexes(ctx context.Context, d *sql.DDLStmt) (pgwire.Result, error) {
	if d.Concurrently {
		if err := s.noTxnBlock("DROP INDEX CONCURRENTLY"); err != nil {
			return nil, err
		}
		if len(d.Names) > 1 {
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "DROP INDEX CONCURRENTLY does not support dropping multiple objects")
		}
		if d.Cascade {
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "DROP INDEX CONCURRENTLY does not support CASCADE")
		}
	}
	var notices []*sqlerr.Error
	var plain []uint32
	var uniques []int
	for i, name := range d.Names {
		r, db, found, err := s.findIndex(ctx, sql.ObjectName{Schema: d.NameSchemas[i], Name: name}) // alterindex.go
		if err != nil {
			return nil, err
		}
		if !found {
			if path, err := s.resolvePath(ctx, sql.ObjectName{Schema: d.NameSchemas[i], Name: name}); err == nil && s.relationAtPath(ctx, path) {
				noticeResult("DROP INDEX", notices...) // after the NOTICEs of the names looked up before it
				return nil, &warnedError{warnings: notices, err: sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is not an index", name).
					WithHint("Use DROP %s to remove %s.", relationKindWord(s, ctx, path), relationKindArticle(s, ctx, path))}
			}
			n := skipped("index", name)
			if schema := d.NameSchemas[i]; schema != "" {
				if exists, err := s.eng.tables.SchemaExists(ctx, schema); err == nil && !exists {
					n = skipped("schema", schema)
				}
			}
			if !d.IfExists {
				n.Code, n.Message = sqlerr.UndefinedObject, strings.TrimSuffix(n.Message, ", skipping")
				return nil, n
			}
			notices = append(notices, n)
			continue
		}
		_ = db
		if err := s.mayOwnIndex(r); err != nil {
			return nil, err
		}
		switch {
		case r.plain != nil:
			plain = append(plain, r.plain.OID)
		case r.pkey:
			// after the NOTICEs of the names looked up before it
			noticeResult("DROP INDEX", notices...)
			return nil, &warnedError{warnings: notices, err: sqlerr.New(sqlerr.DependentObjectsStillExist, "cannot drop index %s because constraint %s on table %s requires it", name, name, r.table.Path.Table).
				WithHint("You can drop constraint %s on table %s instead.", name, r.table.Path.Table)}
		default:
			uniques = append(uniques, i)
		}
	}
	for _, i := range uniques {
		_, ns, err := s.dropUniqueIndex(ctx, d, d.NameSchemas[i], d.Names[i]) // uniqueddl.go
		if err != nil {
			return nil, err
		}
		notices = append(notices, ns...)
	}
	if len(plain) > 0 {
		if err := s.blockDDL("DROP INDEX", nil); err != nil {
			return nil, err
		}
		err := s.updateIndexes(ctx, func(tx *meta.Tx) error {
			for _, oid := range plain {
				delete(tx.Indexes, oid)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return noticeResult("DROP INDEX", notices...), nil
}

// relationKindWord and relationKindArticle name the relation at path for
// DROP INDEX's hint ("Use DROP TABLE to remove a table.").
func relationKindWord(s *session, ctx context.Context, path fluss.TablePath) string {
	if v, ok := s.eng.meta.Views().Get(path); ok {
		if v.Materialized() {
			return "MATERIALIZED VIEW"
		}
		return "VIEW"
	}
	if _, err := s.eng.storeTable(ctx, path); err != nil {
		return "SEQUENCE"
	}
	return "TABLE"
}

func relationKindArticle(s *session, ctx context.Context, path fluss.TablePath) string {
	switch relationKindWord(s, ctx, path) {
	case "MATERIALIZED VIEW":
		return "a materialized view"
	case "VIEW":
		return "a view"
	case "SEQUENCE":
		return "a sequence"
	}
	return "a table"
}

// renamePlainIndex renames CREATE INDEX's index (the caller checked the
// new name).
func (s *session) renamePlainIndex(ctx context.Context, oid uint32, to string) error {
	return s.updateIndexes(ctx, func(tx *meta.Tx) error {
		ix, ok := tx.Indexes[oid]
		if !ok {
			return sqlerr.New(sqlerr.SerializationFailure, "could not serialize access due to concurrent update")
		}
		ix.Name = to
		tx.Indexes[oid] = ix
		return nil
	})
}

// setIndexParams runs ALTER INDEX ... SET | RESET (params) of CREATE
// INDEX's index: checked for its access method, kept in its options.
func (s *session) setIndexParams(ctx context.Context, ix meta.Index, a *sql.IndexAction) (pgwire.Result, error) {
	params := a.Params
	if a.Kind == sql.IndexResetOptions {
		params = nil
		for _, o := range a.Options {
			if !slices.Contains(indexStorageParams[ix.Method], o) {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "unrecognized parameter \"%s\"", o)
			}
		}
	}
	set, err := indexParams(ix.Method, params)
	if err != nil {
		return nil, err
	}
	if err := s.blockDDL("ALTER INDEX", nil); err != nil {
		return nil, err
	}
	err = s.updateIndexes(ctx, func(tx *meta.Tx) error {
		cur, ok := tx.Indexes[ix.OID]
		if !ok {
			return sqlerr.New(sqlerr.SerializationFailure, "could not serialize access due to concurrent update")
		}
		opts := slices.DeleteFunc(slices.Clone(cur.Options), func(o string) bool {
			name, _, _ := strings.Cut(o, "=")
			if a.Kind == sql.IndexResetOptions {
				return slices.Contains(a.Options, name)
			}
			return slices.ContainsFunc(set, func(n string) bool { return strings.HasPrefix(n, name+"=") })
		})
		cur.Options = append(opts, set...)
		tx.Indexes[ix.OID] = cur
		return nil
	})
	if err != nil {
		return nil, err
	}
	return tagOnly("ALTER INDEX"), nil
}

// dropPlainIndexes drops the CREATE INDEX indexes of a dropped table.
// One a failure here leaves names a table that is gone: no catalog shows
// it and no lookup finds it.
func (s *session) dropPlainIndexes(ctx context.Context, info fluss.TableInfo) {
	if !slices.ContainsFunc(mapValues(s.eng.meta.Indexes()), func(ix meta.Index) bool { return ix.TableID == info.TableID }) {
		return
	}
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		for oid, ix := range tx.Indexes {
			if ix.TableID == info.TableID {
				delete(tx.Indexes, oid)
			}
		}
		return nil
	})
	if err != nil {
		s.eng.log.Error("dropping the indexes of a dropped table (never shown again)", "table", info.Path.String(), "error", err)
	}
}

func mapValues[K comparable, V any](m map[K]V) []V {
	out := make([]V, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// followIndexes moves the indexes of a rewritten table (old id) to its new
// id, their columns renamed as columns maps each old column's name to its
// new one (nil: none renamed nor dropped): an index that reads a column
// columns lacks (dropped) is dropped, as PostgreSQL drops an index with a
// column it depends on.
func followIndexes(tx *meta.Tx, old, created int64, columns map[string]string) {
	tx.MoveIndexes(old, created)
	if columns == nil {
		return
	}
	for oid, ix := range tx.Indexes {
		if ix.TableID != created {
			continue
		}
		if nix, ok := renameIndexColumns(ix, columns); ok {
			tx.Indexes[oid] = nix
		} else {
			delete(tx.Indexes, oid)
		}
	}
}

// renameIndexColumns is ix over the renamed columns; ok false when it
// reads a column that is gone.
func renameIndexColumns(ix meta.Index, columns map[string]string) (meta.Index, bool) {
	col := func(name string) (string, bool) {
		to, ok := columns[name]
		return to, ok
	}
	// an expression's columns: each old name it reads is renamed through
	// a placeholder first, so that a swap of two names stays right
	expr := func(text string) (string, bool) {
		if text == "" {
			return "", true
		}
		olds := make([]string, 0, len(columns))
		for from := range columns {
			olds = append(olds, from)
		}
		slices.Sort(olds)
		out := text
		var marks []string
		for k, from := range olds {
			mark := "sqlgate_col_" + strconv.Itoa(k) + "_"
			if t, ok := sql.RenameColumnInExpr(out, from, mark); ok {
				out = t
				marks = append(marks, from)
			}
		}
		for k, from := range olds {
			mark := "sqlgate_col_" + strconv.Itoa(k) + "_"
			if slices.Contains(marks, from) {
				t, _ := sql.RenameColumnInExpr(out, mark, quoteIdent(columns[from]))
				out = t
			}
		}
		return out, !readsOther(out, columns)
	}
	ix.Keys = slices.Clone(ix.Keys)
	for i, k := range ix.Keys {
		var ok bool
		if k.Expr != "" {
			k.Expr, ok = expr(k.Expr)
		} else {
			k.Column, ok = col(k.Column)
		}
		if !ok {
			return ix, false
		}
		ix.Keys[i] = k
	}
	ix.Include = slices.Clone(ix.Include)
	for i, c := range ix.Include {
		to, ok := col(c)
		if !ok {
			return ix, false
		}
		ix.Include[i] = to
	}
	where, ok := expr(ix.Where)
	ix.Where = where
	return ix, ok
}

// readsOther reports whether text (already renamed) reads a column the
// table no longer has: a name that is neither a new name of columns nor
// a function's or type's. It is told by renaming: a column reference to
// a dropped column renames.
func readsOther(text string, columns map[string]string) bool {
	kept := map[string]bool{}
	for _, to := range columns {
		kept[to] = true
	}
	x, err := sql.ParseExprText(text)
	if err != nil {
		return true
	}
	other := false
	pt.Walk(x.Tree, func(n pt.Expr) bool {
		if c, ok := n.(*pt.ColumnRef); ok && c.Table == "" && !kept[c.Name] {
			other = true
		}
		return !other
	})
	return other
}

// unparen is text without its outer parentheses (a text that is no
// column after it is not one before).
func unparen(text string) string {
	t := strings.TrimSpace(text)
	for len(t) > 1 && t[0] == '(' && t[len(t)-1] == ')' {
		t = strings.TrimSpace(t[1 : len(t)-1])
	}
	return t
}

// plainExprColumn reports whether ix's column numbered n (text) is an
// expression's.
func plainExprColumn(ix meta.Index, n string) bool {
	k, err := strconv.Atoi(n)
	return err == nil && k >= 1 && k <= len(ix.Keys) && ix.Keys[k-1].Expr != ""
}
