package engine

import (
	"context"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/views"
)

// ALTER { TABLE | VIEW | SEQUENCE | TYPE | SCHEMA } name OWNER TO role
// (and ALTER FUNCTION ... OWNER TO: pyfunctions.go)
// (sql/owner.go), which pg_dump writes after every object: the owner is
// sqlgate's metadata (a table's or view's ACL row, a sequence's
// definition, a type's or schema's row), and privileges follow it (the
// owner holds every privilege; the grants it made show it as grantor).
// ALTER TABLE names any relation, as in PostgreSQL; ALTER VIEW and ALTER
// SEQUENCE only their own kind (42809). The rules are PostgreSQL's: a
// change to the current owner does nothing; else a superuser may, or the
// owner when it is a member of the new role (sqlgate has no role
// membership: only itself).

// execOwner runs ALTER ... OWNER TO.
func (s *session) execOwner(ctx context.Context, o *sql.OwnerStmt) (pgwire.Result, error) {
	tag := "ALTER " + o.Object
	if err := s.blockDDL(tag, nil); err != nil {
		return nil, err
	}
	role, err := s.ownerRole(o.Role)
	if err != nil {
		return nil, err
	}
	switch o.Object {
	case "SCHEMA":
		return tagOnly(tag), s.schemaOwnerTo(ctx, o.Name.Name, role)
	case "TYPE":
		return tagOnly(tag), s.typeOwnerTo(ctx, o.Name, role)
	}
	path, err := s.resolvePath(ctx, o.Name)
	if err != nil && sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		return nil, err
	}
	if err == nil {
		if v, ok := s.eng.meta.Views().Get(path); ok {
			return tagOnly(tag), s.viewOwnerTo(ctx, o, v, role)
		}
		if info, err := s.eng.storeTable(ctx, path); err == nil {
			if o.Object != "TABLE" {
				return nil, notA(map[string]string{"VIEW": "view", "SEQUENCE": "sequence"}[o.Object], path.Table)
			}
			return tagOnly(tag), s.tableOwnerTo(ctx, info, role)
		} else if sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
			return nil, err
		}
	}
	if path.Database == "" {
		path.Database = fluss.DefaultDatabase
	}
	if q, ok := s.eng.store.(fluss.SequenceStore); ok {
		if seq, err := q.GetSequence(ctx, path); err == nil {
			if o.Object == "VIEW" {
				return nil, notA("view", path.Table)
			}
			return tagOnly(tag), s.sequenceOwnerTo(ctx, q, seq, role)
		}
	}
	if o.IfExists {
		return noticeResult(tag, skipped("relation", o.Name.Name)), nil
	}
	// named as written, the schema's error first (RangeVarGetRelid)
	return nil, s.relationAsWritten(ctx, sqlerr.UndefinedRelation(o.Name.Name), o.Name)
}

// ownerRole is the role OWNER TO names: the session's for CURRENT_USER
// and SESSION_USER; PUBLIC is no role (42704, as PostgreSQL).
func (s *session) ownerRole(r string) (string, error) {
	switch r {
	case "current_user", "session_user":
		return s.info.User, nil
	case "public":
		return "", sqlerr.UndefinedRole(r)
	}
	if !s.roleExists(r) {
		return "", sqlerr.UndefinedRole(r)
	}
	return r, nil
}

// roleExists reports whether r is a role pg_roles lists: the session's,
// or one of the metadata store's (CREATE ROLE, the users file). Without
// authentication the server's Roles call everyone a superuser, but an
// owner must still be a role that exists.
func (s *session) roleExists(r string) bool {
	if r == s.info.User {
		return true
	}
	if exists, _ := s.eng.roles.Role(r); !exists {
		return false
	}
	if m, ok := s.eng.meta.(interface{ Role(string) (bool, bool) }); ok {
		exists, _ := m.Role(r)
		return exists
	}
	return true
}

// mayGiveTo checks that the session may make role the owner of an object
// owned by owner ("" = the bootstrap superuser); same is true when
// nothing changes (PostgreSQL then checks nothing).
func (s *session) mayGiveTo(kind, name, owner, role string) (same bool, err error) {
	if owner == role {
		return true, nil
	}
	if s.superuser {
		return false, nil
	}
	if owner == "" || owner != s.info.User {
		return false, mustOwn(kind, name)
	}
	// the owner is the session's role, and a role is only a member of
	// itself in sqlgate: role is another
	return false, sqlerr.New(sqlerr.InsufficientPrivilege, "must be member of role \"%s\"", role)
}

// tableOwnerTo gives a table, and the sequences its columns own (SERIAL,
// identity, OWNED BY), to role, as PostgreSQL's ALTER TABLE does.
func (s *session) tableOwnerTo(ctx context.Context, info fluss.TableInfo, role string) error {
	s.eng.meta.AdoptOwner(info)
	if same, err := s.mayGiveTo("table", info.Path.Table, s.eng.meta.Access().Owner(info.TableID), role); same || err != nil {
		return err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	q, owned, err := s.ownedSequences(ctx, map[fluss.TablePath]bool{info.Path: true}) // sequences.go
	if err != nil {
		return err
	}
	for _, seq := range owned {
		def := seq.Def
		def.Owner = role
		if err := q.AlterSequence(ctx, seq.Path, def, nil); err != nil {
			return err
		}
	}
	err = s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		return tx.Access.SetOwner(info.TableID, info.Path.String(), role)
	})
	if err != nil {
		return metaErr(err)
	}
	return nil
}

