package pgcatalog

import (
	"context"
	"slices"
	"strings"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/deparse"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/internal/pgoper"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/types"
)

// CREATE INDEX's indexes that are not unique (meta.Index, kept by the
// engine's metadata store, engine/ddlindex.go): each is an index relation
// as PostgreSQL 15 lists it: pg_class (relkind 'i', relam its access
// method, reloptions its WITH), pg_attribute (its columns: a key
// column's name, "expr", "expr1" ... for expressions), pg_index (indkey
// with 0 for an expression, indoption's DESC and NULLS FIRST bits,
// indclass the written or default operator class, indexprs and indpred
// the expressions' texts, which pg_get_expr prints), pg_indexes and
// pg_get_indexdef (the definition as PostgreSQL prints it: expressions
// deparsed, in parentheses unless a function call, COLLATE, a class
// other than the default, DESC / NULLS, INCLUDE, WITH, WHERE). The
// catalog finds them through Options.Views when that store lists them
// (IndexSource: *meta.Store does). The OIDs are the metadata's
// (meta.IndexOIDBase band); an index whose table is gone shows nowhere.

// IndexSource lists CREATE INDEX's indexes by OID.
type IndexSource interface {
	Indexes() map[uint32]meta.Index
}

// plainIndexes are the indexes of t, by OID.
func (c *Catalog) plainIndexes(t fluss.TableInfo) []meta.Index {
	src, ok := c.opts.Views.(IndexSource)
	if !ok {
		return nil
	}
	var out []meta.Index
	for _, ix := range src.Indexes() {
		if ix.TableID == t.TableID {
			out = append(out, ix)
		}
	}
	slices.SortFunc(out, func(a, b meta.Index) int { return int(a.OID) - int(b.OID) })
	return out
}

// plainIndexByOID finds the index with oid and its table.
func (c *Catalog) plainIndexByOID(ctx context.Context, oid uint32) (fluss.TableInfo, meta.Index, bool, error) {
	src, ok := c.opts.Views.(IndexSource)
	if !ok || oid < meta.IndexOIDBase || oid >= meta.IndexOIDBase+oidStride {
		return fluss.TableInfo{}, meta.Index{}, false, nil
	}
	ix, ok := src.Indexes()[oid]
	if !ok {
		return fluss.TableInfo{}, meta.Index{}, false, nil
	}
	tables, _, err := c.allTables(ctx)
	if err != nil {
		return fluss.TableInfo{}, meta.Index{}, false, err
	}
	for _, t := range tables {
		if t.TableID == ix.TableID {
			return t, ix, true, nil
		}
	}
	return fluss.TableInfo{}, meta.Index{}, false, nil
}

// plainIndexNamed finds the OID of t's index named rel.
func (c *Catalog) plainIndexNamed(t fluss.TableInfo, rel string) (uint32, bool) {
	for _, ix := range c.plainIndexes(t) {
		if ix.Name == rel {
			return ix.OID, true
		}
	}
	return 0, false
}

// indexColumn is one column of an index as the catalog shows it.
type indexColumn struct {
	name   string // the index's attribute name
	col    string // the table's column ("" an expression)
	attnum int    // the table's column's number (0: an expression)
	typ    types.T
	key    meta.IndexKey
	expr   string // the deparsed expression ("" a column)
}

// plainIndexColumns are ix's key columns then its INCLUDE columns.
func (c *Catalog) plainIndexColumns(ctx context.Context, t fluss.TableInfo, ix meta.Index, pretty bool) []indexColumn {
	cols := t.Descriptor.Schema.Columns
	var out []indexColumn
	column := func(name string, k meta.IndexKey) indexColumn {
		n := t.ColumnIndex(name)
		ic := indexColumn{name: name, col: name, attnum: n + 1, key: k, typ: types.T{Kind: types.String}}
		if n >= 0 {
			ic.typ = cols[n].Type
		}
		return ic
	}
	var elems []string
	for _, k := range ix.Keys {
		if k.Expr != "" {
			elems = append(elems, k.Expr)
		} else {
			elems = append(elems, quoteIdent(k.Column))
		}
	}
	names := binder.IndexColumnNames(elems, quoteIdents(ix.Include))
	for i, k := range ix.Keys {
		if k.Expr == "" {
			ic := column(k.Column, k)
			ic.name = names[i]
			out = append(out, ic)
			continue
		}
		ic := indexColumn{name: names[i], key: k, typ: types.T{Kind: types.String}, expr: strings.TrimSpace(k.Expr)}
		if out, err := deparse.Expr(k.Expr, sessionScope(ctx, c.tableScope(t)), pretty); err == nil {
			ic.expr = out
		}
		out = append(out, ic)
	}
	for i, name := range ix.Include {
		ic := column(name, meta.IndexKey{})
		ic.name = names[len(ix.Keys)+i]
		out = append(out, ic)
	}
	return out
}

