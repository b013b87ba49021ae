package e2e

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestPreparedStatementsView compares pg_prepared_statements on sqlgate
// and PostgreSQL 15 after the same session: named statements prepared with
// the protocol's Parse (pgx's Prepare) and run with Bind, SQL-level
// PREPARE/EXECUTE, and DEALLOCATE of each kind. Names, statement texts,
// parameter types, from_sql and the plan counts of statements without
// parameters must agree; for a statement with parameters PostgreSQL makes
// custom plans for the first executions where sqlgate runs its one plan,
// so only the number of executions (generic + custom) is compared.
func TestPreparedStatementsView(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	type viewRow struct {
		Name, Statement, Types string
		FromSQL                bool
		Generic, Custom        int64
		TimeOK                 bool
	}
	run := func(connString string) []viewRow {
		cfg, err := pgx.ParseConfig(connString)
		if err != nil {
			t.Fatal(err)
		}
		cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol // no statements of pgx's own
		conn, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		for _, p := range [][2]string{{"proto_a", "SELECT $1::int + 1"}, {"proto_b", "SELECT 42"}, {"proto_gone", "SELECT 2"}} {
			if _, err := conn.Prepare(ctx, p[0], p[1]); err != nil {
				t.Fatal(err)
			}
		}
		for _, stmt := range []string{"proto_b", "proto_b", "proto_b"} {
			if _, err := conn.Exec(ctx, stmt); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < 7; i++ {
			if _, err := conn.Exec(ctx, "proto_a", i); err != nil {
				t.Fatal(err)
			}
		}
		for _, stmt := range []string{
			"PREPARE sql_c(int, text) AS SELECT $1, $2",
			"PREPARE sql_d AS SELECT 'x'; PREPARE sql_gone AS SELECT 3",
			"EXECUTE sql_c(1, 'a')", "EXECUTE sql_d", "EXECUTE sql_d",
			"DEALLOCATE sql_gone", "DEALLOCATE proto_gone",
		} {
			if _, err := conn.Exec(ctx, stmt); err != nil {
				t.Fatalf("%s: %v", stmt, err)
			}
		}
		rows, err := conn.Query(ctx, `SELECT name, statement, parameter_types, from_sql, generic_plans, custom_plans,
			prepare_time BETWEEN now() - interval '1 minute' AND clock_timestamp() FROM pg_prepared_statements ORDER BY name`)
		if err != nil {
			t.Fatal(err)
		}
		out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[viewRow])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, "DEALLOCATE ALL"); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_prepared_statements").Scan(&n); err != nil || n != 0 {
			t.Errorf("after DEALLOCATE ALL: %d statements, %v", n, err)
		}
		return out
	}
	want := run(sharedPG.Database(t).ConnString())
	got := run(startServer(t).ConnString())
	norm := func(rs []viewRow) []string {
		var out []string
		for _, r := range rs {
			plans := fmt.Sprintf("%d generic %d custom", r.Generic, r.Custom)
			if r.Types != "{}" {
				plans = fmt.Sprintf("%d executions", r.Generic+r.Custom)
			}
			out = append(out, fmt.Sprintf("%s | %s | %s | %v | %s | %v", r.Name, r.Statement, r.Types, r.FromSQL, plans, r.TimeOK))
		}
		return out
	}
	if w, g := norm(want), norm(got); !slices.Equal(w, g) {
		t.Errorf("pg_prepared_statements differs:\nsqlgate:    %q\nPostgreSQL: %q", g, w)
	}
	if len(want) != 4 {
		t.Errorf("PostgreSQL lists %d statements, want 4: %v", len(want), want)
	}
}
