package types

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
)

// Domain is one version of a domain (CREATE DOMAIN): a base type with a
// default and constraints. Its values are the base type's (Base): Fluss
// has no domains, so a domain column is stored as its base type and the
// domain kept in sqlgate's metadata (meta.Domain), the column's
// PostgreSQL type in the table's metadata (fluss.ColumnMeta.PGType
// "domain:<oid>"). A definition is never changed once published: ALTER
// DOMAIN publishes a new one under the same OID.
type Domain struct {
	// OID is pg_type.oid; ArrayOID the OID of its array type (OID+1).
	OID, ArrayOID uint32
	Schema, Name  string
	// Owner is the role that owns the domain (pg_type.typowner; "" the
	// bootstrap superuser).
	Owner string
	// Base is the type of the values, through every domain underneath.
	Base T
	// Parent is the domain this one is over (0 when the base is not a
	// domain): its constraints hold for this one's values too.
	Parent uint32
	// TypMod is pg_type.typtypmod (-1 none).
	TypMod int32
	// NotNull is a NOT NULL constraint; NotNullName its name.
	NotNull     bool
	NotNullName string
	// Default is the DEFAULT expression as PostgreSQL text ("" none).
	Default string
	Checks  []DomainCheck
	// Validate checks a batch of values of the base type against the
	// domain's constraints (its parents' first), with PostgreSQL's errors;
	// the engine sets it when it publishes the domain.
	Validate func(ctx context.Context, values arrow.Array) error
}

// DomainCheck is one CHECK constraint of a domain.
type DomainCheck struct {
	Name string
	// Expr is the expression as written; VALUE names the value.
	Expr     string
	NotValid bool
	OID      uint32
}

// QualifiedName is the name PostgreSQL prints for the domain:
// schema-qualified outside public.
func (d *Domain) QualifiedName() string {
	if d.Schema == "" || d.Schema == "public" {
		return d.Name
	}
	return d.Schema + "." + d.Name
}

// PublishDomains makes defs the definitions of their OIDs in r and
// forgets the OIDs in gone: the catalog, format_type and casts find a
// domain from its OID (a column's metadata names it) in their catalog's
// registry.
func (r *Registry) PublishDomains(defs []*Domain, gone []uint32) {
	if r == nil {
		return
	}
	for _, d := range defs {
		d.Base = r.Bind(d.Base) // a domain over an enum
	}
	r.domains.publish(defs, func(d *Domain) uint32 { return d.OID }, gone)
}

// Domain is r's definition of the domain oid, nil when there is none.
func (r *Registry) Domain(oid uint32) *Domain {
	if r == nil {
		return nil
	}
	return r.domains.get(oid)
}
