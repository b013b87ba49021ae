package pgcatalog

import (
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/types"
)

// Domains (CREATE DOMAIN): pg_type has a row for each (typtype 'd',
// typbasetype, typnotnull, typtypmod, typdefault) and one for its array
// type ("_name", OID+1), pg_constraint one per CHECK (contypid), and
// information_schema.domains / domain_constraints / columns.domain_name
// show them, so that psql's \dD and \d and ORMs' introspection find
// them. A domain column's pg_attribute.atttypid is the domain (its table
// metadata's PGType "domain:<oid>"); on the wire its values are the base
// type's, as PostgreSQL sends them. Options.Domains lists them; the
// engine keeps them (engine/domains.go).

// domainList is the domains now (none without Options.Domains).
func (c *Catalog) domainList() []*types.Domain {
	if c.opts.Domains == nil {
		return nil
	}
	return c.opts.Domains()
}

// domainBaseOID is pg_type.typbasetype of d: the domain it is over, else
// its base type's OID.
func domainBaseOID(d *types.Domain) uint32 {
	if d.Parent != 0 {
		return d.Parent
	}
	oid, _, _ := pgtypes.OIDOf(d.Base)
	return oid
}

// domainTypeRows are pg_type's rows of the domains and their arrays.
func (c *Catalog) domainTypeRows() []row {
	var rows []row
	for _, d := range c.domainList() {
		ct := c.colType(d.Base)
		category := "U"
		if ts, ok := c.types[ct.oid]; ok {
			category = ts.category
		}
		r := typeRow(d.OID, d.Name, namespaceOID(d.Schema), ct.len, ct.byVal, "d", category, false, 0, d.ArrayOID, 0, ct.align, ct.storage, ct.collation)
		if procs, ok := typeProcs[ct.oid]; ok {
			for i, col := range []string{"typinput", "typoutput", "typreceive", "typsend", "typmodin", "typmodout", "typanalyze", "typsubscript"} {
				r[col] = procs[i]
			}
		}
		r["typbasetype"], r["typnotnull"], r["typtypmod"] = domainBaseOID(d), d.NotNull, int(d.TypMod)
		r["typowner"] = c.roleOID(d.Owner)
		if d.Default != "" {
			r["typdefault"], r["typdefaultbin"] = d.Default, domainDefaultPrefix+d.Default+"}"
		}
		if d.Base.Kind == types.Array {
			r["typndims"] = 1
		}
		rows = append(rows, r)
		a := typeRow(d.ArrayOID, "_"+d.Name, namespaceOID(d.Schema), -1, false, "b", "A", false, d.OID, 0, 0, ct.align, "x", ct.collation)
		for i, col := range []string{"typinput", "typoutput", "typreceive", "typsend", "typmodin", "typmodout", "typanalyze", "typsubscript"} {
			a[col] = typeProcs[oidTextArray][i]
		}
		rows = append(rows, a)
	}
	return rows
}

// domainConstraintRows are pg_constraint's rows of the domains' CHECKs.
func (c *Catalog) domainConstraintRows() []row {
	var rows []row
	for _, d := range c.domainList() {
		for _, ch := range d.Checks {
			rows = append(rows, row{
				"oid": ch.OID, "conname": ch.Name, "connamespace": namespaceOID(d.Schema), "contype": "c",
				"condeferrable": false, "condeferred": false, "convalidated": !ch.NotValid, "conrelid": 0,
				"contypid": d.OID, "conindid": 0, "conparentid": 0, "confrelid": 0,
				"confupdtype": " ", "confdeltype": " ", "confmatchtype": " ", "conislocal": true, "coninhcount": 0,
				"connoinherit": false, "conbin": ch.Expr,
			})
		}
	}
	return rows
}

// domainConstraintDef is pg_get_constraintdef of a domain CHECK's OID:
// VALUE upper-cased as PostgreSQL's deparser prints it, the expression in
// a second pair of parentheses unless pretty.
func (c *Catalog) domainConstraintDef(oid uint32, pretty bool) (string, bool) {
	for _, d := range c.domainList() {
		for _, ch := range d.Checks {
			if ch.OID != oid {
				continue
			}
			if def, ok := domainCheckText(d.Base, ch.Expr, ch.NotValid, pretty); ok && d.Parent == 0 { // exprs.go
				return def, true
			}
			value := "VALUE"
			if d.Parent != 0 {
				// the value is of the domain underneath, which the
				// expression's operators take as its base type
				oid, _, _ := pgtypes.OIDOf(d.Base)
				value = "VALUE::" + c.FormatType(oid, -1, false)
				if !pretty {
					value = "(VALUE)::" + c.FormatType(oid, -1, false)
				}
			}
			def := upperValue(ch.Expr, value)
			if !pretty {
				def = "(" + def + ")"
			}
			def = "CHECK (" + def + ")"
			if ch.NotValid {
				def += " NOT VALID"
			}
			return def, true
		}
	}
	return "", false
}

// upperValue writes the word value (outside quotes) as value (VALUE, as
// PostgreSQL's deparser prints it).
func upperValue(s, value string) string {
	var sb strings.Builder
	quote := byte(0)
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			}
		case ch == '\'' || ch == '"':
			quote = ch
		case (ch == 'v' || ch == 'V') && i+5 <= len(s) && strings.EqualFold(s[i:i+5], "value") &&
			(i == 0 || !isIdentByte(s[i-1])) && (i+5 == len(s) || !isIdentByte(s[i+5])):
			sb.WriteString(value)
			i += 4
			continue
		}
		sb.WriteByte(ch)
	}
	return sb.String()
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// domainTypeName is the name of the domain (or array of one) oid.
func (c *Catalog) domainTypeName(oid uint32) (string, bool) {
	for _, d := range c.domainList() {
		switch oid {
		case d.OID:
			return d.Name, true
		case d.ArrayOID:
			return "_" + d.Name, true
		}
	}
	return "", false
}

