// Package remote is a client of Apache Fluss's RPC protocol (Fluss 0.9.1;
// API versions are negotiated, so 1.0 servers work too): what sqlgate uses
// to reach a real Fluss cluster instead of its embedded store.
//
// # Wire
//
// Every request is a frame (fluss.md §4.1): int32 length, int16 API key,
// int16 API version, int32 request id, then a proto2 message. Responses
// carry the request id and arrive in any order. The messages are our own
// definitions (internal/pb/fluss.proto, generated with protoc-gen-go by
// `make proto`), written from the field numbers of Fluss's FlussApi.proto:
// the generated code gives exact proto2 semantics (presence, packed
// repeated fields, unknown fields skipped) for ~50 messages at no hand
// upkeep, and google.golang.org/protobuf was already in the module graph.
// A response frame longer than Config.MaxFrame is refused, not allocated.
//
// # Connection lifecycle
//
// A Client holds at most one connection per server address, created on
// first use and shared by every concurrent request to that server. Dialing
// runs the handshake: ApiVersions (the highest version each API has on both
// sides is used from then on; an API with no common version fails with
// UNSUPPORTED_VERSION naming it), then SASL/PLAIN Authenticate when a user
// is configured. Requests are written under a mutex; one reader goroutine
// per connection routes each answer by request id to its waiting caller.
// A broken connection (read or write error, a malformed frame, a server
// failure frame, the server closing it) fails every request in flight with
// a ConnError and is dropped from the pool; the next request dials again.
// Client.Close closes every connection and waits for their readers, so no
// goroutine outlives it.
//
// # Routing and retries
//
// GetMetadata gives the coordinator, the tablet servers and, per table,
// each bucket's leader. Admin reads go to any server, DDL to the
// coordinator, data requests (ProduceLog, FetchLog, PutKv, Lookup,
// PrefixLookup, LimitScan, ListOffsets) to the bucket's leader. Retriable
// errors (Error.Retriable: a leader moved or is not elected, replicas are
// short, a timeout, a lost connection) are retried with exponential backoff
// and jitter, up to Config.Retries; NOT_LEADER_OR_FOLLOWER (12),
// UNKNOWN_TABLE_OR_BUCKET (21), LEADER_NOT_AVAILABLE (44), a fenced epoch
// and a lost connection (a tablet server gone) refresh the metadata first.
// Other errors come back at once. A write whose fate is unknown (its
// connection broke after it was sent, or it timed out) is resent only when
// it is idempotent: Writer stamps each batch with the writer id from
// InitWriter and a per-bucket sequence, so the server drops a duplicate.
//
// Each attempt is bounded by Config.RequestTimeout; the caller's context
// bounds the whole call and cancels it at once (an answer that arrives
// later is dropped). With the whole cluster down, every dial is refused, so a
// statement fails once the retries run out (about 7s with the defaults) with
// 08006 naming the unreachable server; nothing is cached across the outage,
// so the first statement after the cluster returns dials again and is served
// (TestClusterWholeOutage).
//
// # Store
//
// Store is the fluss.Store over a cluster. Its schema "public" is the
// Fluss database Config.Database (default "public"; store_database.go maps
// the paths both ways). A group of writes to one table (WriteAtomically:
// a transaction's, or a statement of several batches) goes as one write
// per bucket (atomic.go); writes to two tables are refused (0A000). A log
// table's scan asks the server for the columns it reads only
// (scan_projection.go); a primary-key table's is one LimitScan per bucket,
// or a replay of the bucket's changelog when the bucket is too large for
// one (scan_replay.go). Log segments the cluster tiered to remote storage
// are read by FetchLog from their files when remote.data.dir is a path
// sqlgate can reach (file:), and fail with 0A000 naming the scheme
// otherwise (remotelog.go).
//
// A table's changelog is followed (fluss.ChangelogFollower, follow.go:
// SUBSCRIBE) by one goroutine per bucket long-polling FetchLog from the
// bucket's next offset, the tablet server holding each fetch up to
// Config.FollowWait (a write this Store makes to the table ends the wait
// at once); each hands one answer at a time to the reader,
// so a reader that falls behind stops the fetches. A snapshot of a
// primary-key table is each bucket's changelog replayed up to the offset
// the follow then starts at.
//
// # Partitions
//
// A partitioned table's partitions (partitions.go) are Fluss's: data
// requests carry the partition's id, their buckets' leaders come from
// GetMetadata by partition id, CreatePartition / DropPartition /
// ListPartitionInfos manage them, and the table is a
// fluss.PartitionedTable over them.
//
// # sqlgate's metadata
//
// Views, table owners, grants and roles are kept in the cluster, in the
// primary-key table sqlgate_system.metadata that package meta creates and
// reads through this Store (one bucket: a commit is one PutKv batch), so
// that every sqlgate server pointed at the cluster shares them; a table's
// owner is also a custom property of the table (meta.OwnerProperty).
// # Caches, sequences, temporary schemas
//
// Table info is cached across statements and dropped on any sign that the
// table changed (tablecache.go). Sequences are a log of changes in the
// cluster that every server applies in one order (sequences.go), shared
// by every server. A session's temporary tables live in a database named
// for the server and the session, swept by the other servers when the
// server's lease lapses (tempschemas.go). COMMENT ON is kept in custom
// properties, as Fluss 0.9.1 cannot change comments (comments.go).
//
// # Schema changes
//
// CreateDatabase, DropDatabase and ListDatabases back CREATE / DROP SCHEMA;
// AlterTable (alter.go) sends Fluss 0.9.1's config changes and added
// columns. A table's older schemas' column counts are read once
// (GetTableSchema) and cached: rows and batches written under them are
// widened with the missing values of the columns added since
// (fluss/missing.go; NULL unless ADD COLUMN gave a default).
//
// # Bytes
//
// Every byte layout comes from fluss/format: log record batches, compacted
// rows and keys, KvRecordBatch, ValueRecordBatch and the KV value's
// schema-id prefix, and the stamping of an idempotent writer's id and
// sequence into a finished log batch (format.SetWriter).
package remote
