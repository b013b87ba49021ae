package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestCatalogExprDifferential creates SQLGATE_DIFF_EXPRTABLES (default 8)
// tables of random column types on sqlgate and PostgreSQL 15, gives their
// columns random DEFAULTs and adds random CHECK constraints (comparisons
// with literals of every type, arithmetic, casts, functions, IN lists,
// BETWEEN, LIKE, IS [NOT] NULL, CASE, IS DISTINCT FROM, nested AND / OR
// / NOT), one statement each, and compares what the catalog prints for
// each one that both systems made: pg_get_constraintdef(oid [, true]),
// pg_get_expr(adbin, adrelid [, true]) and information_schema.columns'
// column_default. Differences are tallied by the generator's rule; the
// rules in claimedDeparseRules allow none.
func TestCatalogExprDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_EXPRTABLES", 8)
	seed := diffSeed(t, 1)
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewPCG(uint64(seed), 36))
	stats := map[string]int{} // rule: outcome
	var unclaimed []string
	compare := func(rule, stmt string, queries ...string) {
		sg, pg := r.SQLGate.Run(ctx, stmt), r.Postgres.Run(ctx, stmt)
		switch {
		case sg.Err != nil && pg.Err != nil:
			stats[rule+": both refused"]++
			return
		case sg.Err != nil || pg.Err != nil:
			// which statements sqlgate accepts is other tests' matter
			stats[rule+": accepted differently"]++
			t.Logf("accepted differently: %s\n  sqlgate: %v\n  PostgreSQL: %v", stmt, sg.Err, pg.Err)
			return
		}
		for _, q := range queries {
			kind, why := verdict(r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q), tallyRule{ordered: true})
			stats[rule+": "+kind]++
			if kind != "different" {
				continue
			}
			if slices.Contains(claimedDeparseRules, rule) {
				t.Errorf("%s\n%s\n%s", stmt, q, why)
			} else {
				unclaimed = append(unclaimed, stmt+"\n"+why)
			}
		}
	}
	for k := range n {
		g := &exprTable{rng: rng, name: fmt.Sprintf("dp%d", k)}
		create := g.create()
		if kind, why := verdict(r.SQLGate.Run(ctx, create), r.Postgres.Run(ctx, create), tallyRule{}); kind != "same" {
			t.Fatalf("%s: %s", create, why)
		}
		for i, c := range g.cols {
			d := g.defaultOf(c)
			stmt := fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s SET DEFAULT %s", g.name, c.name, d)
			rule := "default"
			if d == "NULL" {
				rule = "default null" // kept where the type has a modifier (NULL::numeric), as PostgreSQL keeps it
			}
			compare(rule, stmt,
				fmt.Sprintf("SELECT pg_get_expr(adbin, adrelid), pg_get_expr(adbin, adrelid, true) FROM pg_attrdef WHERE adrelid = '%s'::regclass AND adnum = %d", g.name, i+1),
				fmt.Sprintf("SELECT column_default FROM information_schema.columns WHERE table_name = '%s' AND column_name = '%s'", g.name, c.name))
		}
		for j := range 25 {
			rule, expr := g.check(2)
			name := fmt.Sprintf("%s_c%d", g.name, j)
			compare(rule, fmt.Sprintf("ALTER TABLE %s ADD CONSTRAINT %s CHECK (%s)", g.name, name, expr),
				fmt.Sprintf("SELECT pg_get_constraintdef(oid), pg_get_constraintdef(oid, true) FROM pg_constraint WHERE conname = '%s'", name))
		}
	}
	// the forms beyond the random tables' columns: enums, domains,
	// arrays, subscripts, SET DEFAULT NULL on a column with a modifier
	for _, stmt := range []string{"CREATE TYPE dpmood AS ENUM ('sad', 'ok', 'happy')", "CREATE DOMAIN dpint AS int CHECK (VALUE > 0)",
		"CREATE DOMAIN dpcode AS varchar(5)", "CREATE DOMAIN dpflag AS boolean",
		"CREATE TABLE dpg (i int, t text, v varchar(5), n numeric(8,2), m dpmood, a int[], b text[], ts timestamp(3), dp dpint, dc dpcode, df dpflag)"} {
		if kind, why := verdict(r.SQLGate.Run(ctx, stmt), r.Postgres.Run(ctx, stmt), tallyRule{}); kind != "same" {
			t.Fatalf("%s: %s", stmt, why)
		}
	}
	for i, c := range []string{"m <> 'sad'", "m IN ('ok', 'happy')", "m > 'sad' OR m IS NULL", "a <> '{}'", "a = '{1,2,NULL}'", "b <> '{\"a b\",c}'",
		"a[1] > 0", "a <> ARRAY[1, 2]", "b[2] <> 'x'", "i BETWEEN SYMMETRIC 5 AND 1", "i NOT BETWEEN SYMMETRIC 1 AND 5",
		"t LIKE 'a!%' ESCAPE '!'", "v NOT ILIKE 'q#_' ESCAPE '#'", "t SIMILAR TO 'a%'", "v NOT SIMILAR TO 'b%' ESCAPE '#'",
		"dp < 100", "dp IN (1, 2)", "coalesce(dp, 0) < 9", "dp + i > 2", "dc <> 'x'", "dc IN ('a', 'b')", "df", "df OR dp IS NULL", "upper(dc) <> dc"} {
		name := fmt.Sprintf("dpg_c%d", i)
		compare("gaps", fmt.Sprintf("ALTER TABLE dpg ADD CONSTRAINT %s CHECK (%s)", name, c),
			fmt.Sprintf("SELECT pg_get_constraintdef(oid), pg_get_constraintdef(oid, true) FROM pg_constraint WHERE conname = '%s'", name))
	}
	for _, d := range [][2]string{{"m", "'ok'"}, {"a", "'{1,2}'"}, {"b", "ARRAY['x', 'y']"}, {"n", "NULL"}, {"v", "NULL"}, {"ts", "NULL"}, {"t", "NULL"}, {"i", "NULL"}, {"dp", "5"}, {"dc", "'ab'"}, {"df", "true"}} {
		compare("gaps", fmt.Sprintf("ALTER TABLE dpg ALTER COLUMN %s SET DEFAULT %s", d[0], d[1]),
			fmt.Sprintf("SELECT a.attname, pg_get_expr(adbin, adrelid), pg_get_expr(adbin, adrelid, true) FROM pg_attribute a LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum WHERE attrelid = 'dpg'::regclass AND attname = '%s'", d[0]),
			fmt.Sprintf("SELECT column_default FROM information_schema.columns WHERE table_name = 'dpg' AND column_name = '%s'", d[0]))
	}
	// DEFAULT NULL (and NULL::type) as PostgreSQL keeps it: under a
	// modifier's coercion (bit(3)), a domain's (dpint), none for an
	// array of modifiers' elements shown without them, none for a bare
	// time (sqlgate's TIME(0))
	if kind, why := verdict(r.SQLGate.Run(ctx, "CREATE TABLE dpn (a varchar(5)[], t time, t3 time(3), bt bit(3), d dpint, e numeric(5,2)[], c char(2))"),
		r.Postgres.Run(ctx, "CREATE TABLE dpn (a varchar(5)[], t time, t3 time(3), bt bit(3), d dpint, e numeric(5,2)[], c char(2))"), tallyRule{}); kind != "same" {
		t.Fatalf("CREATE TABLE dpn: %s", why)
	}
	for _, d := range [][2]string{{"a", "NULL"}, {"t", "NULL"}, {"t3", "NULL"}, {"bt", "NULL"}, {"d", "NULL"}, {"e", "NULL"}, {"c", "NULL::text"},
		{"a", "'{ab}'"}, {"t", "NULL::time"}, {"e", "ARRAY[1.5, 2]"}} {
		compare("default null", fmt.Sprintf("ALTER TABLE dpn ALTER COLUMN %s SET DEFAULT %s", d[0], d[1]),
			fmt.Sprintf("SELECT a.attname, pg_get_expr(adbin, adrelid) FROM pg_attribute a LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum WHERE attrelid = 'dpn'::regclass AND attname = '%s'", d[0]),
			fmt.Sprintf("SELECT column_default FROM information_schema.columns WHERE table_name = 'dpn' AND column_name = '%s'", d[0]))
	}
	keys := make([]string, 0, len(stats))
	for k := range stats {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var sb strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&sb, "\n  %-40s %d", k, stats[k])
	}
	t.Logf("%d tables (seed %d):%s", n, seed, sb.String())
	for _, u := range unclaimed {
		t.Logf("unclaimed rule differs: %s", u)
	}
	same := 0
	for k, v := range stats {
		if strings.HasSuffix(k, ": same") {
			same += v
		}
	}
	if same < n*15 {
		t.Errorf("too few expressions were made on both systems: %v", stats)
	}
}

