// Package transfer is the client side of sqlgate import and sqlgate export:
// files streamed into and out of a running server over the PostgreSQL
// protocol (pgx's pgconn), with a progress report.
//
//   - import.go reads Parquet and Arrow files with package fileio, checks
//     that the table has the file's columns in types their binary form
//     fits (seed 000: names and types are the table's; --create makes the
//     table from the file's columns), and sends them as COPY ... FROM STDIN
//     (FORMAT binary), encoded by pgwire's own COPY encoder; CSV and text
//     files go as they are. One COPY per file, so a file is loaded whole or
//     not at all; the files done are recorded (--state) and skipped when the
//     command runs again.
//   - export.go writes COPY ... TO STDOUT's rows to a file: CSV, text and
//     binary as sent, Parquet and Arrow decoded from the binary rows by
//     pgwire's COPY decoder in a table's Fluss types (DESCRIBE's, read by
//     flusstypes.go) or a query's wire types (a temporary file renamed into
//     place at the end).
//   - progress.go draws the bar on a terminal (bytes, rows, rates, ETA) and
//     plain lines elsewhere, then the summary.
//
// The server side of files (COPY ... 'file', read_parquet) is fileio's and
// the engine's.
package transfer