// looksLikeFunction is ruleutils' looks_like_function over the deparsed
// text: a call (name(...) as a whole) needs no parentheses of its own in
// an index definition.
func looksLikeFunction(expr string) bool {
	open := strings.IndexByte(expr, '(')
	if open <= 0 || !strings.HasSuffix(expr, ")") {
		return false
	}
	name := expr[:open]
	if strings.ContainsAny(name, " ():+-*/<>=|&!~") {
		return false
	}
	depth := 0
	for i := open; i < len(expr); i++ {
		switch expr[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i != len(expr)-1 {
				return false
			}
		case '\'':
			for i++; i < len(expr) && expr[i] != '\''; i++ {
			}
		case '"':
			for i++; i < len(expr) && expr[i] != '"'; i++ {
			}
		}
	}
	return true
}

// keyExpr is an expression key as an index definition prints it, in
// parentheses unless a call (also for one column of it).
func keyExpr(expr string) string {
	if looksLikeFunction(expr) {
		return expr
	}
	return "(" + expr + ")"
}

// plainIndexDef is pg_get_indexdef of ix (column > 0: that column's
// name or expression alone, "" past the end).
func (c *Catalog) plainIndexDef(ctx context.Context, t fluss.TableInfo, ix meta.Index, column int, pretty bool) string {
	cols := c.plainIndexColumns(ctx, t, ix, pretty)
	if column > 0 {
		if column > len(cols) {
			return ""
		}
		if ic := cols[column-1]; ic.expr != "" {
			return keyExpr(ic.expr)
		}
		return quoteIdent(cols[column-1].col)
	}
	table := quoteIdent(t.Path.Database) + "." + quoteIdent(t.Path.Table)
	if pretty && onPath(ctx, t.Path.Database) {
		table = quoteIdent(t.Path.Table)
	}
	var keys []string
	for _, ic := range cols[:len(ix.Keys)] {
		k := quoteIdent(ic.col)
		if ic.expr != "" {
			k = keyExpr(ic.expr)
		}
		if coll := ic.key.Collation; coll != "" && collationOID(coll) != c.colType(ic.typ).collation {
			k += " COLLATE " + quoteIdent(coll)
		}
		if oc := ic.key.Opclass; oc != "" && opClassOID(ix.Method, oc) != defaultClass(ix.Method, ic.typ) {
			k += " " + oc
		}
		if ix.Method == "btree" {
			switch {
			case ic.key.Desc && !ic.key.NullsFirst:
				k += " DESC NULLS LAST"
			case ic.key.Desc:
				k += " DESC"
			case ic.key.NullsFirst:
				k += " NULLS FIRST"
			}
		}
		keys = append(keys, k)
	}
	def := "CREATE INDEX " + quoteIdent(ix.Name) + " ON " + table + " USING " + ix.Method + " (" + strings.Join(keys, ", ") + ")"
	if len(ix.Include) > 0 {
		def += " INCLUDE (" + strings.Join(quoteIdents(ix.Include), ", ") + ")"
	}
	if ix.NullsNotDistinct {
		def += " NULLS NOT DISTINCT"
	}
	if len(ix.Options) > 0 {
		opts := make([]string, len(ix.Options))
		for i, o := range ix.Options {
			name, v, _ := strings.Cut(o, "=")
			if quoteIdent(v) != v {
				v = "'" + strings.ReplaceAll(v, "'", "''") + "'"
			}
			opts[i] = name + "=" + v
		}
		def += " WITH (" + strings.Join(opts, ", ") + ")"
	}
	if ix.Where != "" {
		pred := strings.TrimSpace(ix.Where)
		if out, err := deparse.Expr(ix.Where, sessionScope(ctx, c.tableScope(t)), pretty); err == nil {
			pred = out
		}
		def += " WHERE " + pred
	}
	return def
}

// collationOID is the OID of the collation named name (0 none).
func collationOID(name string) uint32 {
	for _, c := range functions.Collations() {
		if c.Name == name {
			return c.OID
		}
	}
	return 0
}

// opClassOID is the OID of method's operator class named name (0 none).
func opClassOID(method, name string) uint32 {
	am := binder.IndexMethodOID(method)
	name = strings.TrimPrefix(name, "pg_catalog.")
	for _, oc := range pgoper.OpClasses() {
		if oc.Method == am && oc.Name == name {
			return oc.OID
		}
	}
	return 0
}

