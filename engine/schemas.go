package engine

import (
	"cmp"
	"context"
	"fmt"
	"github.com/sqlgate/sqlgate/meta"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Schemas are Fluss databases: CREATE SCHEMA creates one, DROP SCHEMA drops
// one, and an unqualified name is looked up over the session's search_path
// (ResolveSchema), as PostgreSQL does.

// schemaCache holds the store's database names as of one catalog count, so
// that resolving an unqualified name (every bind) asks the store for its
// databases only after a catalog change. A database another sqlgate server
// creates in a shared Fluss cluster is seen after this server's next DDL or
// restart.
type schemaCache struct {
	mu      sync.Mutex
	version uint64
	valid   bool
	names   []string
	counter *atomic.Uint64
}

func (c *schemaCache) list(ctx context.Context, store fluss.Store) ([]string, error) {
	v := c.counter.Load()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.valid && c.version == v {
		return c.names, nil
	}
	names, err := store.ListDatabases(ctx)
	if err != nil {
		return nil, err
	}
	c.names, c.version, c.valid = names, v, true
	return names, nil
}

// existingPath is the session's search path reduced to the schemas that
// exist (pg_catalog and information_schema are virtual and left out).
func (t tables) existingPath(ctx context.Context) ([]string, error) {
	schemas, ok := functions.SearchPathOf(ctx)
	if !ok || t.schemas == nil {
		return []string{fluss.DefaultDatabase}, nil
	}
	names, err := t.schemas.list(ctx, t.store)
	if err != nil {
		return nil, err
	}
	var out []string
	// the session's temporary schema comes first, as PostgreSQL searches it
	sess, inSession := functions.SessionIn(ctx)
	if tmp := tempSchemaOf(t.store, sess.BackendPID); inSession && slices.Contains(names, tmp) {
		out = append(out, tmp)
	}
	for _, s := range schemas {
		// a schema the role may not use is left out, as PostgreSQL does:
		// an unqualified name reaches the next one (qualified, 42501)
		if slices.Contains(names, s) && !slices.Contains(out, s) && (sess.SchemaUsable == nil || sess.SchemaUsable(s)) {
			out = append(out, s)
		}
	}
	return out, nil
}

// SchemaExists implements binder.SchemaChecker: the store's databases,
// the session's temporary schema among them.
func (c *recordingCatalog) SchemaExists(ctx context.Context, name string) (bool, error) {
	return c.tables.SchemaExists(ctx, name)
}

// SchemaExists implements binder.SchemaChecker for the binders given the
// engine's tables (ALTER TABLE ... ADD FOREIGN KEY's).
func (t tables) SchemaExists(ctx context.Context, name string) (bool, error) {
	if name == fluss.DefaultDatabase {
		return true, nil
	}
	dbs, err := t.store.ListDatabases(ctx)
	if err != nil {
		return false, err
	}
	return slices.Contains(dbs, name), nil
}

// ResolveSchema implements binder.SchemaResolver. An unqualified name
// of a catalog relation is pg_catalog's whatever the search_path, as
// PostgreSQL searches pg_catalog before the path's schemas when the path
// does not list it (and, listed later, no table of another schema could
// shadow it: CREATE TABLE refuses pg_ names).
func (c *recordingCatalog) ResolveSchema(ctx context.Context, name string, create bool) (string, error) {
	if !create {
		if _, ok := c.tables.virtualTable(ctx, fluss.TablePath{Database: "pg_catalog", Table: name}); ok {
			return "pg_catalog", nil
		}
	}
	path, err := c.tables.existingPath(ctx)
	if err != nil {
		return "", err
	}
	if len(path) == 0 {
		if create {
			return "", noSchemaSelected()
		}
		return fluss.DefaultDatabase, nil
	}
	if create {
		// the temporary schema takes only CREATE TEMP's tables
		for _, s := range path {
			if !strings.HasPrefix(s, tempSchemaPrefix) {
				return s, nil
			}
		}
		return "", noSchemaSelected()
	}
	if len(path) == 1 {
		return path[0], nil
	}
	for _, s := range path {
		p := fluss.TablePath{Database: s, Table: name}
		if c.hidden[p] {
			continue
		}
		if _, ok := c.views.Get(p); ok {
			return s, nil
		}
		_, err := c.tables.store.GetTable(ctx, p)
		if err == nil {
			return s, nil
		}
		switch sqlerr.CodeOf(err) {
		case sqlerr.UndefinedTable, sqlerr.InvalidSchemaName:
		default:
			return "", err
		}
	}
	if slices.Contains(path, fluss.DefaultDatabase) {
		return fluss.DefaultDatabase, nil
	}
	return path[0], nil
}

// schemaStatement runs CREATE SCHEMA, DROP SCHEMA and SHOW DATABASES.
func (s *session) schemaStatement(ctx context.Context, st *sql.Statement) (pgwire.Result, error) {
	d := st.DDL
	switch st.Kind {
	case sql.ShowDatabases:
		names, err := s.eng.store.ListDatabases(ctx)
		if err != nil {
			return nil, err
		}
		return stringsResult(s.eng, "database_name", names), nil
	case sql.CreateSchema:
		if err := s.blockDDL("CREATE SCHEMA", nil); err != nil {
			return nil, err
		}
		name := d.Names[0]
		if err := reservedSchema(name); err != nil {
			return nil, err
		}
		switch d.Authorization {
		case "current_user", "session_user", "current_role":
			d.Authorization = s.info.User
		}
		if d.Authorization != "" {
			if exists, _ := s.eng.roles.Role(d.Authorization); !exists && d.Authorization != s.info.User {
				return nil, sqlerr.UndefinedRole(d.Authorization)
			}
		}
		if !s.superuser {
			// PostgreSQL asks for CREATE on the database, which only its
			// owner (a superuser here) holds until it is granted; sqlgate
			// keeps no database privileges, so that default is the rule.
			return nil, databasePermissionDenied(cmp.Or(s.info.Database, s.info.User)) // (the database a client names by default)
		}
		s.eng.ddl.Lock()
		s.eng.catalog.Add(1)
		defer s.eng.ddl.Unlock()
		// Only IF NOT EXISTS can meet an existing schema (CreateDatabase
		// refuses one otherwise), whose owner stays: the list is read then.
		existed := false
		if d.IfNotExists {
			dbs, err := s.eng.store.ListDatabases(ctx)
			if err != nil {
				return nil, err
			}
			existed = slices.Contains(dbs, name)
		}
		if err := s.eng.store.CreateDatabase(ctx, name, d.IfNotExists); err != nil {
			return nil, err
		}
		if existed {
			s.changedNothing() // txddl.go
			return noticeResult("CREATE SCHEMA", existsSkipping(sqlerr.DuplicateSchema, "schema", name)), nil
		}
		s.undoStatement("DROP SCHEMA IF EXISTS " + quoteIdent(name) + " CASCADE") // txddl.go
		s.recordSchemaOwner(ctx, name, cmp.Or(d.Authorization, s.info.User))
		return tagOnly("CREATE SCHEMA"), nil
	case sql.DropSchema:
		if err := s.dropNowIn(ctx, d.Names); err != nil { // tablestmts.go: the block's DROP TABLE of their tables
			return nil, err
		}
		if err := s.blockDDL("DROP SCHEMA", inDatabases(d.Names)); err != nil {
			return nil, err
		}
		if d.Cascade {
			if err := s.lockSchemaTables(ctx, d.Names); err != nil { // ddllock.go
				return nil, err
			}
		}
		s.eng.ddl.Lock()
		s.eng.catalog.Add(1)
		defer s.eng.ddl.Unlock()
		existing, err := s.eng.store.ListDatabases(ctx)
		if err != nil {
			return nil, err
		}
		// Every name is checked before anything is dropped, as PostgreSQL
		// does: DROP SCHEMA a, missing fails without dropping a.
		var drop []string
		var notices []*sqlerr.Error
		for _, name := range d.Names {
			if name == "pg_catalog" || name == "information_schema" {
				return nil, sqlerr.New(sqlerr.DependentObjectsStillExist, "cannot drop schema %s because it is required by the database system", name)
			}
			if !slices.Contains(existing, name) {
				if d.IfExists {
					notices = append(notices, skipped("schema", name))
					continue
				}
				return nil, fluss.UndefinedDatabase(name)
			}
			if err := s.mayDropSchema(name); err != nil {
				return nil, err
			}
			views := s.eng.meta.Views().List(name)
			typs := s.eng.typesIn(name)
			seqs, err := s.schemaSequences(ctx, name)
			if err != nil {
				return nil, err
			}
			if d.Cascade {
				if err := s.schemaTypesOnlyInside(ctx, name, typs); err != nil {
					return nil, err
				}
			} else {
				tables, err := s.eng.store.ListTables(ctx, name)
				if err != nil {
					return nil, err
				}
				if len(typs) > 0 || len(seqs) > 0 {
					return nil, schemaNotEmpty(name, schemaObjects(name, typs, tables, views, seqs))
				}
				if len(tables) > 0 || len(views) > 0 {
					var names []string
					for _, t := range tables {
						names = append(names, t.Path.Table)
					}
					for _, v := range views {
						names = append(names, v.Path.Table)
					}
					slices.Sort(names)
					return nil, fluss.DatabaseNotEmpty(name, names)
				}
			}
			drop = append(drop, name)
		}
		for _, name := range drop {
			tables, err := s.eng.store.ListTables(ctx, name)
			if err != nil {
				return nil, err
			}
			seqs, err := s.schemaSequences(ctx, name)
			if err != nil {
				return nil, err
			}
			inside := s.eng.meta.Views().List(name)
			outViews, outKeys, err := s.schemaDependents(ctx, name, tables, inside) // cascade.go
			if err != nil {
				return nil, err
			}
			objs := schemaObjects(name, s.eng.typesIn(name), tables, inside, seqs)
			for _, r := range outKeys {
				objs = append(objs, fmt.Sprintf("constraint %s on table %s", r.fk.Name, outsideName(r.child)))
			}
			for _, v := range outViews {
				objs = append(objs, relationKind(v)+" "+outsideName(v.Path))
			}
			if len(objs) > 0 {
				notices = append(notices, schemaCascadeNotice(objs))
			}
			// the other schemas' foreign keys into it go first, then its
			// tables, then every view over them at once
			for _, r := range outKeys {
				if err := s.dropFKey(ctx, r); err != nil { // fkddl.go
					return nil, err
				}
			}
			err = s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
				delete(tx.Schemas, name)                                       // its owner (owners.go)
				delete(tx.Comments, meta.CommentKey(meta.CommentSchema, name)) // comments.go
				// its default privileges: a schema made again under the name starts bare
				for k, d := range tx.DefaultACLs {
					if d.Schema == name {
						delete(tx.DefaultACLs, k)
					}
				}
				for oid, t := range tx.Types { // its enum types go with it
					if t.Schema == name {
						delete(tx.Types, oid)
						delete(tx.Comments, meta.CommentKey(meta.CommentType, strconv.FormatUint(uint64(oid), 10)))
					}
				}
				return dropViewsIn(tx, append(tx.Views.List(name), outViews...))
			})
			if err != nil {
				return nil, metaErr(err)
			}
			s.dropBackingHeld(ctx, outViews) // matview.go
			if err := s.eng.store.DropDatabase(ctx, name, false, d.Cascade); err != nil {
				return nil, err
			}
			for _, q := range seqs { // the store keeps them apart from the database
				if err := s.dropSchemaSequence(ctx, q); err != nil {
					return nil, err
				}
			}
			for _, t := range tables { // their unique constraints' index tables live elsewhere
				s.dropIndexes(ctx, t) // uniqueddl.go
			}
			// The tables' grants go after them; when that fails they stay
			// under ids no table has again, and Reconcile sweeps them.
			err = s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
				for _, t := range tables {
					if err := tx.Access.Forget(t.TableID); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				s.eng.log.Error("forgetting the privileges of a dropped schema's tables (swept at the next start)", "schema", name, "error", err)
			}
		}
		return noticeResult("DROP SCHEMA", notices...), nil
	}
	return nil, sqlerr.New(sqlerr.InternalError, "not a schema statement: %v", st.Kind)
}

