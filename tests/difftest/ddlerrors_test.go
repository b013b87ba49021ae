package difftest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestDDLErrorsDifferential (SQLGATE_DIFF_DDL_STATEMENTS, default 400)
// draws DDL statements and their error cases and runs each in a
// transaction rolled back after it, on sqlgate and PostgreSQL 15: the
// SQLSTATE, message and position of an error, and the notices, must be
// PostgreSQL's. The classes: CREATE [UNIQUE] INDEX with elements and a
// WHERE predicate of every kind transformIndexStmt and DefineIndex refuse
// (missing columns, subqueries, aggregates, window and set-returning
// calls, parameters, functions not IMMUTABLE, a predicate not boolean) in
// every order; DROP ... IF EXISTS and ALTER ... IF EXISTS of missing
// objects named bare, schema-qualified and in a missing schema (the
// notice's text); DROP PROCEDURE / ROUTINE / AGGREGATE / TRIGGER /
// POLICY / RULE [IF EXISTS] of objects sqlgate has none of, or of a
// function of another kind (dropAbsent); DROP FUNCTION [IF EXISTS] with argument types of every
// spelling; reg* literals and nextval('...') of missing relations, types
// and schemas, placed anywhere in a select list (the error's position);
// a type moved out of the search path by ALTER TYPE ... SET SCHEMA, in
// casts and CREATE TABLE (the error points at the type's name). A
// CREATE INDEX that succeeds is compared by its tag alone: sqlgate keeps
// no secondary index and says so in a NOTICE of its own; a unique index
// on expressions or with WHERE that PostgreSQL builds and sqlgate refuses
// (0A000, not implemented) is counted apart.
func TestDDLErrorsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	runOnBoth(t, ctx, r,
		"CREATE TABLE dt (id int PRIMARY KEY, a int, b text, ts timestamptz, \"Mixed\" int)",
		"CREATE SCHEMA ds",
		"CREATE SEQUENCE dseq",
		"CREATE TYPE dmood AS ENUM ('x', 'y')",
		"CREATE TYPE dmoved AS ENUM ('p', 'q')",
		"ALTER TYPE dmoved SET SCHEMA ds",
		"CREATE VIEW dview AS SELECT 1 AS one",
		"CREATE FUNCTION dfn(x int) RETURNS int LANGUAGE sql AS 'SELECT x'",
	)
	sg := noticeConn(t, ctx, r.SQLGate.(*Session).connString)
	pg := noticeConn(t, ctx, r.Postgres.(*Session).connString)
	rng := seededRand(t, 43)
	n := envInt(t, "SQLGATE_DIFF_DDL_STATEMENTS", 400)
	differed, refused := 0, 0
	for range n {
		stmt, index := ddlErrorStatement(rng)
		var outs [2]string
		for i, c := range []*noticeSession{sg, pg} {
			c.run(ctx, "BEGIN")
			outs[i] = ddlOutcome(t, ctx, c, stmt, index)
			c.run(ctx, "ROLLBACK")
			// (sqlgate's CREATE TABLE is not undone by ROLLBACK)
			c.run(ctx, "DROP TABLE IF EXISTS dty")
			c.run(ctx, "DROP INDEX IF EXISTS dix")
		}
		if index && strings.HasPrefix(outs[0], "ERROR 0A000 ") && !strings.HasPrefix(outs[1], "ERROR ") {
			refused++ // a unique index sqlgate does not build (expressions, WHERE)
			continue
		}
		if outs[0] != outs[1] {
			differed++
			if differed <= 12 {
				t.Errorf("%s\nsqlgate:    %s\npostgresql: %s", stmt, outs[0], outs[1])
			}
		}
	}
	t.Logf("%d of %d statements were unique indexes sqlgate refuses (0A000) where PostgreSQL builds them", refused, n)
	if differed > 0 {
		t.Errorf("%d of %d statements differed", differed, n)
	}
}

// ddlOutcome runs stmt on c: the command tag or the error's SQLSTATE,
// message and position, then the notices (those of a CREATE INDEX that
// succeeded are left out, see the test).
func ddlOutcome(t *testing.T, ctx context.Context, c *noticeSession, stmt string, index bool) string {
	t.Helper()
	c.notices = c.notices[:0]
	qctx, cancel := context.WithTimeout(ctx, queryTimeout)
	defer cancel()
	results, err := c.conn.Exec(qctx, stmt).ReadAll()
	var out []string
	if err != nil {
		var pe *pgconn.PgError
		if !errors.As(err, &pe) {
			t.Fatalf("%s: %v", stmt, err)
		}
		out = append(out, fmt.Sprintf("ERROR %s %s at %d", pe.Code, pe.Message, pe.Position))
	} else if len(results) > 0 {
		out = append(out, results[len(results)-1].CommandTag.String())
		if index {
			return strings.Join(out, "; ")
		}
	}
	out = append(out, c.notices...)
	return strings.Join(out, "; ")
}