// defaultClass is method's default operator class for a key of type t.
func defaultClass(method string, t types.T) uint32 {
	return binder.DefaultIndexOpClass(binder.IndexMethodOID(method), t)
}

// plainClassRows are pg_class's rows of t's indexes.
func (c *Catalog) plainClassRows(t fluss.TableInfo, owner any) []row {
	var rows []row
	for _, ix := range c.plainIndexes(t) {
		r := classBase(ix.OID, ix.Name, namespaceOID(t.Path.Database), "i", len(ix.Keys)+len(ix.Include))
		r["relam"], r["relowner"], r["reltuples"], r["relpages"] = binder.IndexMethodOID(ix.Method), owner, 0.0, 1
		if len(ix.Options) > 0 {
			opts := make([]any, len(ix.Options))
			for i, o := range ix.Options {
				opts[i] = o
			}
			r["reloptions"] = opts
		}
		rows = append(rows, r)
	}
	return rows
}

// plainAttributeRows are pg_attribute's rows of t's indexes.
func (c *Catalog) plainAttributeRows(ctx context.Context, t fluss.TableInfo) []row {
	var rows []row
	for _, ix := range c.plainIndexes(t) {
		for k, ic := range c.plainIndexColumns(ctx, t, ix, false) {
			r := c.attributeRow(ix.OID, k+1, ic.name, ic.typ)
			r["attnotnull"] = false
			rows = append(rows, r)
		}
	}
	return rows
}

// plainIndexRows are pg_index's rows of t's indexes.
func (c *Catalog) plainIndexRows(ctx context.Context, t fluss.TableInfo) []row {
	var rows []row
	for _, ix := range c.plainIndexes(t) {
		cols := c.plainIndexColumns(ctx, t, ix, false)
		nums := make([]int, len(cols))
		colls := make([]any, len(ix.Keys))
		classes := make([]any, len(ix.Keys))
		opts := make([]any, len(ix.Keys))
		var exprs []string
		for i, ic := range cols {
			nums[i] = ic.attnum
			if i >= len(ix.Keys) {
				continue
			}
			colls[i] = c.colType(ic.typ).collation
			if ic.key.Collation != "" {
				colls[i] = collationOID(ic.key.Collation)
			}
			classes[i] = defaultClass(ix.Method, ic.typ)
			if ic.key.Opclass != "" {
				classes[i] = opClassOID(ix.Method, ic.key.Opclass)
			}
			opt := 0
			if ic.key.Desc {
				opt |= 1 // INDOPTION_DESC
			}
			if ic.key.NullsFirst {
				opt |= 2 // INDOPTION_NULLS_FIRST
			}
			opts[i] = opt
			if ic.key.Expr != "" {
				exprs = append(exprs, strings.TrimSpace(ic.key.Expr))
			}
		}
		var indexprs, indpred any
		if len(exprs) > 0 {
			indexprs = strings.Join(exprs, ", ")
		}
		if ix.Where != "" {
			indpred = ix.Where
		}
		rows = append(rows, row{
			"indexrelid": ix.OID, "indrelid": RelationOID(t.TableID), "indnatts": len(cols),
			"indnkeyatts": len(ix.Keys), "indisunique": false, "indnullsnotdistinct": ix.NullsNotDistinct, "indisprimary": false,
			"indisexclusion": false, "indimmediate": true, "indisclustered": false, "indisvalid": true,
			"indcheckxmin": false, "indisready": true, "indislive": true, "indisreplident": false,
			"indkey": int2s(nums), "indcollation": colls, "indclass": classes, "indoption": opts,
			"indexprs": indexprs, "indpred": indpred,
		})
	}
	return rows
}

// plainIndexesViewRows are pg_indexes' rows of t's indexes.
func (c *Catalog) plainIndexesViewRows(ctx context.Context, t fluss.TableInfo) []row {
	var rows []row
	for _, ix := range c.plainIndexes(t) {
		rows = append(rows, row{"schemaname": t.Path.Database, "tablename": t.Path.Table,
			"indexname": ix.Name, "indexdef": c.plainIndexDef(ctx, t, ix, 0, false)})
	}
	return rows
}

// plainIndexName is an index's name as regclass prints it.
func (c *Catalog) plainIndexName(ctx context.Context, oid uint32) (string, bool, error) {
	t, ix, ok, err := c.plainIndexByOID(ctx, oid)
	if err != nil || !ok {
		return "", false, err
	}
	if !onPath(ctx, t.Path.Database) {
		return quoteIdent(t.Path.Database) + "." + quoteIdent(ix.Name), true, nil
	}
	return quoteIdent(ix.Name), true, nil
}
