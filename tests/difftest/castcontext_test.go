package difftest

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// castContextTypes are the pg_type names of the built-in scalar types
// sqlgate has (binder's pgTypeNames), the types whose every pair
// TestCastContextDifferential walks.
var castContextTypes = []string{
	"bool", "bytea", "char", "name", "int2", "int4", "int8", "float4", "float8", "numeric", "text",
	"varchar", "bpchar", "oid", "json", "jsonb", "jsonpath", "uuid", "inet", "cidr", "macaddr",
	"macaddr8", "money", "date", "time", "timetz", "timestamp", "timestamptz", "interval", "bit",
	"varbit", "xid", "pg_lsn", "tsvector", "tsquery", "regclass", "regtype", "regproc", "regprocedure",
	"regnamespace", "regrole", "regconfig", "regoper", "regoperator", "int4range", "int8range", "numrange", "daterange",
	"tsrange", "tstzrange",
}

// castContextGap are the pairs whose context sqlgate still answers
// otherwise than PostgreSQL, each with its reason; the test fails when
// one of them comes to agree (take it out then) as when another differs.
var castContextGap = map[string]string{}

// castContextNames are the contexts in the order they widen: a cast
// allowed implicitly is allowed in an assignment and explicitly too.
var castContextNames = map[byte]string{'i': "implicit", 'a': "assignment", 'e': "explicit", '-': "none"}

// TestCastContextDifferential walks PostgreSQL 15's casts between every
// two of castContextTypes: pg_cast's row (its castcontext), else the
// automatic I/O conversion (to a type of the string category in an
// assignment, from one explicitly), else none. Each pair is probed on
// both systems the same three ways: a call of a function taking only the
// target type (an implicit conversion), an INSERT into a column of the
// target type (an assignment) and a CAST: the widest that succeeds is
// the system's context for the pair. PostgreSQL's must be pg_cast's (the
// probes are right), sqlgate's PostgreSQL's.
func TestCastContextDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	expected := castContextsOf(t, ctx, r)
	// a function of each type (LANGUAGE python on sqlgate, which EXPLAIN
	// binds without running it) and a table with a column of each type
	// sqlgate can store: an assignment to the others has no place there,
	// so their probes tell only implicit from explicit
	stored := map[int]bool{}
	for i, name := range castContextTypes {
		tn := quoteTypeName(name)
		for sys, e := range map[string]Executor{"sqlgate": r.SQLGate, "postgres": r.Postgres} {
			lang := "sql AS 'SELECT 1'"
			if sys == "sqlgate" {
				lang = "python AS 'return 1'"
			}
			if o := e.Run(ctx, fmt.Sprintf(`CREATE FUNCTION cc_f%d(x %s) RETURNS int LANGUAGE %s`, i, tn, lang)); o.Err != nil {
				t.Fatalf("%s: function of %s: %s", sys, name, o.Err.Message)
			}
		}
		if o := r.SQLGate.Run(ctx, fmt.Sprintf(`CREATE TABLE cc_t%d (c %s)`, i, tn)); o.Err != nil {
			if o.Err.Code != "0A000" {
				t.Fatalf("sqlgate: table of %s: %s", name, o.Err.Message)
			}
			continue
		}
		if o := r.Postgres.Run(ctx, fmt.Sprintf(`CREATE TABLE cc_t%d (c %s)`, i, tn)); o.Err != nil {
			t.Fatalf("postgres: table of %s: %s", name, o.Err.Message)
		}
		stored[i] = true
	}
	probe := func(e Executor, from string, to int) byte {
		v := "NULL::" + quoteTypeName(from)
		if o := e.Run(ctx, fmt.Sprintf("EXPLAIN SELECT cc_f%d(%s)", to, v)); o.Err == nil {
			return 'i'
		}
		if stored[to] {
			if o := e.Run(ctx, fmt.Sprintf("EXPLAIN INSERT INTO cc_t%d SELECT %s", to, v)); o.Err == nil {
				return 'a'
			}
		}
		if o := e.Run(ctx, fmt.Sprintf("SELECT CAST(%s AS %s)", v, quoteTypeName(castContextTypes[to]))); o.Err == nil {
			return 'e'
		}
		return '-'
	}
	counts := map[string]int{}
	var diffs []string
	for _, from := range castContextTypes {
		for j, to := range castContextTypes {
			if from == to {
				continue
			}
			pair := from + " -> " + to
			want := expected[pair]
			if want == 'a' && !stored[j] {
				want = 'e' // no assignment to tell apart
			}
			if pg := probe(r.Postgres, from, j); pg != want {
				t.Errorf("%s: PostgreSQL's probes find %s, its pg_cast %s", pair, castContextNames[pg], castContextNames[want])
				continue
			}
			counts[castContextNames[want]]++
			sg := probe(r.SQLGate, from, j)
			reason, left := castContextGap[pair]
			switch {
			case sg != want && !left:
				diffs = append(diffs, fmt.Sprintf("%s: PostgreSQL %s, sqlgate %s", pair, castContextNames[want], castContextNames[sg]))
			case sg == want && left:
				t.Errorf("%s agrees now (%s): take it out of castContextGap", pair, reason)
			}
		}
	}
	sort.Strings(diffs)
	for _, d := range diffs {
		t.Error(d)
	}
	t.Logf("%d types (%d stored), pairs by PostgreSQL's context: %v; %d differ, %d left", len(castContextTypes), len(stored), counts, len(diffs), len(castContextGap))
}

// castContextsOf is PostgreSQL's context of the cast between each two of
// castContextTypes ("from -> to"): pg_cast's castcontext, else the I/O
// conversion to the string category (assignment) or from it (explicit),
// else none ('-').
func castContextsOf(t *testing.T, ctx context.Context, r *Runner) map[string]byte {
	t.Helper()
	list := "'" + strings.Join(castContextTypes, "','") + "'"
	q := `SELECT s.typname, d.typname, coalesce(c.castcontext::text,
	        CASE WHEN d.typcategory = 'S' THEN 'a' WHEN s.typcategory = 'S' THEN 'e' ELSE '-' END)
	      FROM pg_type s CROSS JOIN pg_type d
	      LEFT JOIN pg_cast c ON c.castsource = s.oid AND c.casttarget = d.oid
	      WHERE s.typnamespace = 'pg_catalog'::regnamespace AND d.typnamespace = 'pg_catalog'::regnamespace
	        AND s.typname IN (` + list + `) AND d.typname IN (` + list + `) AND s.oid <> d.oid`
	o := r.Postgres.Run(ctx, q)
	if o.Err != nil {
		t.Fatalf("pg_cast: %s", o.Err.Message)
	}
	out := map[string]byte{}
	for _, row := range o.Rows {
		out[row[0].Text+" -> "+row[1].Text] = row[2].Text[0]
	}
	if n := len(castContextTypes); len(out) != n*(n-1) {
		t.Fatalf("pg_cast: %d pairs of %d types", len(out), n)
	}
	return out
}

// quoteTypeName is a pg_type name as a type name in SQL: "char" quoted
// (char unquoted is character(1)).
func quoteTypeName(name string) string {
	if name == "char" {
		return `"char"`
	}
	return name
}
