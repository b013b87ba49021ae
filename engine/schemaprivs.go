package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Schema privileges and default privileges.
//
// GRANT / REVOKE { USAGE | CREATE | ALL } ON SCHEMA keep the schema's
// grants in its metadata row (meta.Schema.ACL; pg_namespace.nspacl). They
// are checked where PostgreSQL checks them, for roles that are not
// superusers: USAGE to name a table or view of the schema in a statement
// (authorize), CREATE to create a table or view in it; the schema's owner
// holds both, and PUBLIC holds USAGE on public until it is revoked. The
// search path leaves out the schemas a role may not use (schemaUsable),
// so an unqualified name reaches the next; TRUNCATE and COPY FROM check
// USAGE as the statements authorize does. DROP SCHEMA takes the schema's
// owner (mayDropSchema, owners.go), CREATE SCHEMA a superuser: sqlgate
// keeps no database privileges, and PostgreSQL's CREATE on a database
// belongs to its owner alone until granted.
//
// ALTER DEFAULT PRIVILEGES keeps its lists in the metadata store
// (meta.DefaultACL; pg_default_acl), as PostgreSQL does: a role's global
// list starts from the kind's built-in default (the owner's privileges,
// and EXECUTE / USAGE for PUBLIC on functions and types) and disappears
// when it comes back to it; a schema's list only adds. A table or view
// made afterwards gets the grants of its creator's lists for TABLES (the
// global one and its schema's) in one commit after it is made. The lists
// for SEQUENCES, FUNCTIONS, TYPES and SCHEMAS are kept and shown, but
// grant nothing: sqlgate checks no privileges on those objects.

// invalidPrivilege is 0LP01 for a privilege the object kind does not have.
func invalidPrivilege(name, kind string) *sqlerr.Error {
	return sqlerr.New(sqlerr.InvalidGrantOperation, "invalid privilege type %s for %s", name, kind)
}

// defaultObjects are ALTER DEFAULT PRIVILEGES' kinds: pg_default_acl's
// objtype letter, the privileges' letters, and PostgreSQL's word in
// messages.
var defaultObjects = map[string]struct {
	objType, letters, kind string
}{
	"TABLES": {"r", access.TableLetters, "relation"}, "SEQUENCES": {"S", access.SequenceLetters, "sequence"},
	"FUNCTIONS": {"f", access.FunctionLetters, "function"}, "TYPES": {"T", access.TypeLetters, "type"},
	"SCHEMAS": {"n", access.SchemaLetters, "schema"},
}

// privilegeLetters turns a statement's privilege names into the letters
// of a kind of object (all of them for ALL).
func privilegeLetters(names []string, letters, kind string) (string, error) {
	if names == nil {
		return letters, nil
	}
	var b strings.Builder
	for _, n := range names {
		l, ok := access.ObjectPrivilegeLetter(n)
		if !ok || strings.IndexByte(letters, l) < 0 {
			return "", invalidPrivilege(n, kind)
		}
		b.WriteByte(l)
	}
	return b.String(), nil
}