// domainTypeOID is the OID of the domain named name (or name[]).
func (c *Catalog) domainTypeOID(name string, array bool) (uint32, bool) {
	for _, d := range c.domainList() {
		if d.Name == name || d.QualifiedName() == name {
			if array {
				return d.ArrayOID, true
			}
			return d.OID, true
		}
	}
	return 0, false
}

// formatDomainType is format_type of a domain or an array of one, from
// the store's registry (Options.Types).
func (c *Catalog) formatDomainType(oid uint32) (string, bool) {
	if d := c.opts.Types.Domain(oid); d != nil {
		return quoteTypeName(d.Schema, d.Name), true
	}
	if d := c.opts.Types.Domain(oid - 1); d != nil && d.ArrayOID == oid {
		return quoteTypeName(d.Schema, d.Name) + "[]", true
	}
	return "", false
}

// columnDomain is the domain a column's metadata names (nil none) and
// whether the column is an array of it.
func (c *Catalog) columnDomain(m fluss.ColumnMeta) (*types.Domain, bool) {
	rest, ok := strings.CutPrefix(m.PGType, "domain:")
	if !ok {
		return nil, false
	}
	rest, array := strings.CutSuffix(rest, "[]")
	var oid uint32
	for _, ch := range rest {
		if ch < '0' || ch > '9' {
			return nil, false
		}
		oid = oid*10 + uint32(ch-'0')
	}
	return c.opts.Types.Domain(oid), array
}

// withDomainAttribute makes a domain column's pg_attribute row name the
// domain (or its array type) as the column's type.
func (c *Catalog) withDomainAttribute(r row, m fluss.ColumnMeta) row {
	if d, array := c.columnDomain(m); d != nil {
		r["atttypid"] = d.OID
		if array {
			r["atttypid"] = d.ArrayOID
		}
		r["atttypmod"] = -1
	}
	return r
}

// withInfoDomain fills information_schema.columns' domain_* of a domain
// column.
func (c *Catalog) withInfoDomain(r row, m fluss.ColumnMeta) row {
	if d, array := c.columnDomain(m); d != nil && !array {
		r["domain_catalog"], r["domain_schema"], r["domain_name"] = c.opts.Database, d.Schema, d.Name
		r = c.overDomain(r, d)
	}
	return r
}

// overDomain is r, information_schema's row of a value of domain d, as
// PostgreSQL's views describe one over another domain: the type is
// USER-DEFINED, udt_* name the domain underneath, and the base type's
// length, precision and scale are not shown (the views look through one
// domain only).
func (c *Catalog) overDomain(r row, d *types.Domain) row {
	p := c.opts.Types.Domain(d.Parent)
	if d.Parent == 0 || p == nil {
		return r
	}
	r["data_type"], r["udt_schema"], r["udt_name"] = "USER-DEFINED", p.Schema, p.Name // as domainDataType
	for _, k := range []string{"character_maximum_length", "character_octet_length", "numeric_precision",
		"numeric_precision_radix", "numeric_scale", "datetime_precision"} {
		delete(r, k)
	}
	return r
}

// infoDomainRows are information_schema.domains' rows.
func (c *Catalog) infoDomainRows() []row {
	var rows []row
	for _, d := range c.domainList() {
		r := c.columnRow(d.Schema, "", 0, "", d.Base)
		out := row{"domain_catalog": c.opts.Database, "domain_schema": d.Schema, "domain_name": d.Name,
			"udt_catalog": c.opts.Database, "udt_schema": pgCatalog, "dtd_identifier": "1"}
		out["data_type"] = c.domainDataType(d)
		for _, k := range []string{"character_maximum_length", "character_octet_length", "numeric_precision",
			"numeric_precision_radix", "numeric_scale", "datetime_precision", "udt_name"} {
			if v, ok := r[k]; ok {
				out[k] = v
			}
		}
		if d.Default != "" {
			out["domain_default"] = d.Default
		}
		rows = append(rows, c.overDomain(out, d))
	}
	return rows
}

// infoDomainConstraintRows are information_schema.domain_constraints'
// rows.
func (c *Catalog) infoDomainConstraintRows() []row {
	var rows []row
	for _, d := range c.domainList() {
		for _, ch := range d.Checks {
			rows = append(rows, row{"constraint_catalog": c.opts.Database, "constraint_schema": d.Schema, "constraint_name": ch.Name,
				"domain_catalog": c.opts.Database, "domain_schema": d.Schema, "domain_name": d.Name,
				"is_deferrable": "NO", "initially_deferred": "NO"})
		}
	}
	return rows
}

// domainDataType is information_schema's data_type of a domain: its base
// type's name, USER-DEFINED when that is another domain (outside
// pg_catalog), as PostgreSQL's views say.
func (c *Catalog) domainDataType(d *types.Domain) string {
	if d.Parent != 0 {
		return "USER-DEFINED"
	}
	oid, _, _ := pgtypes.OIDOf(d.Base)
	return c.FormatType(oid, -1, false)
}

// domainDefaultPrefix starts pg_type.typdefaultbin of a domain with a
// DEFAULT: the expression's text, which pg_get_expr(typdefaultbin,
// 'pg_type'::regclass) prints (ExprDef). pg_dump reads it: without one it
// takes typdefault for a literal and quotes it.
const domainDefaultPrefix = "{DOMAINDEFAULT :text "
