package types

import (
	"fmt"
	"slices"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// EnumType is one version of a user-defined enum type (CREATE TYPE ... AS
// ENUM): its labels in their sort order. A value of the type is a String
// holding its label (T{Kind: String, Variant: Enum, TypeOID: OID}); Fluss
// has no enum type, so an enum column is stored as STRING and the type is
// kept in sqlgate's metadata (meta.EnumType), the column's PostgreSQL type
// in the table's metadata (fluss.ColumnMeta.PGType "enum:<oid>").
//
// A definition is never changed once published: ALTER TYPE publishes a
// new one under the same OID.
type EnumType struct {
	// OID is pg_type.oid; ArrayOID the OID of its array type (OID+1).
	OID, ArrayOID uint32
	Schema, Name  string
	// Labels are the labels in sort order (pg_enum.enumsortorder), which
	// comparisons and ORDER BY follow; Sorts are their enumsortorder
	// values and LabelOIDs their pg_enum.oid.
	Labels    []string
	Sorts     []float32
	LabelOIDs []uint32
	// Owner is the role that owns the type (pg_type.typowner; "" the
	// bootstrap superuser).
	Owner string
	// reg is the registry that published the definition (nil before).
	reg *Registry
}

// Rank is label's position in the sort order, or -1 when the type has no
// such label.
func (e *EnumType) Rank(label string) int { return slices.Index(e.Labels, label) }

// QualifiedName is the name PostgreSQL prints for the type: schema-qualified
// outside public.
func (e *EnumType) QualifiedName() string {
	if e.Schema == "" || e.Schema == "public" {
		return e.Name
	}
	return e.Schema + "." + e.Name
}

// T is the SQL type of the enum's values.
func (e *EnumType) T() T { return T{Kind: String, Variant: Enum, TypeOID: e.OID, reg: e.reg} }

// IsEnum reports whether t is a user-defined enum type.
func (t T) IsEnum() bool { return t.Variant == Enum }

// PublishEnums makes defs the definitions of their OIDs in r and forgets
// the OIDs in gone. Every path that meets a value of an enum type - text
// input (ParseText), output names, ordering - finds the definition from
// its T (T.EnumDef), so that no layer between the catalog and a kernel
// has to carry it. Each definition becomes r's: its T carries r.
func (r *Registry) PublishEnums(defs []*EnumType, gone []uint32) {
	if r == nil {
		return
	}
	for _, d := range defs {
		d.reg = r
	}
	r.enums.publish(defs, func(d *EnumType) uint32 { return d.OID }, gone)
}

// Enum is r's definition of the enum type oid, nil when there is none
// (dropped).
func (r *Registry) Enum(oid uint32) *EnumType {
	if r == nil {
		return nil
	}
	return r.enums.get(oid)
}

// EnumDef is the definition of t's enum type in the registry that
// resolved it, nil when t is no enum or it is unknown.
func (t T) EnumDef() *EnumType {
	if !t.IsEnum() {
		return nil
	}
	return t.reg.Enum(t.TypeOID)
}

// EnumName is the enum type's name as PostgreSQL prints it.
func (r *Registry) EnumName(oid uint32) string {
	if e := r.Enum(oid); e != nil {
		return e.QualifiedName()
	}
	return fmt.Sprintf("enum(%d)", oid)
}

// ParseEnum is enum_in: s must be one of the type's labels (22P02).
func (r *Registry) ParseEnum(s string, oid uint32) (any, error) {
	e := r.Enum(oid)
	if e == nil {
		return nil, sqlerr.New(sqlerr.UndefinedObject, "cache lookup failed for type %d", oid)
	}
	if e.Rank(s) < 0 {
		return nil, InvalidEnumInput(e.QualifiedName(), s)
	}
	return s, nil
}

// InvalidEnumInput is enum_in's error for a label the type lacks.
func InvalidEnumInput(typeName, s string) *sqlerr.Error {
	return sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input value for enum %s: \"%s\"", typeName, s)
}
