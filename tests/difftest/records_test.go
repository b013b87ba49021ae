package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// recordShape is the field types of one generated anonymous record: "int",
// "text", "numeric" or "rec" (a nested record of an int and a text).
type recordShape []string

// recordGen makes ROW(...) constructors of a shape: ints, texts (with
// quotes, commas, blanks and the empty string, which record_out quotes),
// numerics of one scale (so that equal values print alike and ORDER BY's
// ties cannot differ), nested records, and NULL fields and NULL records.
type recordGen struct {
	rnd *rand.Rand
}

func (g recordGen) field(kind string) string {
	if g.rnd.Intn(6) == 0 {
		switch kind {
		case "int":
			return "NULL::int"
		case "text":
			return "NULL::text"
		case "numeric":
			return "NULL::numeric"
		}
		return "ROW(NULL::int, NULL::text)"
	}
	switch kind {
	case "int":
		return fmt.Sprint(g.rnd.Intn(5) - 2)
	case "text":
		texts := []string{"a", "b", "B", "", "a b", `x"y`, "p,q", `c\d`, "(z)"}
		return "'" + strings.ReplaceAll(texts[g.rnd.Intn(len(texts))], "'", "''") + "'::text"
	case "numeric":
		return fmt.Sprintf("%d.%d::numeric", g.rnd.Intn(3)-1, g.rnd.Intn(3))
	}
	return fmt.Sprintf("ROW(%s, %s)", g.field("int"), g.field("text"))
}

func (g recordGen) record(s recordShape) string {
	fs := make([]string, len(s))
	for i, k := range s {
		fs[i] = g.field(k)
	}
	return "ROW(" + strings.Join(fs, ", ") + ")"
}

// values is a VALUES list of n records of shape s.
func (g recordGen) values(s recordShape, n int) string {
	rows := make([]string, n)
	for i := range rows {
		rows[i] = "(" + g.record(s) + ")"
	}
	return "(VALUES " + strings.Join(rows, ", ") + ")"
}

// TestRecordsDifferential sends anonymous records (ROW(...) of one to
// three fields) through derived tables, VALUES, DISTINCT, GROUP BY, set
// operations, ORDER BY, array_agg, casts to text, pg_typeof, IS [NOT]
// NULL, joins and IN on them, and the comparison operators on sqlgate and
// PostgreSQL 15: the same rows, in the
// same order where the query orders them.
func TestRecordsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	g := recordGen{rnd: rand.New(rand.NewSource(int64(diffSeed(t, 22))))}
	kinds := []string{"int", "text", "numeric", "rec"}
	var shapes []recordShape
	for n := 1; n <= 3; n++ {
		for k := 0; k < 4; k++ {
			s := make(recordShape, n)
			for i := range s {
				s[i] = kinds[g.rnd.Intn(len(kinds))]
			}
			shapes = append(shapes, s)
		}
	}
	type query struct {
		sql     string
		ordered bool
	}
	var queries []query
	add := func(ordered bool, format string, args ...any) {
		queries = append(queries, query{fmt.Sprintf(format, args...), ordered})
	}
	for _, s := range shapes {
		v, w := g.values(s, 5), g.values(s, 4)
		add(false, "SELECT x FROM %s t(x)", v)
		add(false, "SELECT x FROM (SELECT x FROM %s t(x)) s", v)
		add(true, "SELECT x FROM %s t(x) ORDER BY x", v)
		add(true, "SELECT x FROM %s t(x) ORDER BY x DESC", v)
		add(true, "SELECT x FROM %s t(x) ORDER BY x NULLS FIRST", v)
		add(false, "SELECT DISTINCT x FROM %s t(x)", v)
		add(true, "SELECT DISTINCT x FROM %s t(x) ORDER BY 1 DESC", v)
		add(false, "SELECT x, count(*) FROM %s t(x) GROUP BY x", v)
		add(false, "SELECT x FROM %s t(x) UNION SELECT x FROM %s u(x)", v, w)
		add(false, "SELECT x FROM %s t(x) INTERSECT SELECT x FROM %s u(x)", v, v)
		add(false, "SELECT x FROM %s t(x) EXCEPT SELECT x FROM %s u(x)", v, w)
		add(true, "SELECT array_agg(x ORDER BY x) FROM %s t(x)", v)
		add(true, "SELECT pg_typeof(array_agg(x)) FROM %s t(x)", v)
		add(false, "SELECT x::text, pg_typeof(x) FROM %s t(x)", v)
		add(false, "SELECT x IS NULL, x IS NOT NULL, NOT x IS NULL FROM %s t(x)", v)
		add(false, "SELECT t.x FROM %s t(x) JOIN %s u(y) ON t.x = u.y", v, w)
		add(false, "SELECT x FROM %s t(x) WHERE x IN (SELECT y FROM %s u(y))", v, w)
		add(false, "SELECT pg_typeof(x) FROM (SELECT DISTINCT x FROM %s t(x)) s", v)
		add(true, "SELECT ARRAY[%s, %s] ORDER BY 1", g.record(s), g.record(s))
		a, b := g.record(s), g.record(s)
		add(false, "SELECT %s = %s, %s < %s, %s >= %s, %s IS DISTINCT FROM %s", a, b, a, b, a, b, a, b)
		add(false, "SELECT x = y, x <> y, x < y, x IS DISTINCT FROM y, x IS NOT DISTINCT FROM y FROM %s t(x), %s u(y)", v, w)
	}
	stats := map[string]int{}
	for _, q := range queries {
		tallyBy(t, ctx, r, q.sql, stats, tallyRule{ordered: q.ordered})
	}
	t.Logf("%d queries over %d shapes: %v", len(queries), len(shapes), stats)
	if stats["same"] == 0 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
