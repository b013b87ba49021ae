package fluss

import "github.com/sqlgate/sqlgate/sqlerr"

// UndefinedDatabase is the error for a database (schema) that does not
// exist, in PostgreSQL's words: every store reports it the same way.
func UndefinedDatabase(name string) *sqlerr.Error {
	return sqlerr.New(sqlerr.InvalidSchemaName, "schema \"%s\" does not exist", name)
}

// DuplicateDatabase is the error for CREATE SCHEMA of a database that exists.
func DuplicateDatabase(name string) *sqlerr.Error {
	return sqlerr.New(sqlerr.DuplicateSchema, "schema \"%s\" already exists", name)
}

// DatabaseNotEmpty is the error for dropping, without CASCADE, a database
// that still holds tables (what holds them is listed in the detail).
func DatabaseNotEmpty(name string, tables []string) *sqlerr.Error {
	e := sqlerr.New(sqlerr.DependentObjectsStillExist, "cannot drop schema %s because other objects depend on it", name).
		WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
	if len(tables) > 0 {
		detail := ""
		for i, t := range tables {
			if i > 0 {
				detail += "\n"
			}
			detail += "table " + name + "." + t + " depends on schema " + name
		}
		e = e.WithDetail("%s", detail)
	}
	return e
}
