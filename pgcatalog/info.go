package pgcatalog

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/deparse"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Catalog answers the catalog functions' questions.
var _ functions.CatalogInfo = (*Catalog)(nil)
var _ functions.RowTypes = (*Catalog)(nil)

// Version implements functions.CatalogInfo: version()'s text, which
// starts "PostgreSQL 15." as SQLAlchemy and others require.
func (c *Catalog) Version() string {
	v := c.opts.Version
	if v == "" {
		v = "dev"
	}
	arch := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[runtime.GOARCH]
	if arch == "" {
		arch = runtime.GOARCH
	}
	return fmt.Sprintf("PostgreSQL %s (sqlgate %s) on %s-pc-%s-gnu, compiled by %s, 64-bit",
		c.opts.ServerVersion, v, arch, runtime.GOOS, runtime.Version())
}

// StartTime implements functions.CatalogInfo.
func (c *Catalog) StartTime() time.Time { return c.opts.StartTime }

// Database implements functions.CatalogInfo.
func (c *Catalog) Database() string { return c.opts.Database }

// User implements functions.CatalogInfo.
func (c *Catalog) User() string { return c.opts.User }

// splitQualified splits an optionally schema-qualified name as regclass
// input does: unquoted parts fold to lower case, quoted parts keep theirs.
func splitQualified(s string) ([]string, error) {
	var parts []string
	var b strings.Builder
	inQuote, quoted := false, false
	flush := func() error {
		p := b.String()
		if !quoted {
			p = strings.ToLower(strings.TrimSpace(p))
		}
		if p == "" {
			return sqlerr.New(invalidName, "invalid name syntax")
		}
		parts = append(parts, p)
		b.Reset()
		quoted = false
		return nil
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case inQuote && ch == '"' && i+1 < len(s) && s[i+1] == '"':
			b.WriteByte('"')
			i++
		case ch == '"':
			inQuote = !inQuote
			quoted = true
		case !inQuote && ch == '.':
			if err := flush(); err != nil {
				return nil, err
			}
		default:
			b.WriteByte(ch)
		}
	}
	if inQuote {
		return nil, sqlerr.New(invalidName, "invalid name syntax")
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if len(parts) > 3 {
		return nil, sqlerr.New(invalidName, "improper relation name (too many dotted names): %s", s)
	}
	return parts, nil
}

// LookupRelation implements functions.CatalogInfo. Unqualified names are
// searched in pg_catalog, then public, as PostgreSQL's default search path
// does.
func (c *Catalog) LookupRelation(ctx context.Context, name string) (uint32, bool, error) {
	parts, err := splitQualified(name)
	if err != nil {
		return 0, false, err
	}
	if len(parts) == 3 {
		if parts[0] != c.opts.Database {
			return 0, false, sqlerr.New(sqlerr.FeatureNotSupported, "cross-database references are not implemented: %s", name)
		}
		parts = parts[1:]
	}
	rel := parts[len(parts)-1]
	schemas := []string{pgCatalog, fluss.DefaultDatabase}
	if path, ok := functions.SearchPathOf(ctx); ok {
		schemas = append([]string{pgCatalog}, path...)
	}
	if len(parts) == 2 {
		schemas = parts[:1]
	}
	for _, schema := range schemas {
		if sp, ok := c.specs[schema+"."+rel]; ok {
			return sp.oid, true, nil
		}
		if schema == pgCatalog || schema == infoSchema {
			continue
		}
		tables, err := c.store.ListTables(ctx, schema)
		if err != nil {
			return 0, false, err
		}
		for _, t := range tables {
			if t.Path.Table == rel {
				return RelationOID(t.TableID), true, nil
			}
			if t.HasPrimaryKey() && pkName(t) == rel {
				return pkIndexOID(t.TableID), true, nil
			}
			if oid, ok := uniqueIndexNamed(t, rel); ok { // unique.go
				return oid, true, nil
			}
			if oid, ok := c.plainIndexNamed(t, rel); ok { // indexes.go
				return oid, true, nil
			}
		}
		if oid, ok := c.viewOIDByName(schema, rel); ok {
			return oid, true, nil
		}
		if oid, ok, err := c.partitionIndexNamed(ctx, schema, rel); err != nil || ok { // pgpartitions.go
			return oid, ok, err
		}
		if oid, ok, err := c.sequenceOIDByName(ctx, schema, rel); err != nil || ok { // coldefs.go
			return oid, ok, err
		}
	}
	return 0, false, nil
}

