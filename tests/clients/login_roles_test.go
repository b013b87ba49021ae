package clients

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// TestLoginRoleAttributes: under trust authentication a role's LOGIN
// attribute decides whether it may log in, as PostgreSQL decides it when
// the session starts (28000 'role "x" is not permitted to log in' for a
// role without it, superuser or not). Every combination of CREATE ROLE /
// CREATE USER's attributes and a later ALTER ROLE is made on sqlgate and
// on PostgreSQL 15, and a login as each role must end the same on both.
func TestLoginRoleAttributes(t *testing.T) {
	pg := pgtest.Start(t)
	srv := startServer(t)
	host, port := hostPort(t, srv.Addr().String())
	sgURL := func(user string) string {
		return "postgres://" + user + "@" + host + ":" + port + "/sqlgate?sslmode=disable"
	}
	pgURL := func(user string) string {
		return fmt.Sprintf("postgres://%s@127.0.0.1:%d/postgres?sslmode=disable", user, pg.Port())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	sgAdmin := connectPgx(t, sgURL("sqlgate"))
	pgAdmin := connectPgx(t, pg.ConnString())

	var checked, refused int
	for i, create := range []string{"CREATE ROLE", "CREATE USER"} {
		for j, attrs := range []string{"", "LOGIN", "NOLOGIN", "SUPERUSER", "SUPERUSER NOLOGIN", "NOSUPERUSER LOGIN"} {
			for k, alter := range []string{"", "LOGIN", "NOLOGIN", "SUPERUSER"} {
				role := fmt.Sprintf("login_%d_%d_%d", i, j, k)
				stmts := []string{create + " " + role + " " + attrs}
				if alter != "" {
					stmts = append(stmts, "ALTER ROLE "+role+" "+alter)
				}
				for _, stmt := range stmts {
					mustExec(t, sgAdmin, stmt)
					mustExec(t, pgAdmin, stmt)
				}
				want := loginOutcome(ctx, pgURL(role))
				got := loginOutcome(ctx, sgURL(role))
				if got != want {
					t.Errorf("%s; login as %s:\nsqlgate:    %s\nPostgreSQL: %s", strings.Join(stmts, "; "), role, got, want)
				}
				checked++
				if want != "ok" {
					refused++
				}
			}
		}
	}
	if refused == 0 || refused == checked {
		t.Fatalf("%d of %d logins refused by PostgreSQL: the cases do not cover both outcomes", refused, checked)
	}
}

// loginOutcome is "ok" or the SQLSTATE and message a login fails with.
func loginOutcome(ctx context.Context, url string) string {
	c, err := pgconn.Connect(ctx, url)
	if err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			return pe.Severity + " " + pe.Code + " " + pe.Message
		}
		return err.Error()
	}
	c.Close(ctx)
	return "ok"
}
