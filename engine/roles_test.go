package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// CREATE / ALTER / DROP ROLE and USER change the users of the metadata
// store, which the engine's Roles (and password authentication) read.
func TestRoleStatements(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	md, err := meta.OpenFile(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := md.Update(ctx, func(tx *meta.Tx) error {
		tx.Users["admin"] = pgwire.UserEntry{Superuser: true}
		tx.Users["plain"] = pgwire.UserEntry{}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ss := sessions(t, dir+"/data", engine.Options{Meta: md, Roles: md}, "admin", "plain")
	admin, plain := ss[0], ss[1]
	mustRun(t, admin, "CREATE TABLE t (k INT PRIMARY KEY)")
	mustRun(t, admin, "CREATE ROLE alice")
	mustRun(t, admin, "CREATE USER bob WITH SUPERUSER PASSWORD 'secret'")
	if e, ok := md.LookupUser(ctx, "alice"); !ok || !e.NoLogin || e.SCRAM != "" || e.Superuser {
		t.Errorf("alice: %+v %v (want NOLOGIN, no password)", e, ok)
	}
	if e, ok := md.LookupUser(ctx, "bob"); !ok || e.NoLogin || !strings.HasPrefix(e.SCRAM, "SCRAM-SHA-256$") || !e.Superuser {
		t.Errorf("bob: %+v %v (want LOGIN SUPERUSER with a verifier)", e, ok)
	}
	mustRun(t, admin, "ALTER ROLE alice WITH LOGIN PASSWORD 'pw'")
	if e, _ := md.LookupUser(ctx, "alice"); e.NoLogin || e.SCRAM == "" {
		t.Errorf("alice after ALTER: %+v", e)
	}
	mustRun(t, admin, "GRANT SELECT ON t TO alice")
	for _, c := range []struct {
		who  pgwire.Session
		sql  string
		code sqlerr.Code
		msg  string
	}{
		{admin, "CREATE ROLE alice", sqlerr.DuplicateObject, `role "alice" already exists`},
		{admin, "DROP ROLE alice", sqlerr.DependentObjectsStillExist, `role "alice" cannot be dropped because some objects depend on it`},
		{admin, "DROP ROLE nobody", sqlerr.UndefinedObject, `role "nobody" does not exist`},
		{admin, "ALTER ROLE nobody LOGIN", sqlerr.UndefinedObject, `role "nobody" does not exist`},
		{admin, "DROP ROLE admin", sqlerr.ObjectInUse, "current user cannot be dropped"},
		{admin, "CREATE ROLE carol CREATEDB", sqlerr.FeatureNotSupported, `role option "createdb" is not supported`},
		{plain, "CREATE ROLE carol", sqlerr.InsufficientPrivilege, "permission denied to create role"},
		{plain, "DROP ROLE bob", sqlerr.InsufficientPrivilege, "permission denied to drop role"},
	} {
		wantErr(t, c.who, c.sql, c.code, c.msg)
	}
	mustRun(t, admin, "REVOKE SELECT ON t FROM alice")
	mustRun(t, admin, "DROP ROLE alice, bob")
	mustRun(t, admin, "DROP USER IF EXISTS alice")
	if ok, _ := md.Role("alice"); ok {
		t.Error("alice still exists")
	}
	// The roles persist with the rest of the metadata.
	re, err := meta.OpenFile(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(re.UserNames(), ","); got != "admin,plain" {
		t.Errorf("users after reopen: %s", got)
	}
}

// ALTER ROLE ... NOSUPERUSER applies to the role's open session at its
// next statement.
func TestAlterRoleReachesOpenSessions(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	md, err := meta.OpenFile(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := md.Update(ctx, func(tx *meta.Tx) error {
		tx.Users["admin"] = pgwire.UserEntry{Superuser: true}
		tx.Users["boss"] = pgwire.UserEntry{Superuser: true}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ss := sessions(t, dir+"/data", engine.Options{Meta: md, Roles: md}, "admin", "boss")
	admin, boss := ss[0], ss[1]
	mustRun(t, admin, "CREATE TABLE t (k INT PRIMARY KEY)")
	mustRun(t, boss, "SELECT * FROM t")
	mustRun(t, admin, "ALTER ROLE boss NOSUPERUSER")
	wantErr(t, boss, "SELECT * FROM t", sqlerr.InsufficientPrivilege, "permission denied for table t")
	mustRun(t, admin, "ALTER ROLE boss SUPERUSER")
	mustRun(t, boss, "SELECT * FROM t")
}

// A table's owner is the one who created it: CREATE TABLE IF NOT EXISTS
// by another role leaves it so, and the owner survives a restart of the
// metadata (it is written into the table itself).
func TestTableOwnerIsItsCreator(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	md, err := meta.OpenFile(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := md.Update(ctx, func(tx *meta.Tx) error {
		tx.Users["alice"] = pgwire.UserEntry{Superuser: true}
		tx.Users["bob"] = pgwire.UserEntry{Superuser: true}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	store, err := embedded.Open(filepath.Join(dir, "data"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	eng := engine.New(store, engine.Options{Meta: md, Roles: md})
	var ss []pgwire.Session
	for _, u := range []string{"alice", "bob"} {
		s, err := eng.NewSession(ctx, pgwire.SessionInfo{User: u})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		ss = append(ss, s)
	}
	mustRun(t, ss[0], "CREATE TABLE t (k INT PRIMARY KEY)")
	mustRun(t, ss[1], "CREATE TABLE IF NOT EXISTS t (k INT PRIMARY KEY)")
	info, err := store.GetTable(ctx, fluss.TablePath{Database: fluss.DefaultDatabase, Table: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if got := md.Access().Owner(info.TableID); got != "alice" {
		t.Fatalf("owner %q, want alice", got)
	}
	// Without the metadata file, the table still names its owner.
	if err := os.Remove(filepath.Join(dir, meta.FileName)); err != nil {
		t.Fatal(err)
	}
	re, err := meta.OpenFile(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := re.Reconcile(ctx, store); err != nil {
		t.Fatal(err)
	}
	if got := re.Access().Owner(info.TableID); got != "alice" {
		t.Errorf("owner from the table after the metadata was lost: %q", got)
	}
}

// TestTrustLoginRole: without authentication whoever logs in is a
// superuser, and is made a role that can log in (once; the bootstrap
// superuser sqlgate is pg_roles' OID 10 and is not recorded), so that
// what the user creates has an owner pg_roles lists. A role CREATE ROLE
// made is left as it is.
func TestTrustLoginRole(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	md, err := meta.OpenFile(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	ss := sessions(t, filepath.Join(dir, "data"), engine.Options{Meta: md}, "sqlgate", "carol", "carol")
	mustRun(t, ss[0], "CREATE ROLE dave NOSUPERUSER LOGIN") // CREATE ROLE alone is NOLOGIN: refused at login
	ss = append(ss, sessions(t, filepath.Join(dir, "data2"), engine.Options{Meta: md}, "dave")...)
	for _, c := range []struct {
		user               string
		exists, super, log bool
	}{
		{"sqlgate", false, false, false}, {"carol", true, true, true}, {"dave", true, false, true},
	} {
		exists, super := md.Role(c.user)
		if exists != c.exists || super != c.super || md.CanLogin(c.user) != c.log {
			t.Errorf("%s: role %v, superuser %v, login %v; want %v, %v, %v", c.user, exists, super, md.CanLogin(c.user), c.exists, c.super, c.log)
		}
	}
	mustRun(t, ss[1], "CREATE TABLE t (k INT PRIMARY KEY)")
	mustRun(t, ss[3], "CREATE TABLE u (k INT PRIMARY KEY)") // still a superuser: there is no authentication
	if names := md.UserNames(); strings.Join(names, ",") != "carol,dave" {
		t.Errorf("roles %v, want carol and dave", names)
	}
}
