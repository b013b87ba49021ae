package sql

import (
	"reflect"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestRoleStatements(t *testing.T) {
	yes, no, pw, empty := true, false, "s3 cr'et", ""
	tests := []struct {
		in   string
		want RoleStmt
	}{
		{"CREATE ROLE alice", RoleStmt{Verb: "CREATE", Names: []string{"alice"}}},
		{`create user "Bob" with superuser password 's3 cr''et'`, RoleStmt{Verb: "CREATE", User: true, Names: []string{"Bob"}, Superuser: &yes, Password: &pw}},
		{"CREATE ROLE r NOSUPERUSER NOLOGIN PASSWORD NULL", RoleStmt{Verb: "CREATE", Names: []string{"r"}, Superuser: &no, Login: &no, PasswordNull: true}},
		{"ALTER ROLE r LOGIN ENCRYPTED PASSWORD ''", RoleStmt{Verb: "ALTER", Names: []string{"r"}, Login: &yes, Password: &empty}},
		{"ALTER USER r CONNECTION LIMIT 3", RoleStmt{Verb: "ALTER", User: true, Names: []string{"r"}, Unsupported: "CONNECTION"}},
		{"DROP ROLE IF EXISTS a, B", RoleStmt{Verb: "DROP", Names: []string{"a", "b"}, IfExists: true}},
		{"DROP USER a", RoleStmt{Verb: "DROP", User: true, Names: []string{"a"}}},
	}
	p := NewParser()
	for _, tc := range tests {
		stmts, err := p.Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if len(stmts) != 1 || stmts[0].Kind != Role || stmts[0].Role == nil {
			t.Errorf("%s: got %+v", tc.in, stmts[0])
			continue
		}
		if !reflect.DeepEqual(*stmts[0].Role, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.in, *stmts[0].Role, tc.want)
		}
	}
	for _, bad := range []string{"CREATE ROLE", "DROP ROLE a,", "CREATE ROLE r PASSWORD 5", "DROP ROLE a b"} {
		if _, err := p.Parse(bad); sqlerr.CodeOf(err) != sqlerr.SyntaxError {
			t.Errorf("%s: %v, want a syntax error", bad, err)
		}
	}
}
