// Package pgwire is sqlgate's PostgreSQL wire-protocol (v3.0) server. It moves
// statements, parameters and Arrow batches between PostgreSQL clients and a
// Backend (backend.go); it never parses SQL, touches kernels or knows about
// tables. Value codecs (Arrow -> PostgreSQL text/binary, parameter decoding,
// type OIDs) live in the leaf package pgtypes, which the catalog, COPY files
// and the function library share with the wire.
//
// # Layers
//
//   - server.go: Server, Config, the accept loop (Serve), Shutdown, and the
//     registry of connections by BackendKeyData process id that serves
//     CancelRequest.
//   - conn.go: one connection: the startup phase, the reader goroutine, the
//     executor loop, error and output plumbing.
//   - query.go: the simple Query protocol and result streaming (shared with
//     Execute).
//   - extended.go: Parse, Bind, Describe, Execute, Close.
//   - copy.go: the COPY sub-protocol (CopyIn/CopyOut responses, CopyData,
//     CopyDone, CopyFail) and COPY TO's text/CSV/binary framing;
//     copydata.go decodes COPY FROM data into Arrow batches; copyfile.go
//     runs the same decoder and encoder over an io.Reader / io.Writer
//     (server-side COPY files, read_csv, sqlgate import / export).
//   - auth.go: trust, cleartext password, md5 and SCRAM-SHA-256 exchanges
//     (malformed SCRAM messages get PostgreSQL 15's errors, checked in its
//     order); users.go: the users file of SCRAM verifiers (optionally md5
//     hashes); password.go: AuthConfig.CheckPassword, the same check of a
//     password given in clear outside these exchanges (package flightsql's
//     basic authentication).
//   - timeouts.go: statement_timeout, idle_in_transaction_session_timeout
//     and idle_session_timeout, read from the session's settings.
//   - rawsock_linux.go, rawsys_linux*.go: the socket read and written with
//     raw system calls; blockwait_linux.go: the blocking wait of the only
//     busy connection; watch.go: the watcher of a statement's client.
//   - stream.go: results without end (StreamingResult: SUBSCRIBE), flushed
//     before each wait for rows, every write bounded by their send timeout;
//     binarycursor.go: a simple Query's binary rows (FETCH from a BINARY
//     cursor).
//   - notify.go: LISTEN / NOTIFY's NotificationResponse ('A'), through the
//     session's optional Notifier: sent, as PostgreSQL 15 does, only while
//     the session is idle outside a transaction block, before its
//     ReadyForQuery 'I' (sendReady) and, pushed at once, when the session
//     waits idle for a message (a listening session is served by a reader
//     goroutine from its next wait on, so that the hub's wake-up can reach
//     its executor, waiting in receive).
//   - observer.go: Config.Observer, told of each session, statement,
//     error, COPY and ReadyForQuery (the server's pg_stat_activity,
//     metrics and statement log), and SessionControl, through which
//     pg_cancel_backend and pg_terminate_backend reach a connection
//     (FATAL 57P01 for a terminated one).
//
// # Connection lifecycle
//
//  1. Accept (Server.Serve) starts serveConn in its own goroutine.
//  2. Startup (conn.startup): an SSLRequest is answered 'S' and the socket
//     switches to TLS when Config.TLS is set, 'N' otherwise (and a
//     GSSENCRequest always 'N'), the client continuing in plaintext; with
//     Config.RequireTLS a plaintext StartupMessage gets FATAL 28000. A
//     CancelRequest is matched
//     against the registry (pid and secret, compared in constant time) and
//     cancels that connection's running statement, then the socket closes
//     without a reply, whatever the outcome; a StartupMessage carries user,
//     database and settings. Protocol 3.x with x > 0 gets
//     NegotiateProtocolVersion (we speak 3.0).
//  3. Authentication (conn.authenticate, auth.go) per Config.Auth: trust;
//     cleartext password or SCRAM-SHA-256 checked against the user's SCRAM
//     verifier; md5 for users with a stored md5 hash, SCRAM for the others
//     (as PostgreSQL does). Unknown users go through the same exchange with
//     a mock salt; every failure waits AuthConfig.FailureDelay, then FATAL
//     28P01 "password authentication failed for user". Before it, as in
//     PostgreSQL, a connection beyond Config.MaxConnections gets FATAL 53300
//     "sorry, too many clients already".
//  4. Admission: beyond Config.MaxConnectionsPerUser sessions of one user,
//     FATAL 53300 "too many connections for role" (checked after
//     authentication, as PostgreSQL checks a role's CONNECTION LIMIT).
//  5. Session: Backend.NewSession; then AuthenticationOk,
//     the 13 ParameterStatus values PostgreSQL 15 sends (from
//     Session.Status, with defaults), BackendKeyData (pid + random 4-byte
//     secret) and ReadyForQuery with Session.TxStatus().
//  6. Serving: the executor (conn.run) handles one message at a time, in
//     order, owning the session, the prepared statements, the portals and
//     the output buffer. On a plain TCP socket it reads the messages itself
//     (conn.readInline: one read, the handling, one write per round trip, both raw
//     system calls on Linux (rawsock_linux.go: no wake-up of the runtime's
//     monitor thread per query), no goroutine hand-off). The wait for the
//     next message parks the goroutine on the runtime's netpoller, except
//     for the only busy connection of the server: it blocks its thread in
//     read(2) on a socket taken out of the netpoller, as a PostgreSQL
//     backend does, which spares the netpoller's park on each round trip
//     (measured under load; bench/LEDGER.md), and goes back to the
//     netpoller as soon as another connection waits for a message or
//     arrives, since a blocked thread per waiting connection loses at 8
//     clients (blockwait_linux.go: who may block, the deadlines, shutdown
//     and terminate through shutdown(2)). A watcher goroutine (watch.go) peeks at
//     the socket when a message has run for 100 ms and cancels the
//     connection's context when the client is gone, so that a statement
//     whose client vanished stops (pgx cancels by dropping the
//     connection); shutdown interrupts a read through the socket's
//     deadline. A reader goroutine (conn.readLoop) frames the messages
//     instead for a TLS connection, all along, and during a COPY FROM's
//     data, which it reads ahead of the decoding. Either way a length
//     prefix above Config.MaxMessageSize gets FATAL 08P01 before anything
//     is allocated. While the executor waits for a message after
//     ReadyForQuery, idle_in_transaction_session_timeout (status T or E:
//     FATAL 25P03) or idle_session_timeout (status I: FATAL 57P05) may end
//     the session (a read deadline, or a timer in reader mode; nothing is
//     armed when they are off).
//  7. End: Terminate, a socket error, a FATAL error or Shutdown (FATAL
//     57P01). Portals and the session are closed.
//
// # Where each message is handled
//
//	Query 'Q'     conn.handleQuery: Session.Prepare on the whole string, then
//	              per statement RowDescription (text), DataRows,
//	              CommandComplete and changed ParameterStatus; stop at the
//	              first error; zero statements -> EmptyQueryResponse. Drops
//	              the unnamed statement and portal.
//	Parse 'P'     conn.handleParse: in a failed block (E) only a
//	              transaction-exit statement (COMMIT, ROLLBACK...), else
//	              25P02; one statement (more -> 42601), named or
//	              unnamed (replaced); parameter OIDs from the client or
//	              inferred (Unknown -> 0).
//	Bind 'B'      conn.handleBind (decoded in place, bindMessage, into
//	              slices reused by the next Bind): PostgreSQL's checks in its order (format
//	              and parameter counts, 25P02 in a failed block, 42P03 for
//	              a portal name in use); parameters decoded with their
//	              format codes (pgtypes.DecodeParam), result formats fixed,
//	              encoder built (or the statement's last one reused
//	              when its formats and zone match).
//	Describe 'D'  conn.handleDescribe: S -> ParameterDescription +
//	              RowDescription/NoData (25P02 in a failed block for a
//	              statement returning rows); P -> RowDescription with the
//	              portal's formats, or NoData.
//	Execute 'E'   conn.handleExecute: starts or resumes the portal; maxRows
//	              -> PortalSuspended; exhausted -> CommandComplete.
//	Close 'C'     conn.handleClose.
//	Sync 'S'      conn.handleSync: leaves error recovery, closes all portals
//	              outside a transaction block, ReadyForQuery, flush.
//	Flush 'H'     writes buffered output.
//	Terminate 'X' ends the connection.
//	CopyData 'd', CopyDone 'c', CopyFail 'f'
//	              read by copyInSource while a COPY FROM STDIN runs (Flush
//	              and Sync are ignored then, anything else is 08P01);
//	              outside COPY they are ignored, as PostgreSQL does.
//
// # COPY
//
// A Statement that implements CopyStatement with a non-empty
// CopyOptions().Format is a COPY (asCopy): the simple Query and Execute run
// it through conn.runCopy instead of streaming DataRows, and Describe
// answers NoData. COPY FROM: CopyInResponse, then the statement's CopyFrom
// pulls batches from copyInSource, which decodes CopyData as it arrives
// (8192 rows per batch); a bad value ends the COPY with its SQLSTATE and a
// CONTEXT line ("COPY t, line 3, column b: ...", CopyDataError) and the
// statement writes nothing. COPY TO: Execute, CopyOutResponse, one CopyData
// per row (binary: signature header and trailer), CopyDone, "COPY n".
//
// After an error in an extended-protocol message, every message up to Sync
// is discarded, as PostgreSQL does. Every error reported while a session is
// open is passed to the session's optional TransactionFailer, so that an
// error pgwire raises itself (Bind, Describe, a missing portal) fails a
// transaction block as in PostgreSQL.
//
// Outside a transaction block, the statements of a pipeline up to Sync, and
// those of a simple Query string holding several, are one implicit
// transaction, as in PostgreSQL: pgwire asks the session's optional
// ImplicitTransactions to hold it (at Execute, or before such a string
// runs) and to end it at Sync (at the end of the string), committing when
// no error was reported since, rolling back otherwise. Another session sees
// a pipeline's writes only after its Sync. A lone statement of a simple
// Query is its own transaction: once its rows are sent, the session's
// optional StatementTransactions learns that it ended (its
// transaction-level advisory locks go then).
//
// # Results
//
// Results stream batch by batch: each Arrow batch is turned into DataRows by
// a pgtypes.RowEncoder (per-column encoders chosen once per result) appended
// to the connection's output buffer, which is written whenever it passes
// Config.FlushThreshold. No result is ever held whole. A row whose encoding
// exceeds Config.MaxRowSize fails its statement with 54000 (nothing of that
// row is sent) and the session goes on. The NOTICEs and WARNINGs a
// statement's functions raise while it runs (the session's optional
// RuntimeNotices) go out before the rows of the batch that raised them and
// before an ErrorResponse; a result's own notices before its
// CommandComplete.
//
// # Errors and cancellation
//
// A *sqlerr.Error becomes an ErrorResponse with its severity, SQLSTATE,
// message, detail, hint and position. Any other error is logged and sent as
// XX000 "internal error": Go error strings never reach clients. A context
// error is 57014 ("canceling statement due to user request", or "... due
// to statement timeout" when statement_timeout fired: each statement of a
// simple Query and each Execute has its own timer). A panic while serving
// a message is recovered, logged with its stack and answered with XX000;
// the connection stays usable and the process never dies. Statement contexts descend from the connection's,
// which descends from the server's: CancelRequest cancels the statement,
// a dead socket cancels the connection, Shutdown cancels everything.
//
// # Tests
//
// Beside the code, against a fake Backend (fake_test.go); FuzzClientMessages
// and FuzzStartup (the startup and authentication handshake, with a seed
// corpus in testdata/fuzz/FuzzStartup) run their seeds in every go test.
// tests/protocol runs byte-level scripts against PostgreSQL 15 and sqlgate.
//
// # Must not
//
// Parse or rewrite SQL, evaluate expressions, read tables, keep
// package-level mutable state, or leak Go error text to clients.
//
// # Not yet
//
// SCRAM-SHA-256-PLUS (channel binding), SASLprep of passwords (they are used
// as given: the same for ASCII), function call messages and protocol 3.2's
// longer cancel keys.
package pgwire
