package functions

import (
	"context"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The access privilege inquiry functions (has_table_privilege ...
// pg_has_role, PostgreSQL 15 §9.26.2), every signature: the user as a
// name, an OID or left out (the current user), the object as a name or an
// OID.
//
// Who holds what: the session's user is sqlgate's superuser (as in the
// rest of sqlgate), so it holds every privilege on every existing object.
// Any other role OID, and the name "public", ask for PostgreSQL's default
// privileges of PUBLIC: SELECT on the system catalogs (not pg_authid and
// the few others PostgreSQL revokes), USAGE on pg_catalog,
// information_schema and public, CONNECT and TEMPORARY on the database,
// EXECUTE on functions, USAGE on languages and types, and nothing on
// tables, sequences, tablespaces or parameters. Grants sqlgate records
// for other users are not consulted.
//
// As in PostgreSQL: an object named by a name must exist (each kind's
// SQLSTATE), one named by an OID that names nothing gives NULL, and the
// privilege list must be valid (22023); a name is looked up before the
// privilege list is checked, an OID after.

// PrivilegeCatalog is implemented by a CatalogInfo that can answer what
// the privilege functions ask beyond CatalogInfo (pgcatalog does).
type PrivilegeCatalog interface {
	// RelationKind is a relation's relkind ("r", "v", "i", "S") and its
	// schema's name.
	RelationKind(ctx context.Context, oid uint32) (kind, schema string, ok bool, err error)
	// ColumnNumber is the attnum of a relation's column.
	ColumnNumber(ctx context.Context, reloid uint32, name string) (attnum int, ok bool, err error)
	HasColumn(ctx context.Context, reloid uint32, attnum int) (bool, error)
	LookupLanguage(name string) (uint32, bool)
	LanguageExists(oid uint32) bool
	LookupTablespace(name string) (uint32, bool)
	TablespaceExists(oid uint32) bool
	LookupRole(name string) (uint32, bool)
}

func privilegeCatalog(c CatalogInfo) (PrivilegeCatalog, error) {
	if p, ok := c.(PrivilegeCatalog); ok {
		return p, nil
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "privilege inquiry needs a catalog that lists relations, languages and roles")
}

// grantee is who a privilege is asked for.
type grantee struct {
	superuser bool
	// oid is the role's OID (0, PostgreSQL's ACL_ID_PUBLIC, for "public").
	oid uint32
}

// granteeByName is a user given by name: the session's user, or "public";
// any other name is 42704.
func granteeByName(ctx context.Context, c CatalogInfo, name string) (grantee, error) {
	switch {
	case name == c.User() || name == sessionOf(ctx).User:
		return grantee{superuser: true}, nil
	case name == "public":
		return grantee{}, nil
	}
	return grantee{}, sqlerr.New(sqlerr.UndefinedObject, "role %q does not exist", name)
}

// granteeByOID is a user given by OID: the session's user is the
// superuser, any other OID (whether a role has it or not, as PostgreSQL
// does not check) holds what PUBLIC holds.
func granteeByOID(ctx context.Context, c CatalogInfo, oid uint32) (grantee, error) {
	p, err := privilegeCatalog(c)
	if err != nil {
		return grantee{}, err
	}
	if me, ok := p.LookupRole(c.User()); ok && me == oid {
		return grantee{superuser: true, oid: oid}, nil
	}
	return grantee{oid: oid}, nil
}

// privilegeList parses a privilege list such as "SELECT, INSERT WITH GRANT
// OPTION" into the privileges' names (upper case, without the option).
func privilegeList(s string, valid []string, roleOptions bool) ([]string, error) {
	var out []string
	for _, raw := range strings.Split(s, ",") {
		p := strings.ToUpper(strings.Join(strings.Fields(raw), " "))
		p = strings.TrimSuffix(p, " WITH GRANT OPTION")
		if roleOptions {
			p = strings.TrimSuffix(p, " WITH ADMIN OPTION")
		}
		found := false
		for _, v := range valid {
			if p == v {
				found = true
				break
			}
		}
		if !found {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "unrecognized privilege type: %q", strings.TrimSpace(raw)) // as written, like PostgreSQL
		}
		out = append(out, p)
	}
	return out, nil
}

// privObject is one kind of object the privilege functions ask about.
type privObject struct {
	fn    string
	privs []string
	// byName resolves a name, failing with the kind's error when nothing
	// has it.
	byName func(ctx context.Context, c CatalogInfo, s string) (uint32, error)
	// afterName, when set, checks an object found by name after the
	// privilege list (has_sequence_privilege's relation kind).
	afterName func(ctx context.Context, c CatalogInfo, oid uint32) (bool, error)
	// exists reports whether an OID names such an object (false: NULL);
	// it may fail (an OID of another relation kind than the function's).
	exists func(ctx context.Context, c CatalogInfo, oid uint32) (bool, error)
	// public reports whether PUBLIC holds a privilege on the object.
	public func(ctx context.Context, c CatalogInfo, oid uint32, priv string) (bool, error)
}

// holds answers for an existing object.
func (o *privObject) holds(ctx context.Context, c CatalogInfo, g grantee, obj uint32, privs []string) (any, error) {
	if g.superuser {
		return true, nil
	}
	for _, p := range privs {
		ok, err := o.public(ctx, c, obj, p)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// userArg reads the user argument: a name (string) or an OID (int64).
func userArg(ctx context.Context, c CatalogInfo, v any) (grantee, error) {
	if name, ok := v.(string); ok {
		return granteeByName(ctx, c, name)
	}
	return granteeByOID(ctx, c, oidArg(v))
}

// kernel is one signature: withUser says whether the first argument is
// the user; the object is the next argument, the privilege list the last.
func (o *privObject) kernel(withUser bool) Kernel {
	return withCatalog(tBool, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
		g := grantee{superuser: true}
		if withUser {
			var err error
			if g, err = userArg(ctx, c, a[0]); err != nil {
				return nil, err
			}
			a = a[1:]
		}
		if name, isName := a[0].(string); isName {
			obj, err := o.byName(ctx, c, name)
			if err != nil {
				return nil, err
			}
			privs, err := privilegeList(a[1].(string), o.privs, false)
			if err != nil {
				return nil, err
			}
			if o.afterName != nil {
				if _, err := o.afterName(ctx, c, obj); err != nil {
					return nil, err
				}
			}
			return o.holds(ctx, c, g, obj, privs)
		}
		privs, err := privilegeList(a[1].(string), o.privs, false)
		if err != nil {
			return nil, err
		}
		obj := oidArg(a[0])
		if ok, err := o.exists(ctx, c, obj); err != nil || !ok {
			return nil, err
		}
		return o.holds(ctx, c, g, obj, privs)
	})
}

// signatures are PostgreSQL's six of a has_*_privilege function.
func (o *privObject) signatures() []*Func {
	var fs []*Func
	for _, obj := range []types.T{tText, tOid} {
		fs = append(fs, &Func{Name: o.fn, Args: []types.T{obj, tText}, Ret: tBool, Strict: true, Kernel: o.kernel(false)})
		for _, user := range []types.T{tName, tOid} {
			fs = append(fs, &Func{Name: o.fn, Args: []types.T{user, obj, tText}, Ret: tBool, Strict: true, Kernel: o.kernel(true)})
		}
	}
	return fs
}

// publicCatalogRevoked are the catalogs whose SELECT PostgreSQL revokes
// from PUBLIC (they hold passwords, statistics values or connection
// options).
var publicCatalogRevoked = map[string]bool{
	"pg_authid": true, "pg_statistic": true, "pg_statistic_ext_data": true, "pg_user_mapping": true,
	"pg_subscription": true, "pg_largeobject": true,
}

// publicSelect reports whether PUBLIC may read a relation: the system
// catalogs and information_schema's views.
func publicSelect(ctx context.Context, c CatalogInfo, oid uint32) (bool, error) {
	p, err := privilegeCatalog(c)
	if err != nil {
		return false, err
	}
	_, schema, ok, err := p.RelationKind(ctx, oid)
	if err != nil || !ok || schema != "pg_catalog" && schema != "information_schema" {
		return false, err
	}
	name, _, err := c.RelationName(ctx, oid)
	return !publicCatalogRevoked[name], err
}

func relationByName(ctx context.Context, c CatalogInfo, s string) (uint32, error) {
	oid, ok, err := lookupRelation(ctx, c, s)
	if err == nil && !ok {
		err = sqlerr.New(sqlerr.UndefinedTable, "relation %q does not exist", displayName(s))
	}
	return oid, err
}

func relationExists(ctx context.Context, c CatalogInfo, oid uint32) (bool, error) {
	_, ok, err := c.RelationName(ctx, oid)
	return ok, err
}

// namedIn is the byName of a kind the privilege catalog looks up by name
// (kind names it in the 42704 error).
func namedIn(kind string, lookup func(PrivilegeCatalog, string) (uint32, bool)) func(context.Context, CatalogInfo, string) (uint32, error) {
	return func(_ context.Context, c CatalogInfo, s string) (uint32, error) {
		p, err := privilegeCatalog(c)
		if err != nil {
			return 0, err
		}
		oid, ok := lookup(p, s)
		if !ok {
			return 0, sqlerr.New(sqlerr.UndefinedObject, "%s %q does not exist", kind, s)
		}
		return oid, nil
	}
}

// existsIn is the exists of a kind the privilege catalog knows by OID.
func existsIn(has func(PrivilegeCatalog, uint32) bool) func(context.Context, CatalogInfo, uint32) (bool, error) {
	return func(_ context.Context, c CatalogInfo, oid uint32) (bool, error) {
		p, err := privilegeCatalog(c)
		return err == nil && has(p, oid), err
	}
}

// notNamed is the byName of a kind sqlgate has none of.
func notNamed(what string) func(context.Context, CatalogInfo, string) (uint32, error) {
	return func(_ context.Context, _ CatalogInfo, s string) (uint32, error) {
		return 0, sqlerr.New(sqlerr.UndefinedObject, "%s %q does not exist", what, s)
	}
}

func noneExists(context.Context, CatalogInfo, uint32) (bool, error) { return false, nil }

func publicHolds(privs ...string) func(context.Context, CatalogInfo, uint32, string) (bool, error) {
	return func(_ context.Context, _ CatalogInfo, _ uint32, p string) (bool, error) {
		for _, x := range privs {
			if x == p {
				return true, nil
			}
		}
		return false, nil
	}
}

func publicSelectOnly(ctx context.Context, c CatalogInfo, oid uint32, p string) (bool, error) {
	if p != "SELECT" {
		return false, nil
	}
	return publicSelect(ctx, c, oid)
}

// sequenceKind fails with 42809 when a relation is no sequence.
func sequenceKind(ctx context.Context, c CatalogInfo, oid uint32) (bool, error) {
	p, err := privilegeCatalog(c)
	if err != nil {
		return false, err
	}
	kind, _, ok, err := p.RelationKind(ctx, oid)
	if err != nil || !ok {
		return false, err
	}
	if kind != "S" {
		name, _, err := c.RelationName(ctx, oid)
		if err != nil {
			return false, err
		}
		return false, sqlerr.New(sqlerr.WrongObjectType, "%q is not a sequence", name)
	}
	return true, nil
}

func privObjects() []*privObject {
	return []*privObject{
		{fn: "has_table_privilege", privs: []string{"SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER"},
			byName: relationByName, exists: relationExists, public: publicSelectOnly},
		{fn: "has_any_column_privilege", privs: []string{"SELECT", "INSERT", "UPDATE", "REFERENCES"},
			byName: relationByName, exists: relationExists, public: publicSelectOnly},
		{fn: "has_sequence_privilege", privs: []string{"USAGE", "SELECT", "UPDATE"},
			byName: relationByName, afterName: sequenceKind, exists: sequenceKind, public: publicHolds()},
		{fn: "has_schema_privilege", privs: []string{"USAGE", "CREATE"},
			byName: func(_ context.Context, c CatalogInfo, s string) (uint32, error) {
				oid, ok := c.LookupNamespace(s)
				if !ok {
					return 0, sqlerr.New(sqlerr.Code("3F000"), "schema %q does not exist", s)
				}
				return oid, nil
			},
			exists: func(_ context.Context, c CatalogInfo, oid uint32) (bool, error) {
				_, ok := c.NamespaceName(oid)
				return ok, nil
			},
			public: func(_ context.Context, c CatalogInfo, oid uint32, p string) (bool, error) {
				name, _ := c.NamespaceName(oid)
				return p == "USAGE" && (name == "pg_catalog" || name == "information_schema" || name == "public"), nil
			}},
		{fn: "has_database_privilege", privs: []string{"CREATE", "CONNECT", "TEMPORARY", "TEMP"},
			byName: func(ctx context.Context, c CatalogInfo, s string) (uint32, error) {
				if !isOwnDatabase(ctx, c, s) {
					return 0, sqlerr.New(sqlerr.Code("3D000"), "database %q does not exist", s)
				}
				return databaseOID, nil
			},
			exists: func(_ context.Context, _ CatalogInfo, oid uint32) (bool, error) { return oid == databaseOID, nil },
			public: publicHolds("CONNECT", "TEMPORARY", "TEMP")},
		{fn: "has_function_privilege", privs: []string{"EXECUTE"},
			byName: func(_ context.Context, c CatalogInfo, s string) (uint32, error) {
				v, err := regprocLookup(c, s, true, true)
				if err != nil {
					return 0, err
				}
				return uint32(v.(int64)), nil
			},
			exists: func(_ context.Context, c CatalogInfo, oid uint32) (bool, error) {
				_, _, ok := procsOf(c).FunctionProc(oid)
				return ok, nil
			},
			public: publicHolds("EXECUTE")},
		{fn: "has_language_privilege", privs: []string{"USAGE"},
			byName: namedIn("language", PrivilegeCatalog.LookupLanguage),
			exists: existsIn(PrivilegeCatalog.LanguageExists), public: publicHolds("USAGE")},
		{fn: "has_tablespace_privilege", privs: []string{"CREATE"},
			byName: namedIn("tablespace", PrivilegeCatalog.LookupTablespace),
			exists: existsIn(PrivilegeCatalog.TablespaceExists), public: publicHolds()},
		{fn: "has_type_privilege", privs: []string{"USAGE"},
			byName: func(ctx context.Context, c CatalogInfo, s string) (uint32, error) {
				oid, ok, err := lookupType(ctx, c, s)
				if err == nil && !ok {
					err = sqlerr.New(sqlerr.UndefinedObject, "type %q does not exist", strings.TrimSpace(s))
				}
				return oid, err
			},
			exists: func(ctx context.Context, c CatalogInfo, oid uint32) (bool, error) {
				if _, ok := c.TypeName(oid); ok {
					return true, nil
				}
				_, ok, err := rowTypeName(ctx, c, oid)
				return ok, err
			},
			public: publicHolds("USAGE")},
		// sqlgate has no foreign servers or foreign-data wrappers
		{fn: "has_server_privilege", privs: []string{"USAGE"}, byName: notNamed("server"), exists: noneExists, public: publicHolds()},
		{fn: "has_foreign_data_wrapper_privilege", privs: []string{"USAGE"}, byName: notNamed("foreign-data wrapper"), exists: noneExists, public: publicHolds()},
	}
}

func privilegeFuncs() []*Func {
	var fs []*Func
	for _, o := range privObjects() {
		fs = append(fs, o.signatures()...)
	}
	fs = append(fs, columnPrivilegeFuncs()...)
	fs = append(fs, roleMembershipFuncs()...)
	fs = append(fs, parameterPrivilegeFuncs()...)
	return fs
}

// checkColumnExists fails with 42703 when an existing relation has no
// column of the name (an OID that names no relation passes, and so does
// everything when the catalog cannot list columns).
func checkColumnExists(ctx context.Context, c CatalogInfo, rel uint32, col string) error {
	p, ok := c.(PrivilegeCatalog)
	if !ok {
		return nil
	}
	if _, ok, err := p.ColumnNumber(ctx, rel, col); err != nil || ok {
		return err
	}
	name, found, err := c.RelationName(ctx, rel)
	if err != nil || !found {
		return err
	}
	return sqlerr.New(sqlerr.UndefinedColumn, "column %q of relation %q does not exist", col, strings.Trim(name, `"`))
}

// columnPrivilegeFuncs are has_column_privilege's twelve signatures: the
// table by name or OID, the column by name or number.
func columnPrivilegeFuncs() []*Func {
	privs := []string{"SELECT", "INSERT", "UPDATE", "REFERENCES"}
	k := func(withUser bool) Kernel {
		return withCatalog(tBool, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			g, a, err := granteeOf(ctx, c, a, withUser)
			if err != nil {
				return nil, err
			}
			p, err := privilegeCatalog(c)
			if err != nil {
				return nil, err
			}
			var rel uint32
			relName, byName := a[0].(string)
			if byName {
				if rel, err = relationByName(ctx, c, relName); err != nil {
					return nil, err
				}
			} else {
				rel = oidArg(a[0])
			}
			var attnum int
			exists := false
			if col, isName := a[1].(string); isName {
				n, ok, err := p.ColumnNumber(ctx, rel, col)
				if err != nil {
					return nil, err
				}
				if !ok {
					if err := checkColumnExists(ctx, c, rel, col); err != nil {
						return nil, err
					}
				}
				attnum, exists = n, ok
			} else {
				attnum = int(a[1].(int64))
				if exists, err = p.HasColumn(ctx, rel, attnum); err != nil {
					return nil, err
				}
			}
			list, err := privilegeList(a[2].(string), privs, false)
			if err != nil {
				return nil, err
			}
			if !exists {
				return nil, nil
			}
			if g.superuser {
				return true, nil
			}
			for _, x := range list {
				if x == "SELECT" {
					return publicSelect(ctx, c, rel)
				}
			}
			return false, nil
		})
	}
	var fs []*Func
	for _, rel := range []types.T{tText, tOid} {
		for _, col := range []types.T{tText, types.Int16Type} {
			fs = append(fs, &Func{Name: "has_column_privilege", Args: []types.T{rel, col, tText}, Ret: tBool, Strict: true, Kernel: k(false)})
			for _, user := range []types.T{tName, tOid} {
				fs = append(fs, &Func{Name: "has_column_privilege", Args: []types.T{user, rel, col, tText}, Ret: tBool, Strict: true, Kernel: k(true)})
			}
		}
	}
	return fs
}

// granteeOf is whom a privilege function asks about: the user of its first
// argument when the signature has one (withUser; the rest of the arguments
// follow), else the session's user, the catalog's superuser.
func granteeOf(ctx context.Context, c CatalogInfo, a []any, withUser bool) (grantee, []any, error) {
	if !withUser {
		return grantee{superuser: true}, a, nil
	}
	g, err := userArg(ctx, c, a[0])
	return g, a[1:], err
}

// roleMembershipFuncs are pg_has_role's six signatures. The superuser is
// a member of every role, any role of itself.
func roleMembershipFuncs() []*Func {
	privs := []string{"MEMBER", "USAGE"}
	k := func(withUser bool) Kernel {
		return withCatalog(tBool, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			g, a, err := granteeOf(ctx, c, a, withUser)
			if err != nil {
				return nil, err
			}
			var role uint32
			if name, isName := a[0].(string); isName {
				p, err := privilegeCatalog(c)
				if err != nil {
					return nil, err
				}
				if name == sessionOf(ctx).User {
					name = c.User() // the session's user is the catalog's one superuser
				}
				var ok bool
				if role, ok = p.LookupRole(name); !ok {
					return nil, sqlerr.New(sqlerr.UndefinedObject, "role %q does not exist", name)
				}
			} else {
				role = oidArg(a[0])
			}
			if _, err := privilegeList(a[1].(string), privs, true); err != nil {
				return nil, err
			}
			return g.superuser || g.oid == role, nil
		})
	}
	var fs []*Func
	for _, role := range []types.T{tName, tOid} {
		fs = append(fs, &Func{Name: "pg_has_role", Args: []types.T{role, tText}, Ret: tBool, Strict: true, Kernel: k(false)})
		for _, user := range []types.T{tName, tOid} {
			fs = append(fs, &Func{Name: "pg_has_role", Args: []types.T{user, role, tText}, Ret: tBool, Strict: true, Kernel: k(true)})
		}
	}
	return fs
}

// parameterPrivilegeFuncs are has_parameter_privilege's three signatures:
// the superuser may SET and ALTER SYSTEM any parameter, PUBLIC holds no
// grant on any.
func parameterPrivilegeFuncs() []*Func {
	privs := []string{"SET", "ALTER SYSTEM"}
	k := func(withUser bool) Kernel {
		return withCatalog(tBool, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
			g, a, err := granteeOf(ctx, c, a, withUser)
			if err != nil {
				return nil, err
			}
			if _, err := privilegeList(a[1].(string), privs, false); err != nil {
				return nil, err
			}
			return g.superuser, nil
		})
	}
	return []*Func{
		{Name: "has_parameter_privilege", Args: []types.T{tText, tText}, Ret: tBool, Strict: true, Kernel: k(false)},
		{Name: "has_parameter_privilege", Args: []types.T{tName, tText, tText}, Ret: tBool, Strict: true, Kernel: k(true)},
		{Name: "has_parameter_privilege", Args: []types.T{tOid, tText, tText}, Ret: tBool, Strict: true, Kernel: k(true)},
	}
}
