package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// execRole runs CREATE / ALTER / DROP ROLE (or USER) against the users of
// the metadata store, which password authentication and Roles read: a
// role made through one server of a cluster logs in through the others.
// Only superusers manage roles (PostgreSQL also lets CREATEROLE roles,
// which sqlgate does not model).
func (s *session) execRole(ctx context.Context, r *sql.RoleStmt) (pgwire.Result, error) {
	what := "ROLE"
	if r.User {
		what = "USER"
	}
	// The command tag is ROLE's for USER too: PostgreSQL's CREATE USER,
	// ALTER USER and DROP USER are CreateRoleStmt, AlterRoleStmt and
	// DropRoleStmt, whose tags say ROLE.
	tag := r.Verb + " ROLE"
	if s.txStatus != 'I' {
		return nil, inTransactionBlock(r.Verb + " " + what)
	}
	if r.Unsupported != "" {
		return nil, sqlerr.NotSupported(`role option "` + strings.ToLower(r.Unsupported) + `"`).
			WithDetail("sqlgate keeps SUPERUSER, LOGIN and PASSWORD of a role.")
	}
	if !s.superuser {
		verb := map[string]string{"CREATE": "create", "ALTER": "alter", "DROP": "drop"}[r.Verb]
		return nil, sqlerr.New(sqlerr.InsufficientPrivilege, "permission denied to %s role", verb)
	}
	var secret string
	if r.Password != nil {
		if *r.Password == "" {
			r.PasswordNull = true // PostgreSQL: an empty password is NULL
		} else {
			v, err := pgwire.NewSCRAMVerifier(*r.Password)
			if err != nil {
				return nil, sqlerr.Wrap(err, sqlerr.InternalError, "%v", err)
			}
			secret = v
		}
	}
	if r.Verb == "DROP" {
		if err := s.eng.meta.Reconcile(ctx, s.eng.store); err != nil {
			return nil, metaErr(err)
		}
	}
	var notices []*sqlerr.Error
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		switch r.Verb {
		case "DROP":
			notices = notices[:0] // Update may run the function again
			return s.dropRoles(tx, r, &notices)
		case "CREATE":
			name := r.Names[0]
			if _, ok := tx.Users[name]; ok {
				return sqlerr.New(sqlerr.DuplicateObject, "role \"%s\" already exists", name)
			}
			e := pgwire.UserEntry{SCRAM: secret, NoLogin: !r.User}
			applyRole(&e, r)
			tx.Users[name] = e
		case "ALTER":
			name := r.Names[0]
			e, ok := tx.Users[name]
			if !ok {
				return sqlerr.UndefinedRole(name)
			}
			if secret != "" {
				e.SCRAM, e.MD5 = secret, ""
			}
			applyRole(&e, r)
			tx.Users[name] = e
		}
		return nil
	})
	if err != nil {
		return nil, metaErr(err)
	}
	return noticeResult(tag, notices...), nil
}

// applyRole sets what the statement says of a role.
func applyRole(e *pgwire.UserEntry, r *sql.RoleStmt) {
	if r.Superuser != nil {
		e.Superuser = *r.Superuser
	}
	if r.Login != nil {
		e.NoLogin = !*r.Login
	}
	if r.PasswordNull {
		e.SCRAM, e.MD5 = "", ""
	}
}

// dropRoles drops the roles of DROP ROLE, refusing (2BP01, as
// PostgreSQL) a role that still owns a table or view or holds a grant.
// The rows of tables that are gone (left by a crash, or by another server)
// are no dependencies: execRole sweeps them first.
func (s *session) dropRoles(tx *meta.Tx, r *sql.RoleStmt, notices *[]*sqlerr.Error) error {
	for _, name := range r.Names {
		if _, ok := tx.Users[name]; !ok {
			if r.IfExists {
				*notices = append(*notices, skipped("role", name))
				continue
			}
			return sqlerr.UndefinedRole(name)
		}
		if name == s.info.User {
			return sqlerr.New(sqlerr.ObjectInUse, "current user cannot be dropped")
		}
		deps := roleDependencies(tx.Access, name)
		deps = append(deps, schemaDependencies(tx, name)...) // schemaprivs.go
		sort.Strings(deps)
		if len(deps) > 0 {
			return sqlerr.New(sqlerr.DependentObjectsStillExist, "role \"%s\" cannot be dropped because some objects depend on it", name).
				WithDetail("%s", strings.Join(deps, "\n"))
		}
		delete(tx.Users, name)
		delete(tx.Comments, meta.CommentKey(meta.CommentRole, name)) // comments.go
	}
	return nil
}

// roleDependencies lists what keeps a role from being dropped, in
// PostgreSQL's words ("owner of table t", "privileges for table t").
func roleDependencies(acl *access.Store, role string) []string {
	var out []string
	for id, a := range acl.Snapshot() {
		kind := "table"
		if id < 0 {
			kind = "view"
		}
		name := a.Path
		if _, t, ok := strings.Cut(a.Path, "."); ok {
			name = t
		}
		if a.Owner == role {
			out = append(out, fmt.Sprintf("owner of %s %s", kind, name))
		}
		if a.Grants[role] != 0 || a.GrantOptions[role] != 0 {
			out = append(out, fmt.Sprintf("privileges for %s %s", kind, name))
		}
	}
	sort.Strings(out)
	return out
}

// loginRole makes a user who logs in without authentication a role of
// the metadata store, a superuser that can log in, unless it is one
// already. Without authentication whoever connects is a superuser
// (README: Privileges), and PostgreSQL lets in only a role pg_authid has:
// what the user creates is owned by a role pg_roles lists, which pg_dump
// resolves every owner OID through (an unknown OID aborts the dump). With
// authentication only the metadata store's users get this far. A role
// made without LOGIN is refused here, as PostgreSQL refuses it whatever
// pg_hba.conf says (password authentication refuses it in pgwire).
func (e *Engine) loginRole(ctx context.Context, user string) error {
	if _, trust := e.roles.(AllSuperusers); !trust || user == access.BootstrapRole || user == "" {
		return nil
	}
	m, ok := e.meta.(interface {
		Role(string) (bool, bool)
		CanLogin(string) bool
	})
	if !ok {
		return nil
	}
	if exists, _ := m.Role(user); exists {
		if !m.CanLogin(user) {
			return pgwire.NotPermittedToLogIn(user)
		}
		return nil
	}
	err := e.meta.Update(ctx, func(tx *meta.Tx) error {
		if tx.Users == nil {
			tx.Users = map[string]pgwire.UserEntry{}
		}
		if _, ok := tx.Users[user]; !ok { // another server may have made it
			tx.Users[user] = pgwire.UserEntry{Superuser: true}
		}
		return nil
	})
	if err != nil {
		return metaErr(err)
	}
	return nil
}
