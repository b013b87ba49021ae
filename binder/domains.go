package binder

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Domains (CREATE DOMAIN). A domain's values are its base type's, so a
// type name naming a domain resolves to the base type (userType); what
// the domain adds is kept beside it:
//   - a CREATE TABLE column of a domain records "domain:<oid>" as its
//     PostgreSQL type (fluss.ColumnMeta.PGType; noteDomainColumns), which
//     the catalog shows and the engine reads to check written values
//     against the domain's constraints (types.Domain.Validate);
//   - such a column without a DEFAULT of its own takes the domain's
//     (domainDefault);
//   - a cast to a domain checks the cast's values (domainCast).

// DomainCatalog is the optional part of a TypeCatalog that knows domains
// (the engine's metadata).
type DomainCatalog interface {
	// DomainType is the domain schema.name ("" for the default schema).
	DomainType(schema, name string) (*types.Domain, bool)
}

// domainNamed is the domain the type name tn names (not an array of it),
// nil when it names none.
func domainNamed(ut TypeCatalog, tn *sql.TypeName) *types.Domain {
	dc, ok := ut.(DomainCatalog)
	if !ok || tn == nil || tn.ArrayDims > 0 || tn.Elem != nil || len(tn.Args) > 0 {
		return nil
	}
	d, _ := dc.DomainType(tn.Schema, tn.Name)
	return d
}

// domainType is the base type of the domain named name (userType).
func domainType(ut TypeCatalog, schema, name string) (types.T, bool) {
	dc, ok := ut.(DomainCatalog)
	if !ok {
		return types.T{}, false
	}
	d, ok := dc.DomainType(schema, name)
	if !ok {
		return types.T{}, false
	}
	return d.Base.Nullable(), true
}

// DomainPGType is the PGType a column of the domain oid (or an array of
// it) records.
func DomainPGType(oid uint32, array bool) string { return fluss.OIDPGType("domain", oid, array) }

// ParseDomainPGType reads DomainPGType's text.
func ParseDomainPGType(s string) (oid uint32, array, ok bool) {
	return fluss.ParseOIDPGType("domain", s)
}

// noteDomainColumns records, in desc's metadata, the domain of each
// column CREATE TABLE declared with one (or an array of one).
func (b *binder) noteDomainColumns(desc *fluss.TableDescriptor) {
	ut := b.typeCatalog()
	if _, ok := ut.(DomainCatalog); !ok {
		return
	}
	var m *fluss.TableMeta
	for i, c := range desc.Schema.Columns {
		tn := b.stmt.ColumnTypes[c.Name]
		if tn == nil {
			continue
		}
		array := false
		if tn.Elem != nil && tn.ArrayDims > 0 {
			tn, array = tn.Elem, true
		}
		d := domainNamed(ut, tn)
		if d == nil {
			continue
		}
		if m == nil {
			mm := fluss.MetaOf(*desc)
			m = &mm
		}
		m.Columns[i].PGType = DomainPGType(d.OID, array)
	}
	if m != nil {
		fluss.SetTableMeta(desc, *m)
	}
}

// domainDefault is the default a column whose PostgreSQL type is pgType
// takes from its domain (in reg) when it has none of its own ("" none).
func domainDefault(reg *types.Registry, pgType string) string {
	oid, array, ok := ParseDomainPGType(pgType)
	if !ok || array {
		return ""
	}
	if d := reg.Domain(oid); d != nil {
		return d.Default // a domain over another took its default when made
	}
	return ""
}

// DomainCheck binds a domain's CHECK expression over its base type, VALUE
// naming the value (column 0 of the batch it is evaluated over).
func DomainCheck(ctx context.Context, cat Catalog, base types.T, text string) (Expr, error) {
	b := &binder{ctx: ctx, cat: cat}
	return b.bindCheckText(text, "", []fluss.Column{{Name: "value", Type: base.Nullable()}})
}

// domainCast checks a cast's values against the domain d: the cast to
// the base type, then d's constraints (types.Domain.Validate) in a call
// that passes the values through.
func (b *binder) domainCast(d *types.Domain, x Expr) Expr {
	oid, reg := d.OID, b.registry()
	kernel := func(ctx context.Context, _ memory.Allocator, args []arrow.Array, _ int) (arrow.Array, error) {
		if d := reg.Domain(oid); d != nil && d.Validate != nil {
			if err := d.Validate(ctx, args[0]); err != nil {
				return nil, err
			}
		}
		args[0].Retain()
		return args[0], nil
	}
	out := &FuncCall{Name: "pg__domain_check", Args: []Expr{x}, T: x.Type(), Volatile: true, Kernel: kernel}
	if b.domainCasts == nil {
		b.domainCasts = map[Expr]uint32{}
	}
	b.domainCasts[out] = oid
	return out
}