// relation finds what a relation OID names: a user table (or its primary
// key index, index true) or a catalog relation.
func (c *Catalog) relation(ctx context.Context, oid uint32) (t fluss.TableInfo, index bool, spec *relSpec, ok bool, err error) {
	if sp, found := c.byOID[oid]; found {
		return t, false, sp, true, nil
	}
	if oid < firstUserOID {
		return t, false, nil, false, nil
	}
	if v, isView := c.viewByOID(oid); isView {
		return viewTableInfo(v), false, nil, true, nil
	}
	if ut, _, found, err := c.uniqueByOID(ctx, oid, uniqueIndexOIDBase); found || err != nil { // unique.go
		return ut, found, nil, found, err
	}
	if pt, _, found, err := c.plainIndexByOID(ctx, oid); found || err != nil { // indexes.go
		return pt, found, nil, found, err
	}
	id := int64(oid - firstUserOID)
	switch {
	case id >= 2*oidStride && id < 3*oidStride:
		id -= 2 * oidStride
		index = true
	case id >= oidStride:
		return t, false, nil, false, nil
	}
	tables, _, err := c.allTables(ctx)
	if err != nil {
		return t, false, nil, false, err
	}
	for _, tb := range tables {
		if tb.TableID == id && (!index || tb.HasPrimaryKey()) {
			return tb, index, nil, true, nil
		}
	}
	return t, false, nil, false, nil
}

// RelationName implements functions.CatalogInfo.
func (c *Catalog) RelationName(ctx context.Context, oid uint32) (string, bool, error) {
	if q, ok, err := c.sequenceByOID(ctx, oid); err != nil || ok { // coldefs.go
		name := quoteIdent(q.Path.Table)
		if ok && !onPath(ctx, q.Path.Database) {
			name = quoteIdent(q.Path.Database) + "." + name
		}
		return name, ok, err
	}
	if ct := c.compositeByRel(oid); ct != nil { // composites.go
		if !onPath(ctx, ct.Schema) {
			return quoteIdent(ct.Schema) + "." + quoteIdent(ct.Name), true, nil
		}
		return quoteIdent(ct.Name), true, nil
	}
	if name, ok, err := c.uniqueIndexName(ctx, oid); ok || err != nil { // unique.go
		return name, ok, err
	}
	if name, ok, err := c.plainIndexName(ctx, oid); ok || err != nil { // indexes.go
		return name, ok, err
	}
	if kp, ok, err := c.partitionKeyByOID(ctx, oid, partIndexOIDBase); ok || err != nil { // pgpartitions.go
		name := quoteIdent(partitionKeyName(kp.v))
		if ok && !onPath(ctx, kp.v.Path.Database) {
			name = quoteIdent(kp.v.Path.Database) + "." + name
		}
		return name, ok, err
	}
	t, index, sp, ok, err := c.relation(ctx, oid)
	if err != nil || !ok {
		return "", false, err
	}
	switch {
	case sp != nil && sp.schema == infoSchema:
		return infoSchema + "." + quoteIdent(sp.name), true, nil
	case sp != nil:
		return quoteIdent(sp.name), true, nil
	}
	name := quoteIdent(t.Path.Table)
	if index {
		name = quoteIdent(pkName(t))
	}
	if !onPath(ctx, t.Path.Database) {
		return quoteIdent(t.Path.Database) + "." + name, true, nil
	}
	return name, true, nil
}

// onPath reports whether the session's search_path names schema (public
// is, by default): regclass output qualifies a table's name otherwise, as
// PostgreSQL does for a relation it would not find.
func onPath(ctx context.Context, schema string) bool {
	if sess, ok := functions.SessionIn(ctx); ok && schema == fmt.Sprintf("pg_temp_%d", uint32(sess.BackendPID)) {
		return true // the session's temporary schema, searched first
	}
	path, ok := functions.SearchPathOf(ctx)
	if !ok {
		return schema == fluss.DefaultDatabase
	}
	return slices.Contains(path, schema)
}

