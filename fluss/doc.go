// Package fluss owns Apache Fluss's table model: table paths and descriptors
// (schema, primary key, bucket count and bucket key, properties), the rules of
// seed 000 for schemas and writes, and the Store interface through which the
// rest of sqlgate reads and writes tables. Implementations live in
// subpackages: fluss/embedded (the default, on-disk store that keeps Fluss's
// own formats), fluss/remote (a client of a real Fluss cluster and a Store
// over it) and fluss/format (the byte formats: log record batches,
// compacted rows, key encoding, bucketing). Fluss's table JSON
// (tablejson.go), the $changelog metadata columns (changelog.go) and the
// interface of a changelog followed as it grows (follow.go, SUBSCRIBE) are
// here, shared by the stores, and so are sqlgate's column metadata kept
// in a table's properties (coldefs.go: PostgreSQL types, defaults,
// identity, generation expressions, CHECK and FOREIGN KEY constraints;
// unique.go UNIQUE constraints and the hidden index table each is
// enforced through, IndexTablePath, which the embedded store's ListTables
// leaves out;
// missing.go the value the rows stored before ADD COLUMN ... DEFAULT read,
// which both stores fill in when they widen such rows, and NOT NULL set by
// ALTER TABLE, which Fluss cannot hold) and the sequence model a store may keep
// (sequences.go: SequenceStore, nextval's step and the blocks stores
// reserve ahead), and what a store shared by several servers offers for
// sessions' temporary schemas (tempschemas.go: TempSchemaStore), a
// table's bytes on disk (sizes.go: TableSizer, pg_relation_size's), and a
// table filled to replace another in one step (replace.go: TableReplacer,
// ALTER TABLE's rewrite; recreate.go: TableRecreator, TRUNCATE's).
// Partitioned tables are modelled here too (partitions.go: Fluss's
// partition-key rules, partition names, auto-partitioning,
// PartitionCatalog), and partitioned.go's PartitionedTable is the
// fluss.Table both stores give a partitioned table, over their partitions.
// A write's context may say not to wait for its sync (commitwait.go:
// WithoutSyncWait, what synchronous_commit = off asks of a store).
//
// It must not know SQL: no parsing, no SQLSTATE-specific decisions beyond
// returning *sqlerr.Error values for the write-rule violations that seed 000
// defines (they map one to one onto PostgreSQL's codes).
package fluss
