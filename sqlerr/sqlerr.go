package sqlerr

import (
	"errors"
	"fmt"
	"strings"
)

// Code is a five-character PostgreSQL SQLSTATE.
type Code string

// The SQLSTATEs sqlgate reports. Names follow PostgreSQL's errcodes.txt.
const (
	SuccessfulCompletion            Code = "00000"
	Warning                         Code = "01000"
	FeatureNotSupported             Code = "0A000"
	InvalidCursorName               Code = "34000"
	InvalidTransactionState         Code = "25000"
	ReadOnlySQLTransaction          Code = "25006"
	ActiveSQLTransaction            Code = "25001"
	InvalidSavepointSpecification   Code = "3B001"
	InvalidGrantOperation           Code = "0LP01"
	IOError                         Code = "58030"
	InFailedSQLTransaction          Code = "25P02"
	NoActiveSQLTransaction          Code = "25P01"
	InvalidSQLStatementName         Code = "26000"
	InvalidAuthorizationSpec        Code = "28000"
	InvalidPassword                 Code = "28P01"
	DataException                   Code = "22000"
	StringDataRightTruncation       Code = "22001"
	NumericValueOutOfRange          Code = "22003"
	NullValueNotAllowed             Code = "22004"
	ZeroLengthCharacterString       Code = "2200F"
	InvalidDatetimeFormat           Code = "22007"
	DatetimeFieldOverflow           Code = "22008"
	InvalidTimeZoneDisplacement     Code = "22009"
	ArraySubscriptError             Code = "2202E"
	DivisionByZero                  Code = "22012"
	InvalidPrecedingOrFollowingSize Code = "22013"
	IntervalFieldOverflow           Code = "22015"
	InvalidParameterValue           Code = "22023"
	InvalidTextRepresentation       Code = "22P02"
	InvalidBinaryRepresentation     Code = "22P03"
	CharacterNotInRepertoire        Code = "22021"
	IntegrityConstraintViolation    Code = "23000"
	WithCheckOptionViolation        Code = "44000"
	NotNullViolation                Code = "23502"
	UniqueViolation                 Code = "23505"
	SyntaxError                     Code = "42601"
	InsufficientPrivilege           Code = "42501"
	UndefinedColumn                 Code = "42703"
	UndefinedFunction               Code = "42883"
	UndefinedTable                  Code = "42P01"
	UndefinedObject                 Code = "42704"
	UndefinedParameter              Code = "42P02"
	DuplicateTable                  Code = "42P07"
	DuplicateColumn                 Code = "42701"
	DuplicateObject                 Code = "42710"
	DuplicateAlias                  Code = "42712"
	AmbiguousColumn                 Code = "42702"
	AmbiguousFunction               Code = "42725"
	DatatypeMismatch                Code = "42804"
	InvalidRecursion                Code = "42P19"
	CannotCoerce                    Code = "42846"
	GroupingError                   Code = "42803"
	WindowingError                  Code = "42P20"
	WrongObjectType                 Code = "42809"
	InvalidColumnDefinition         Code = "42611"
	InvalidTableDefinition          Code = "42P16"
	InvalidObjectDefinition         Code = "42P17"
	DependentObjectsStillExist      Code = "2BP01"
	InvalidColumnReference          Code = "42P10"
	IndeterminateDatatype           Code = "42P18"
	CollationMismatch               Code = "42P21"
	IndeterminateCollation          Code = "42P22"
	ProtocolViolation               Code = "08P01"
	ConnectionException             Code = "08000"
	ConnectionFailure               Code = "08006"
	TooManyConnections              Code = "53300"
	OutOfMemory                     Code = "53200"
	DiskFull                        Code = "53100"
	QueryCanceled                   Code = "57014"
	AdminShutdown                   Code = "57P01"
	ObjectNotInPrerequisiteState    Code = "55000"
	CantChangeRuntimeParam          Code = "55P02"
	ObjectInUse                     Code = "55006"
	ExternalRoutineException        Code = "38000"
	ExternalRoutineInvocation       Code = "39000"
	DataCorrupted                   Code = "XX001"
	InternalError                   Code = "XX000"
	ConfigFileError                 Code = "F0000"
	InvalidCatalogName              Code = "3D000"
	InvalidSchemaName               Code = "3F000"
	DuplicateSchema                 Code = "42P06"
	ReservedName                    Code = "42939"
	UndefinedPreparedStatement      Code = "26000"
	DuplicatePreparedStatement      Code = "42P05"
	CardinalityViolation            Code = "21000"
	InvalidRegularExpression        Code = "2201B"
	InvalidEscapeSequence           Code = "22025"
	InvalidRowCountInLimitClause    Code = "2201W"
	InvalidRowCountInResultOffset   Code = "2201X"
	ProgramLimitExceeded            Code = "54000"
	LockNotAvailable                Code = "55P03"
	DeadlockDetected                Code = "40P01"
	SerializationFailure            Code = "40001"
)