// RelationVisible implements functions.CatalogInfo: pg_catalog's relations
// and those of the schemas on the search path are visible.
func (c *Catalog) RelationVisible(ctx context.Context, oid uint32) (bool, error) {
	if seq, ok, err := c.sequenceByOID(ctx, oid); err != nil || ok { // coldefs.go
		return ok && onPath(ctx, seq.Path.Database), err
	}
	if ct := c.compositeByRel(oid); ct != nil { // composites.go
		return onPath(ctx, ct.Schema), nil
	}
	t, _, sp, ok, err := c.relation(ctx, oid)
	if err != nil || !ok {
		return false, err
	}
	if sp != nil {
		return sp.schema == pgCatalog, nil
	}
	return onPath(ctx, t.Path.Database), nil
}

// LookupType implements functions.CatalogInfo (regtype input).
func (c *Catalog) LookupType(name string) (uint32, bool) {
	s := strings.ToLower(strings.Join(strings.Fields(name), " "))
	s = strings.TrimPrefix(s, "pg_catalog.")
	array := false
	if strings.HasSuffix(s, "[]") {
		array = true
		s = strings.TrimSpace(strings.TrimSuffix(s, "[]"))
	}
	// drop a type modifier: varchar(10), numeric(10,2), timestamp(3) with time zone
	if i := strings.IndexByte(s, '('); i >= 0 {
		if j := strings.IndexByte(s[i:], ')'); j >= 0 {
			s = strings.TrimSpace(s[:i] + s[i+j+1:])
			s = strings.Join(strings.Fields(s), " ")
		}
	}
	if a := types.KeywordTypeName(strings.Fields(s), ""); a != "" {
		s = a // the grammar's spellings: double precision, character varying ...
	}
	s = strings.Trim(s, `"`)
	t, ok := c.typeBy[s]
	if !ok {
		if oid, ok := c.userTypeOID(s, array); ok {
			return oid, true
		}
		// "_name" (or "schema._name") is the array type of the user type
		// name, as PostgreSQL names array types
		dot := strings.LastIndexByte(s, '.') + 1
		if elem, isArray := strings.CutPrefix(s[dot:], "_"); isArray && !array && elem != "" {
			return c.userTypeOID(s[:dot]+elem, true)
		}
		return 0, false
	}
	if array {
		if t.array == 0 {
			return 0, false
		}
		return t.array, true
	}
	return t.oid, true
}

// userTypeOID is the OID of the enum, composite or domain type name (or of
// its array type). A type of schema public is found qualified too, whose
// QualifiedName is its bare name.
func (c *Catalog) userTypeOID(name string, array bool) (uint32, bool) {
	if bare, ok := strings.CutPrefix(name, fluss.DefaultDatabase+"."); ok {
		name = bare
	}
	if oid, ok := c.enumTypeOID(name, array); ok { // enums.go
		return oid, true
	}
	if oid, ok := c.compositeTypeOID(name, array); ok { // composites.go
		return oid, true
	}
	return c.domainTypeOID(name, array) // domains.go
}

// TypeName implements functions.CatalogInfo.
func (c *Catalog) TypeName(oid uint32) (string, bool) {
	if t, ok := c.types[oid]; ok {
		return t.name, true
	}
	if name, ok := c.enumTypeName(oid); ok { // enums.go
		return name, true
	}
	if name, ok := c.compositeTypeName(oid); ok { // composites.go
		return name, true
	}
	return c.domainTypeName(oid) // domains.go
}

