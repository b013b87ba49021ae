package pgwire

import (
	"context"
	"crypto/tls"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/types"
)

// Backend is what the wire server needs from the SQL engine. cmd/sqlgate wires
// engine.Engine into it; tests use small fakes. The server never parses SQL or
// touches kernels: it moves statements, parameters and Arrow batches.
type Backend interface {
	// NewSession starts the SQL session of an authenticated connection.
	NewSession(ctx context.Context, info SessionInfo) (Session, error)
}

// SessionInfo describes the connection a session belongs to.
type SessionInfo struct {
	User     string
	Database string
	// Params are the StartupMessage parameters (application_name, TimeZone, ...).
	Params map[string]string
	// ProcessID is the BackendKeyData process id (pg_backend_pid()).
	ProcessID uint32
	// RemoteAddr is the client's address, for pg_stat_activity.
	RemoteAddr string
	// LocalAddr is the server's end of the connection
	// (inet_server_addr()).
	LocalAddr string
	// TLS is the connection's TLS state, nil for a plaintext connection
	// (pg_stat_ssl).
	TLS *tls.ConnectionState
}

// Session is one connection's SQL state: settings, prepared plans, transaction.
// Calls on one Session never overlap.
type Session interface {
	// Prepare parses sql and binds every statement in it without executing
	// anything: the simple protocol passes a whole query string (zero or more
	// statements; zero means EmptyQueryResponse), the extended protocol's Parse
	// passes one statement. paramOIDs are the types the client declared in
	// Parse (0 = let the binder infer). Errors are *sqlerr.Error with a
	// position into sql for syntax errors.
	Prepare(ctx context.Context, sql string, paramOIDs []uint32) ([]Statement, error)
	// TxStatus is the ReadyForQuery status: 'I' idle, 'T' in a transaction
	// block, 'E' in a failed transaction block.
	TxStatus() byte
	// StatusChanges returns the ParameterStatus values that changed since the
	// last call (e.g. after SET application_name), to be sent to the client.
	StatusChanges() map[string]string
	// Status returns the value of a ParameterStatus parameter sent at startup
	// (server_version, TimeZone, DateStyle, ...). ok is false for unknown names.
	Status(name string) (value string, ok bool)
	// Close releases the session's resources.
	Close()
}

// Statement is one prepared (parsed and bound) statement. It can be executed
// many times, with different parameters.
type Statement interface {
	// SQL is the statement's original text.
	SQL() string
	// ParamTypes are the types of $1..$n as declared or inferred; a parameter
	// whose type nothing determines has Kind types.Unknown (OID 0 on the wire).
	ParamTypes() []types.T
	// Columns describe the result set; nil when the statement returns no rows
	// (the server answers Describe with NoData).
	Columns() []ResultColumn
	// Execute runs the statement. params holds one decoded value per
	// parameter: nil (NULL), bool, int64, float64, string (text, unknown-typed
	// and numeric parameters, as their text), []byte, or time.Time (date,
	// timestamp, timestamptz). The result streams; Execute itself must not
	// wait for the whole answer. params is the server's until the Result
	// is closed, then reused: keep copies, not the slice.
	Execute(ctx context.Context, params []any) (Result, error)
}

// ResultColumn describes one result column.
type ResultColumn struct {
	Name string
	Type types.T
	// TableOID and ColumnNumber identify the source column when the result
	// column is a plain column reference (0 otherwise), as in RowDescription.
	TableOID     uint32
	ColumnNumber int16
}

// Result is the stream of one statement execution.
type Result interface {
	// Next returns the next batch, whose columns match Statement.Columns in
	// order and whose Arrow types are the columns' types.T.ArrowType(); it
	// returns (nil, nil) when the result is exhausted. The server releases
	// each batch it receives, and keeps nothing of it (no column, no value)
	// past that Release: a result may rewrite a released batch's memory.
	Next(ctx context.Context) (arrow.RecordBatch, error)
	// Tag is the CommandComplete tag ("SELECT 3", "INSERT 0 2", "CREATE
	// TABLE"), valid once Next has returned (nil, nil).
	Tag() string
	// Close ends the execution early or after exhaustion; it is idempotent.
	Close()
}

// DemandResult is a Result that can be told how many rows the next Next
// should bring at most (0: no bound): an Execute with a row limit says so,
// so that a query calling something volatile (nextval) runs only as far
// as the rows sent, as PostgreSQL's portal does. Other rows may still
// come; the bound only keeps evaluation from running ahead.
type DemandResult interface {
	Demand(rows int64)
}

// CopyOptions are a COPY statement's format options.
type CopyOptions struct {
	// Format is "text", "csv" or "binary".
	Format    string
	Delimiter string // default tab (text) or comma (csv)
	Null      string // default \N (text) or "" (csv)
	Quote     string // csv, default "
	Escape    string // csv, default the quote
	Header    bool   // csv: the first line names the columns
}

// BatchSource yields Arrow batches; Next returns (nil, nil) at the end.
type BatchSource interface {
	Next(ctx context.Context) (arrow.RecordBatch, error)
}

// CopyStatement is implemented by a prepared COPY statement.
//
// For COPY ... FROM STDIN (CopyIn true) the server sends CopyInResponse,
// decodes the client's CopyData in Options' format into Arrow batches whose
// columns are CopyColumns (a bad line ends the COPY with an error naming its
// line number) and hands them to CopyIn, which writes all of them or none.
//
// For COPY ... TO STDOUT (CopyIn false) Execute streams the rows as for a
// query (Columns describes them) and the server sends them as CopyData in
// Options' format between CopyOutResponse and CopyDone.
type CopyStatement interface {
	Statement
	CopyIn() bool
	CopyColumns() []ResultColumn
	CopyOptions() CopyOptions
	// CopyFrom writes the rows src yields into the table and returns the
	// CommandComplete tag ("COPY n"). Nothing is written when it fails.
	CopyFrom(ctx context.Context, src BatchSource) (tag string, err error)
}

// TransactionFailer is an optional Session interface. pgwire calls
// FailTransaction after every error it reports while the session is open,
// including those the session did not raise itself (a Bind with bad
// parameters, a missing portal, a portal name in use...), so that an open
// transaction block becomes failed ('E', then 25P02 until ROLLBACK) as in
// PostgreSQL. Outside a transaction block it must do nothing.
type TransactionFailer interface {
	FailTransaction()
}

// StatementTransactions is an optional Session interface: pgwire calls
// EndStatementTransaction when a statement of a simple Query that ran as
// its own transaction (outside a transaction block, alone in its Query
// string) has ended, its rows sent, the moment PostgreSQL ends such a
// statement's transaction (its transaction-level locks go then).
type StatementTransactions interface {
	EndStatementTransaction()
}

// ImplicitTransactions is an optional Session interface: PostgreSQL runs
// every statement of an extended-protocol pipeline up to Sync, and every
// statement of a simple Query string holding several, in one implicit
// transaction, committed at Sync (at the end of the string) and rolled
// back as a whole by an error. pgwire calls HoldImplicit before such a
// statement runs (repeated calls while held do nothing) and EndImplicit at
// Sync or at the end of the string, commit false when an error was
// reported since the hold began. Inside a transaction block statements
// join the block as before and EndImplicit has nothing to end.
type ImplicitTransactions interface {
	HoldImplicit()
	EndImplicit(ctx context.Context, commit bool) error
}
