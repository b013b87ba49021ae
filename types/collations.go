package types

import "github.com/sqlgate/sqlgate/sqlerr"

// CollationsNotSupported is 42804 for a COLLATE given to a value, column,
// domain or type modifier of a type without collations (PostgreSQL's
// type_is_collatable false), named as the caller shows it.
func CollationsNotSupported(typeName string) *sqlerr.Error {
	return sqlerr.New(sqlerr.DatatypeMismatch, "collations are not supported by type %s", typeName)
}
