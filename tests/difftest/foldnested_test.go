package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"testing"
)

// PostgreSQL's planner simplifies every expression before any row is read
// (eval_const_expressions, clauses.c): a call of an immutable function or
// operator, or an immutable cast, whose arguments are constants after
// their own simplification is computed, bottom-up, so nested calls over
// constants are constants too and an error computing one (a cast's
// 22P02, a division's 22012, an invalid regular expression) fails the
// statement though WHERE false or an empty table reads no row. A stable
// call (concat, format, text || integer, to_char) is left to execution,
// and so is everything above it; CASE drops the branches whose condition
// folds to false or NULL without computing them (but computes the
// results of the others, a column in their condition or not), COALESCE
// stops at its first non-NULL constant, AND / OR at their deciding
// constant, a strict call with a NULL constant argument is NULL. The
// generator nests immutable and stable calls of every spelling (the
// operators sqlgate calls by names of its own: |/, @, ~, #, ^@, ~<~, ->>,
// inet's +, x = ANY (array); trim(x), ILIKE, regular expressions) over
// constants and a column, under casts, CASE, COALESCE, NULLIF, GREATEST,
// IS NULL, AND and OR, with casts of every kind (a NULL's of a stable
// one, jsonb's), and compares the SQLSTATE (or rows) of the
// expression over a table with WHERE false, an empty table and a row.
// SQLGATE_DIFF_FOLDNESTED_QUERIES sets the count (default 200).

// foldText is a text expression, constant or not.
func foldText(rng *rand.Rand, depth int) string {
	p := pickFrom(rng)
	if depth <= 0 || rng.Intn(3) == 0 {
		return p("'b'", "' 7 '", "'12'", "'x'", "'('", "'a\\'", "''", "NULL::text", "fc.t", "'2147483648'")
	}
	x := func() string { return foldText(rng, depth-1) }
	switch rng.Intn(18) {
	case 0:
		return fmt.Sprintf("trim(%s)", x())
	case 1:
		return fmt.Sprintf("trim(%s from %s)", p("both 'x'", "leading", "trailing ' '"), x())
	case 2:
		return fmt.Sprintf("%s(%s)", p("btrim", "ltrim", "rtrim", "upper", "lower", "reverse", "md5", "initcap"), x())
	case 3:
		return fmt.Sprintf("substr(%s, %s, 2)", x(), foldInt(rng, depth-1))
	case 4:
		return fmt.Sprintf("(%s || %s)", x(), x())
	case 5:
		return fmt.Sprintf("replace(%s, 'b', '1')", x())
	case 6:
		return fmt.Sprintf("(%s || %s)", x(), foldInt(rng, depth-1)) // textanycat: stable
	case 7:
		return fmt.Sprintf("%s(%s)", p("concat", "format"), x()) // stable
	case 8:
		return fmt.Sprintf("('{\"a\":\"7\",\"b\":\"x\"}'::%s ->> %s)", p("jsonb", "json"), p("'a'", "'b'", "'c'", x()))
	case 9:
		return fmt.Sprintf("(('[\"%s\"]'::jsonb #>> '{0}'))", p("b", "9", "x"))
	case 10:
		return fmt.Sprintf("repeat(%s, %s)", x(), p("2", "0", "-1"))
	case 11:
		return fmt.Sprintf("lpad(%s, 3, '0')", x())
	case 12:
		return fmt.Sprintf("to_char(%s, '9')", foldInt(rng, depth-1)) // stable
	case 13:
		return fmt.Sprintf("(%s)::text", p(foldInt(rng, depth-1), "NULL::date", "DATE '2020-01-01'", "'{\"a\": 1}'::jsonb", "NULL::timestamptz"))
	case 14:
		return fmt.Sprintf("COALESCE(%s, %s)", x(), x())
	case 15:
		return fmt.Sprintf("CASE WHEN %s THEN %s ELSE %s END", foldBool(rng, depth-1), x(), x())
	case 16:
		return fmt.Sprintf("NULLIF(%s, %s)", x(), x())
	}
	return fmt.Sprintf("regexp_replace(%s, %s, 'z')", x(), p("'b'", "'('", "'[a-'"))
}