// ddlErrorStatement draws one statement; index says it is a CREATE INDEX.
func ddlErrorStatement(rng *rand.Rand) (stmt string, index bool) {
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	switch rng.IntN(7) {
	case 0, 1:
		return indexStatement(rng, pick), true
	case 2:
		return dropIfExists(rng, pick), false
	case 3:
		return dropFunction(rng, pick), false
	case 6:
		return dropAbsent(rng, pick), false
	case 4:
		// a reg* literal or a sequence function's name, after a select
		// list of random length (the position moves)
		lead := strings.Repeat("1, ", rng.IntN(3))
		name := pick("nope", "public.nope", "nosch.nope", `"Nope"`, "dt", "dseq", "ds.nope")
		return "SELECT " + lead + pick(
			"'"+name+"'::regclass",
			"CAST('"+name+"' AS regclass)",
			"regclass '"+name+"'",
			"nextval('"+name+"')",
			"currval('"+name+"')",
			"setval('"+name+"', 1)",
			// (dmoved is in ds, off the search path: not found bare)
			"'"+pick("nope", "dmood", "ds.dmoved", "dmoved", "dmoved[]", "nosch.x", "int4")+"'::regtype",
			"'"+pick("dmood", "ds.dmoved", "public.dmood", "_dmood")+"'::regtype::text",
			"'"+pick("nope", "ds", "public")+"'::regnamespace",
		), false
	}
	// a type moved out of the search path, named bare and qualified
	// (DROP TYPE only of names that find no type: the statements run in
	// a rolled-back transaction, and sqlgate's DROP TYPE is not undone)
	ty := pick("dmoved", "ds.dmoved", "dmood", "public.dmood", "nosch.dmood", "ds.dmood")
	missing := pick("dmoved", "nosch.dmood", "ds.dmood", "public.dmoved")
	return pick(
		"SELECT 'p'::"+ty,
		"SELECT 1 FROM dt WHERE 'p'::"+ty+" IS NULL",
		"CREATE TABLE dty (c "+ty+")",
		"DROP TYPE "+missing,
		"DROP TYPE IF EXISTS "+missing,
	), false
}

// indexStatement draws a CREATE [UNIQUE] INDEX over dt with one to three
// elements, an optional INCLUDE list and an optional WHERE predicate.
func indexStatement(rng *rand.Rand, pick func(...string) string) string {
	elem := func() string {
		return pick("a", "b", "nope", `"Mixed"`, "mixed", "a DESC", "b NULLS FIRST",
			"(a + 1)", "lower(b)", "upper(nope)", "(a::text)", "(ts::text)", "(b || now())",
			"(random())", "(now())", "(sum(a))", "sum(a)", "(row_number() OVER ())", "((SELECT 1))",
			"(generate_series(1, a))", "(nope)", "(a + $1)", "(coalesce(a, 1))", "((a))", "(CASE WHEN a > 0 THEN random() END)",
			"(a > (SELECT 1))", "(sum(nope))", "(nope + sum(a))", "(lower(b) || 'x')")
	}
	pred := func() string {
		return pick("a > 1", "random() > 0.5", "sum(a) > 1", "nope > 1", "a", "a IN (SELECT 1)",
			"EXISTS (SELECT 1)", "generate_series(1, 2) > 1", "ts > now()", "b = 'x'", "nope > (SELECT 1)",
			"(SELECT true) AND nope", "a > $1", "a > 1 AND b IS NOT NULL", "row_number() OVER () > 1", "sum(nope) > 1")
	}
	var b strings.Builder
	b.WriteString("CREATE ")
	if rng.IntN(4) == 0 {
		// named: the test drops it after (sqlgate keeps a unique index
		// the transaction's ROLLBACK does not undo)
		b.WriteString("UNIQUE INDEX dix ")
	} else {
		b.WriteString("INDEX ")
		if rng.IntN(2) == 0 {
			b.WriteString("dix ")
		}
	}
	b.WriteString("ON dt (")
	elems := 1 + rng.IntN(3)
	if strings.HasPrefix(b.String(), "CREATE UNIQUE") {
		// one element: sqlgate keeps a unique index as a unique
		// constraint, which refuses a column twice (PostgreSQL's index
		// takes it)
		elems = 1
	}
	for i := range elems {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(elem())
	}
	b.WriteString(")")
	if rng.IntN(5) == 0 {
		b.WriteString(" INCLUDE (" + pick("b", "nope", "ts") + ")")
	}
	if rng.IntN(2) == 0 {
		b.WriteString(" WHERE " + pred())
	}
	return b.String()
}

