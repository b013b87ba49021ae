package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
)

// resolveOperands are typed constants of the types operator and function
// resolution chooses among, untyped literals and NULL.
var resolveOperands = []string{
	"2::int2", "3::int4", "5::int8", "2.5::numeric", "1.5::float4", "2.5::float8",
	"'x'::text", "'x'::varchar", "'x'::char(3)", "true", "date '2020-01-02'",
	"timestamp '2020-01-02 03:04:05'", "timestamptz '2020-01-02 03:04:05+00'", "interval '1 day'",
	"'{\"a\":1}'::json", "'{\"a\":1}'::jsonb", "'{1,2}'::int4[]", "'\\x01'::bytea",
	"'1'", "'x'", "NULL",
}

// resolveBinary are PostgreSQL's infix operators sqlgate parses.
var resolveBinary = []string{"+", "-", "*", "/", "%", "^", "<<", ">>", "&", "|", "#", "=", "<>", "<", ">", "<=",
	">=", "||", "~~", "!~~", "~", "@>", "<@", "&&", "?|", "?&", "?", "->", "->>", "#>", "#>>", "@@", "^@"}

// resolvePrefix are PostgreSQL's prefix operators.
var resolvePrefix = []string{"-", "+", "~", "@", "|/", "||/", "!!"}

// resolveFunctions are common functions with several overloads, by their
// number of arguments.
var resolveFunctions = []struct {
	name  string
	arity int
}{
	{"trunc", 1}, {"trunc", 2}, {"round", 1}, {"round", 2}, {"mod", 2}, {"abs", 1}, {"power", 2}, {"log", 1},
	{"log", 2}, {"length", 1}, {"substr", 2}, {"date_part", 2}, {"to_char", 2}, {"greatest", 2},
	{"coalesce", 2}, {"nullif", 2},
}

// resolvePinned are the queries where sqlgate answered or named things
// unlike PostgreSQL when this test was written; they run whatever the seed.
var resolvePinned = []string{
	"SELECT 1::int4 << 2::int8", "SELECT 1::int8 >> 2::int8", "SELECT 1::int2 << 2::int8",
	"SELECT trunc(NULL)", "SELECT trunc('1')", "SELECT mod(5, 2.5::float8)", "SELECT mod(NULL, NULL)",
	"SELECT 'x'::varchar = 1", "SELECT 'x'::varchar + 1",
}

// TestOperatorResolutionDifferential applies every operator of
// resolveBinary and resolvePrefix, [NOT] [I]LIKE with an ESCAPE, and every
// function of resolveFunctions,
// to operands of resolveOperands on sqlgate and PostgreSQL 15: each left
// operand with every right operand, or with SQLGATE_OPS_RIGHT of them drawn
// with seed SQLGATE_DIFF_SEED, plus resolvePinned. Accepting or refusing,
// the SQLSTATE, the message and the answer must be PostgreSQL's, except for
// the queries testdata/opsresolve_differences.txt lists (not fixed yet),
// which must still differ.
func TestOperatorResolutionDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 1))))
	right := envInt(t, "SQLGATE_OPS_RIGHT", len(resolveOperands))
	known := knownDifferences(t, "testdata/opsresolve_differences.txt")
	queries := append([]string(nil), resolvePinned...)
	queries = append(queries, resolveQueries(rng, right)...)
	stats := map[string]int{}
	for _, q := range queries {
		if known[q] {
			stats["known difference"]++
			if agrees(r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q)) {
				t.Errorf("%s no longer differs from PostgreSQL: delete it from testdata/opsresolve_differences.txt", q)
			}
			continue
		}
		tallyBy(t, ctx, r, q, stats, tallyRule{ordered: true})
	}
	t.Logf("%d queries: %v", len(queries), stats)
	if stats["refused alike"] == 0 || stats["same"] == 0 {
		t.Errorf("outcomes: %v", stats)
	}
}

// resolveQueries are the generated queries: each operator, LIKE with an
// ESCAPE, and each function with every left operand and right operands
// drawn by rng.
func resolveQueries(rng *rand.Rand, right int) []string {
	draw := func() []string {
		var out []string
		for _, i := range rng.Perm(len(resolveOperands))[:min(right, len(resolveOperands))] {
			out = append(out, resolveOperands[i])
		}
		return out
	}
	var qs []string
	for _, op := range resolveBinary {
		for _, a := range resolveOperands {
			for _, b := range draw() {
				qs = append(qs, fmt.Sprintf("SELECT %s %s %s", a, op, b))
			}
		}
	}
	for _, op := range resolvePrefix {
		for _, a := range resolveOperands {
			qs = append(qs, fmt.Sprintf("SELECT %s %s", op, a))
		}
	}
	for _, like := range []string{"LIKE", "NOT LIKE", "ILIKE"} {
		for _, a := range resolveOperands {
			for _, b := range draw() {
				qs = append(qs, fmt.Sprintf("SELECT %s %s %s ESCAPE '#'", a, like, b))
			}
		}
	}
	for _, f := range resolveFunctions {
		for _, a := range resolveOperands {
			if f.arity == 1 {
				qs = append(qs, fmt.Sprintf("SELECT %s(%s)", f.name, a))
				continue
			}
			for _, b := range draw() {
				qs = append(qs, fmt.Sprintf("SELECT %s(%s, %s)", f.name, a, b))
			}
		}
	}
	return qs
}

// agrees reports whether sqlgate's outcome is PostgreSQL's: the same
// refusal (SQLSTATE and message) or the same answer.
func agrees(sg, pg Outcome) bool {
	kind, _ := verdict(sg, pg, tallyRule{ordered: true})
	return kind != "different"
}