// foldInt is an integer (or float) expression, constant or not.
func foldInt(rng *rand.Rand, depth int) string {
	p := pickFrom(rng)
	if depth <= 0 || rng.Intn(3) == 0 {
		return p("0", "1", "7", "-2147483648", "2147483647", "NULL::int", "fc.id")
	}
	x := func() string { return foldInt(rng, depth-1) }
	switch rng.Intn(14) {
	case 0, 1:
		return fmt.Sprintf("(%s)::int", foldText(rng, depth-1))
	case 2:
		return fmt.Sprintf("(%s %s %s)", x(), p("/", "%", "+", "*", "-"), x())
	case 3:
		return fmt.Sprintf("length(%s)", foldText(rng, depth-1))
	case 4:
		return fmt.Sprintf("(@ %s)", x())
	case 5:
		return fmt.Sprintf("(|/ (%s)::float8)::int", x())
	case 6:
		return fmt.Sprintf("(%s # %s)", x(), x())
	case 7:
		return fmt.Sprintf("(~ %s)", x())
	case 8:
		return fmt.Sprintf("abs(%s)", x())
	case 9:
		return fmt.Sprintf("strpos(%s, 'b')", foldText(rng, depth-1))
	case 10:
		return fmt.Sprintf("('255.255.255.%s'::inet - '0.0.0.0'::inet + %s)::int", p("1", "255"), x())
	case 11:
		if rng.Intn(2) == 0 {
			// jsonb || jsonb (jsonb_concat) and jsonb::int (jsonb_int4)
			return fmt.Sprintf("((%s)::jsonb %s)::int", p("'7'", "'\"7\"'", "'1.5'", foldText(rng, depth-1)), p("", "|| '[1]'::jsonb", "-> 0"))
		}
		return fmt.Sprintf("GREATEST(%s, %s)", x(), x())
	case 12:
		return fmt.Sprintf("CASE WHEN %s THEN %s END", foldBool(rng, depth-1), x())
	}
	return fmt.Sprintf("COALESCE(%s, %s)", x(), x())
}

// foldBool is a boolean expression, constant or not.
func foldBool(rng *rand.Rand, depth int) string {
	p := pickFrom(rng)
	if depth <= 0 || rng.Intn(4) == 0 {
		return p("true", "false", "NULL::bool", "fc.id > 0")
	}
	t := func() string { return foldText(rng, depth-1) }
	switch rng.Intn(10) {
	case 0:
		return fmt.Sprintf("(%s %s %s)", t(), p("~", "~*", "!~"), p("'b'", "'('", t()))
	case 1:
		return fmt.Sprintf("(%s %s %s)", t(), p("ILIKE", "LIKE", "NOT ILIKE"), p("'b%'", "'a\\'", t()))
	case 2:
		return fmt.Sprintf("(%s %s %s)", t(), p("^@", "~<~", "~>=~"), t())
	case 3:
		return fmt.Sprintf("(%s = ANY (ARRAY[%s, %s]))", foldInt(rng, depth-1), foldInt(rng, depth-1), foldInt(rng, depth-1))
	case 4:
		return fmt.Sprintf("(%s %s ALL (ARRAY[%s]))", t(), p("=", "<>", "<"), t())
	case 5:
		return fmt.Sprintf("(%s IS NULL)", t())
	case 6:
		return fmt.Sprintf("(%s %s %s)", foldBool(rng, depth-1), p("AND", "OR"), foldBool(rng, depth-1))
	case 7:
		return fmt.Sprintf("(NOT %s)", foldBool(rng, depth-1))
	case 8:
		return fmt.Sprintf("(%s SIMILAR TO %s)", t(), p("'b'", "'('"))
	}
	return fmt.Sprintf("(%s < %s)", foldInt(rng, depth-1), foldInt(rng, depth-1))
}

// foldAny is a text, integer or boolean expression, constant or not.
func foldAny(rng *rand.Rand, depth int) string {
	switch rng.Intn(3) {
	case 0:
		return foldText(rng, depth)
	case 1:
		return foldInt(rng, depth)
	}
	return foldBool(rng, depth)
}

// TestFoldNestedDifferential: see above.
func TestFoldNestedDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, q := range []string{"CREATE TABLE fc (id int PRIMARY KEY, t text)", "INSERT INTO fc VALUES (1, 'b')", "CREATE TABLE fc0 (id int PRIMARY KEY, t text)"} {
		if sg, pg := r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q); sg.Err != nil || pg.Err != nil {
			t.Fatalf("%s: %v / %v", q, sg.Err, pg.Err)
		}
	}
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 61469))))
	n := envInt(t, "SQLGATE_DIFF_FOLDNESTED_QUERIES", 200)
	stats := map[string]int{}
	for i := 0; i < n; i++ {
		e := foldAny(rng, 3)
		for _, shape := range []string{"SELECT %s AS c FROM fc WHERE false", "SELECT %s AS c FROM fc0 fc", "SELECT %s AS c FROM fc"} {
			tallyBy(t, ctx, r, fmt.Sprintf(shape, e), stats, tallyRule{codeOnly: true})
		}
	}
	t.Logf("%d expressions: %v", n, stats)
	if stats["refused alike"] < n/10 || stats["same"] < n/2 {
		t.Errorf("outcomes: %v (too few of a kind: the generator no longer covers both)", stats)
	}
}