// RowTypeName implements functions.RowTypes: a table's row type prints
// as the table's name, qualified when its schema is not on the search
// path.
func (c *Catalog) RowTypeName(ctx context.Context, oid uint32) (string, bool, error) {
	if elem, ok := types.TableRowTypeOfArray(oid); ok { // composites.go: "_t", printed t[]
		name, ok, err := c.RowTypeName(ctx, elem)
		if !ok || err != nil {
			return "", ok, err
		}
		return name + "[]", true, nil
	}
	if oid < firstUserOID+oidStride || oid >= firstUserOID+2*oidStride {
		return "", false, nil
	}
	t, _, _, ok, err := c.relation(ctx, oid-oidStride)
	if err != nil || !ok {
		return "", false, err
	}
	if !onPath(ctx, t.Path.Database) { // as regclass output qualifies the table
		return quoteIdent(t.Path.Database) + "." + quoteIdent(t.Path.Table), true, nil
	}
	return quoteIdent(t.Path.Table), true, nil
}

// FormatType is PostgreSQL's format_type(oid, typmod): the SQL name of a
// type with its modifier; hasTypmod false is a NULL typmod (which, unlike
// -1, names bpchar "character").
// It implements functions.CatalogInfo; the user-defined types are the
// store's (Options.Types).
func (c *Catalog) FormatType(oid uint32, typmod int32, hasTypmod bool) string {
	var ts *typeSpec
	for i := range pgTypes {
		if pgTypes[i].oid == oid {
			ts = &pgTypes[i]
			break
		}
	}
	if ts == nil {
		if name, ok := c.formatEnumType(oid); ok { // enums.go
			return name
		}
		if name, ok := c.formatDomainType(oid); ok { // domains.go
			return name
		}
		if name, ok := c.formatCompositeType(oid); ok { // composites.go
			return name
		}
		return "???"
	}
	if strings.HasPrefix(ts.name, "_") && ts.elem != 0 { // an array type (not int2vector/oidvector)
		return c.FormatType(ts.elem, typmod, hasTypmod) + "[]"
	}
	// As format_type_extended: the SQL-named types show their modifiers
	// their own way (pgtypes.FormatTypeName); others show one only when
	// given and >= 0, as (n).
	if name, ok := pgtypes.FormatTypeName(oid, typmod, hasTypmod); ok {
		return name
	}
	if hasTypmod && typmod >= 0 {
		return fmt.Sprintf("%s(%d)", quoteIdent(ts.name), typmod)
	}
	return quoteIdent(ts.name)
}

// LookupNamespace implements functions.CatalogInfo.
func (c *Catalog) LookupNamespace(name string) (uint32, bool) {
	switch name {
	case pgCatalog, infoSchema, fluss.DefaultDatabase, "pg_toast":
		return namespaceOID(name), true
	}
	if dbs, err := c.databases(context.Background()); err == nil && slices.Contains(dbs, name) {
		return userSchemaOID(name), true
	}
	return 0, false
}

// NamespaceName implements functions.CatalogInfo.
func (c *Catalog) NamespaceName(oid uint32) (string, bool) {
	if n, ok := namespaceName(oid); ok {
		return n, true
	}
	return c.schemas.name(oid)
}

// RoleName implements functions.CatalogInfo.
func (c *Catalog) RoleName(oid uint32) (string, bool) {
	for _, p := range predefinedRoles {
		if p.oid == oid {
			return p.name, true
		}
	}
	for _, r := range c.roles() {
		if c.roleOID(r.Name) == oid {
			return r.Name, true
		}
	}
	return "", false
}

// indexDef is pg_get_indexdef of t's primary-key index: the whole
// definition for column 0 (the table schema-qualified unless pretty), else
// that key column's name ("" past the end).
func indexDef(t fluss.TableInfo, column int, pretty bool) string {
	pk := t.Descriptor.Schema.PrimaryKey
	if column > 0 {
		if column > len(pk) {
			return ""
		}
		return quoteIdent(pk[column-1])
	}
	cols := make([]string, len(pk))
	for i, n := range pk {
		cols[i] = quoteIdent(n)
	}
	table := quoteIdent(t.Path.Database) + "." + quoteIdent(t.Path.Table)
	if pretty { // the pretty form leaves out schemas on the search path
		table = quoteIdent(t.Path.Table)
	}
	if t.PartitionStrategy() != "" { // a partitioned index: its partitions' are attached (pgpartitions.go)
		table = "ONLY " + table
	}
	return fmt.Sprintf("CREATE UNIQUE INDEX %s ON %s USING btree (%s)", quoteIdent(pkName(t)), table, strings.Join(cols, ", "))
}

