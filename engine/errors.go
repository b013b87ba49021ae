package engine

import "github.com/sqlgate/sqlgate/sqlerr"

// The errors the engine raises in several places, each built once so that
// its client-visible text has one home. Errors shared with other packages
// are sqlerr's (sqlerr.TransactionAborted for 25P02, UndefinedRelation,
// RelationExists, UndefinedSchema, UndefinedRole); errors raised once stay
// where they are raised.

// readOnlyTransaction is 25006 for a write or DDL statement (verb) in a
// BEGIN READ ONLY block.
func readOnlyTransaction(verb string) *sqlerr.Error {
	return sqlerr.New(sqlerr.ReadOnlySQLTransaction, "cannot execute %s in a read-only transaction", verb)
}

// inTransactionBlock is 25001 for a statement (what) that cannot run
// inside a transaction block.
func inTransactionBlock(what string) *sqlerr.Error {
	return sqlerr.New(sqlerr.ActiveSQLTransaction, "%s cannot run inside a transaction block", what)
}

// outsideTransactionBlock is 25P01 for a statement (what) that only a
// transaction block can run.
func outsideTransactionBlock(what string) *sqlerr.Error {
	return sqlerr.New(sqlerr.NoActiveSQLTransaction, "%s can only be used in transaction blocks", what)
}

// cachedPlanChanged is 0A000 for a prepared statement whose result columns
// would change when planned again after a catalog change.
func cachedPlanChanged() *sqlerr.Error {
	return sqlerr.New(sqlerr.FeatureNotSupported, "cached plan must not change result type")
}

// tableRecreated is 55000 for a prepared write whose table was dropped
// and created again under its name since it was prepared.
func tableRecreated(table string) *sqlerr.Error {
	return sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "table %q was dropped and re-created since the statement was prepared", table)
}

// notA is 42809 for a name that names a relation of another kind than
// the statement's (kind: "table", "view").
func notA(kind, name string) *sqlerr.Error {
	return sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is not a %s", name, kind)
}

// mustOwn is 42501 for a change of an object (kind: "table", "view",
// "function") that only its owner or a superuser may make.
func mustOwn(kind, name string) *sqlerr.Error {
	return sqlerr.New(sqlerr.InsufficientPrivilege, "must be owner of %s %s", kind, name)
}

// schemaPermissionDenied is 42501 for creating in a schema without its
// CREATE privilege.
func schemaPermissionDenied(schema string) *sqlerr.Error {
	return sqlerr.New(sqlerr.InsufficientPrivilege, "permission denied for schema %s", schema)
}

// databasePermissionDenied is 42501 for a statement that needs a
// privilege on the database (CREATE for CREATE SCHEMA).
func databasePermissionDenied(db string) *sqlerr.Error {
	return sqlerr.New(sqlerr.InsufficientPrivilege, "permission denied for database %s", db)
}

// noSchemaSelected is 3F000 for an unqualified CREATE when no schema of
// search_path exists.
func noSchemaSelected() *sqlerr.Error {
	return sqlerr.New(sqlerr.InvalidSchemaName, "no schema has been selected to create in")
}

// unacceptableSchemaName is 42939 for a schema name PostgreSQL reserves
// (the caller says why in the DETAIL).
func unacceptableSchemaName(name string) *sqlerr.Error {
	return sqlerr.New(sqlerr.ReservedName, "unacceptable schema name \"%s\"", name)
}

// invalidParameterValue is 22023 for a setting given a value it does not
// take.
func invalidParameterValue(name, value string) *sqlerr.Error {
	return sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for parameter \"%s\": \"%s\"", name, value)
}

// noParameter is 42P02 for a reference to parameter $n beyond those given.
func noParameter(n int) *sqlerr.Error {
	return sqlerr.New(sqlerr.UndefinedParameter, "there is no parameter $%d", n)
}

// skipped is the NOTICE of an IF EXISTS statement whose object does not
// exist; kind is PostgreSQL's word for it there (table, view, sequence,
// schema, role; relation for ALTER ... IF EXISTS).
func skipped(kind, name string) *sqlerr.Error {
	return sqlerr.New(sqlerr.SuccessfulCompletion, "%s \"%s\" does not exist, skipping", kind, name)
}

// existsSkipping is the NOTICE of a CREATE ... IF NOT EXISTS that met its
// object, with the SQLSTATE PostgreSQL gives it (42P07 for relations,
// 42P06 for schemas): kind is PostgreSQL's word (relation, schema).
func existsSkipping(code sqlerr.Code, kind, name string) *sqlerr.Error {
	return sqlerr.New(code, "%s \"%s\" already exists, skipping", kind, name)
}

// notOnThisStore is 0A000 for what the store cannot do safely (row locks,
// a snapshot); the caller says why in the DETAIL. Other features sqlgate
// lacks are sqlerr.NotSupported's "... is not supported".
func notOnThisStore(what string) *sqlerr.Error {
	return sqlerr.New(sqlerr.FeatureNotSupported, "%s is not supported on this store", what)
}
