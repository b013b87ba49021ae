// Package sqlerr owns the error type that every stage of the pipeline returns to a
// client: a PostgreSQL SQLSTATE, a message, and optionally a detail, a hint and a
// 1-based character position into the user's original SQL text.
//
// It is a leaf package: it must not import any other sqlgate package, so that
// fluss/, sql/, binder/, lower/, exec/ and pgwire/ can all depend on it.
// pgwire turns an *Error into an ErrorResponse; any other error reaching the
// client is reported as XX000 (internal_error) with a generic message.
//
// constructors.go builds the messages several packages raise (invalid byte
// sequences, NOT NULL violations with the failing row's DETAIL, the
// catalog's undefined or duplicate relations, schemas and roles), so that
// each is worded in one place. An
// error PostgreSQL reports without a cursor (a type modifier's) is Unplaced:
// WithPosition leaves it without one. An error a parse raises where
// PostgreSQL raises it while analysing is Analysed: in a failed block the
// engine reports 25P02 instead, as PostgreSQL does.
package sqlerr