// IndexDef implements functions.CatalogInfo.
func (c *Catalog) IndexDef(ctx context.Context, oid uint32, column int, pretty bool) (string, bool, error) {
	if t, u, ok, err := c.uniqueByOID(ctx, oid, uniqueIndexOIDBase); ok || err != nil { // unique.go
		return uniqueIndexDef(t, u, column, pretty), ok, err
	}
	if t, ix, ok, err := c.plainIndexByOID(ctx, oid); ok || err != nil { // indexes.go
		return c.plainIndexDef(ctx, t, ix, column, pretty), ok, err
	}
	if kp, ok, err := c.partitionKeyByOID(ctx, oid, partIndexOIDBase); ok || err != nil { // pgpartitions.go
		return partitionIndexDef(kp, column), ok, err
	}
	t, index, _, ok, err := c.relation(ctx, oid)
	if err != nil || !ok || !index {
		return "", false, err
	}
	return indexDef(t, column, pretty), true, nil
}

// ConstraintDef implements functions.CatalogInfo.
func (c *Catalog) ConstraintDef(ctx context.Context, oid uint32, pretty bool) (string, bool, error) {
	if def, ok := c.domainConstraintDef(oid, pretty); ok { // domains.go
		return def, true, nil
	}
	if def, ok, err := c.fkeyDef(ctx, oid); ok || err != nil { // fkeys.go
		return def, ok, err
	}
	if def, ok, err := c.uniqueConstraintDef(ctx, oid); ok || err != nil { // unique.go
		return def, ok, err
	}
	if kp, ok, err := c.partitionKeyByOID(ctx, oid, partConstraintOIDBase); ok || err != nil { // pgpartitions.go
		return "PRIMARY KEY (" + strings.Join(quoteIdents(kp.parent.Descriptor.Schema.PrimaryKey), ", ") + ")", ok, err
	}
	if oid < firstUserOID+3*oidStride || oid >= firstUserOID+4*oidStride {
		return c.checkDef(ctx, oid, pretty) // coldefs.go
	}
	t, index, _, ok, err := c.relation(ctx, oid-oidStride)
	if err != nil || !ok || !index {
		return "", false, err
	}
	cols := make([]string, len(t.Descriptor.Schema.PrimaryKey))
	for i, n := range t.Descriptor.Schema.PrimaryKey {
		cols[i] = quoteIdent(n)
	}
	return "PRIMARY KEY (" + strings.Join(cols, ", ") + ")", true, nil
}

// Description implements functions.CatalogInfo: obj_description and
// shobj_description, read from pg_description (pg_shdescription for
// pg_authid): a table's comment (or its Fluss properties, see
// tableComment), the built-in schemas' and COMMENT ON's (comments.go).
func (c *Catalog) Description(ctx context.Context, objoid uint32, catalog string) (string, bool, error) {
	class := catalogClass(catalog)
	if catalog != "" && class == 0 {
		return "", false, nil
	}
	s, err := c.snapshot(ctx)
	if err != nil {
		return "", false, err
	}
	rows, err := c.descriptionRows(ctx, s)
	if class == classPgAuthid {
		rows, err = c.shdescriptionRows(ctx, s)
	}
	if err != nil {
		return "", false, err
	}
	for _, r := range rows {
		if oidValue(r["objoid"]) != objoid || (class != 0 && oidValue(r["classoid"]) != class) {
			continue
		}
		if sub, ok := r["objsubid"].(int); ok && sub != 0 {
			continue
		}
		return r["description"].(string), true, nil
	}
	return "", false, nil
}

// ColumnDescription implements functions.CatalogInfo.
func (c *Catalog) ColumnDescription(ctx context.Context, reloid uint32, attnum int) (string, bool, error) {
	t, index, sp, ok, err := c.relation(ctx, reloid)
	if err != nil || !ok || index || sp != nil {
		return "", false, err
	}
	cols := t.Descriptor.Schema.Columns
	if attnum < 1 || attnum > len(cols) || cols[attnum-1].Comment == "" {
		return "", false, nil
	}
	return cols[attnum-1].Comment, true, nil
}

