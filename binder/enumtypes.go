package binder

import (
	"github.com/sqlgate/sqlgate/types"
)

// TypeCatalog is the optional part of a Catalog that knows user-defined
// types (CREATE TYPE ... AS ENUM; the engine's metadata).
type TypeCatalog interface {
	// EnumType is the enum type schema.name ("" for the default schema).
	EnumType(schema, name string) (types.T, bool)
}

// typeCatalog is the statement's catalog's user-defined types, nil when it
// has none.
func (b *binder) typeCatalog() TypeCatalog {
	if tc, ok := b.cat.(TypeCatalog); ok {
		return tc
	}
	return nil
}

// userType is the user-defined type a type name names (typeFromNameIn).
func userType(ut TypeCatalog, schema, name string) (types.T, bool) {
	if ut == nil {
		return types.T{}, false
	}
	if t, ok := ut.EnumType(schema, name); ok {
		return t, true
	}
	return domainType(ut, schema, name) // domains.go
}