// claimedDeparseRules are the generator's rules whose catalog text must
// be PostgreSQL's.
var claimedDeparseRules = []string{"default", "default null", "compare", "arith", "in", "between", "like", "null", "bool", "cast", "func", "case", "distinct", "misc", "gaps"}

// exprCol is a column of an exprTable.
type exprCol struct{ name, typ string }

// exprTable generates one table of random column types and the DEFAULTs
// and CHECKs over it.
type exprTable struct {
	rng  *rand.Rand
	name string
	cols []exprCol
}

var exprColTypes = []string{"smallint", "integer", "bigint", "numeric", "numeric(10,2)", "real", "double precision",
	"text", "varchar(20)", "char(5)", "boolean", "date", "timestamp", "timestamptz", "time"}

func (g *exprTable) create() string {
	n := 4 + g.rng.IntN(4)
	var defs []string
	for i := range n {
		c := exprCol{name: fmt.Sprintf("c%d", i), typ: exprColTypes[g.rng.IntN(len(exprColTypes))]}
		g.cols = append(g.cols, c)
		defs = append(defs, c.name+" "+c.typ)
	}
	return fmt.Sprintf("CREATE TABLE %s (%s)", g.name, strings.Join(defs, ", "))
}

func (g *exprTable) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }

func (g *exprTable) col() exprCol { return g.cols[g.rng.IntN(len(g.cols))] }