// resolveGrantees resolves GRANT's grantees: CURRENT_USER / SESSION_USER
// to the session's role, PUBLIC as it is, and any other name must be a
// role (42704; on a server without authentication, one pg_roles lists).
func (s *session) resolveGrantees(names []string) ([]string, error) {
	var out []string
	for _, r := range names {
		switch r {
		case "current_user", "session_user":
			r = s.info.User
		case access.Public:
		default:
			exists, _ := s.eng.roles.Role(r)
			if _, noAuth := s.eng.roles.(AllSuperusers); noAuth {
				// every name is a superuser there: ask the metadata store
				exists = s.roleExists(r) // owners.go
			}
			if !exists {
				return nil, sqlerr.UndefinedRole(r)
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// schemaOwnerName is who owns a schema in its ACL: its recorded owner,
// pg_database_owner for public (as PostgreSQL 15), else the bootstrap
// superuser (bootstrap).
func schemaOwnerName(sc meta.Schema, name, bootstrap string) string {
	switch {
	case sc.Owner != "":
		return sc.Owner
	case name == fluss.DefaultDatabase:
		return "pg_database_owner"
	}
	return bootstrap
}

// schemaPrivilege reports whether role holds the privilege letter ('U' or
// 'C') on schema name. Superusers are not asked.
func (s *session) schemaPrivilege(role, name string, letter byte) bool {
	sc, _ := s.eng.meta.Schema(name)
	if sc.Owner != "" && sc.Owner == role {
		return true
	}
	if !sc.ACLSet {
		return letter == 'U' && name == fluss.DefaultDatabase // PUBLIC's USAGE on public
	}
	return sc.ACL.Has(role, letter)
}

// needSchemaUsage checks that the session may name objects of schema db
// (42501 otherwise); the system schemas are everyone's.
func (s *session) needSchemaUsage(db string) error {
	if s.superuser || db == "pg_catalog" || db == "information_schema" || db == fluss.SystemDatabase {
		return nil
	}
	if !s.schemaPrivilege(s.info.User, db, 'U') {
		return schemaPermissionDenied(publicName(db))
	}
	return nil
}

// schemaUsable reports whether the session may use schema db (USAGE):
// the search path leaves out those it may not (functions.Session).
func (s *session) schemaUsable(db string) bool {
	return s.needSchemaUsage(db) == nil || strings.HasPrefix(db, tempSchemaPrefix)
}

// needSchemaCreate checks that the session may create in schema db.
func (s *session) needSchemaCreate(db string) error {
	if s.superuser || s.schemaPrivilege(s.info.User, db, 'C') {
		return nil
	}
	return schemaPermissionDenied(publicName(db))
}

// execSchemaGrant runs GRANT / REVOKE ... ON SCHEMA.
func (s *session) execSchemaGrant(ctx context.Context, g *sql.GrantStmt) (pgwire.Result, error) {
	verb := "GRANT"
	if g.Revoke {
		verb = "REVOKE"
	}
	letters, err := privilegeLetters(g.Privileges, access.SchemaLetters, "schema")
	if err != nil {
		return nil, err
	}
	grantees, err := s.resolveGrantees(g.Grantees)
	if err != nil {
		return nil, err
	}
	for _, name := range g.Schemas {
		if name == "pg_catalog" || name == "information_schema" {
			return nil, sqlerr.NotSupported("GRANT ON SCHEMA " + name + " (a system schema)")
		}
		if err := s.schemaExists(ctx, name); err != nil { // enumtypes.go
			return nil, err
		}
	}
	s.eng.catalog.Add(1)
	err = s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		if tx.Schemas == nil {
			tx.Schemas = map[string]meta.Schema{}
		}
		for _, name := range g.Schemas {
			sc := tx.Schemas[name]
			owner := schemaOwnerName(sc, name, s.info.User)
			if !s.superuser && owner != s.info.User && !grantable(sc.ACL, s.info.User, letters) {
				return schemaPermissionDenied(name)
			}
			if !sc.ACLSet { // PostgreSQL's default becomes explicit
				sc.ACLSet, sc.ACL = true, nil
				if name == fluss.DefaultDatabase {
					sc.ACL = access.ObjectACL{{Grantee: access.Public, Privs: "U"}}
				}
			}
			for _, r := range grantees {
				if r == owner {
					continue // the owner's privileges are its own
				}
				if g.Revoke {
					sc.ACL = sc.ACL.Revoke(r, letters, g.GrantOptionFor)
				} else {
					sc.ACL = sc.ACL.Grant(r, letters, access.SchemaLetters, g.WithGrantOption)
				}
			}
			sc.Name = name
			tx.Schemas[name] = sc
		}
		return nil
	})
	if err != nil {
		return nil, metaErr(err)
	}
	return tagOnly(verb), nil
}

// grantable reports whether role may grant every privilege of letters on
// an object whose ACL is acl (it holds them WITH GRANT OPTION).
func grantable(acl access.ObjectACL, role, letters string) bool {
	for _, it := range acl {
		if it.Grantee == role {
			for k := 0; k < len(letters); k++ {
				if strings.IndexByte(it.Options, letters[k]) < 0 {
					return false
				}
			}
			return true
		}
	}
	return false
}

// builtinDefaultACL is PostgreSQL's acldefault of a kind of object owned
// by role.
func builtinDefaultACL(objType, role string) access.ObjectACL {
	switch objType {
	case "f":
		return access.ObjectACL{{Grantee: access.Public, Privs: "X"}, {Grantee: role, Privs: "X"}}
	case "T":
		return access.ObjectACL{{Grantee: access.Public, Privs: "U"}, {Grantee: role, Privs: "U"}}
	}
	return access.ObjectACL{{Grantee: role, Privs: defaultObjectLetters(objType)}}
}

func defaultObjectLetters(objType string) string {
	for _, o := range defaultObjects {
		if o.objType == objType {
			return o.letters
		}
	}
	return ""
}

// execDefaultPrivileges runs ALTER DEFAULT PRIVILEGES.
func (s *session) execDefaultPrivileges(ctx context.Context, g *sql.GrantStmt) (pgwire.Result, error) {
	const tag = "ALTER DEFAULT PRIVILEGES"
	d := g.Default
	obj := defaultObjects[d.Objects]
	if d.Objects == "SCHEMAS" && len(d.Schemas) > 0 {
		return nil, sqlerr.New(sqlerr.InvalidGrantOperation, "cannot use IN SCHEMA clause when using GRANT/REVOKE ON SCHEMAS")
	}
	letters, err := privilegeLetters(g.Privileges, obj.letters, obj.kind)
	if err != nil {
		return nil, err
	}
	grantees, err := s.resolveGrantees(g.Grantees)
	if err != nil {
		return nil, err
	}
	roles, err := s.resolveGrantees(d.Roles)
	if err != nil {
		return nil, err
	}
	if len(roles) == 0 {
		roles = []string{s.info.User}
	}
	for _, r := range roles {
		if r == access.Public {
			return nil, sqlerr.UndefinedRole("public")
		}
		if !s.superuser && r != s.info.User {
			return nil, sqlerr.New(sqlerr.InsufficientPrivilege, "permission denied to change default privileges")
		}
	}
	schemas := d.Schemas
	for _, name := range schemas {
		if err := s.schemaExists(ctx, name); err != nil {
			return nil, err
		}
	}
	if len(schemas) == 0 {
		schemas = []string{""}
	}
	err = s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		if tx.DefaultACLs == nil {
			tx.DefaultACLs = map[string]meta.DefaultACL{}
		}
		for _, role := range roles {
			for _, schema := range schemas {
				key := meta.DefaultACLKey(role, schema, obj.objType)
				cur, ok := tx.DefaultACLs[key]
				acl := cur.ACL
				if !ok && schema == "" {
					acl = builtinDefaultACL(obj.objType, role)
				}
				for _, r := range grantees {
					if g.Revoke {
						acl = acl.Revoke(r, letters, g.GrantOptionFor)
					} else {
						acl = acl.Grant(r, letters, obj.letters, g.WithGrantOption)
					}
				}
				if (schema == "" && acl.Equal(builtinDefaultACL(obj.objType, role))) || (schema != "" && len(acl) == 0) {
					delete(tx.DefaultACLs, key)
					continue
				}
				tx.DefaultACLs[key] = meta.DefaultACL{Role: role, Schema: schema, ObjType: obj.objType, ACL: acl.OwnerFirst(role)}
			}
		}
		return nil
	})
	if err != nil {
		return nil, metaErr(err)
	}
	return tagOnly(tag), nil
}