// noteScanDomains sets the Domain of each of cols, a scan of table's
// columns, declared with a domain. Most tables have none: their
// properties are looked at for a domain's PGType before the metadata is
// read.
func noteScanDomains(table fluss.TableInfo, cols []Column) {
	if !propertiesHave(table.Descriptor, func(_, v string) bool { return strings.HasPrefix(v, "domain:") }) {
		return
	}
	m := fluss.MetaOf(table.Descriptor)
	for i := range cols {
		if oid, array, ok := ParseDomainPGType(m.Column(i).PGType); ok && !array {
			cols[i].Domain = oid
		}
	}
}

// propertiesHave reports whether any of d's properties satisfies match.
func propertiesHave(d fluss.TableDescriptor, match func(k, v string) bool) bool {
	for _, props := range []map[string]string{d.CustomProperties, d.Properties} {
		for k, v := range props {
			if match(k, v) {
				return true
			}
		}
	}
	return false
}

// exprDomain is the domain whose type the value of e has as PostgreSQL
// types it (0 for none): a column declared with a domain, a cast to one,
// COALESCE of values of one domain. Every other expression over a
// domain's values has its base type (PostgreSQL's operators and
// functions take the base type).
func (b *binder) exprDomain(s *scope, e Expr) uint32 {
	switch x := e.(type) {
	case *ColumnRef:
		if s != nil && x.Index >= 0 && x.Index < len(s.cols) && s.cols[x.Index].Name == x.Name {
			return s.cols[x.Index].Domain
		}
	case *FuncCall:
		return b.domainCasts[x]
	case *Coalesce:
		var oid uint32
		for i, a := range x.Args {
			d := b.exprDomain(s, a)
			if d == 0 || i > 0 && d != oid {
				return 0
			}
			oid = d
		}
		return oid
	}
	return 0
}

// assignTypeName is the name of the type of column col of table as an
// assignment's error words it: the column's domain when it has one (an
// INSERT or UPDATE target's, assignInto), else t's name.
func (b *binder) assignTypeName(col, table string, t types.T) string {
	if s := b.assignInto; s != nil && s.Table.Path.Table == table {
		for _, c := range s.cols {
			if c.Name != col || c.Domain == 0 {
				continue
			}
			if d := b.registry().Domain(c.Domain); d != nil {
				return d.QualifiedName()
			}
		}
	}
	return t.PGName()
}

// domainTypeOf is pg_typeof's answer for a value of the domain oid: the
// domain's regtype.
func domainTypeOf(oid uint32) Expr {
	return &Const{Value: int64(oid), T: types.RegOf(types.RegType)}
}

// DomainBase resolves CREATE DOMAIN's data type: the values' type and,
// when it names a domain, that domain (nil otherwise).
func DomainBase(text string, ut TypeCatalog) (types.T, *types.Domain, error) {
	tn, err := sql.ParseTypeName(text)
	if err != nil {
		return types.T{}, nil, err
	}
	if _, ok := serialTypes[tn.Name]; ok {
		return types.T{}, nil, sqlerr.New(sqlerr.UndefinedObject, "type \"%s\" does not exist", tn.Name)
	}
	t, err := typeFromNameIn(tn, ut)
	if err != nil {
		return types.T{}, nil, err
	}
	return t.Nullable(), domainNamed(ut, tn), nil
}

// DomainDefault binds a domain's DEFAULT as an assignment to its base type
// and returns it as PostgreSQL's deparser prints it (pg_type.typdefault),
// "" for DEFAULT NULL, which PostgreSQL keeps as no default.
func DomainDefault(ctx context.Context, cat Catalog, base types.T, text string) (string, error) {
	b := &binder{ctx: ctx, cat: cat}
	e, err := b.bindDefaultText(text, fluss.Column{Name: "value", Type: base}, "", "")
	if strings.HasPrefix(string(sqlerr.CodeOf(err)), "22") {
		// PostgreSQL keeps a default whose value does not fit (it fails
		// when an INSERT uses it): the literal, typed
		return defaultDisplay(text, &Const{Value: "", T: base}, base), nil
	}
	if err != nil {
		return "", err
	}
	if k, ok := e.(*Const); ok && k.Value == nil {
		switch {
		case base.Length > 0 && (base.Kind == types.String || base.Kind == types.Char):
			// the typmod's coercion keeps it from being a constant
			return "NULL::" + typeDisplayName(base), nil
		case base.Kind == types.Decimal && base.Precision > 0:
			return "NULL::numeric", nil
		}
		return "", nil
	}
	return storedDefault(text, e, base), nil // coldefs.go
}

// NamesDomain reports whether the type name tn names a domain or an
// array of one.
func NamesDomain(tn *sql.TypeName, ut TypeCatalog) bool {
	d, _ := DomainOfTypeName(tn, ut)
	return d != nil
}

// DomainOfTypeName is the domain the type name tn names, or whose array
// it names (array true); nil when neither.
func DomainOfTypeName(tn *sql.TypeName, ut TypeCatalog) (d *types.Domain, array bool) {
	if tn == nil {
		return nil, false
	}
	if tn.Elem != nil && tn.ArrayDims > 0 {
		tn, array = tn.Elem, true
	}
	return domainNamed(ut, tn), array
}
