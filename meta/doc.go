// Package meta is sqlgate's metadata store: the objects of its own that
// Fluss does not keep (views, table owners and grants, users and roles),
// each change committed as one unit together with what it belongs to. It
// owns where that state lives and how it commits; the rules stay in the
// packages that own them (views: PostgreSQL's CREATE OR REPLACE VIEW rule
// and dependencies; access: ACLs and aclitem text; pgwire: SCRAM
// verifiers), and the engine runs the statements over Store.Update.
//
// # Model
//
// The state is a set of rows, one per object, keyed by kind and identity
// ("view/<id>", "acl/<table id>" with a view's ACL under its negative id,
// "user/<name>", "function/<name(types)>" for CREATE FUNCTION's functions,
// "type/<oid>" for CREATE TYPE ... AS ENUM's enum types and CREATE TYPE
// ... AS (...)'s composite types (types.go),
// "domain/<oid>" for CREATE DOMAIN's domains (domains.go),
// "schema/<name>" for a schema's owner, comment and grants (schemas.go),
// "comment/<kind>/<id>" for COMMENT ON's texts (comments.go),
// "defacl/<role>/<schema>/<objtype>" for ALTER DEFAULT PRIVILEGES (schemas.go),
// "index/<oid>" for CREATE INDEX's indexes that are not unique (indexes.go:
// catalog objects, named by their table's id, moved with it by
// Tx.MoveIndexes),
// "followups" for what a rename committed here leaves to do in the store
// (Tx.FollowUps: the engine's record, carried out after the commit or at
// the next start),
// plus "views.next_id"), each holding the object's JSON.
// Update hands a change copies of the current objects (Tx), encodes the
// result, and commits the rows that differ (a deleted one as a deletion)
// with a new version token; only after the commit succeeds do sessions see
// the new objects (an atomic pointer swap), and a failed change or commit
// changes nothing; Current hands out the same copies of the newest objects
// without a change. Room for more kinds: a new key prefix in encode/decode.
// (Column defaults and checks are not here: they belong to their table,
// in its properties. Sequences are the store's, and a table's sequences
// follow the table there: on the embedded store a crash between the two
// is mended when it opens, fluss/embedded settleSequences.)
//
// # Commit with the table
//
// A table lives in the store (fluss/embedded or a cluster), its metadata
// here: two stores that no single write spans. The rule that makes the
// pair atomic: the table is the truth, the metadata follows it.
//   - CREATE TABLE writes the owner into the table itself, as the Fluss
//     custom property OwnerProperty (sqlgate.owner): the owner commits
//     atomically with the table on both stores. The "acl/<id>" row written
//     after it is derived: AdoptOwner fills it in memory from the property
//     whenever the engine resolves the table, and Reconcile persists it
//     when the server starts.
//   - DROP TABLE drops the table, then its row of grants. Grants are keyed
//     by table id, which no later table reuses, so a row left behind by a
//     crash (or by a server of a cluster dying between the two) grants
//     nothing, and Reconcile sweeps it. DROP TABLE refuses a table that
//     views use unless CASCADE, which drops those views (with their
//     grants) in one commit after the table; a view a crash between the
//     two left over the dropped table, or one left by a race between
//     servers, is swept by Reconcile, with the views over it.
//   - ALTER TABLE ... RENAME TO renames the table in the store, then moves
//     its grants row to the new name and rewrites the views over it to
//     name it (FollowRename); a row or view a crash left naming the old
//     name is found by the table's id and made to follow by Reconcile, not
//     swept. A view's rename is one Update (the view, its row's name and
//     the views over it). TestCrashMetadataAllOrNothing renames a table a
//     view reads.
//   - CREATE VIEW with its owner, DROP VIEW with its grants, GRANT/REVOKE
//     over all the tables a statement names, CREATE/ALTER/DROP ROLE: each
//     is one Update, one commit.
//   - TRUNCATE of a log table replaces the table by an empty one with a
//     new id, in one commit on the embedded store (fluss.TableRecreator;
//     on a cluster a drop and a create, between which a crash loses the
//     table). The new table carries the owner and the old id
//     (fluss.GrantsFromProperty) in its descriptor; the grants move to the
//     new id in one commit after, and Reconcile moves them if a crash came
//     first.
//
// The crash test (tests/reliability TestCrashMetadataAllOrNothing) kills
// the server at random points of these statements (and of REVOKE, ALTER
// ROLE, and CREATE TABLE with a SERIAL column and CREATE SEQUENCE ...
// OWNED BY, whose sequences must follow the table) and checks that after
// a restart every object is there whole, with its owner and grants, or
// absent.
//
// # On the embedded store: one file
//
// The rows live in DATA/meta.json, replaced atomically (internal/atomicfile:
// write a temporary file, fsync, rename, fsync the directory), so a commit
// is one rename: after a crash the file holds the last commit or the one
// before, whole. A pebble batch with the store's catalog would make the
// table change and its metadata one write, but the embedded store keeps
// its catalog in its own file (catalog.json), not in a key-value store,
// and the owner-in-the-table rule above already makes the pair atomic:
// one more file kept the same way is the simple choice that passes the
// crash test. One server owns a data directory, so Refresh costs nothing.
// Older versions' views.json and privileges.json are migrated once when
// found (MigrateFiles; renamed NAME.migrated), and the users file is
// imported when it changed (ImportUsers: `sqlgate user add|remove` edit
// the file; roles made with CREATE ROLE are kept apart from it).
//
// # On a Fluss cluster: a table in the cluster
//
// OpenTable keeps the rows in the primary-key table
// sqlgate_system.metadata (fluss.SystemDatabase: hidden from pg_catalog,
// information_schema and SQL) of one bucket, columns k (the key) and v
// (the JSON, NULL for a deleted row), plus the row "version". Every
// sqlgate server pointed at the cluster shares it:
//   - Atomic: a commit is one Upsert of the changed rows and the new
//     version row; with one bucket that is one PutKv batch, which the
//     tablet server appends to the bucket's log as one record batch, so a
//     reader sees all of a commit or none of it. Deleted rows are written
//     as NULL in that batch and deleted after (a lost delete leaves a NULL
//     row, read as absent).
//   - Not atomic: the table and its metadata row are two RPCs to two
//     tables (CreateTable, then the owner's row), which is why the owner
//     also lives in the table's custom properties (above); on the cluster
//     a table is created with its owner atomically, and its "acl" row
//     follows.
//   - Shared: at the start of each statement the engine calls Refresh: one
//     Lookup of the version row; when the token differs from the one this
//     server holds, it reloads every row (a full read of the table) and
//     swaps the objects. So a table, view, role or GRANT made through one
//     server is visible and enforced at the next statement through any
//     other, and a REVOKE applies to the next statement there (the cluster
//     test TestClusterTwoServersShareMetadata). Password lookups refresh
//     too, so a role made through one server logs in through another.
//     Each table DDL through the store rewrites the version row alone
//     (Announce, catalogsync.go), and a reload drops the store's cached
//     table info: the news that a table changed costs no extra request.
//   - Concurrent changes: Update reloads first when the version moved, so
//     a server changes the newest objects; but Fluss has no conditional
//     write, so two servers committing at the same moment may each write
//     the rows they changed from the same base, and the later commit wins
//     for a row both changed (for example two GRANTs on one table at the
//     same instant: one may be lost). View ids are allocated the same way.
//     Stale rows (grants of dropped tables, views over dropped tables) are
//     swept by Reconcile when a server starts.
//   - Scope: servers that share a cluster and remote.Config.DatabasePrefix
//     share the metadata (the database is created under the prefix, as
//     every schema: remote.Store.CreateDatabase); another prefix is
//     another, independent set of views, grants and roles.
//   - Durable: the table is created with three replicas (fewer when the
//     cluster has fewer tablet servers), since every statement reads it.
//   - Users files: each server imports its users file when the file
//     changed since the last import (by whichever server); servers given
//     different files undo each other's imports, so give them one file, or
//     manage roles with CREATE ROLE.
package meta
