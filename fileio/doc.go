// Package fileio owns the files sqlgate reads and writes on its own host:
// server-side COPY ... FROM 'file' / TO 'file' and the read_parquet /
// read_csv table functions (engine/copyfile.go, engine/filetables.go), and
// the Parquet and Arrow files of `sqlgate import` / `sqlgate export`.
//
//   - dir.go confines every name to the one directory of sqlgate serve
//     --file-dir (Dir, through os.Root: ".." and symbolic links cannot lead
//     out of it; only regular files are read) and writes a file beside its
//     name first, renaming it into place only when the COPY succeeded.
//   - formats.go reads and writes Parquet (arrow-go's pqarrow, the Arrow
//     schema stored in the footer so types round-trip exactly) and Arrow IPC
//     (the file format, or the stream format when the magic is missing). A
//     malformed file is a 22P04 error naming it, never a panic.
//   - conform.go holds a file's columns to the table's by seed 000's batch
//     rules (same names, same order, same types; storage-only differences
//     such as large_string, dictionaries and view types converted, anything
//     that would change a value refused before a row is read; CHAR(n)
//     checked as its text input), each error naming the file and column.
//   - export.go shapes a query's result for a file: the types Fluss stores
//     keep their Arrow types, sqlgate-internal ones (interval, timetz,
//     unconstrained numeric, oid) are written as PostgreSQL text.
//
// PostgreSQL's own text, CSV and binary COPY formats are not here: pgwire's
// COPY decoder and encoder read and write them (pgwire/copyfile.go), so a
// file and a client's COPY stream mean the same.
package fileio
