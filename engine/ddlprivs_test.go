package engine_test

import (
	"context"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ddlUsers opens an engine whose metadata store knows a superuser (admin)
// and two plain roles, and a session for each.
func ddlUsers(t *testing.T) (admin, rvu1, rvu2 pgwire.Session, md *meta.Store) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	md, err := meta.OpenFile(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := md.Update(ctx, func(tx *meta.Tx) error {
		tx.Users["admin"] = pgwire.UserEntry{Superuser: true}
		tx.Users["rvu1"] = pgwire.UserEntry{}
		tx.Users["rvu2"] = pgwire.UserEntry{}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ss := sessions(t, dir+"/data", engine.Options{Meta: md, Roles: md}, "admin", "rvu1", "rvu2")
	return ss[0], ss[1], ss[2], md
}

// Dropping a schema takes its owner or a superuser; creating one takes
// CREATE on the database, which sqlgate leaves to superusers (PostgreSQL's
// default: only the database's owner holds it).
func TestDropSchemaNeedsOwner(t *testing.T) {
	admin, rvu1, rvu2, _ := ddlUsers(t)
	mustRun(t, admin, "CREATE TABLE pt (id int)")
	mustRun(t, admin, "CREATE SCHEMA s1")
	mustRun(t, admin, "CREATE SCHEMA s2 AUTHORIZATION rvu1")
	mustRun(t, admin, "CREATE TABLE s2.t (id int)")
	for _, c := range []struct {
		sess pgwire.Session
		sql  string
		code sqlerr.Code
		msg  string
	}{
		{rvu1, "DROP SCHEMA public CASCADE", sqlerr.InsufficientPrivilege, "must be owner of schema public"},
		{rvu1, "DROP SCHEMA public", sqlerr.InsufficientPrivilege, "must be owner of schema public"},
		{rvu1, "DROP SCHEMA s1", sqlerr.InsufficientPrivilege, "must be owner of schema s1"},
		{rvu2, "DROP SCHEMA s2 CASCADE", sqlerr.InsufficientPrivilege, "must be owner of schema s2"},
		{rvu1, "DROP SCHEMA s1, s2", sqlerr.InsufficientPrivilege, "must be owner of schema s1"},
		{rvu1, "CREATE SCHEMA mine", sqlerr.InsufficientPrivilege, "permission denied for database"},
		{rvu1, "CREATE SCHEMA IF NOT EXISTS s1", sqlerr.InsufficientPrivilege, "permission denied for database"},
	} {
		wantErr(t, c.sess, c.sql, c.code, c.msg)
	}
	mustRun(t, admin, "SELECT * FROM pt") // still there
	mustRun(t, admin, "SELECT * FROM s2.t")
	mustRun(t, rvu1, "DROP SCHEMA s2 CASCADE") // its owner may, with the superuser's table in it
	mustRun(t, admin, "DROP SCHEMA s1")
}
