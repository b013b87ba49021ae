package engine

import (
	"context"
	"github.com/sqlgate/sqlgate/meta"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Temporary tables (CREATE TEMP TABLE) are ordinary Fluss tables in the
// session's own database, pg_temp_N (N its backend process id), as in
// PostgreSQL: name resolution searches it before the search path, and the
// session drops it, with its tables, when it ends. A server that crashed
// leaves its sessions' pg_temp_N databases behind; on the embedded store
// (one server) the next start drops them (dropStaleTempSchemas). A store
// shared by several servers (a Fluss cluster: fluss.TempSchemaStore) names
// the schema apart per server (pg_temp_<server tag>_N, since process ids
// repeat across servers), and sweeps those of a server that died
// (fluss/remote/tempschemas.go); a shared store without one refuses
// temporary tables (0A000).

const tempSchemaPrefix = "pg_temp_"

// tempSchemaOf is the temporary schema of the session with backend pid.
func tempSchemaOf(store fluss.Store, pid int32) string {
	if ts, ok := store.(fluss.TempSchemaStore); ok {
		return ts.TempSchema(pid)
	}
	return tempSchemaPrefix + strconv.FormatUint(uint64(uint32(pid)), 10)
}

// TempSchema implements binder.TempSchemaResolver.
func (c *recordingCatalog) TempSchema(ctx context.Context) string {
	s, _ := functions.SessionIn(ctx)
	return tempSchemaOf(c.tables.store, s.BackendPID)
}

// noteTempSchema makes sure the session's temporary schema exists before a
// temporary table is created in it, and remembers to drop it at the end.
// Called under the DDL lock.
func (s *session) noteTempSchema(ctx context.Context, db string) error {
	if !strings.HasPrefix(db, tempSchemaPrefix) {
		return nil
	}
	if !s.eng.singleServer() {
		ts, ok := s.eng.store.(fluss.TempSchemaStore)
		if !ok {
			return sqlerr.New(sqlerr.FeatureNotSupported, "temporary tables on this store are not supported: its databases are shared by every sqlgate server, whose sessions' pg_temp_N names would meet").
				WithHint("Create an ordinary table and drop it when done.")
		}
		if err := ts.HoldTempSchemas(ctx); err != nil { // before the schema, so no sweeper takes it for a dead server's
			return err
		}
	}
	if err := s.eng.store.CreateDatabase(ctx, db, true); err != nil {
		return err
	}
	s.eng.catalog.Add(1)
	s.tempSchema = db
	return nil
}

// dropTempSchema drops the session's temporary tables (Close).
func (s *session) dropTempSchema() {
	if s.tempSchema == "" {
		return
	}
	ctx := context.Background()
	s.eng.ddl.Lock()
	defer s.eng.ddl.Unlock()
	s.eng.catalog.Add(1)
	tables, _ := s.eng.store.ListTables(ctx, s.tempSchema)
	if err := s.eng.store.DropDatabase(ctx, s.tempSchema, true, true); err != nil {
		s.eng.log.Error("dropping the temporary tables of a session", "schema", s.tempSchema, "error", err)
		return
	}
	_ = s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		for _, t := range tables {
			if err := tx.Access.Forget(t.TableID); err != nil {
				return err
			}
		}
		return nil
	})
	s.tempSchema = ""
}

// dropStaleTempSchemas drops the temporary schemas a crashed server left,
// when this server is the store's only one.
func (e *Engine) dropStaleTempSchemas() {
	ctx := context.Background()
	dbs, ok := e.soleSchemas(ctx)
	if !ok {
		return
	}
	for _, db := range dbs {
		if strings.HasPrefix(db, tempSchemaPrefix) {
			if err := e.store.DropDatabase(ctx, db, true, true); err != nil {
				e.log.Error("dropping a stale temporary schema", "schema", db, "error", err)
			}
		}
	}
}

// soleSchemas lists the store's schemas for a sweep at the start of a
// server alone on its store (ok false: not alone, or the list failed;
// nothing to sweep).
func (e *Engine) soleSchemas(ctx context.Context) (dbs []string, ok bool) {
	if !e.singleServer() {
		return nil, false
	}
	dbs, err := e.store.ListDatabases(ctx)
	return dbs, err == nil
}

// singleServer reports whether this server is the store's only one (the
// embedded store, whose directory one process locks).
func (e *Engine) singleServer() bool {
	rl, ok := e.store.(fluss.RowLockable)
	return ok && rl.RowLocksSerializeWriters()
}