// defaultTableGrants are the grants ALTER DEFAULT PRIVILEGES gives a
// table or view owner creates in schema (its global list for TABLES and
// its schema's), the owner's own item left out.
func defaultTableGrants(lists map[string]meta.DefaultACL, owner, schema string) access.ObjectACL {
	var out access.ObjectACL
	for _, key := range []string{meta.DefaultACLKey(owner, "", "r"), meta.DefaultACLKey(owner, schema, "r")} {
		for _, it := range lists[key].ACL {
			if it.Grantee == owner {
				continue
			}
			out = out.Grant(it.Grantee, it.Privs, access.TableLetters, false)
			if it.Options != "" {
				out = out.Grant(it.Grantee, it.Options, access.TableLetters, true)
			}
		}
	}
	return out
}

// grantDefaults gives a new table or view (its access key and path) the
// grants of its owner's default privileges, in tx.
func grantDefaults(tx *meta.Tx, key int64, path fluss.TablePath, owner string) error {
	for _, it := range defaultTableGrants(tx.DefaultACLs, owner, path.Database) {
		plain := privilegesOf(strings.Map(func(r rune) rune {
			if strings.ContainsRune(it.Options, r) {
				return -1
			}
			return r
		}, it.Privs))
		if plain != 0 {
			if err := tx.Access.Grant(key, path.String(), it.Grantee, plain, false); err != nil {
				return err
			}
		}
		if opts := privilegesOf(it.Options); opts != 0 {
			if err := tx.Access.Grant(key, path.String(), it.Grantee, opts, true); err != nil {
				return err
			}
		}
	}
	return nil
}

// applyTableDefaults commits the default privileges of a table just made
// (a crash before it leaves the table with its owner's privileges only).
func (s *session) applyTableDefaults(ctx context.Context, info fluss.TableInfo) error {
	owner := info.Descriptor.CustomProperties[meta.OwnerProperty]
	if owner == "" || len(defaultTableGrants(s.eng.meta.DefaultACLs(), owner, info.Path.Database)) == 0 {
		return nil
	}
	s.eng.meta.AdoptOwner(info)
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		return grantDefaults(tx, info.TableID, info.Path, owner)
	})
	if err != nil {
		return metaErr(err)
	}
	return nil
}

// privilegesOf is the table privileges of aclitem letters.
func privilegesOf(letters string) access.Privilege {
	var p access.Privilege
	for _, name := range []string{"INSERT", "SELECT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER"} {
		if l, _ := access.ObjectPrivilegeLetter(name); strings.IndexByte(letters, l) >= 0 {
			q, _ := access.ParsePrivilege(name)
			p |= q
		}
	}
	return p
}

// schemaDependencies lists the schema grants and default privileges that
// keep a role from being dropped, in PostgreSQL's words.
func schemaDependencies(tx *meta.Tx, role string) []string {
	var out []string
	for name, sc := range tx.Schemas {
		for _, it := range sc.ACL {
			if it.Grantee == role {
				out = append(out, "privileges for schema "+name)
			}
		}
	}
	kinds := map[string]string{"r": "relations", "S": "sequences", "f": "functions", "T": "types", "n": "schemas"}
	for _, d := range tx.DefaultACLs {
		where := ""
		if d.Schema != "" {
			where = " in schema " + d.Schema
		}
		if d.Role == role {
			out = append(out, fmt.Sprintf("owner of default privileges on new %s belonging to role %s%s", kinds[d.ObjType], role, where))
			continue
		}
		for _, it := range d.ACL {
			if it.Grantee == role {
				out = append(out, fmt.Sprintf("privileges for default privileges on new %s belonging to role %s%s", kinds[d.ObjType], d.Role, where))
			}
		}
	}
	return out
}
