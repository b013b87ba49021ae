package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// opNameOperands are operands of every kind an operator may not take: NULL,
// untyped literals, and typed values.
var opNameOperands = []string{"NULL", "'1'", "'a'", "1", "1.5", "true", "'x'::text", "array[1]", "'{}'::jsonb", "date '2020-01-01'"}

// opNameInfix are operators sqlgate binds to a function (LIKE to like,
// ~ to regex_match, ^ to power, # and && to the rewrite's pg__op_ calls)
// or to a marker, spelled as symbols and as words.
var opNameInfix = []string{"~", "~*", "!~", "!~*", "~~", "~~*", "!~~", "!~~*", "LIKE", "ILIKE", "NOT LIKE", "NOT ILIKE",
	"^", "%", "#", "&&", "^@", "@>", "<@", "?"}

// opNamePrefix are prefix operators the rewrite spells as pg__op_ calls,
// and + and -, which exist for numeric types only (and - for interval).
var opNamePrefix = []string{"~", "@", "|/", "||/", "+", "-"}

// TestOperatorNamesDifferential applies each operator of opNameInfix and
// opNamePrefix to the operands of opNameOperands on sqlgate and PostgreSQL
// 15. Where PostgreSQL finds no operator or none unique (42883, 42725),
// sqlgate must refuse with the same SQLSTATE, message and position: it
// named the function behind the operator (pg__op_not, regex_match, like,
// power) and NULL's type null, took + of any type, and read - of an
// untyped literal as float8.
func TestOperatorNamesDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	var queries []string
	for _, op := range opNameInfix {
		for _, a := range opNameOperands {
			for _, b := range opNameOperands {
				queries = append(queries, fmt.Sprintf("SELECT %s %s %s", a, op, b))
			}
		}
	}
	for _, op := range opNamePrefix {
		for _, a := range opNameOperands {
			queries = append(queries, fmt.Sprintf("SELECT %s %s", op, a))
		}
	}
	stats := map[string]int{}
	for _, q := range queries {
		pg := r.Postgres.Run(ctx, q)
		if pg.Err == nil || (pg.Err.Code != "42883" && pg.Err.Code != "42725") {
			continue
		}
		sg := r.SQLGate.Run(ctx, q)
		switch {
		case sg.Err != nil && sg.Err.Code == connErrorCode:
			t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
		case sg.Err != nil && sg.Err.Code == pg.Err.Code && sg.Err.Message == pg.Err.Message && sg.Err.Position == pg.Err.Position:
			stats["refused alike"]++
		default:
			stats["different"]++
			t.Errorf("%s\n  sqlgate:    %s\n  PostgreSQL: %s", q, describeAt(sg), describeAt(pg))
		}
		if sg.Err != nil && strings.Contains(sg.Err.Message, "pg__") {
			t.Errorf("%s: sqlgate names an internal function: %s", q, sg.Err.Message)
		}
	}
	t.Logf("%d queries: %v", len(queries), stats)
	if stats["refused alike"] < 100 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