// viewOwnerTo gives a view (or, through ALTER TABLE, a materialized
// view) to role.
func (s *session) viewOwnerTo(ctx context.Context, o *sql.OwnerStmt, v views.View, role string) error {
	switch {
	case o.Object == "SEQUENCE":
		return notA("sequence", v.Path.Table)
	case v.Materialized() && o.Object == "VIEW":
		return notA("view", v.Path.Table)
	case v.Materialized():
		_, err := s.matviewOwner(ctx, v, role) // matview.go
		return err
	}
	if same, err := s.mayGiveTo("view", v.Path.Table, s.eng.meta.Access().Owner(v.ACLKey()), role); same || err != nil {
		return err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	if err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error { return tx.Access.SetOwner(v.ACLKey(), v.Path.String(), role) }); err != nil {
		return metaErr(err)
	}
	return nil
}

// sequenceOwnerTo gives a sequence to role: its definition carries the
// owner.
func (s *session) sequenceOwnerTo(ctx context.Context, q fluss.SequenceStore, seq fluss.SequenceInfo, role string) error {
	if same, err := s.mayGiveTo("sequence", seq.Path.Table, seq.Def.Owner, role); same || err != nil {
		return err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	defer s.seqs.newStatement()
	def := seq.Def
	def.Owner = role
	return q.AlterSequence(ctx, seq.Path, def, nil)
}

// typeOwnerTo gives an enum or composite type, or a domain, to role.
func (s *session) typeOwnerTo(ctx context.Context, n sql.ObjectName, role string) error {
	s.eng.catalog.Add(1)
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		if oid := findType(tx.Types, n); oid != 0 {
			t := tx.Types[oid]
			if same, err := s.mayGiveTo("type", t.Name, t.Owner, role); same || err != nil {
				return err
			}
			t.Owner = role
			tx.Types[oid] = t
			return nil
		}
		if oid := findDomain(tx.Domains, n); oid != 0 { // domains.go
			d := tx.Domains[oid]
			if same, err := s.mayGiveTo("type", d.Name, d.Owner, role); same || err != nil {
				return err
			}
			d.Owner = role
			tx.Domains[oid] = d
			return nil
		}
		return sqlerr.New(sqlerr.UndefinedObject, "type \"%s\" does not exist", n.Name)
	})
	if err != nil {
		return metaErr(err)
	}
	return nil
}

// schemaOwnerTo gives a schema to role. public belongs to
// pg_database_owner in PostgreSQL 15, which sqlgate shows and keeps.
func (s *session) schemaOwnerTo(ctx context.Context, name, role string) error {
	if name == "pg_catalog" || name == "information_schema" {
		if !s.superuser {
			return mustOwn("schema", name)
		}
		return sqlerr.New(sqlerr.InsufficientPrivilege, "permission denied: \"%s\" is a system catalog", name)
	}
	if err := s.schemaExists(ctx, name); err != nil { // enumtypes.go
		return err
	}
	if name == fluss.DefaultDatabase {
		if !s.superuser {
			return mustOwn("schema", name)
		}
		return sqlerr.NotSupported("ALTER SCHEMA public OWNER TO (public belongs to pg_database_owner)")
	}
	s.eng.catalog.Add(1)
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		sc := tx.Schemas[name]
		if same, err := s.mayGiveTo("schema", name, sc.Owner, role); same || err != nil {
			return err
		}
		if tx.Schemas == nil {
			tx.Schemas = map[string]meta.Schema{}
		}
		sc.Name, sc.Owner = name, role // (its grants stay: the owner's item is implicit)
		tx.Schemas[name] = sc
		return nil
	})
	if err != nil {
		return metaErr(err)
	}
	return nil
}

// recordSchemaOwner records the owner of a schema CREATE SCHEMA made. The
// schema is made first: when the record fails, the schema stays the
// bootstrap superuser's, as before owners were kept.
func (s *session) recordSchemaOwner(ctx context.Context, name, owner string) {
	if owner == "" {
		return
	}
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		if tx.Schemas == nil {
			tx.Schemas = map[string]meta.Schema{}
		}
		tx.Schemas[name] = meta.Schema{Name: name, Owner: owner}
		return nil
	})
	if err != nil {
		s.eng.log.Error("recording the owner of a new schema", "schema", name, "error", err)
	}
}

// mayDropSchema checks that the session may drop schema name: its owner
// or a superuser (42501 otherwise). public belongs to pg_database_owner,
// a schema without a recorded owner to the bootstrap superuser: neither
// is a plain role.
func (s *session) mayDropSchema(name string) error {
	if s.superuser {
		return nil
	}
	if sc, _ := s.eng.meta.Schema(name); name != fluss.DefaultDatabase && sc.Owner != "" && sc.Owner == s.info.User {
		return nil
	}
	return mustOwn("schema", name)
}
