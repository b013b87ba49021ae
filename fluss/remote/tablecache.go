package remote

import (
	"context"
	"sync"
	"time"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Table info cache. Every statement resolves its tables (GetTable, Table),
// and on a cluster each resolution was a GetTableInfo to the coordinator:
// ~1.5 ms, most of a point lookup, and the coordinator's ~600 calls/s the
// ceiling of every server's lookups together. The Store keeps each table's
// info (descriptor, table id, schema id) by path and answers from it. An
// entry is dropped when the table may have changed, as learnt from:
//
//   - this server's own DDL through this Store (CreateTable, DropTable,
//     AlterTable, DropDatabase, ...: forgetTable / forgetDatabase);
//   - another sqlgate server's DDL: every DDL through a Store announces
//     itself (OnCatalogChange: package meta rewrites its version row), and
//     the per-statement metadata version check that every server already
//     makes (meta.Store.Refresh: one Lookup) sees the new version and calls
//     ForgetTables, so the next statement anywhere reads fresh info;
//   - a change by a client that is not sqlgate (pyfluss, Flink): the
//     cluster's answers reveal it. A data request carrying a table id the
//     cluster no longer has fails with UNKNOWN_TABLE_OR_BUCKET /
//     TABLE_NOT_EXIST, or routing refreshed after that error names another
//     id for the path (Client.bucketCall: errTableReplaced); a row or log
//     batch carries a schema id newer than the cached one (an ADD COLUMN);
//     a schema the cache names is gone (SCHEMA_NOT_EXIST). Each drops the
//     entry (noteTableErr) and fails that statement: it was bound to a
//     table that no longer exists as it was, as a PostgreSQL statement
//     racing a DROP fails. A change no answer reveals (ADD COLUMN with no
//     rows written since) is seen within Config.TableInfoMaxAge (default
//     tableInfoMaxAge), after which an entry is fetched again. A server
//     that finds out either way announces it as a DDL would
//     (changedUnannounced): every server, itself included, then drops its
//     table info and binds its prepared statements again.
//
// A fetch that started before an invalidation does not store its (maybe
// stale) answer: entries carry the generation they were fetched under.

// tableInfoMaxAge bounds how long an entry is trusted without a reason to
// doubt it (changes by clients other than sqlgate that no answer reveals).
const tableInfoMaxAge = time.Second

type tableCache struct {
	mu sync.Mutex
	// gen counts invalidations of every entry (ForgetTables); paths
	// counts them per path.
	gen     uint64
	paths   map[fluss.TablePath]uint64
	entries map[fluss.TablePath]cachedTable
	// announce tells the other sqlgate servers that the catalog changed
	// (OnCatalogChange); nil: nobody listens.
	announce func(context.Context) error
}

type cachedTable struct {
	info    fluss.TableInfo
	fetched time.Time
}

// cacheGen is the generation under which a fetch of path starts.
func (s *Store) cacheGen(path fluss.TablePath) (uint64, uint64) {
	c := &s.tables
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen, c.paths[path]
}

// cachedTable returns path's cached info and whether it is young enough
// to use (an old one is returned too, to compare the next fetch with).
func (s *Store) cachedTable(path fluss.TablePath) (fluss.TableInfo, bool, bool) {
	c := &s.tables
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[path]
	if !ok {
		return fluss.TableInfo{}, false, false
	}
	return e.info, true, time.Since(e.fetched) <= s.maxAge
}

// changedUnannounced tells the servers (this one included: its prepared
// statements bind again) that a table changed without a DDL through a
// sqlgate server, as this server found out: the same news as
// catalogChanged's, so that every server drops the table's info now
// rather than each finding out for itself.
func (s *Store) changedUnannounced(ctx context.Context) {
	s.tables.mu.Lock()
	announce := s.tables.announce
	s.tables.mu.Unlock()
	if announce != nil {
		_ = announce(context.WithoutCancel(ctx))
	}
}

// cacheTable stores info fetched under generation (gen, pgen), unless an
// invalidation came in between.
func (s *Store) cacheTable(path fluss.TablePath, info fluss.TableInfo, gen, pgen uint64, fetched time.Time) {
	c := &s.tables
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen || c.paths[path] != pgen {
		return
	}
	if c.entries == nil {
		c.entries = map[fluss.TablePath]cachedTable{}
	}
	c.entries[path] = cachedTable{info: info, fetched: fetched}
}

// forgetTable drops path's entry (path as the engine names it).
func (s *Store) forgetTable(path fluss.TablePath) {
	c := &s.tables
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, path)
	if c.paths == nil {
		c.paths = map[fluss.TablePath]uint64{}
	}
	c.paths[path]++
}

// ForgetTables drops every entry: package meta calls it when another
// server announced a catalog change.
func (s *Store) ForgetTables() {
	c := &s.tables
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = nil
	c.gen++
}

// OnCatalogChange sets what every DDL through this Store calls once the
// cluster made the change: package meta's announcement to the other
// servers (a new version of its version row).
func (s *Store) OnCatalogChange(announce func(context.Context) error) {
	s.tables.mu.Lock()
	defer s.tables.mu.Unlock()
	s.tables.announce = announce
}

// catalogChanged drops the entries of paths (all of them when none are
// named) and announces the change. The change is made: a failed
// announcement does not fail the statement (other servers then see the
// change by the cluster's answers and TableInfoMaxAge, as for a change by
// another client).
func (s *Store) catalogChanged(ctx context.Context, paths ...fluss.TablePath) {
	if len(paths) == 0 {
		s.ForgetTables()
	}
	for _, p := range paths {
		s.forgetTable(p)
	}
	s.tables.mu.Lock()
	announce := s.tables.announce
	s.tables.mu.Unlock()
	if announce != nil {
		_ = announce(context.WithoutCancel(ctx))
	}
}

// noteTableErr drops path's entry when err says that the table the
// statement used is gone or changed, and returns err as storeErr does.
func (s *Store) noteTableErr(err error, path fluss.TablePath) error {
	switch CodeOf(err) {
	case CodeTableNotExist, CodeUnknownTableOrBucket, CodeSchemaNotExist:
		s.forgetTable(path)
		s.changedUnannounced(context.Background())
		return sqlerr.Wrap(err, sqlerr.UndefinedTable, "relation \"%s\" was dropped or replaced by another client during the statement", path.Table).
			WithHint("Run the statement again: it will use the table as it is now.")
	}
	return storeErr(err, path)
}

// errSchemaMoved is a row or batch of a schema newer than the table's as
// this statement knew it: the table was altered (by another client) since.
// The entry is dropped, so the statement run again sees the new columns.
func (t *table) errSchemaMoved(schemaID int16) error {
	t.s.forgetTable(t.info.Path)
	t.s.changedUnannounced(context.Background())
	return sqlerr.New(sqlerr.SerializationFailure, "relation \"%s\" was altered by another client during the statement (schema %d, the statement knew %d)",
		t.info.Path.Table, schemaID, t.info.SchemaID).WithHint("Run the statement again.")
}

// errTableReplaced is a data request's table id that the cluster's routing
// no longer has for the path: the table was dropped (and maybe created
// again) since the request's table info was read.
func errTableReplaced(t Table) error {
	return &Error{Code: CodeTableNotExist, API: "GetMetadata",
		Message: "table " + t.Path.String() + " was dropped or replaced (its table id changed)"}
}
