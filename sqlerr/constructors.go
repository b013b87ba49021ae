package sqlerr

// Errors whose messages several packages raise, each built here once.

import (
	"strings"
	"unicode/utf8"
)

// InvalidByteSequence is PostgreSQL's report_invalid_encoding: 22021
// naming the bytes of the character that starts at seq[0] (as many as its
// first byte announces in enc, at most those there are).
func InvalidByteSequence(enc string, seq []byte) *Error {
	n := 1
	if enc == "UTF8" && len(seq) > 0 {
		switch c := seq[0]; {
		case c&0xe0 == 0xc0:
			n = 2
		case c&0xf0 == 0xe0:
			n = 3
		case c&0xf8 == 0xf0:
			n = 4
		}
	}
	n = min(n, len(seq))
	var b strings.Builder
	for i, c := range seq[:n] {
		if i > 0 {
			b.WriteByte(' ')
		}
		const hex = "0123456789abcdef"
		b.WriteString("0x")
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return New(CharacterNotInRepertoire, "invalid byte sequence for encoding %q: %s", enc, b.String())
}

// InvalidUTF8 is InvalidByteSequence at the first byte of data that does
// not start a valid UTF-8 character (or a NUL, which PostgreSQL's text
// cannot hold); nil when there is none.
func InvalidUTF8(data []byte) *Error {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == 0 || r == utf8.RuneError && n <= 1 {
			return InvalidByteSequence("UTF8", data[i:])
		}
		i += n
	}
	return nil
}

// NullInNotNull is 23502 for a NULL in column (a path such as "m.k" for a
// field inside a nested value) of relation.
func NullInNotNull(column, relation string) *Error {
	return New(NotNullViolation, "null value in column %q of relation %q violates not-null constraint", column, relation)
}

// NullInNotNullRow is NullInNotNull for a row being written, with
// PostgreSQL's DETAIL naming the whole row (ExecConstraints'
// ExecBuildSlotValueDescription): "Failing row contains (v1, v2, ...).",
// every column in table order, each value in its type's text form (nil
// for NULL, printed null) cut to 64 bytes on a character boundary with
// "..." after, so that a long value does not flood the report.
func NullInNotNullRow(column, relation string, row []*string) *Error {
	e := NullInNotNull(column, relation)
	e.Detail = FailingRow(row) // not a format: a value may hold '%'
	return e
}

// ViewCheckViolation is 44000 for a row written through view that its
// WITH CHECK OPTION refuses, with NullInNotNullRow's DETAIL (row: the
// base table's columns, as ExecWithCheckOptions prints them).
func ViewCheckViolation(view string, row []*string) *Error {
	e := New(WithCheckOptionViolation, "new row violates check option for view %q", view)
	e.Detail = FailingRow(row)
	return e
}

// PartitionConstraintViolation is 23514 for a row written through a
// partition that its partition constraint refuses (a row of another
// partition), with the row as ViewCheckViolation's DETAIL shows it, as
// ExecPartitionCheckEmitError reports it.
func PartitionConstraintViolation(relation string, row []*string) *Error {
	e := New("23514", "new row for relation %q violates partition constraint", relation)
	e.Detail = FailingRow(row)
	return e
}

// FailingRow is PostgreSQL's DETAIL "Failing row contains (v1, ...)."
// (NullInNotNullRow).
func FailingRow(row []*string) string {
	var b strings.Builder
	b.WriteString("Failing row contains (")
	for i, v := range row {
		if i > 0 {
			b.WriteString(", ")
		}
		switch {
		case v == nil:
			b.WriteString("null")
		case len(*v) <= failingValueMax:
			b.WriteString(*v)
		default:
			b.WriteString(clipUTF8(*v, failingValueMax))
			b.WriteString("...")
		}
	}
	b.WriteString(").")
	return b.String()
}

// failingValueMax is ExecBuildSlotValueDescription's maxfieldlen.
const failingValueMax = 64

// clipUTF8 is pg_mbcliplen: the longest prefix of s of at most n bytes
// that does not split a character.
func clipUTF8(s string, n int) string {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// TransactionAborted is 25P02 for a statement sent in a failed transaction
// block, before its ROLLBACK.
func TransactionAborted() *Error {
	return New(InFailedSQLTransaction, "current transaction is aborted, commands ignored until end of transaction block")
}

// DivideByZero is 22012, for integer, numeric, float and interval
// division and modulo alike.
func DivideByZero() *Error {
	return New(DivisionByZero, "division by zero")
}

// TimestampOutOfRange is 22008 for a timestamp (with or without time zone)
// that a computation or an input would take past the type's range.
func TimestampOutOfRange() *Error {
	return New(DatetimeFieldOverflow, "timestamp out of range")
}

// InvalidJSON is 22P02 for text that is not JSON (callers add
// PostgreSQL's DETAIL where they know the token).
func InvalidJSON() *Error {
	return New(InvalidTextRepresentation, "invalid input syntax for type json")
}

// CanceledByUser is 57014 for a statement stopped by a cancel request
// (pg_cancel_backend, the protocol's CancelRequest, a closed Flight call).
func CanceledByUser() *Error {
	return New(QueryCanceled, "canceling statement due to user request")
}

// The catalog's errors that several packages raise (the engine, the
// stores, views, the Flight SQL ingest), each built here so that its text
// is the same everywhere and found by one grep.

// UndefinedRelation is 42P01 for a table, view or sequence name that
// names nothing.
func UndefinedRelation(name string) *Error {
	return New(UndefinedTable, "relation \"%s\" does not exist", name)
}

// RelationAsWritten returns err naming a missing relation as the statement
// wrote it: PostgreSQL's RangeVarGetRelid says relation "schema.name" does
// not exist for a qualified name, where a store, given the resolved path,
// names the relation alone, and schema "schema" does not exist (3F000)
// when the schema is missing (exists tells; nil: it does). Any other
// error, or an unqualified name (schema ""), passes unchanged.
func RelationAsWritten(err error, schema, name string, exists func(schema string) bool) error {
	e := As(err)
	if schema == "" || e == nil || e.Code != UndefinedTable || e.Message != UndefinedRelation(name).Message {
		return err
	}
	q := *e
	if exists != nil && !exists(schema) {
		q.Code, q.Message = InvalidSchemaName, UndefinedSchema(schema).Message
		return &q
	}
	q.Message = UndefinedRelation(schema + "." + name).Message
	return &q
}

// RelationExists is 42P07 for a table, view or sequence created (or
// renamed) under a name a relation of its schema already has.
func RelationExists(name string) *Error {
	return New(DuplicateTable, "relation \"%s\" already exists", name)
}

// ConstraintExists is 42710 for a constraint added (or copied by CREATE
// TABLE ... LIKE) under a name its table's constraints already have.
func ConstraintExists(name, relation string) *Error {
	return New(DuplicateObject, "constraint \"%s\" for relation \"%s\" already exists", name, relation)
}

// UndefinedSchema is 3F000 for a schema name that names nothing.
func UndefinedSchema(name string) *Error {
	return New(InvalidSchemaName, "schema \"%s\" does not exist", name)
}

// UndefinedRole is 42704 for a role name that names nothing.
func UndefinedRole(name string) *Error {
	return New(UndefinedObject, "role \"%s\" does not exist", name)
}
