package engine_test

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Schema privileges are checked where PostgreSQL checks them: USAGE to
// name a schema's tables, CREATE to create in it (public gives USAGE to
// PUBLIC until it is revoked, CREATE to nobody but its owner); ALTER
// DEFAULT PRIVILEGES grants on the tables and views made afterwards.
func TestSchemaPrivileges(t *testing.T) {
	ss, md := roleSessions(t, "admin", "plain", "reader") // ddlprivs_test.go
	admin, plain, reader := ss[0], ss[1], ss[2]
	for _, stmt := range []string{
		"CREATE SCHEMA s", "CREATE TABLE s.t (id int)", "INSERT INTO s.t VALUES (1)", "GRANT SELECT ON s.t TO plain",
		"CREATE TABLE pt (id int)", "GRANT SELECT ON pt TO plain",
	} {
		mustRun(t, admin, stmt)
	}
	// SELECT on the table is not enough without USAGE on its schema
	wantErr(t, plain, "SELECT * FROM s.t", sqlerr.InsufficientPrivilege, "permission denied for schema s")
	mustRun(t, plain, "SELECT * FROM pt") // public: USAGE for PUBLIC
	wantErr(t, plain, "CREATE TABLE s.mine (id int)", sqlerr.InsufficientPrivilege, "permission denied for schema s")
	wantErr(t, plain, "CREATE TABLE mine (id int)", sqlerr.InsufficientPrivilege, "permission denied for schema public")
	wantErr(t, plain, "GRANT USAGE ON SCHEMA s TO reader", sqlerr.InsufficientPrivilege, "permission denied for schema s")
	wantErr(t, admin, "GRANT SELECT ON SCHEMA s TO plain", sqlerr.InvalidGrantOperation, "invalid privilege type SELECT for schema")
	wantErr(t, admin, "GRANT USAGE ON s.t TO plain", sqlerr.InvalidGrantOperation, "invalid privilege type USAGE for table")
	wantErr(t, admin, "GRANT USAGE ON SCHEMA nosuch TO plain", sqlerr.Code("3F000"), `schema "nosuch" does not exist`)
	wantErr(t, admin, "GRANT USAGE ON SCHEMA s TO nosuch", sqlerr.UndefinedObject, `role "nosuch" does not exist`)

	mustRun(t, admin, "GRANT USAGE, CREATE ON SCHEMA s TO plain")
	mustRun(t, plain, "SELECT * FROM s.t")
	// plain creates in s; admin's default privileges do not apply to
	// plain's tables, plain's own do
	mustRun(t, plain, "ALTER DEFAULT PRIVILEGES IN SCHEMA s GRANT SELECT ON TABLES TO reader")
	wantErr(t, plain, "ALTER DEFAULT PRIVILEGES FOR ROLE admin GRANT SELECT ON TABLES TO reader", sqlerr.InsufficientPrivilege,
		"permission denied to change default privileges")
	mustRun(t, plain, "CREATE TABLE s.mine (id int)")
	mustRun(t, plain, "INSERT INTO s.mine VALUES (7)")
	wantErr(t, reader, "SELECT * FROM s.mine", sqlerr.InsufficientPrivilege, "permission denied for schema s")
	mustRun(t, admin, "GRANT USAGE ON SCHEMA s TO reader")
	mustRun(t, reader, "SELECT * FROM s.mine")
	wantErr(t, reader, "INSERT INTO s.mine VALUES (8)", sqlerr.InsufficientPrivilege, "permission denied for table mine")

	// a global list: admin's new tables and views anywhere
	mustRun(t, admin, "ALTER DEFAULT PRIVILEGES GRANT SELECT, INSERT ON TABLES TO reader")
	mustRun(t, admin, "CREATE TABLE later (id int)")
	mustRun(t, admin, "CREATE VIEW later_v AS SELECT id FROM later")
	mustRun(t, reader, "INSERT INTO later VALUES (1)")
	mustRun(t, reader, "SELECT * FROM later_v")
	wantErr(t, reader, "SELECT * FROM pt", sqlerr.InsufficientPrivilege, "permission denied for table pt") // made before

	// REVOKE USAGE takes effect at once; revoking public's USAGE on public
	// closes it to everyone but its owner and superusers
	mustRun(t, admin, "REVOKE USAGE ON SCHEMA s FROM reader")
	wantErr(t, reader, "SELECT * FROM s.mine", sqlerr.InsufficientPrivilege, "permission denied for schema s")
	mustRun(t, admin, "REVOKE USAGE ON SCHEMA public FROM PUBLIC")
	wantErr(t, plain, "SELECT * FROM pt", sqlerr.InsufficientPrivilege, "permission denied for schema public")
	mustRun(t, admin, "GRANT USAGE ON SCHEMA public TO plain")
	mustRun(t, plain, "SELECT * FROM pt")

	sc, _ := md.Schema("s")
	if got := sc.ACL.Items("admin"); len(got) != 1 || got[0] != "plain=UC/admin" {
		t.Errorf("schema s grants %q", got)
	}
	// the defaults go when they are revoked back to the built-in ones
	mustRun(t, admin, "ALTER DEFAULT PRIVILEGES REVOKE SELECT, INSERT ON TABLES FROM reader")
	mustRun(t, plain, "ALTER DEFAULT PRIVILEGES IN SCHEMA s REVOKE SELECT ON TABLES FROM reader")
	if n := len(md.DefaultACLs()); n != 0 {
		t.Errorf("%d default privileges lists left: %v", n, md.DefaultACLs())
	}
}