// dropIfExists draws DROP ... IF EXISTS (or ALTER ... IF EXISTS, or
// without IF EXISTS) of objects that do not exist.
func dropIfExists(rng *rand.Rand, pick func(...string) string) string {
	name := func() string { return pick("nosuch", "public.nosuch", "nosch.nosuch", "ds.nosuch") }
	names := name()
	if rng.IntN(3) == 0 {
		names += ", " + name()
	}
	switch rng.IntN(3) {
	case 0:
		return "DROP " + pick("TABLE", "VIEW", "SEQUENCE", "INDEX", "MATERIALIZED VIEW", "TYPE", "DOMAIN") + " IF EXISTS " + names
	case 1:
		return "ALTER " + pick("TABLE", "SEQUENCE", "VIEW", "INDEX") + " IF EXISTS " + name() + " " +
			pick("RENAME TO x", "OWNER TO CURRENT_USER")
	}
	if rng.IntN(2) == 0 {
		return pick("ALTER SEQUENCE ", "ALTER TABLE ", "ALTER VIEW ") + name() + " OWNER TO CURRENT_USER"
	}
	return pick("DROP TYPE ", "DROP DOMAIN ", "DROP TABLE ", "DROP SEQUENCE ", "DROP VIEW ") + name()
}

// dropAbsent draws DROP [IF EXISTS] of the objects sqlgate has none of
// (procedures, user aggregates, triggers, policies, rules), or of a
// routine that is a function of another kind (dfn(int), lower(text),
// sum(int)): named bare, qualified, in a missing schema, on relations
// that exist, do not, or are views and sequences.
func dropAbsent(rng *rand.Rand, pick func(...string) string) string {
	ifExists := pick("", "IF EXISTS ")
	switch rng.IntN(2) {
	case 0:
		kind := pick("PROCEDURE", "ROUTINE", "AGGREGATE")
		name := pick("nop", "public.nop", "nosch.nop", "ds.nop", "dfn", "lower", "sum", "pg_catalog.sum", "count")
		if kind == "ROUTINE" && name == "dfn" {
			name = "nop" // it would drop the function, which sqlgate's ROLLBACK does not bring back
		}
		args := pick("(int)", "(integer)", "(text)", "(int, text)", "()", "(nosuchtype)", "(dmood)", "(bigint)", "(varchar(3))")
		switch {
		case kind == "AGGREGATE":
			args = pick(args, "(*)")
		case strings.HasSuffix(name, "nop"):
			args = pick(args, "") // (a built-in's name alone has several overloads)
		}
		return "DROP " + kind + " " + ifExists + name + args + pick("", " CASCADE", " RESTRICT")
	}
	kind := pick("TRIGGER", "POLICY", "RULE")
	return "DROP " + kind + " " + ifExists + pick("tr", `"Tr"`, "_RETURN") + " ON " +
		pick("dt", "public.dt", "nosuch", "public.nosuch", "nosch.dt", "ds.nosuch", "dseq", "dview") + pick("", " CASCADE")
}

// dropFunction draws DROP FUNCTION [IF EXISTS] of a function that does not
// exist, with argument types of every spelling.
func dropFunction(rng *rand.Rand, pick func(...string) string) string {
	typ := func() string {
		return pick("int", "integer", "int4", `"int4"`, "bigint", "smallint", "real", "float", "float(10)", "float(30)",
			"double precision", "numeric(5,2)", "decimal", "boolean", "bool", "text", "varchar(3)", "character varying",
			"char", "char(4)", "timestamp", "timestamp with time zone", "time", "time with time zone", "interval",
			"bit(3)", "bit varying", "json", "int[]", "text[][]", "int ARRAY", "pg_catalog.int4", "dmood")
	}
	var b strings.Builder
	b.WriteString("DROP FUNCTION ")
	if rng.IntN(4) > 0 {
		b.WriteString("IF EXISTS ")
	}
	b.WriteString(pick("nofn", "public.nofn", "nosch.nofn"))
	if rng.IntN(5) > 0 {
		b.WriteString("(")
		for i := range rng.IntN(4) {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(typ())
		}
		b.WriteString(")")
	}
	return b.String()
}
