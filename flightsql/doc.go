// Package flightsql serves sqlgate over Arrow Flight SQL (gRPC), beside the
// PostgreSQL wire server and through the same engine: results leave as the
// executor's Arrow batches (nested types as native List, Map and Struct
// arrays) and bulk ingest takes Arrow batches in, under seed 000's write
// rules. It is built on arrow-go's flight/flightsql server framework, which
// decodes the requests; this package only maps them onto engine sessions.
//
// It owns no SQL: every statement goes through pgwire.Backend's sessions
// (Session.Prepare, Statement.Execute, CopyStatement.CopyFrom), the same
// parse/bind/plan/execute pipeline, privileges and errors as a PostgreSQL
// connection.
//
// # Connections and their lifecycle
//
//  1. Transport (server.go): one gRPC server on its own listener, with TLS
//     when Config.TLS is set (gRPC cannot negotiate it per connection, so
//     every client then uses TLS). cmd/sqlgate refuses a non-loopback
//     address without TLS, as for the PostgreSQL side.
//  2. Authentication (auth.go): Handshake with HTTP basic credentials
//     ("authorization: Basic ...") checks the password against the same
//     users as the PostgreSQL side (pgwire.AuthConfig.CheckPassword) and
//     answers a bearer token ("authorization: Bearer ..."); every other call
//     must carry it (28000 Unauthenticated otherwise, 28P01 for a wrong
//     password). With trust authentication a call without credentials is
//     served as user "sqlgate" on a connection of its gRPC peer address.
//  3. A connection (conns.go) is what a token (or, under trust, a peer
//     address) names: a user, an engine session for autocommit statements,
//     one engine session per open transaction, the prepared statements and
//     the queries awaiting DoGet. Beyond Config.MaxConnections live
//     connections (or Config.MaxConnectionsPerUser of one user) a new one
//     gets 53300 ResourceExhausted; a connection
//     ends at CloseSession, or unused for Config.IdleTimeout (and nothing
//     streaming), its open transactions rolled back. Calls on one engine session are
//     serialised (a one-slot semaphore, waited for under the call's
//     context): a client reading a result while it sends another statement
//     on the same connection waits for the first stream to end.
//  4. Statements (statements.go): GetFlightInfo prepares (parses and
//     binds) and returns a ticket (a statement returning no rows runs
//     there and then: ranAlready); DoGet executes and streams (stream.go),
//     one batch in flight at a time, so a client that stops reading holds
//     that batch and what gRPC's flow-control window took, not the result.
//     A query's rows leave through wire.go: each IPC message encoded once
//     into a pooled buffer that gRPC frees when written (arrow-go's own
//     writer serves the catalog commands); DialOptions is the matching
//     client side for Go clients. statement_timeout is the session's
//     setting, as on the PostgreSQL side (57014 when it fires). Prepared
//     statements keep their engine statement; parameters arrive as Arrow
//     batches (params.go), one execution per row. DoPut updates run
//     INSERT/UPDATE/DELETE and report the row count.
//  5. Ingest (ingest.go): CommandStatementIngest runs as COPY FROM of the
//     table (its privilege check, defaults, CHECK constraints and one atomic
//     write), each batch passed through fluss.ValidateRecord (seed 000's
//     rules) first. Nothing is written when any batch is rejected. With
//     "create if missing" a missing table is first created from the
//     batches' schema (ingestcreate.go: the Fluss type of each Arrow type).
//     "Replace" (ingestreplace.go) loads a table made from that schema
//     under a staging name, then drops the old table and renames the new
//     one into its place (on a store that cannot rename, a Fluss cluster:
//     drops, creates, loads). Temporary tables are refused (0A000).
//  6. Transactions (txn.go): BeginTransaction opens a session of its own
//     and runs BEGIN in it; statements, prepared statements and ingests
//     naming the transaction run there; EndTransaction runs COMMIT or
//     ROLLBACK and closes it.
//  7. Activity (observe.go): each connection is one row of
//     pg_stat_activity (Config.Observer), shown active with the statement
//     one of its sessions runs (startStatement, around every execution),
//     idle or idle in transaction between them; pg_cancel_backend ends the
//     running statements with 57014 (the connection stays usable) and
//     pg_terminate_backend ends them with 57P01 and closes the connection.
//  8. Catalog commands (catalog.go) are SQL over information_schema run in
//     the connection's session, so they see what the user may see; table
//     schemas are the Arrow schemas of SELECT * of each table.
//
// # Errors
//
// errors.go turns a *sqlerr.Error into a gRPC status whose code follows the
// SQLSTATE's class and whose message ends with "(SQLSTATE xxxxx)"; the
// SQLSTATE, detail and hint also travel as trailer metadata ("sqlstate",
// "detail", "hint"). Any other error is logged and sent as XX000 "internal
// error": Go error strings never reach clients.
//
// # Tests
//
// Against a real server (server.Start) with arrow-go's Flight SQL client:
// values compared with what the PostgreSQL side returns for the same table
// (flightsql_test.go), every seed-000 ingest rule (ingest_test.go), catalog
// commands, transactions, statement_timeout, TLS and the connection limit
// (session_test.go), query strings of several statements (multi_test.go);
// the result encoding and DialOptions' decoding (wire_test.go: round trips
// in frame-sized pieces, malformed messages); the ADBC Flight SQL driver
// from Python (adbc_test.go,
// testdata/adbc_client.py); a stalled client against an endless result
// (backpressure_test.go); FuzzRequests (malformed commands, tickets, action
// bodies and DoPut schemas) in make fuzz, its seeds in every go test. On a
// Fluss cluster (cluster_test.go, build tag fluss_cluster, make
// test-cluster): queries, prepared statements, ingest (replace included),
// catalog commands and the ADBC script. BenchmarkIngest
// (ingest_bench_test.go) profiles ingest against COPY in process, and
// BenchmarkQuery (query_bench_test.go) a SELECT * through Flight against
// pgx decoding the same rows.
//
// # Must not
//
// Parse SQL, evaluate expressions, read tables, or keep package-level
// mutable state.
package flightsql
