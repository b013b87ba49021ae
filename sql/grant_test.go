package sql

import (
	"reflect"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestGrantStatements(t *testing.T) {
	tests := []struct {
		in   string
		kind Kind
		want GrantStmt
	}{
		{"GRANT SELECT ON t TO alice", Grant, GrantStmt{Privileges: []string{"SELECT"}, Tables: [][2]string{{"", "t"}}, Grantees: []string{"alice"}}},
		{`grant select, Insert ON TABLE public.T, "Mixed" TO Bob, "Carol", PUBLIC WITH GRANT OPTION`, Grant,
			GrantStmt{Privileges: []string{"SELECT", "INSERT"}, Tables: [][2]string{{"public", "t"}, {"", "Mixed"}},
				Grantees: []string{"bob", "Carol", "public"}, WithGrantOption: true}},
		{"GRANT ALL PRIVILEGES ON ALL TABLES IN SCHEMA public TO reader", Grant,
			GrantStmt{AllInSchemas: []string{"public"}, Grantees: []string{"reader"}}},
		{"GRANT ALL ON t TO CURRENT_USER", Grant, GrantStmt{Tables: [][2]string{{"", "t"}}, Grantees: []string{"current_user"}}},
		{"REVOKE UPDATE, DELETE ON t FROM alice CASCADE", Revoke,
			GrantStmt{Revoke: true, Privileges: []string{"UPDATE", "DELETE"}, Tables: [][2]string{{"", "t"}}, Grantees: []string{"alice"}}},
		{"REVOKE GRANT OPTION FOR SELECT ON t FROM public", Revoke,
			GrantStmt{Revoke: true, GrantOptionFor: true, Privileges: []string{"SELECT"}, Tables: [][2]string{{"", "t"}}, Grantees: []string{"public"}}},
		// schema privileges; the engine checks that they apply to schemas
		{"GRANT USAGE, CREATE ON SCHEMA s1, S2 TO alice", Grant,
			GrantStmt{Privileges: []string{"USAGE", "CREATE"}, Schemas: []string{"s1", "s2"}, Grantees: []string{"alice"}}},
		{"REVOKE ALL ON SCHEMA public FROM PUBLIC", Revoke, GrantStmt{Revoke: true, Schemas: []string{"public"}, Grantees: []string{"public"}}},
		{"GRANT SELECT ON SCHEMA public TO alice", Grant, GrantStmt{Privileges: []string{"SELECT"}, Schemas: []string{"public"}, Grantees: []string{"alice"}}},
		// ALTER DEFAULT PRIVILEGES, as pg_dump writes it
		{"ALTER DEFAULT PRIVILEGES FOR ROLE postgres IN SCHEMA public GRANT SELECT ON TABLES TO reader", Grant,
			GrantStmt{Privileges: []string{"SELECT"}, Grantees: []string{"reader"},
				Default: &DefaultPrivileges{Roles: []string{"postgres"}, Schemas: []string{"public"}, Objects: "TABLES"}}},
		{"ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON ROUTINES FROM PUBLIC", Revoke,
			GrantStmt{Revoke: true, Privileges: []string{"EXECUTE"}, Grantees: []string{"public"}, Default: &DefaultPrivileges{Objects: "FUNCTIONS"}}},
	}
	p := NewParser()
	for _, tc := range tests {
		stmts, err := p.Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if len(stmts) != 1 || stmts[0].Kind != tc.kind || stmts[0].Grant == nil {
			t.Errorf("%s: got %+v", tc.in, stmts[0])
			continue
		}
		if !reflect.DeepEqual(*stmts[0].Grant, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.in, *stmts[0].Grant, tc.want)
		}
	}
}

func TestGrantErrors(t *testing.T) {
	tests := []struct {
		in   string
		code sqlerr.Code
	}{
		{"GRANT SELECT ON t", sqlerr.SyntaxError},
		// PostgreSQL's grammar reads it as a GRANT of role membership
		// (privilege_list TO role_list), which sqlgate lacks
		{"GRANT SELECT TO alice", sqlerr.FeatureNotSupported},
		{"GRANT FLY ON t TO alice", sqlerr.SyntaxError},
		{"GRANT SELECT ON t TO alice, ", sqlerr.SyntaxError},
		{"REVOKE SELECT ON t TO alice", sqlerr.SyntaxError},
		{"GRANT SELECT (a) ON t TO alice", sqlerr.FeatureNotSupported},
		{"GRANT CONNECT ON DATABASE d TO alice", sqlerr.FeatureNotSupported},
		{"GRANT USAGE ON SEQUENCE q TO alice", sqlerr.FeatureNotSupported},
		{"ALTER DEFAULT PRIVILEGES GRANT SELECT ON VIEWS TO alice", sqlerr.SyntaxError},
		{"ALTER DEFAULT PRIVILEGES IN SCHEMA GRANT SELECT ON TABLES TO alice", sqlerr.SyntaxError},
	}
	p := NewParser()
	for _, tc := range tests {
		_, err := p.Parse(tc.in)
		if sqlerr.CodeOf(err) != tc.code {
			t.Errorf("%s: got %v, want %s", tc.in, err, tc.code)
		}
	}
}
