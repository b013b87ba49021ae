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

// TypesCatalog is the optional part of a Catalog that has a registry of
// the store's user-defined types (the engine's): the binder publishes a
// table's row type there when a statement names it, and finds a
// domain's definition there from a column's metadata.
type TypesCatalog interface {
	Types() *types.Registry
}

// registry is the statement's catalog's registry of user-defined types
// (nil, which knows none, when the catalog has none).
func (b *binder) registry() *types.Registry {
	if tc, ok := b.cat.(TypesCatalog); ok {
		return tc.Types()
	}
	return nil
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
