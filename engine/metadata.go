package engine

import (
	"context"
	"maps"

	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/views"
)

// The metadata store (package meta) around the table changes: a table's
// owner is written into the table itself (meta.OwnerProperty), so that it
// commits with the table; the row of grants that follows is derived from
// it, and what a crash between the two leaves is repaired by
// meta.Store.Reconcile when the server starts.

// Metadata is what the engine needs of the metadata store (*meta.Store):
// the current views and ACLs to read, one commit per change, the check
// for changes made elsewhere, and the owner a table carries.
type Metadata interface {
	Views() *views.Store
	Access() *access.Store
	Update(ctx context.Context, change func(tx *meta.Tx) error) error
	// Current reads copies of the newest objects (a block's DDL undo,
	// txundo.go, compares them before and after a statement).
	Current(ctx context.Context) (*meta.Tx, error)
	Refresh(ctx context.Context) error
	AdoptOwner(info fluss.TableInfo)
	Reconcile(ctx context.Context, cat fluss.Catalog, databases ...string) error
	Functions() *meta.Functions
	// Schema and DefaultACLs are the schemas' rows (owner, grants) and
	// ALTER DEFAULT PRIVILEGES' lists (schemaprivs.go).
	Schema(name string) (meta.Schema, bool)
	DefaultACLs() map[string]meta.DefaultACL
	// Indexes are CREATE INDEX's indexes (ddlindex.go).
	Indexes() map[uint32]meta.Index
}

// metaErr is a failed metadata commit as a client sees it: SQL errors
// (42P07, 42P16 of CREATE OR REPLACE VIEW, ...) as they are, I/O as 58030.
func metaErr(err error) error {
	if sqlerr.As(err) != nil {
		return err
	}
	return sqlerr.Wrap(err, sqlerr.IOError, "could not save the metadata: %v", err)
}

// createTable creates b's table owned by the session's user, with the
// sequences its SERIAL and identity columns draw from.
func (s *session) createTable(ctx context.Context, b *binder.CreateTable) (fluss.TableInfo, error) {
	if b.Path.Database == fluss.SystemDatabase {
		return fluss.TableInfo{}, sqlerr.New(sqlerr.InsufficientPrivilege, "permission denied to create \"%s\"", b.Path.String()).
			WithDetail("Schema %s is reserved for sqlgate's metadata.", fluss.SystemDatabase)
	}
	desc := b.Descriptor
	desc.CustomProperties = maps.Clone(desc.CustomProperties)
	if desc.CustomProperties == nil {
		desc.CustomProperties = map[string]string{}
	}
	if s.info.User != "" {
		desc.CustomProperties[meta.OwnerProperty] = s.info.User
	}
	// Only TRUNCATE's re-created table takes another's grants.
	delete(desc.CustomProperties, fluss.GrantsFromProperty)
	if len(b.Sequences) > 0 { // SERIAL and identity columns (sequences.go)
		if info, err := s.eng.storeTable(ctx, b.Path); err == nil {
			if b.IfNotExists {
				return info, nil // PostgreSQL adds a NOTICE
			}
			return fluss.TableInfo{}, sqlerr.RelationExists(b.Path.Table)
		}
	}
	if err := s.beforeCreate(b.Path, desc); err != nil { // uniqueddl.go
		return fluss.TableInfo{}, err
	}
	undo, err := s.createTableSequences(ctx, b.Sequences)
	if err != nil {
		return fluss.TableInfo{}, err
	}
	info, err := s.eng.store.CreateTable(ctx, b.Path, desc, b.IfNotExists)
	if err == nil {
		err = s.createIndexes(ctx, info) // uniqueddl.go
	}
	if err != nil {
		undo()
		return info, err
	}
	// The owner is the one the table names: IF NOT EXISTS may have met a
	// table someone else created (through this server or another).
	owner := info.Descriptor.CustomProperties[meta.OwnerProperty]
	recorded := s.eng.meta.Access().Owner(info.TableID)
	if owner == "" { // a table of an older version, owned as recorded
		if recorded != "" {
			return info, nil
		}
		owner = s.info.User
	}
	if recorded == owner {
		return info, nil
	}
	err = s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		return tx.Access.SetOwner(info.TableID, info.Path.String(), owner)
	})
	if err != nil {
		// The table is created and names its owner: the row follows at
		// the next start (Reconcile); until then the owner is known here.
		s.eng.log.Error("recording the owner of a new table", "table", info.Path.String(), "error", err)
		s.eng.meta.AdoptOwner(info)
	}
	return info, nil
}

// dropTable drops a table, then its grants. The table is the truth: when
// the second step fails (or the server dies before it), the grants stay
// under the dropped table's id, which no other table ever gets, so they
// grant nothing; Reconcile sweeps them at the next start.
func (s *session) dropTable(ctx context.Context, info fluss.TableInfo, ifExists bool) error {
	if err := s.eng.store.DropTable(ctx, info.Path, ifExists); err != nil {
		return err
	}
	s.dropIndexes(ctx, info) // uniqueddl.go
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error { return tx.Access.Forget(info.TableID) })
	if err != nil {
		s.eng.log.Error("forgetting the privileges of a dropped table (swept at the next start)", "table", info.Path.String(), "error", err)
	}
	return nil
}

// refreshMeta reloads the metadata when another server changed it (one
// lookup on a cluster, nothing on the embedded store), at the start of
// each statement: a GRANT, REVOKE or view made elsewhere applies to the
// next statement here. A reload counts as a catalog change, so prepared
// statements bind again.
func (s *session) refreshMeta(ctx context.Context) error {
	s.seqs.newStatement()
	before := s.eng.meta.Views()
	if err := s.eng.meta.Refresh(ctx); err != nil {
		if ctx.Err() != nil {
			// a cancel (or statement_timeout) that arrives while the
			// statement is still reading the metadata ends it as one
			// arriving later would, not as a lost connection
			return sqlerr.Wrap(err, sqlerr.QueryCanceled, "canceling statement due to user request")
		}
		return sqlerr.Wrap(err, sqlerr.ConnectionFailure, "%v", err)
	}
	if published := s.eng.publishEnumTypes(); s.eng.meta.Views() != before || s.eng.publishDomains() || published { // enumtypes.go, domains.go
		s.eng.catalog.Add(1)
	}
	// ALTER ROLE ... [NO]SUPERUSER (here or through another server) applies
	// to the role's open sessions at their next statement, as in
	// PostgreSQL, whose superuser() reads the catalog.
	_, s.superuser = s.eng.roles.Role(s.info.User)
	return nil
}

// systemTable refuses a statement naming a table of the reserved database
// where the metadata store keeps its table on a cluster: to SQL it does not
// exist (the metadata holds password verifiers, and is changed only by the
// statements that own each object).
func systemTable(p fluss.TablePath) error {
	if p.Database != fluss.SystemDatabase {
		return nil
	}
	return sqlerr.UndefinedRelation(p.String())
}