// colOf is a column of a type family ("num", "str", "time", "bool"), ok
// false when the table has none.
func (g *exprTable) colOf(family string) (exprCol, bool) {
	var out []exprCol
	for _, c := range g.cols {
		if typeFamily(c.typ) == family {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return exprCol{}, false
	}
	return out[g.rng.IntN(len(out))], true
}

func typeFamily(t string) string {
	switch {
	case strings.HasPrefix(t, "numeric"), t == "smallint", t == "integer", t == "bigint", t == "real", t == "double precision":
		return "num"
	case t == "text", strings.HasPrefix(t, "varchar"), strings.HasPrefix(t, "char"):
		return "str"
	case t == "boolean":
		return "bool"
	}
	return "time"
}

// literal is a literal a value of type typ compares with: bare numbers
// (negative, decimal, exponent, beyond int4), quoted strings, typed
// literals.
func (g *exprTable) literal(typ string) string {
	switch typeFamily(typ) {
	case "num":
		return g.pick("0", "5", "100", "-3", "1.5", "-2.25", "'7'", "1e3", "10000000000", "2.50")
	case "str":
		return g.pick("'ab'", "''", "'x''y'", "'abc'", "'a b'")
	case "bool":
		return g.pick("true", "false", "'t'")
	}
	switch typ {
	case "date":
		return g.pick("'2024-01-15'", "DATE '2023-12-31'", "'2024-02-29'::date")
	case "timestamp":
		return g.pick("'2024-01-15 10:30:00'", "'2024-01-15'", "TIMESTAMP '2020-05-05 01:02:03.5'")
	case "timestamptz":
		return g.pick("'2024-01-15 10:30:00+00'", "'2024-01-15'")
	case "interval":
		return g.pick("'1 day'", "'2 hours'", "'1 mon 3 days'")
	}
	return g.pick("'12:00'", "'08:30:15'")
}

func (g *exprTable) defaultOf(c exprCol) string {
	switch g.rng.IntN(4) {
	case 0:
		return g.literal(c.typ)
	case 1:
		switch typeFamily(c.typ) {
		case "num":
			return g.pick("(1 + 2)", "2 * 3", "-5", "abs(-4)", "'12'", "0")
		case "str":
			return g.pick("'x' || 'y'", "lower('ABC')", "'abc'::text", "upper('q')")
		case "bool":
			return g.pick("1 < 2", "NOT true", "true")
		}
		switch c.typ {
		case "date":
			return g.pick("CURRENT_DATE", "now()::date")
		case "timestamp":
			return g.pick("LOCALTIMESTAMP", "now()", "CURRENT_TIMESTAMP")
		case "timestamptz":
			return g.pick("now()", "CURRENT_TIMESTAMP", "statement_timestamp()")
		case "time":
			return g.pick("LOCALTIME", "'10:00'::time")
		}
		return "'1 hour'::interval"
	case 2:
		return "NULL"
	}
	return g.literal(c.typ)
}

// check is a CHECK expression of depth d and the rule that made it.
func (g *exprTable) check(d int) (string, string) {
	c := g.col()
	lit := func() string { return g.literal(c.typ) }
	switch rule := g.pick("compare", "arith", "in", "between", "like", "null", "bool", "cast", "func", "case", "distinct", "misc"); rule {
	case "misc":
		return rule, g.misc(c)
	case "compare":
		return rule, c.name + " " + g.pick("=", "<>", "<", "<=", ">", ">=", "!=") + " " + lit()
	case "arith":
		if n, ok := g.colOf("num"); ok {
			x := fmt.Sprintf("%s %s %s", n.name, g.pick("+", "-", "*", "/"), g.pick("2", "1.5", "3"))
			if g.rng.IntN(2) == 0 {
				x = "(" + x + ") " + g.pick("*", "+", "%") + " " + g.pick("2", "4")
			}
			return rule, x + " " + g.pick("<", ">=", "<>") + " " + g.pick("100", "0.5", "-1")
		}
		return rule, "1 + 1 = 2"
	case "in":
		items := []string{lit(), lit()}
		if g.rng.IntN(2) == 0 {
			items = append(items, lit())
		}
		return rule, c.name + g.pick(" IN (", " NOT IN (") + strings.Join(items, ", ") + ")"
	case "between":
		return rule, c.name + g.pick(" BETWEEN ", " NOT BETWEEN ") + lit() + " AND " + lit()
	case "like":
		if s, ok := g.colOf("str"); ok {
			return rule, s.name + g.pick(" LIKE ", " NOT LIKE ", " ILIKE ", " NOT ILIKE ") + g.pick("'a%'", "'_b'", "'%'")
		}
		return rule, "'abc' LIKE 'a%'"
	case "null":
		if b, ok := g.colOf("bool"); ok && g.rng.IntN(2) == 0 {
			return rule, b.name + g.pick(" IS TRUE", " IS NOT TRUE", " IS FALSE", " IS NOT FALSE")
		}
		return rule, c.name + g.pick(" IS NULL", " IS NOT NULL")
	case "bool":
		if d == 0 {
			return "null", c.name + " IS NOT NULL"
		}
		_, x := g.check(d - 1)
		_, y := g.check(d - 1)
		switch g.rng.IntN(4) {
		case 0:
			if strings.Contains(x, "IS NOT DISTINCT FROM") {
				// sqlgate's tree holds x IS DISTINCT FROM y as this
				return "not distinct", "NOT (" + x + ")"
			}
			return rule, "NOT (" + x + ")"
		case 1:
			return rule, "(" + x + ") OR (" + y + ")"
		case 2:
			return rule, x + " AND " + y
		}
		return rule, "(" + x + " OR " + y + ") AND " + c.name + " IS NOT NULL"
	case "cast":
		switch typeFamily(c.typ) {
		case "num":
			return rule, c.name + "::" + g.pick("numeric(10,2)", "bigint", "double precision", "numeric", "text") + " " + g.pick("<>", ">") + " " + g.pick("5::bigint", "'1'", "2.5::real", "3")
		case "str":
			return rule, c.name + "::" + g.pick("text", "varchar(3)", "char(2)") + " <> " + g.pick("'x'::varchar", "'y'::text", "'z'")
		}
		return rule, c.name + "::text <> " + g.pick("'a'", "'b'::text")
	case "func":
		if s, ok := g.colOf("str"); ok && g.rng.IntN(2) == 0 {
			return rule, g.pick("lower", "upper", "btrim", "md5") + "(" + s.name + ") <> " + g.pick("'x'", s.name)
		}
		if n, ok := g.colOf("num"); ok && g.rng.IntN(2) == 0 {
			return rule, g.pick("abs", "round", "sign") + "(" + n.name + ") < " + g.pick("10", "2.5")
		}
		return rule, "coalesce(" + c.name + ", " + lit() + ") " + g.pick("=", "<>") + " " + lit()
	case "case":
		if g.rng.IntN(2) == 0 {
			return rule, "CASE WHEN " + c.name + " > " + lit() + " THEN " + g.pick("1", "'a'::text", "true") + " ELSE " + g.pick("NULL", "2", "0") + " END IS NOT NULL"
		}
		return rule, "CASE " + c.name + " WHEN " + lit() + " THEN 'one' WHEN " + lit() + " THEN 'two' ELSE 'other' END <> 'x'"
	default:
		o := g.col()
		return "distinct", c.name + g.pick(" IS DISTINCT FROM ", " IS NOT DISTINCT FROM ") + g.pick(lit(), o.name)
	}
}

// misc is a CHECK of the forms the other rules leave out: date and time
// arithmetic, concatenation with columns, ANY over an ARRAY, NULLIF,
// GREATEST / LEAST, regular expressions, unary minus on a column.
func (g *exprTable) misc(c exprCol) string {
	lit := g.literal(c.typ)
	switch c.typ {
	case "date":
		return g.pick(c.name+" + 1 > "+lit, c.name+" - "+lit+" < 30", c.name+" < CURRENT_DATE + 7", c.name+" + interval '1 day' > now()", "extract(year from "+c.name+") > 2000")
	case "timestamp", "timestamptz":
		return g.pick(c.name+" + interval '2 hours' > "+lit, c.name+" <= now()", c.name+" > CURRENT_TIMESTAMP - interval '1 year'", "date_trunc('day', "+c.name+") = "+c.name,
			"extract(hour from "+c.name+") < 20", c.name+" AT TIME ZONE 'UTC' > "+lit)
	}
	switch typeFamily(c.typ) {
	case "num":
		return g.pick(c.name+" = ANY (ARRAY[1, 2, 3])", "nullif("+c.name+", 0) IS NOT NULL", "greatest("+c.name+", 1) < 50", "least("+c.name+", "+lit+") > -10", "-"+c.name+" < 5", c.name+" * "+c.name+" < 1000",
			c.name+" BETWEEN SYMMETRIC 10 AND "+lit, c.name+" NOT BETWEEN SYMMETRIC "+lit+" AND 0")
	case "str":
		return g.pick(c.name+" || 'z' <> 'az'", c.name+" ~ '^[a-z]+$'", c.name+" !~* 'q'", "length("+c.name+") BETWEEN 1 AND 10", c.name+" <> ALL (ARRAY['p', 'q'])", "upper("+c.name+") = "+c.name,
			"position('a' in "+c.name+") > 0", "substring("+c.name+" from 1 for 2) <> 'x'", "trim("+c.name+") <> ''", "trim(leading 'x' from "+c.name+") <> ''", c.name+" || 1 <> 'a'",
			c.name+" LIKE 'a!%' ESCAPE '!'", c.name+" NOT LIKE '%#_' ESCAPE '#'", c.name+" SIMILAR TO '(a|b)%'", c.name+" NOT SIMILAR TO 'x%' ESCAPE '#'")
	case "bool":
		return g.pick(c.name+" = true", "NOT "+c.name+" OR "+c.name+" IS NULL", c.name+" <> false")
	}
	return c.name + " IS NOT NULL"
}
