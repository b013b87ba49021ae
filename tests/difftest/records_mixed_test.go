package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// mixedFieldFamilies are the field types a pair of generated records
// draws from: each field of a shape has a family, and each record its own
// member of it, so that two records' fields have a common type (which
// sqlgate needs to hold them in one column) but often not the same one
// (which PostgreSQL's record_cmp refuses when it reaches the pair).
// Values are few, so that fields often agree and comparisons go on.
var mixedFieldFamilies = []struct {
	types   []string
	values  map[string][]string // by type, written with ::type
	untyped []string            // untyped literals the other side types
}{
	{
		types: []string{"int", "bigint", "numeric", "float8"},
		values: map[string][]string{
			"int": {"1", "2", "NULL"}, "bigint": {"1", "2", "NULL"},
			"numeric": {"1", "2", "2.5", "NULL"}, "float8": {"1", "2.5", "NULL"},
		},
		untyped: []string{"'1'", "'2'"},
	},
	{
		types:   []string{"text", "varchar"},
		values:  map[string][]string{"text": {"'a'", "'b'", "NULL"}, "varchar": {"'a'", "'b'", "NULL"}},
		untyped: []string{"'a'", "'b'"},
	},
	{
		types:   []string{"date"},
		values:  map[string][]string{"date": {"'2024-01-01'", "'2024-01-02'", "NULL"}},
		untyped: []string{"'2024-01-01'"},
	},
}

// mixedRecordGen draws records of one shape (a family per field).
type mixedRecordGen struct {
	rng      *rand.Rand
	families []int
}

// side is one record's field types.
func (g *mixedRecordGen) side() []string {
	ts := make([]string, len(g.families))
	for i, f := range g.families {
		fam := mixedFieldFamilies[f]
		ts[i] = fam.types[g.rng.Intn(len(fam.types))]
	}
	return ts
}

// record is a ROW constructor of field types ts; with untyped, some
// fields are untyped literals.
func (g *mixedRecordGen) record(ts []string, untyped bool) string {
	vs := make([]string, len(ts))
	for i, t := range ts {
		fam := mixedFieldFamilies[g.families[i]]
		if untyped && g.rng.Intn(3) == 0 {
			vs[i] = fam.untyped[g.rng.Intn(len(fam.untyped))]
			continue
		}
		vals := fam.values[t]
		vs[i] = vals[g.rng.Intn(len(vals))] + "::" + t
	}
	return "ROW(" + strings.Join(vs, ", ") + ")"
}

// rows is a VALUES list of n rows (k, record of ts), k a small integer
// so that the set operations' neighbours often agree on it or differ.
func (g *mixedRecordGen) rows(ts []string, n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("(%d, %s)", 1+g.rng.Intn(2), g.record(ts, false))
	}
	return "(VALUES " + strings.Join(out, ", ") + ")"
}

// query is one use of two records of the shape: %[1]s and %[2]s records
// of types a and b (typed, or with untyped literals where both sides are
// constructors, which PostgreSQL compares field by field), %[3]s a third
// of type a, %[4]s and %[5]s VALUES lists of (k, record).
var mixedRecordUses = []struct {
	form    string
	untyped bool
}{
	{"SELECT %[1]s = %[2]s", true},
	{"SELECT %[1]s < %[2]s, %[1]s >= %[2]s", true},
	{"SELECT %[1]s IS DISTINCT FROM %[2]s", true},
	{"SELECT %[1]s IN (%[2]s, %[3]s)", true},
	{"SELECT %[1]s IN (SELECT %[2]s)", false},
	{"SELECT %[1]s::record = ANY (SELECT %[2]s)", false},
	{"SELECT v.r IN (SELECT w.r FROM (SELECT %[2]s) AS w(r)) FROM (SELECT %[1]s) AS v(r)", false},
	{"SELECT %[1]s::record = %[2]s::record", false},
	{"SELECT %[1]s::record < %[2]s::record", false},
	{"SELECT %[1]s::record IS DISTINCT FROM %[2]s::record", false},
	{"SELECT GREATEST(%[1]s, %[2]s)", false},
	{"SELECT LEAST(%[1]s, %[3]s, %[2]s)", false},
	{"SELECT %[1]s UNION SELECT %[2]s", false},
	{"SELECT %[1]s INTERSECT SELECT %[2]s", false},
	{"SELECT %[1]s EXCEPT SELECT %[2]s", false},
	{"SELECT * FROM %[4]s AS v UNION SELECT * FROM %[5]s AS w", false},
	{"SELECT * FROM %[4]s AS v INTERSECT SELECT * FROM %[5]s AS w", false},
	{"SELECT * FROM %[4]s AS v EXCEPT SELECT * FROM %[5]s AS w", false},
	{"SELECT v.column2, v.column1 FROM %[4]s AS v UNION SELECT w.column2, w.column1 FROM %[5]s AS w", false},
	{"SELECT CASE WHEN %[1]s = %[2]s THEN %[1]s ELSE %[2]s END", true},
	{"SELECT COALESCE(%[1]s, %[2]s), COALESCE(NULL, %[2]s, %[1]s)", false},
	{"SELECT COALESCE(NULL::record, %[1]s), ARRAY[NULL::record, %[2]s], CASE WHEN %[1]s IS NULL THEN %[2]s ELSE NULL::record END", false},
	{"SELECT %[1]s UNION SELECT NULL::record UNION ALL SELECT %[2]s", false},
}

// TestRecordsMixedDifferential gives pairs of records whose fields are
// int, bigint, numeric, float8, text, varchar or date (each field of a
// common family on both sides, often of two types) to the comparison
// operators on constructors and on records, GREATEST, LEAST, UNION,
// INTERSECT, EXCEPT (one row a side, and VALUES lists with a column
// before or after the records), IN (a list, a subquery), CASE and
// COALESCE, on sqlgate and
// PostgreSQL 15: the same rows, or the same error. PostgreSQL compares
// two constructors field by field with the fields' common types, but two
// record values with record_cmp, which fails on the first pair of
// different types it reaches; sqlgate converted GREATEST's and a set
// operation's records to their common type and compared those, and took
// a ROW constructor against a subquery for one record value.
func TestRecordsMixedDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 25))))
	seen := map[string]bool{}
	var queries []string
	for len(queries) < 540 {
		g := &mixedRecordGen{rng: rng, families: make([]int, 1+rng.Intn(3))}
		for i := range g.families {
			g.families[i] = rng.Intn(len(mixedFieldFamilies))
		}
		use := mixedRecordUses[len(queries)%len(mixedRecordUses)]
		if strings.Contains(use.form, "s IN (SELECT") || strings.Contains(use.form, "ANY (SELECT") {
			// one field against a column of records fails naming the
			// field's type, which for a varchar without a limit sqlgate
			// calls text (types.T.PGName; not this test's subject):
			// several fields fail on the count
			g.families = append(g.families, 0)
		}
		a, b := g.side(), g.side()
		// at most six rows in all: PostgreSQL sorts so few by insertion,
		// which meets a left row before a right one (the order of the
		// types in its message)
		q := fmt.Sprintf(use.form, g.record(a, use.untyped), g.record(b, use.untyped), g.record(a, use.untyped),
			g.rows(a, 1+rng.Intn(3)), g.rows(b, 1+rng.Intn(3)))
		if !seen[q] {
			seen[q] = true
			queries = append(queries, q)
		}
	}
	stats := map[string]int{}
	for _, q := range queries {
		tally(t, ctx, r, q, stats)
	}
	t.Logf("%d queries: %v", len(queries), stats)
	if stats["refused alike"] < len(queries)/20 || stats["same"] < len(queries)/2 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