// Error is an error with a SQLSTATE. Position is 1-based into the original SQL
// text (0 = none), as PostgreSQL's ErrorResponse 'P' field.
type Error struct {
	Code     Code
	Message  string
	Detail   string
	Hint     string
	Position int
	// Severity is "ERROR" unless set ("FATAL" for errors that end the session).
	Severity string
	// Unplaced: PostgreSQL reports this error with no cursor (a type
	// modifier applied when the statement is planned: a value too long
	// for varchar(n), a numeric(p,s) overflow), so WithPosition keeps it
	// without one.
	Unplaced bool
	// Analysed: a statement's parse (sqlgate's rewrites) raised an error
	// PostgreSQL raises while analysing the statement, after it refused
	// a statement in a failed transaction block: there 25P02 comes first.
	Analysed bool
	cause    error
}

func (e *Error) Error() string { return e.Message }

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.cause }

// New returns an *Error with a formatted message.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: pgSprintf(format, args...)}
}

// Wrap returns an *Error with the given code whose message is msg and whose cause is err.
func Wrap(err error, code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: pgSprintf(format, args...), cause: err}
}

// WithPosition returns a copy of e carrying position pos (e itself when it
// is Unplaced).
func (e *Error) WithPosition(pos int) *Error {
	if e.Unplaced {
		return e
	}
	c := *e
	c.Position = pos
	return &c
}

// AsUnplaced returns a copy of e that no position is given to.
func (e *Error) AsUnplaced() *Error {
	c := *e
	c.Unplaced, c.Position = true, 0
	return &c
}

// AsAnalysed returns a copy of e that is Analysed.
func (e *Error) AsAnalysed() *Error {
	c := *e
	c.Analysed = true
	return &c
}

// WithDetail returns a copy of e carrying a detail line.
func (e *Error) WithDetail(format string, args ...any) *Error {
	c := *e
	c.Detail = pgSprintf(format, args...)
	return &c
}

// WithHint returns a copy of e carrying a hint line.
func (e *Error) WithHint(format string, args ...any) *Error {
	c := *e
	c.Hint = pgSprintf(format, args...)
	return &c
}

// As returns the *Error in err's chain, or nil.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// CodeOf returns err's SQLSTATE, InternalError for an error without one and
// SuccessfulCompletion for nil.
func CodeOf(err error) Code {
	if err == nil {
		return SuccessfulCompletion
	}
	if e := As(err); e != nil {
		return e.Code
	}
	return InternalError
}

// Notsupported returns a 0A000 error naming the unsupported feature.
func NotSupported(feature string) *Error {
	return New(FeatureNotSupported, notSupportedFormat, feature)
}

const notSupportedFormat = "%s is not supported"

// IsGap reports whether err is sqlgate's own refusal of a feature it
// lacks (NotSupported, or an error with no SQLSTATE), not an error
// PostgreSQL raises too (its 0A000s say what is not supported otherwise:
// unit "hour" not supported for type date).
func IsGap(err error) bool {
	e := As(err)
	if e == nil {
		return true
	}
	return e.Code == InternalError || e.Code == FeatureNotSupported && strings.HasSuffix(e.Message, notSupportedFormat[2:])
}

// pgSprintf is fmt.Sprintf except that %q quotes as PostgreSQL's messages
// do: the value between plain double quotes, nothing escaped (Go's %q would
// escape quotes, backslashes and control characters, so a name or a value
// holding one would read differently from PostgreSQL's message).
func pgSprintf(format string, args ...any) string {
	if !strings.Contains(format, "%q") {
		return fmt.Sprintf(format, args...)
	}
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c == '%' && i+1 < len(format) {
			switch format[i+1] {
			case '%':
				b.WriteString("%%")
				i++
				continue
			case 'q':
				b.WriteString(`"%s"`)
				i++
				continue
			}
		}
		b.WriteByte(c)
	}
	return fmt.Sprintf(b.String(), args...)
}