// quoteIdent quotes a name unless it is a plain lower-case identifier.
// quoteTypeName is format_type's name of a user type in schema: quoted as
// quote_ident quotes each part, qualified outside public (the schema the
// default search_path shows).
func quoteTypeName(schema, name string) string {
	if schema == "" || schema == "public" {
		return quoteIdent(name)
	}
	return quoteIdent(schema) + "." + quoteIdent(name)
}

func quoteIdent(s string) string {
	plain := s != ""
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r == '_' || i > 0 && (r >= '0' && r <= '9')) {
			plain = false
			break
		}
	}
	if plain && !reserved[s] {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// reserved are the PostgreSQL keywords that must be quoted as names
// (the common reserved ones).
var reserved = map[string]bool{
	"all": true, "and": true, "any": true, "array": true, "as": true, "asc": true, "case": true, "cast": true,
	"check": true, "column": true, "constraint": true, "create": true, "default": true, "desc": true,
	"distinct": true, "do": true, "else": true, "end": true, "except": true, "false": true, "for": true,
	"foreign": true, "from": true, "grant": true, "group": true, "having": true, "in": true, "into": true,
	"is": true, "join": true, "limit": true, "not": true, "null": true, "offset": true, "on": true, "or": true,
	"order": true, "primary": true, "references": true, "select": true, "table": true, "then": true, "to": true,
	"true": true, "union": true, "unique": true, "user": true, "using": true, "when": true, "where": true,
	"with": true, "window": true,
}

// invalidName is PostgreSQL's invalid_name (42602).
const invalidName = sqlerr.Code("42602")

// procByOID is the pg_proc row oid (built-in or user-defined).
func (c *Catalog) procByOID(oid uint32) (procInfo, bool) {
	for _, p := range c.allProcs() {
		if p.oid == oid {
			return p, true
		}
	}
	return procInfo{}, false
}

// FunctionSignature implements functions.CatalogInfo.
func (c *Catalog) FunctionSignature(ctx context.Context, oid uint32) (string, string, bool) {
	p, ok := c.procByOID(oid)
	if !ok {
		return "", "", false
	}
	result, args := c.signature(ctx, p)
	return result, args, true
}

// signature is p's result type and argument list as
// pg_get_function_result and pg_get_function_arguments write them
// (without defaults).
func (c *Catalog) signature(ctx context.Context, p procInfo) (result, arguments string) {
	args := make([]string, len(p.args), len(p.args)+len(p.outTypes))
	for i, a := range p.args {
		args[i] = c.formatTypeIn(ctx, a.(uint32))
		if a.(uint32) == oidAny {
			args[i] = `"any"`
		}
		if i < len(p.argNames) && p.argNames[i] != "" {
			args[i] = quoteIdent(p.argNames[i]) + " " + args[i]
		}
		if p.varArgs && i == len(p.args)-1 {
			// VARIADIC "any" takes any number of arguments of any
			// type: its parameter is no array
			if a.(uint32) != oidAny {
				args[i] += "[]"
			}
			args[i] = "VARIADIC " + args[i] // before the name, as PostgreSQL prints it
		}
	}
	if p.pg != nil && p.pg.Kind == 'a' {
		if a, ok := aggOf(p.oid); ok && a.Kind != 'n' {
			return c.FormatType(p.ret, -1, false), orderedSetArgs(args, a.NumDirect)
		}
	}
	if p.table {
		return c.tableSignature(ctx, p, args)
	}
	if p.params != nil {
		args = c.paramsSignature(ctx, p) // udfprocs.go
	}
	for i, t := range p.outTypes {
		args = append(args, "OUT "+p.outNames[i]+" "+c.formatTypeIn(ctx, t))
	}
	result = c.formatTypeIn(ctx, p.ret)
	if p.retset {
		result = "SETOF " + result
	}
	return result, strings.Join(args, ", ")
}

// FunctionArguments is pg_get_function_arguments of the pg_proc row oid:
// a built-in's as PostgreSQL 15 prints them (internal/pgproc's props,
// with the defaults: make_interval(years integer DEFAULT 0, ...)), else
// FunctionSignature's arguments with a LANGUAGE sql function's defaults
// as PostgreSQL's deparser prints them (package deparse).
func (c *Catalog) FunctionArguments(ctx context.Context, oid uint32) (string, bool) {
	p, ok := c.procByOID(oid)
	if !ok {
		return "", false
	}
	return c.functionArguments(ctx, p), true
}

// formatTypeIn is format_type of oid without a typmod under the search
// path of the session in ctx: a user-defined type off the path (public's
// under pg_dump's empty search_path) schema-qualified, one on it bare
// (functions.UserTypeOutsidePath), so that a function's signature as
// pg_dump reads it restores.
func (c *Catalog) formatTypeIn(ctx context.Context, oid uint32) string {
	if name, ok := functions.UserTypeOutsidePath(ctx, c, oid); ok {
		return name
	}
	return c.FormatType(oid, -1, false)
}

func (c *Catalog) functionArguments(ctx context.Context, p procInfo) string {
	if p.pg != nil && !p.userFunc {
		// a built-in's, with its defaults, as PostgreSQL prints them
		if pp, ok := builtinProp(p); ok && pp.Args != "" {
			return pp.Args
		}
	}
	_, args := c.signature(ctx, p)
	if len(p.argDefaults) == 0 || len(p.outTypes) > 0 && !p.table {
		return args
	}
	parts := strings.Split(args, ", ")
	in := make([]int, 0, len(parts)) // the input parameters' parts
	for i := range parts {
		if p.params == nil || i < len(p.params) && p.params[i].mode != 'o' {
			in = append(in, i)
		}
	}
	if len(in) != len(p.argDefaults) || p.params != nil && len(parts) != len(p.params) {
		return args // a type name with ", " in it (numeric(10, 2) is written without)
	}
	for i, d := range c.argDefaultTexts(p) {
		if d != "" {
			parts[in[i]] += " DEFAULT " + d
		}
	}
	return strings.Join(parts, ", ")
}

// argDefaultTexts are a LANGUAGE sql function's parameter defaults ("" for
// a parameter without) converted to the parameters' types, as PostgreSQL
// stores and prints them ('x'::text, (1 + 2)); as written where the
// deparser does not reproduce one.
func (c *Catalog) argDefaultTexts(p procInfo) []string {
	sc := deparse.Scope{Types: catalogTypes{c}, Schema: fluss.DefaultDatabase}
	if n, ok := c.NamespaceName(p.ns); ok {
		sc.Schema = n
	}
	out := make([]string, len(p.argDefaults))
	for i, d := range p.argDefaults {
		if d == "" {
			continue
		}
		if i < len(p.inTypes) {
			if t, err := deparse.Default(d, sc, p.inTypes[i], false); err == nil {
				d = t
			}
		}
		out[i] = d
	}
	return out
}

// FunctionOIDs implements functions.Procs: the pg_proc rows named name.
func (c *Catalog) FunctionOIDs(name string) []uint32 {
	var out []uint32
	for _, p := range c.allProcs() {
		if p.name == name {
			out = append(out, p.oid)
		}
	}
	return out
}

// FunctionProc implements functions.Procs.
func (c *Catalog) FunctionProc(oid uint32) (string, []uint32, bool) {
	p, ok := c.procByOID(oid)
	if !ok {
		return "", nil, false
	}
	args := make([]uint32, len(p.args))
	for i, a := range p.args {
		args[i] = a.(uint32)
	}
	return p.name, args, true
}

// DefaultSetting implements functions.CatalogInfo from pg_settings' list
// (names compare case-insensitively).
func (c *Catalog) DefaultSetting(name string) (string, bool) {
	for _, r := range c.settingRows() {
		if strings.EqualFold(r["name"].(string), name) {
			return r["setting"].(string), true
		}
	}
	return "", false
}
