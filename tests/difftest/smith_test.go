package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/server"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestSmithDifferential is a small sqlsmith: random tables of every
// common scalar type (int2/4/8, numeric with scales, float8, text with
// strings whose order depends on the collation, bool, date, timestamp;
// NULLs, duplicate rows, an empty table), created identically on both
// systems, and random queries over them: joins of every kind (ON, USING,
// NATURAL, LATERAL, derived tables), subqueries (scalar, IN, NOT IN with
// NULLs, EXISTS, ANY/ALL, correlated), GROUP BY with ROLLUP, CUBE and
// GROUPING SETS, HAVING, DISTINCT and DISTINCT ON, window functions with
// ROWS/RANGE/GROUPS frames and EXCLUDE, set operations with ORDER BY and
// LIMIT, CASE/COALESCE/NULLIF, casts between the types, aggregates with
// FILTER, ORDER BY and DISTINCT. Each query's rows (as a multiset unless
// its ORDER BY decides the order), its columns' names and type OIDs and
// its SQLSTATE must equal PostgreSQL 15's. Counted apart and not failed:
// sqlgate's 0A000 (not implemented yet), two different errors, and an
// error on one side of a join with the empty table (which error a query
// meets first, and whether a plan reads a join's other input when one is
// empty, are the documented differences of semantics.go), and a float
// avg, variance or stddev whose overflow depends on the order rows come
// in (floatAccumOrder). SQLGATE_DIFF_SMITH_QUERIES sets
// the count (default 1000, 15 to 40 s); SQLGATE_DIFF_SEED moves the seed.
// SQLGATE_DIFF_SMITH_LOG names a file that receives every difference (for
// long hunts: the test still reports only the first 20), and
// SQLGATE_DIFF_SMITH_FIXTURE one that receives the fixture's statements
// (to reproduce a difference by hand).
func TestSmithDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPairWith(t, ctx, &Schema{}, server.InProcess)
	rnd := seededRand(t, 0x5317)
	g := newSmithGen(rnd)
	fixture := g.fixture()
	runOnBoth(t, ctx, r, fixture...)
	if name := os.Getenv("SQLGATE_DIFF_SMITH_FIXTURE"); name != "" {
		if err := os.WriteFile(name, []byte(strings.Join(fixture, ";\n")+";\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n := envInt(t, "SQLGATE_DIFF_SMITH_QUERIES", 1000)
	var log *os.File
	if name := os.Getenv("SQLGATE_DIFF_SMITH_LOG"); name != "" {
		f, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		log = f
	}
	stats := map[string]int{}
	start := time.Now()
	for i := 0; i < n; i++ {
		q, ordered := g.query()
		sg := r.SQLGate.Run(ctx, q)
		pg := r.Postgres.Run(ctx, q)
		if sg.Err != nil && sg.Err.Code == connErrorCode {
			t.Fatalf("query %d lost its connection: %s\n%s", i, sg.Err.Message, q)
		}
		kind, why := smithVerdict(sg, pg, ordered, ordered || strings.Contains(q, " INTERSECT") || strings.Contains(q, " EXCEPT"))
		if kind == "different" && strings.Contains(q, " JOIN sm0 ") && (sg.Err == nil && len(sg.Rows) == 0 || pg.Err == nil && len(pg.Rows) == 0) {
			// an error on one side only, the other joining the empty
			// table: whether a plan reads the other input of a join whose
			// one input is empty is the documented difference of
			// semantics.go ("an empty join input")
			kind = "empty join input"
		}
		if kind == "different" && joinOrderChoosesRepresentative(q) {
			if k, _ := smithVerdict(sg, pg, ordered, true); k == "same" {
				kind = "join order representative"
			}
		}
		if kind == "different" && floatAccumOrder(q, sg, pg) {
			kind = "float accumulation order"
		}
		stats[kind]++
		if kind == "same" || kind == "refused alike" {
			continue
		}
		if log != nil {
			fmt.Fprintf(log, "%s;\n-- %s\n\n", q, strings.ReplaceAll(why, "\n", "\n-- "))
		}
		if kind == "different" && stats[kind] <= 20 {
			t.Errorf("%s\n%s", q, why)
		}
	}
	t.Logf("%d queries in %s: %v", n, time.Since(start).Round(time.Millisecond), stats)
	if stats["same"] < n/2 {
		t.Errorf("only %d of %d queries answered alike: the generator emits too many failing queries (%v)", stats["same"], n, stats)
	}
}

// floatAccumOrder reports whether one side's 22003 overflow against the
// other's answer is a float aggregate's order of reading rows: avg,
// variance and stddev of float8 keep a sum of squares (float8_accum), and
// fail when finite inputs overflow it unless an infinite input came
// first (then the result is NaN or ±Infinity), so the error depends on
// the order the plan feeds the rows (1e300, 0, Infinity fails; Infinity,
// 1e300, 0 does not), which neither system defines.
func floatAccumOrder(q string, sg, pg Outcome) bool {
	overflow := func(o Outcome) bool {
		return o.Err != nil && o.Err.Code == "22003" && o.Err.Message == "value out of range: overflow"
	}
	if overflow(sg) == overflow(pg) || sg.Err != nil && pg.Err != nil {
		return false
	}
	for _, f := range []string{"avg(", "stddev", "variance(", "var_pop(", "var_samp("} {
		if strings.Contains(q, f) {
			return true
		}
	}
	return false
}

// joinOrderChoosesRepresentative reports whether q keeps one of several
// equal values read from a join: a GROUP BY, DISTINCT or UNION keeps the
// first of a group in its input's order and min and max the first or last
// of their ties (numeric_larger keeps the later), so when equal numerics
// print with different scales (a NATURAL or USING column merging an
// integer k and a numeric(5,1) k: 0 and 0.0) the one shown is the first
// the join emits. That order is the plan's: PostgreSQL's hash join emits
// in its outer input's order and a FULL JOIN's unmatched inner rows last,
// and it hashes the input it estimates smaller (seed 7919: sm1 NATURAL
// FULL JOIN sm2 GROUP BY CUBE(k) read sm2's 0.0 first where sqlgate read
// sm1's 0 first). Neither order is defined, so such a query whose rows
// are equal with numerics compared by value is counted and logged apart,
// not failed; a query over one table (its order is its scan's) or that
// keeps every row still compares display scales.
func joinOrderChoosesRepresentative(q string) bool {
	if !strings.Contains(q, " JOIN ") {
		return false
	}
	for _, s := range []string{"GROUP BY", "DISTINCT", " UNION", "max(", "min("} {
		if strings.Contains(q, s) {
			return true
		}
	}
	return false
}

// smithVerdict judges one query: "refused alike" (one SQLSTATE),
// "refused differently", "unsupported" (sqlgate's 0A000), "same" (names,
// types and rows; floats within their last bits, since aggregates sum in
// an unspecified order) or "different", with why. byValue compares
// numerics by value, not display scale: for ordered queries, and for
// INTERSECT and EXCEPT, whose row of a group of equal values comes from
// either input as the plan puts them.
func smithVerdict(sg, pg Outcome, ordered, byValue bool) (kind, why string) {
	switch {
	case sg.Err != nil && pg.Err != nil && sg.Err.Code == pg.Err.Code:
		return "refused alike", ""
	case sg.Err != nil && pg.Err != nil:
		// two errors: which a query meets first depends on the order the
		// plans compute things in (the documented difference of
		// semantics.go); counted, logged, not failed
		return "refused differently", "  sqlgate:    " + describeErr(sg) + "\n  PostgreSQL: " + describeErr(pg)
	case sg.Err != nil && sg.Err.Code == string(sqlerr.FeatureNotSupported):
		// what sqlgate does not implement yet (RANGE offsets of numeric
		// and interval type): counted, logged, not a wrong answer
		return "unsupported", "  sqlgate:    " + describeErr(sg) + "\n  PostgreSQL: " + describeErr(pg)
	case sg.Err != nil || pg.Err != nil:
		return "different", "  sqlgate:    " + describeErr(sg) + "\n  PostgreSQL: " + describeErr(pg)
	}
	if !slices.Equal(sg.Names, pg.Names) {
		return "different", fmt.Sprintf("  column names: sqlgate %q, PostgreSQL %q", sg.Names, pg.Names)
	}
	// The rows as multisets, numerics with their display scale; then, when
	// the ORDER BY decides the order, in order. Ordered, numerics compare
	// by value: 3 and 3.0 sort as equals, so rows tied on them may come
	// either way, and a LIMIT or OFFSET may keep either.
	if same, why := compareOutcomes(sg, pg, false, true, byValue); !same {
		return "different", "  " + why + "\n  sqlgate:    " + sg.Format(4) + "\n  PostgreSQL: " + pg.Format(4)
	}
	if same, why := compareOutcomes(sg, pg, ordered, true, true); ordered && !same {
		return "different", "  order: " + why + "\n  sqlgate:    " + sg.Format(4) + "\n  PostgreSQL: " + pg.Format(4)
	}
	return "same", ""
}

// Kinds of values the generator tells apart. The numeric family (int,
// num, float) mixes freely; date and ts mix too.
const (
	kInt   = "int"
	kNum   = "num"
	kFloat = "float"
	kText  = "text"
	kBool  = "bool"
	kDate  = "date"
	kTS    = "ts"
)

var smithKinds = []string{kInt, kInt, kNum, kFloat, kText, kText, kBool, kDate, kTS}

// smithColumn is a column of a fixture table: its name is the same in
// every table that has it (so USING and NATURAL find it), its type too
// except k's, whose integer width or numeric differs between tables.
type smithColumn struct{ name, typ, kind string }

var smithPool = []smithColumn{
	{"i2", "smallint", kInt}, {"i4", "integer", kInt}, {"i8", "bigint", kInt},
	{"n", "numeric(7,2)", kNum}, {"f", "double precision", kFloat}, {"t", "text", kText},
	{"u", "text", kText}, {"b", "boolean", kBool}, {"d", "date", kDate}, {"ts", "timestamp", kTS},
}

type smithTable struct {
	name string
	cols []smithColumn
}

// scol is a column in scope: qual "" for a USING/NATURAL merged column.
type scol struct{ qual, name, kind string }

func (c scol) ref() string {
	if c.qual == "" {
		return c.name
	}
	return c.qual + "." + c.name
}

type smithGen struct {
	r      *rand.Rand
	tables []smithTable
	alias  int
}

func newSmithGen(r *rand.Rand) *smithGen {
	g := &smithGen{r: r}
	for i := 0; i < 5; i++ {
		kt := g.pick("smallint", "integer", "bigint", "numeric(5,1)", "integer")
		kk := kInt
		if strings.HasPrefix(kt, "numeric") {
			kk = kNum
		}
		cols := []smithColumn{{"id", "integer", kInt}, {"k", kt, kk}}
		for _, c := range smithPool {
			if g.r.IntN(2) == 0 {
				cols = append(cols, c)
			}
		}
		// at least four columns: pad with i4 and t, each only when the
		// draw above did not already take it (a column named twice is
		// PostgreSQL's 42701, and the fixture would not load)
		for _, pad := range []smithColumn{smithPool[1], smithPool[5]} {
			if len(cols) < 4 && !slices.Contains(cols, pad) {
				cols = append(cols, pad)
			}
		}
		g.tables = append(g.tables, smithTable{name: fmt.Sprintf("sm%d", i), cols: cols})
	}
	return g
}

func (g *smithGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *smithGen) chance(n int) bool { return g.r.IntN(n) == 0 }

// fixture creates the tables: sm0 empty, sm1 and sm3 with a primary key,
// sm2 and sm4 without one and with duplicate rows; values from small
// domains (so that joins and groups match) with NULLs and type bounds.
func (g *smithGen) fixture() []string {
	var stmts []string
	for ti, tb := range g.tables {
		var defs []string
		for _, c := range tb.cols {
			d := c.name + " " + c.typ
			if c.name == "id" && ti%2 == 1 {
				d += " PRIMARY KEY"
			}
			defs = append(defs, d)
		}
		stmts = append(stmts, fmt.Sprintf("CREATE TABLE %s (%s)", tb.name, strings.Join(defs, ", ")))
		if ti == 0 {
			continue
		}
		rows := 6 + g.r.IntN(5)
		for id := 1; id <= rows; id++ {
			var vals []string
			for _, c := range tb.cols {
				if c.name == "id" {
					vals = append(vals, fmt.Sprint(id))
					continue
				}
				vals = append(vals, g.value(c))
			}
			row := "(" + strings.Join(vals, ", ") + ")"
			stmts = append(stmts, fmt.Sprintf("INSERT INTO %s VALUES %s", tb.name, row))
			if ti%2 == 0 && g.chance(3) {
				stmts = append(stmts, fmt.Sprintf("INSERT INTO %s VALUES %s", tb.name, row))
			}
		}
	}
	return stmts
}

// value is a stored value of column c: NULL one time in six.
func (g *smithGen) value(c smithColumn) string {
	if g.chance(6) {
		return "NULL"
	}
	switch c.name {
	case "k":
		if c.kind == kNum {
			return g.pick("0", "1", "2", "2.5", "3", "-1")
		}
		return fmt.Sprint(g.r.IntN(4))
	case "i2":
		return g.pick("0", "1", "2", "-3", "7", "32767", "-32768", "2")
	case "i4":
		return g.pick("0", "1", "2", "-5", "100", "2147483647", "3", "1")
	case "i8":
		return g.pick("0", "1", "2", "-7", "9223372036854775807", "4000000000", "3")
	case "n":
		return g.pick("0", "1.5", "-0.25", "3", "12345.67", "2.00", "0.01", "1.5")
	case "f":
		return g.pick("0", "1.5", "-0.5", "3", "1e300", "'NaN'", "'Infinity'", "2.25", "-1")
	}
	switch c.kind {
	case kText:
		return g.pick("'a'", "'B'", "'b'", "'A'", "'ä'", "'ab'", "'a b'", "''", "' '", "'Z'", "'10'", "'9'", "'abc'", "'_x'")
	case kBool:
		return g.pick("true", "false")
	case kDate:
		return g.pick("'2024-01-01'", "'2023-12-31'", "'2024-02-29'", "'2000-01-01'", "'1999-12-31'")
	case kTS:
		return g.pick("'2024-01-01 00:00:00'", "'2024-01-01 12:30:00'", "'2023-12-31 23:59:59.5'", "'2000-02-29 01:02:03'")
	}
	panic("value: " + c.kind)
}

func (g *smithGen) newAlias() string {
	g.alias++
	return fmt.Sprintf("a%d", g.alias)
}

func (g *smithGen) table() smithTable {
	// sm0 (empty) a fifth as often as the others.
	if g.chance(9) {
		return g.tables[0]
	}
	return g.tables[1+g.r.IntN(len(g.tables)-1)]
}

func tableScope(tb smithTable, alias string) []scol {
	var s []scol
	for _, c := range tb.cols {
		s = append(s, scol{alias, c.name, c.kind})
	}
	return s
}

// numeric reports whether kind is of the numeric family.
func numeric(kind string) bool { return kind == kInt || kind == kNum || kind == kFloat }

// compatible reports whether a value of kind b may stand where kind a is
// wanted (CASE branches, COALESCE, set operations).
func compatible(a, b string) bool {
	return a == b || numeric(a) && numeric(b) || (a == kDate || a == kTS) && (b == kDate || b == kTS)
}

// colOf picks a column of scope compatible with kind (strictly of kind
// when strict), or "" when there is none.
func (g *smithGen) colOf(scope []scol, kind string, strict bool) string {
	var cands []string
	for _, c := range scope {
		if c.kind == kind || !strict && compatible(kind, c.kind) {
			cands = append(cands, c.ref())
		}
	}
	if len(cands) == 0 {
		return ""
	}
	return cands[g.r.IntN(len(cands))]
}

func (g *smithGen) literal(kind string) string {
	if g.chance(8) {
		return "NULL"
	}
	switch kind {
	case kInt:
		return g.pick("0", "1", "2", "3", "-1", "10", "2147483647", "100000000000")
	case kNum:
		return g.pick("1.5", "0.5", "2.00", "-1.25", "0.001", "100.5")
	case kFloat:
		return g.pick("1.5::float8", "'NaN'::float8", "0.5e0", "2::double precision", "-0.0::float8", "1e-3::float8")
	case kText:
		return g.pick("'a'", "'B'", "'ab'", "''", "'ä'", "'Z'", "'10'", "'a b'")
	case kBool:
		return g.pick("true", "false", "NULL::boolean")
	case kDate:
		return g.pick("DATE '2024-01-01'", "'2023-12-31'::date", "DATE '2000-01-01'")
	case kTS:
		return g.pick("TIMESTAMP '2024-01-01 12:30:00'", "'2000-02-29 01:02:03'::timestamp")
	}
	panic(kind)
}

// expr is an expression of kind over scope, nested up to depth.
func (g *smithGen) expr(scope []scol, kind string, depth int) string {
	if depth <= 0 || g.chance(3) {
		if c := g.colOf(scope, kind, !g.chance(4)); c != "" && !g.chance(5) {
			return c
		}
		return g.literal(kind)
	}
	d := depth - 1
	switch g.r.IntN(10) {
	case 0:
		return fmt.Sprintf("CASE WHEN %s THEN %s ELSE %s END", g.expr(scope, kBool, d), g.expr(scope, kind, d), g.expr(scope, g.like(kind), d))
	case 1:
		return fmt.Sprintf("COALESCE(%s, %s)", g.expr(scope, kind, d), g.expr(scope, g.like(kind), d))
	case 2:
		if kind != kBool {
			return fmt.Sprintf("NULLIF(%s, %s)", g.expr(scope, kind, d), g.expr(scope, kind, d))
		}
	case 3:
		if sub := g.scalarSub(scope, kind); sub != "" {
			return sub
		}
	case 4:
		return g.cast(scope, kind, d)
	}
	switch kind {
	case kInt, kNum, kFloat:
		a, b := g.expr(scope, kind, d), g.expr(scope, g.like(kind), d)
		switch g.r.IntN(9) {
		case 0:
			return fmt.Sprintf("(%s / %s)", a, b)
		case 1:
			if kind != kFloat {
				return fmt.Sprintf("(%s %% %s)", a, b)
			}
		case 2:
			return fmt.Sprintf("abs(%s)", a)
		case 3:
			return fmt.Sprintf("(- %s)", a)
		case 4:
			if kind == kInt {
				switch g.r.IntN(3) {
				case 0:
					return fmt.Sprintf("length(%s)", g.expr(scope, kText, d))
				case 1:
					return fmt.Sprintf("(%s - %s)", g.expr(scope, kDate, d), g.expr(scope, kDate, d))
				}
				return fmt.Sprintf("sign(%s)", a)
			}
			if kind == kNum {
				return fmt.Sprintf("round(%s, %d)", a, g.r.IntN(3))
			}
			return fmt.Sprintf("extract(%s from %s)::float8", g.pick("year", "month", "day", "epoch"), g.expr(scope, kTS, d))
		case 5:
			if kind == kNum {
				return fmt.Sprintf("extract(%s from %s)", g.pick("year", "month", "day", "dow", "hour", "epoch"), g.expr(scope, g.pick(kDate, kTS), d))
			}
		}
		return fmt.Sprintf("(%s %s %s)", a, g.pick("+", "-", "*", "+"), b)
	case kText:
		a := g.expr(scope, kText, d)
		switch g.r.IntN(8) {
		case 0:
			return fmt.Sprintf("upper(%s)", a)
		case 1:
			return fmt.Sprintf("lower(%s)", a)
		case 2:
			return fmt.Sprintf("substr(%s, %d, %d)", a, g.r.IntN(3), g.r.IntN(3))
		case 3:
			return fmt.Sprintf("concat(%s, %s)", a, g.expr(scope, g.pick(kInt, kText, kBool, kDate), d))
		case 4:
			return fmt.Sprintf("left(%s, %d)", a, g.r.IntN(3)-1)
		case 5:
			return fmt.Sprintf("replace(%s, 'a', 'xy')", a)
		}
		return fmt.Sprintf("(%s || %s)", a, g.expr(scope, g.pick(kText, kText, kInt), d))
	case kBool:
		return g.cond(scope, d)
	case kDate:
		switch g.r.IntN(3) {
		case 0:
			return fmt.Sprintf("(%s + %s)", g.expr(scope, kDate, d), g.pick("1", "-30", "365"))
		case 1:
			return fmt.Sprintf("(%s)::date", g.expr(scope, kTS, d))
		}
		return fmt.Sprintf("(%s - %s)", g.expr(scope, kDate, d), g.pick("1", "7"))
	case kTS:
		switch g.r.IntN(3) {
		case 0:
			return fmt.Sprintf("(%s + interval '%s')", g.expr(scope, kTS, d), g.pick("1 day", "-2 hours", "1 month", "30 seconds"))
		case 1:
			return fmt.Sprintf("date_trunc('%s', %s)", g.pick("month", "day", "hour", "year"), g.expr(scope, kTS, d))
		}
		return fmt.Sprintf("(%s)::timestamp", g.expr(scope, kDate, d))
	}
	panic(kind)
}

// like is a kind that may stand with kind in one CASE or COALESCE.
func (g *smithGen) like(kind string) string {
	if numeric(kind) && g.chance(3) {
		return g.pick(kInt, kNum, kFloat)
	}
	if (kind == kDate || kind == kTS) && g.chance(4) {
		return g.pick(kDate, kTS)
	}
	return kind
}

// cast is an expression of kind cast from another kind.
func (g *smithGen) cast(scope []scol, kind string, d int) string {
	switch kind {
	case kInt:
		from := g.pick(kNum, kFloat, kText, kBool, kInt)
		x := g.expr(scope, from, d)
		if from == kText {
			x = g.pick("'12'", "' 7 '", "'x'", "'-3'", x)
		}
		return fmt.Sprintf("CAST(%s AS %s)", x, g.pick("smallint", "integer", "bigint", "int"))
	case kNum:
		x := g.expr(scope, g.pick(kInt, kFloat, kText, kNum), d)
		return fmt.Sprintf("(%s)::%s", x, g.pick("numeric", "numeric(6,1)", "numeric(4,2)", "decimal(10,3)", "numeric(3)"))
	case kFloat:
		x := g.expr(scope, g.pick(kInt, kNum, kText), d)
		return fmt.Sprintf("(%s)::%s", x, g.pick("float8", "real", "double precision"))
	case kText:
		x := g.expr(scope, g.pick(kInt, kNum, kBool, kDate, kTS, kFloat), d)
		return fmt.Sprintf("CAST(%s AS %s)", x, g.pick("text", "varchar", "varchar(3)", "char(2)"))
	case kBool:
		// A literal's cast is PostgreSQL's parse-time conversion, whose
		// error would come before any other: only valid ones.
		x := g.pick("'t'", "'no'", "' on '", g.expr(scope, kInt, d))
		if g.chance(2) {
			if c := g.colOf(scope, kText, true); c != "" {
				x = c
			}
		}
		return fmt.Sprintf("(%s)::boolean", x)
	case kDate:
		return fmt.Sprintf("(%s)::date", g.pick("'2024-03-01'", "'20240102'", g.expr(scope, kTS, d)))
	case kTS:
		return fmt.Sprintf("(%s)::timestamp", g.pick("'2024-03-01 10:00'", g.expr(scope, kDate, d)))
	}
	panic(kind)
}

// cond is a boolean condition over scope.
func (g *smithGen) cond(scope []scol, depth int) string {
	d := depth - 1
	if d < 0 {
		d = 0
	}
	kind := smithKinds[g.r.IntN(len(smithKinds))]
	switch g.r.IntN(12) {
	case 0:
		return fmt.Sprintf("(%s %s %s)", g.cond(scope, d), g.pick("AND", "OR"), g.cond(scope, d))
	case 1:
		return fmt.Sprintf("(NOT %s)", g.cond(scope, d))
	case 2:
		return fmt.Sprintf("(%s IS %sNULL)", g.expr(scope, kind, d), g.pick("", "NOT "))
	case 3:
		return fmt.Sprintf("(%s IS %sDISTINCT FROM %s)", g.expr(scope, kind, d), g.pick("", "NOT "), g.expr(scope, g.like(kind), d))
	case 4:
		return fmt.Sprintf("(%s %sBETWEEN %s AND %s)", g.expr(scope, kind, d), g.pick("", "NOT "), g.literal(kind), g.literal(kind))
	case 5:
		return fmt.Sprintf("(%s %sIN (%s, %s))", g.expr(scope, kind, d), g.pick("", "NOT "), g.literal(kind), g.literal(kind))
	case 6:
		return fmt.Sprintf("(%s %sLIKE %s)", g.expr(scope, kText, d), g.pick("", "NOT ", "I"), g.pick("'a%'", "'%b'", "'_'", "'%'", "'A_%'", "'%\\_%'"))
	case 7, 8:
		return g.subCond(scope, kind)
	case 9:
		if c := g.colOf(scope, kBool, true); c != "" {
			return fmt.Sprintf("(%s IS %s)", c, g.pick("TRUE", "NOT TRUE", "FALSE", "NOT FALSE", "UNKNOWN"))
		}
	}
	return fmt.Sprintf("(%s %s %s)", g.expr(scope, kind, d), g.pick("=", "<>", "<", "<=", ">", ">="), g.expr(scope, g.like(kind), d))
}

// subquery is "SELECT x FROM table alias [WHERE ...]" with x of kind,
// maybe correlated with outer; "" when the table has no such column.
func (g *smithGen) subquery(outer []scol, kind string, agg bool) string {
	tb := g.table()
	al := g.newAlias()
	inner := tableScope(tb, al)
	x := g.colOf(inner, kind, false)
	if x == "" {
		return ""
	}
	if agg {
		switch kind {
		case kInt:
			x = g.pick("count(*)", "count("+x+")", "max("+x+")", "sum("+x+")")
		case kNum:
			x = g.pick("max("+x+")", "sum("+x+")", "avg("+x+")")
		default:
			x = g.pick("max("+x+")", "min("+x+")")
		}
	}
	q := fmt.Sprintf("SELECT %s FROM %s %s", x, tb.name, al)
	var w []string
	if len(outer) > 0 && !g.chance(3) {
		if o := g.colOf(outer, kInt, true); o != "" {
			w = append(w, fmt.Sprintf("%s.k %s %s", al, g.pick("=", "<", ">=", "<>"), o))
		}
	}
	if g.chance(3) {
		w = append(w, g.cond(inner, 1))
	}
	if len(w) > 0 {
		q += " WHERE " + strings.Join(w, " AND ")
	}
	return q
}

// scalarSub is a scalar subquery of kind.
func (g *smithGen) scalarSub(outer []scol, kind string) string {
	if kind == kBool {
		return ""
	}
	// Always an aggregate: a subquery of several rows fails (21000) or
	// not depending on which rows a plan evaluates it for.
	q := g.subquery(outer, kind, true)
	if q == "" {
		return ""
	}
	return "(" + q + ")"
}

// subCond is IN / NOT IN / EXISTS / op ANY|ALL with a subquery.
func (g *smithGen) subCond(scope []scol, kind string) string {
	q := g.subquery(scope, kind, false)
	if q == "" {
		return "true"
	}
	// The tested value is a column or a constant: PostgreSQL computes it
	// only when the subquery has rows (a correlated one per outer row),
	// so an overflow in it fails there or not by the subquery's rows.
	x := g.expr(scope, kind, 0)
	switch g.r.IntN(4) {
	case 0:
		return fmt.Sprintf("(%s IN (%s))", x, q)
	case 1:
		return fmt.Sprintf("(%s NOT IN (%s))", x, q)
	case 2:
		return fmt.Sprintf("(%sEXISTS (%s))", g.pick("", "NOT "), q)
	}
	return fmt.Sprintf("(%s %s %s (%s))", x, g.pick("=", "<>", "<", ">="), g.pick("ANY", "ALL", "SOME"), q)
}

// from is a FROM clause and the columns it brings into scope.
func (g *smithGen) from() (string, []scol) {
	t1 := g.table()
	a1 := g.newAlias()
	from, scope := t1.name+" "+a1, tableScope(t1, a1)
	if g.chance(4) {
		// A derived table with renamed columns.
		sub, subScope := g.derived(t1)
		from, scope = sub, subScope
	}
	joins := g.r.IntN(3)
	for j := 0; j < joins; j++ {
		t2 := g.table()
		a2 := g.newAlias()
		right := tableScope(t2, a2)
		kind := g.pick("JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "INNER JOIN", "LEFT JOIN", "CROSS JOIN")
		switch {
		case kind == "CROSS JOIN":
			if g.chance(2) {
				lat := g.newAlias()
				o := g.colOf(scope, kInt, true)
				if o == "" {
					o = "1"
				}
				agg := fmt.Sprintf("SELECT count(*) AS c, max(%s.id) AS m FROM %s %s WHERE %s.k %s %s", a2, t2.name, a2, a2, g.pick("=", "<"), o)
				from += fmt.Sprintf(" CROSS JOIN LATERAL (%s) %s", agg, lat)
				scope = append(scope, scol{lat, "c", kInt}, scol{lat, "m", kInt})
				continue
			}
			from += fmt.Sprintf(" CROSS JOIN %s %s", t2.name, a2)
			scope = append(scope, right...)
		case g.chance(3) && j == 0 && len(scope) > 0 && scope[0].qual == a1:
			// USING or NATURAL over the names both tables have.
			var common []string
			for _, c := range t1.cols {
				if slices.ContainsFunc(t2.cols, func(d smithColumn) bool { return d.name == c.name }) {
					common = append(common, c.name)
				}
			}
			var merged []string
			if g.chance(2) {
				from += fmt.Sprintf(" NATURAL %s %s %s", kind, t2.name, a2)
				merged = common
			} else {
				merged = []string{"k"}
				if g.chance(2) {
					merged = common[:1+g.r.IntN(len(common))]
				}
				from += fmt.Sprintf(" %s %s %s USING (%s)", kind, t2.name, a2, strings.Join(merged, ", "))
			}
			scope = append(scope, right...)
			for _, m := range merged {
				for _, c := range t1.cols {
					if c.name == m {
						k := c.kind
						if m == "k" {
							k = kNum // the merged k's type is the wider of the two
						}
						scope = append(scope, scol{"", m, k})
					}
				}
			}
		case g.chance(5) && kind == "LEFT JOIN":
			lat := g.newAlias()
			o := g.colOf(scope, kInt, true)
			if o == "" {
				o = "0"
			}
			from += fmt.Sprintf(" LEFT JOIN LATERAL (SELECT %s.id AS lid, %s.k AS lk FROM %s %s WHERE %s.k > %s) %s ON %s",
				a2, a2, t2.name, a2, a2, o, lat, g.pick("true", lat+".lid < 4", "false"))
			scope = append(scope, scol{lat, "lid", kInt}, scol{lat, "lk", kNum})
		default:
			on := g.joinCond(scope, right)
			if kind == "FULL JOIN" {
				// PostgreSQL runs a FULL JOIN only on merge- or
				// hash-joinable conditions.
				on = "true"
				if l, r := g.colOf(scope, kInt, true), g.colOf(right, kInt, true); l != "" && r != "" {
					on = l + " = " + r
				}
			}
			from += fmt.Sprintf(" %s %s %s ON %s", kind, t2.name, a2, on)
			scope = append(scope, right...)
		}
		// A merged column hides behind an ambiguity once a later table
		// has its name: drop it from scope.
		if j > 0 {
			scope = slices.DeleteFunc(scope, func(c scol) bool {
				return c.qual == "" && slices.ContainsFunc(right, func(d scol) bool { return d.name == c.name })
			})
		}
	}
	return from, scope
}

// derived is a derived table over tb with its columns renamed.
func (g *smithGen) derived(tb smithTable) (string, []scol) {
	al := g.newAlias()
	inner := tableScope(tb, al)
	n := 1 + g.r.IntN(3)
	var items []string
	var out []scol
	dal := g.newAlias()
	for i := 0; i < n; i++ {
		kind := smithKinds[g.r.IntN(len(smithKinds))]
		items = append(items, g.expr(inner, kind, 1))
		out = append(out, scol{dal, fmt.Sprintf("c%d", i), kind})
	}
	items = append(items, al+".k")
	out = append(out, scol{dal, "k", tb.cols[1].kind})
	var names []string
	for _, c := range out {
		names = append(names, c.name)
	}
	q := fmt.Sprintf("(SELECT %s FROM %s %s", strings.Join(items, ", "), tb.name, al)
	if g.chance(2) {
		q += " WHERE " + g.cond(inner, 1)
	}
	return fmt.Sprintf("%s) %s(%s)", q, dal, strings.Join(names, ", ")), out
}

func (g *smithGen) joinCond(left, right []scol) string {
	l := g.colOf(left, kInt, true)
	r := g.colOf(right, kInt, true)
	if l == "" || r == "" || g.chance(6) {
		return g.pick("true", "false", g.cond(append(slices.Clone(left), right...), 1))
	}
	c := fmt.Sprintf("%s %s %s", l, g.pick("=", "=", "=", "<", "<>"), r)
	if g.chance(3) {
		c += " AND " + g.cond(append(slices.Clone(left), right...), 1)
	}
	return c
}

// item is a select-list item: an expression, aliased half the time.
func (g *smithGen) item(e string, i int) string {
	if g.chance(2) {
		return fmt.Sprintf("%s AS x%d", e, i)
	}
	return e
}

// orderAll is ORDER BY every output position, each direction and NULLS
// placement random: the order is then complete up to equal rows.
func (g *smithGen) orderAll(n int) string {
	var keys []string
	for _, p := range g.r.Perm(n) {
		keys = append(keys, fmt.Sprintf("%d%s%s", p+1, g.pick("", " DESC", " ASC"), g.pick("", " NULLS FIRST", " NULLS LAST")))
	}
	return " ORDER BY " + strings.Join(keys, ", ")
}

func (g *smithGen) limit() string {
	switch g.r.IntN(4) {
	case 0:
		return fmt.Sprintf(" LIMIT %d", g.r.IntN(5))
	case 1:
		return fmt.Sprintf(" LIMIT %d OFFSET %d", 1+g.r.IntN(4), g.r.IntN(3))
	case 2:
		return fmt.Sprintf(" OFFSET %d", g.r.IntN(4))
	}
	return ""
}

// query is one query and whether its ORDER BY decides its rows' order.
func (g *smithGen) query() (string, bool) {
	switch g.r.IntN(8) {
	case 0, 1:
		return g.plain()
	case 2, 3:
		return g.grouped()
	case 4, 5:
		return g.window()
	case 6:
		return g.setOp()
	}
	return g.distinctOn()
}

func (g *smithGen) plain() (string, bool) {
	from, scope := g.from()
	n := 1 + g.r.IntN(4)
	var items []string
	for i := 0; i < n; i++ {
		items = append(items, g.item(g.expr(scope, smithKinds[g.r.IntN(len(smithKinds))], 2), i))
	}
	q := "SELECT "
	if g.chance(4) {
		q += "DISTINCT "
	}
	q += strings.Join(items, ", ") + " FROM " + from
	if g.chance(2) {
		q += " WHERE " + g.cond(scope, 2)
	}
	if g.chance(2) {
		return q + g.orderAll(n) + g.limit(), true
	}
	return q, false
}

// agg is an aggregate call over scope, with FILTER, DISTINCT or an ORDER
// BY of its own.
func (g *smithGen) agg(scope []scol) string {
	kind := smithKinds[g.r.IntN(len(smithKinds))]
	x := g.expr(scope, kind, 1)
	var call string
	switch {
	case g.chance(6):
		call = "count(*)"
	case kind == kFloat:
		// no variance of floats: whether 1e300's square overflows (22003)
		// or meets Infinity first (NaN) depends on the rows' order
		call = fmt.Sprintf("%s(%s%s)", g.pick("sum", "avg", "min", "max", "count"), g.pick("", "", "DISTINCT "), x)
	case numeric(kind):
		call = fmt.Sprintf("%s(%s%s)", g.pick("sum", "avg", "min", "max", "count", "stddev_samp", "var_pop"), g.pick("", "", "DISTINCT "), x)
	case kind == kBool:
		call = fmt.Sprintf("%s(%s)", g.pick("bool_and", "bool_or", "every", "count"), x)
	case kind == kText:
		switch g.r.IntN(3) {
		case 0:
			call = fmt.Sprintf("string_agg(%s, ',' ORDER BY %s%s)", x, x, g.pick("", " DESC", " NULLS FIRST"))
		case 1:
			call = fmt.Sprintf("string_agg(DISTINCT %s, '|')", x)
		default:
			call = fmt.Sprintf("%s(%s)", g.pick("min", "max", "count"), x)
		}
	default:
		if g.chance(3) {
			call = fmt.Sprintf("array_agg(%s ORDER BY %s%s)", x, x, g.pick("", " DESC NULLS LAST"))
		} else {
			call = fmt.Sprintf("%s(%s)", g.pick("min", "max", "count"), x)
		}
	}
	if g.chance(4) {
		call += " FILTER (WHERE " + g.cond(scope, 1) + ")"
	}
	return call
}

func (g *smithGen) grouped() (string, bool) {
	from, scope := g.from()
	nk := g.r.IntN(3)
	var keys, items []string
	for i := 0; i < nk; i++ {
		k := g.colOf(scope, smithKinds[g.r.IntN(len(smithKinds))], false)
		if k == "" || slices.Contains(keys, k) {
			continue
		}
		keys = append(keys, k)
	}
	for i, k := range keys {
		items = append(items, g.item(k, i))
	}
	na := 1 + g.r.IntN(3)
	for i := 0; i < na; i++ {
		items = append(items, g.item(g.agg(scope), len(keys)+i))
	}
	if len(keys) > 0 && g.chance(4) {
		items = append(items, fmt.Sprintf("GROUPING(%s)", strings.Join(keys, ", ")))
	}
	q := "SELECT " + strings.Join(items, ", ") + " FROM " + from
	if g.chance(3) {
		q += " WHERE " + g.cond(scope, 1)
	}
	sets := false
	if len(keys) > 0 {
		sets = true
		switch g.r.IntN(6) {
		case 0:
			q += " GROUP BY ROLLUP(" + strings.Join(keys, ", ") + ")"
		case 1:
			q += " GROUP BY CUBE(" + strings.Join(keys, ", ") + ")"
		case 2:
			q += " GROUP BY GROUPING SETS ((" + strings.Join(keys, ", ") + "), (" + keys[0] + "), ())"
		default:
			sets = false
			q += " GROUP BY " + strings.Join(keys, ", ")
		}
	}
	if g.chance(3) {
		having := "count(*)"
		if c := g.colOf(scope, kInt, true); c != "" && g.chance(2) {
			having = "count(DISTINCT " + c + ")"
		}
		q += fmt.Sprintf(" HAVING %s %s %s", having, g.pick(">", ">=", "<", "="), g.pick("0", "1", "2"))
	}
	// No ORDER BY over grouping sets: PostgreSQL 15 takes a key that a
	// join or USING equates with an earlier one as sorted already, though
	// a grouping set nulls one of them (fixed in 16).
	if !sets && g.chance(2) {
		return q + g.orderAll(len(items)) + g.limit(), true
	}
	return q, false
}

// window is a query with window functions whose values the frame and the
// ORDER BY decide: ROWS and GROUPS frames, and ordered functions, order by
// every column in scope (rows equal on all of them are interchangeable);
// RANGE with an offset orders by one numeric or date key and takes only
// aggregates, whose value the frame's rows decide whatever their order.
func (g *smithGen) window() (string, bool) {
	// Window functions of different orders pair their values on rows that
	// are equal on every column arbitrarily: more than one function only
	// over a table whose rows are distinct (a primary key).
	var from string
	var scope []scol
	nw := 1
	if g.chance(3) {
		from, scope = g.from()
	} else {
		tb := g.table()
		al := g.newAlias()
		from, scope = tb.name+" "+al, tableScope(tb, al)
		if tb.name == "sm1" || tb.name == "sm3" {
			nw += g.r.IntN(3)
		}
	}
	var cols []string
	for _, c := range scope {
		cols = append(cols, c.ref())
	}
	items := []string{g.colOf(scope, kInt, true)}
	if items[0] == "" {
		items[0] = cols[0]
	}
	for i := 0; i < nw; i++ {
		part := ""
		if g.chance(2) {
			part = "PARTITION BY " + g.colOf(scope, smithKinds[g.r.IntN(len(smithKinds))], false)
			if strings.HasSuffix(part, "BY ") {
				part = ""
			}
		}
		x := g.colOf(scope, g.pick(kInt, kNum, kFloat), false)
		if x == "" {
			x = "1"
		}
		mode := g.pick("ROWS", "RANGE", "GROUPS", "")
		var order, frame, fn string
		rangeOffset := false
		if mode == "RANGE" && g.chance(2) {
			kk := g.pick(kInt, kNum, kDate)
			key := g.colOf(scope, kk, true)
			if key != "" {
				rangeOffset = true
				order = "ORDER BY " + key + g.pick("", " DESC") + g.pick("", " NULLS FIRST")
				off := g.pick("1", "2", "0")
				if kk == kDate {
					off = "'1 day'::interval"
				}
				frame = fmt.Sprintf(" RANGE BETWEEN %s PRECEDING AND %s FOLLOWING", off, g.pick("0", off, "CURRENT ROW", "UNBOUNDED"))
				frame = strings.Replace(frame, "CURRENT ROW FOLLOWING", "CURRENT ROW", 1)
				frame = strings.Replace(frame, "UNBOUNDED FOLLOWING", "UNBOUNDED FOLLOWING", 1)
			}
		}
		if !rangeOffset {
			var keys []string
			for _, c := range g.r.Perm(len(cols)) {
				keys = append(keys, cols[c]+g.pick("", " DESC", " NULLS FIRST"))
			}
			order = "ORDER BY " + strings.Join(keys, ", ")
			if mode != "" {
				start := g.pick("UNBOUNDED PRECEDING", "1 PRECEDING", "CURRENT ROW", "2 PRECEDING")
				end := g.pick("CURRENT ROW", "1 FOLLOWING", "UNBOUNDED FOLLOWING", "2 FOLLOWING")
				if mode == "RANGE" {
					start, end = g.pick("UNBOUNDED PRECEDING", "CURRENT ROW"), g.pick("CURRENT ROW", "UNBOUNDED FOLLOWING")
				}
				frame = fmt.Sprintf(" %s BETWEEN %s AND %s", mode, start, end)
			}
		}
		if frame != "" && g.chance(3) {
			frame += g.pick(" EXCLUDE CURRENT ROW", " EXCLUDE GROUP", " EXCLUDE TIES", " EXCLUDE NO OTHERS")
		}
		if rangeOffset {
			fn = g.pick("count(*)", "sum("+x+")", "min("+x+")", "max("+x+")", "count("+x+")")
		} else {
			fn = g.pick("row_number()", "rank()", "dense_rank()", "percent_rank()", "cume_dist()", "ntile(3)",
				"lag("+x+")", "lead("+x+", 2)", "first_value("+x+")", "last_value("+x+")", "nth_value("+x+", 2)",
				"count(*)", "sum("+x+")", "avg("+x+")", "min("+x+")", "max("+x+")")
		}
		items = append(items, g.item(fmt.Sprintf("%s OVER (%s %s%s)", fn, part, order, frame), i+1))
	}
	q := "SELECT " + strings.Join(items, ", ") + " FROM " + from
	if g.chance(3) {
		q += " WHERE " + g.cond(scope, 1)
	}
	return q, false
}

// setOp is two selects of compatible column kinds joined by a set
// operation, maybe ordered and limited.
func (g *smithGen) setOp() (string, bool) {
	n := 1 + g.r.IntN(3)
	var kinds []string
	for i := 0; i < n; i++ {
		kinds = append(kinds, smithKinds[g.r.IntN(len(smithKinds))])
	}
	side := func(first bool) string {
		tb := g.table()
		al := g.newAlias()
		scope := tableScope(tb, al)
		var items []string
		for i, k := range kinds {
			if !first {
				k = g.like(k)
			}
			e := g.expr(scope, k, 1)
			if first {
				e = g.item(e, i)
			}
			items = append(items, e)
		}
		q := fmt.Sprintf("SELECT %s FROM %s %s", strings.Join(items, ", "), tb.name, al)
		if g.chance(2) {
			q += " WHERE " + g.cond(scope, 1)
		}
		return q
	}
	q := side(true) + " " + g.pick("UNION", "UNION ALL", "INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL") + " " + side(false)
	if g.chance(2) {
		return q + g.orderAll(n) + g.limit(), true
	}
	return q, false
}

// distinctOn keeps the first row of each group of one key under an ORDER
// BY that starts with the key and then orders by every column in scope,
// so that which row is first is decided.
func (g *smithGen) distinctOn() (string, bool) {
	tb := g.table()
	al := g.newAlias()
	scope := tableScope(tb, al)
	key := g.colOf(scope, smithKinds[g.r.IntN(len(smithKinds))], false)
	if key == "" {
		key = al + ".k"
	}
	var items, order []string
	for i := 0; i < 1+g.r.IntN(3); i++ {
		e := g.expr(scope, smithKinds[g.r.IntN(len(smithKinds))], 1)
		if i == 0 && (e == "true" || e == "false" || e == "NULL") {
			// sqlgate's rewrite reads a bare keyword literal right after
			// DISTINCT ON (..) as a label (sql/names.go: the grammar's
			// to fix); parenthesised it is a value
			e = "(" + e + ")"
		}
		items = append(items, g.item(e, i))
	}
	order = append(order, key+g.pick("", " DESC"))
	for _, p := range g.r.Perm(len(scope)) {
		order = append(order, scope[p].ref()+g.pick("", " DESC NULLS LAST"))
	}
	q := fmt.Sprintf("SELECT DISTINCT ON (%s) %s FROM %s %s", key, strings.Join(items, ", "), tb.name, al)
	if g.chance(2) {
		q += " WHERE " + g.cond(scope, 1)
	}
	return q + " ORDER BY " + strings.Join(order, ", "), false
}