// reservedSchema refuses the names PostgreSQL reserves for system schemas.
func reservedSchema(name string) error {
	if name == "information_schema" {
		return fluss.DuplicateDatabase(name)
	}
	if strings.HasPrefix(name, "pg_") {
		return unacceptableSchemaName(name).
			WithDetail("The prefix \"pg_\" is reserved for system schemas.")
	}
	if name == fluss.SystemDatabase {
		return unacceptableSchemaName(name).
			WithDetail("Schema %s is reserved for sqlgate's metadata.", name)
	}
	return nil
}

// schemaSequences are the sequences of schema name (none when the store
// keeps no sequences): DROP SCHEMA refuses a schema holding one, and
// CASCADE drops them with it.
func (s *session) schemaSequences(ctx context.Context, name string) ([]fluss.SequenceInfo, error) {
	q, ok := s.eng.store.(fluss.SequenceStore)
	if !ok {
		return nil, nil
	}
	return q.ListSequences(ctx, name)
}

// dropSchemaSequence drops a sequence of a schema DROP SCHEMA ... CASCADE
// dropped.
func (s *session) dropSchemaSequence(ctx context.Context, q fluss.SequenceInfo) error {
	store, err := s.sequenceStore()
	if err != nil {
		return err
	}
	defer s.seqs.newStatement()
	return store.DropSequence(ctx, q.Path, true)
}
