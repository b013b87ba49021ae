package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// recordFieldFamilies are the field types a generated record takes, in
// families whose members have a common type that prints each value as
// its own type does (integer and numeric, text and varchar), and values
// for each: typed ones, and untyped literals a ROW constructor leaves to
// the common type. Mixed families (integer with text, boolean with
// anything) have no common type in sqlgate's one-type-per-column records
// (0A000, documented there): not generated.
var recordFieldFamilies = []struct {
	types   []string
	values  []string // written with ::type
	untyped []string // written as they are
}{
	{[]string{"int", "bigint", "numeric", "smallint"}, []string{"1", "-7", "0", "NULL", "42"}, []string{"5", "NULL"}},
	{[]string{"numeric"}, []string{"2.50", "-0.125", "NULL"}, nil},
	{[]string{"text", "varchar(8)"}, []string{"'a'", "'x y'", "'p,q'", "''", "NULL", `'"'`}, []string{"'z'", "'m n'", "NULL"}},
	{[]string{"boolean"}, []string{"true", "false", "NULL"}, nil},
	{[]string{"date"}, []string{"'2024-02-29'", "NULL"}, nil},
}

// recordCommonGen draws records of one shape (a family per field).
type recordCommonGen struct {
	rng      *rand.Rand
	families []int
}

// typed is a list of typed field values, one per field.
func (g *recordCommonGen) typed() []string {
	out := make([]string, len(g.families))
	for i, f := range g.families {
		fam := recordFieldFamilies[f]
		v := fam.values[g.rng.Intn(len(fam.values))]
		out[i] = v + "::" + fam.types[g.rng.Intn(len(fam.types))]
	}
	return out
}

// ctor is a ROW constructor of the shape, some fields untyped literals.
func (g *recordCommonGen) ctor() string {
	vs := g.typed()
	for i, f := range g.families {
		fam := recordFieldFamilies[f]
		if len(fam.untyped) > 0 && g.rng.Intn(2) == 0 {
			vs[i] = fam.untyped[g.rng.Intn(len(fam.untyped))]
		}
	}
	return "ROW(" + strings.Join(vs, ", ") + ")"
}

// wholeRow is a derived table u of the shape (one row, or none by a LEFT
// JOIN that finds nothing) whose whole row u the query reads.
func (g *recordCommonGen) wholeRow() string {
	vs := g.typed()
	names := make([]string, len(vs))
	for i := range vs {
		names[i] = fmt.Sprintf("c%d", i+1)
	}
	on := []string{"true", "false", "o.q = 1"}[g.rng.Intn(3)]
	return fmt.Sprintf("(SELECT 1) AS o(q) LEFT JOIN (SELECT %s) AS u(%s) ON %s", strings.Join(vs, ", "), strings.Join(names, ", "), on)
}

// recordUses are the constructs that need one type for records: %[1]s
// and %[2]s two records (u the whole row when the query has FROM %[3]s).
var recordUses = []string{
	"SELECT COALESCE(%[1]s, %[2]s) FROM %[3]s",
	"SELECT COALESCE(%[2]s, %[1]s) FROM %[3]s",
	"SELECT COALESCE(NULL, %[2]s, %[1]s) FROM %[3]s",
	"SELECT CASE WHEN o.q = 1 THEN %[2]s ELSE %[1]s END FROM %[3]s",
	"SELECT CASE WHEN %[1]s IS NULL THEN %[2]s END FROM %[3]s",
	"SELECT ARRAY[%[1]s, %[2]s] FROM %[3]s",
	"SELECT ARRAY[%[2]s, NULL, %[1]s] FROM %[3]s",
	"SELECT %[1]s FROM %[3]s UNION ALL SELECT %[2]s",
	"SELECT %[2]s UNION ALL SELECT %[1]s FROM %[3]s",
	"SELECT COALESCE(ARRAY[%[1]s], ARRAY[%[2]s]) FROM %[3]s",
	"SELECT COALESCE(ROW(%[1]s, 1), ROW(%[2]s, 2)) FROM %[3]s",
	"SELECT (SELECT COALESCE(%[1]s, %[2]s)) FROM %[3]s",
}

// TestRecordCommonTypeDifferential gives a whole row and ROW
// constructors (some fields untyped literals) of one shape to COALESCE,
// CASE, ARRAY[...] and UNION ALL, nested in records and arrays, on
// sqlgate and PostgreSQL 15: the same rows. PostgreSQL types them all
// record; sqlgate refused two records whose fields differed in type or
// names ("COALESCE types record and record cannot be matched") and read
// ARRAY[ROW(1), ROW(2.5)] as integers.
func TestRecordCommonTypeDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 7))))
	seen := map[string]bool{}
	var queries []string
	for len(queries) < 360 {
		g := &recordCommonGen{rng: rng, families: make([]int, 1+rng.Intn(3))}
		for i := range g.families {
			g.families[i] = rng.Intn(len(recordFieldFamilies))
		}
		use := recordUses[len(queries)%len(recordUses)]
		from := g.wholeRow()
		var x string
		// a UNION branch's constructor is typed within its own SELECT,
		// before the set operation meets the other branch, and one in
		// ARRAY[..] when the array is built: its untyped literals are
		// text there (PostgreSQL keeps them unknown inside the record),
		// so these uses get typed constructors
		typedOnly := strings.Contains(use, "UNION") || strings.Contains(use, "ARRAY[%[1]s], ARRAY")
		ctor := g.ctor
		if typedOnly {
			ctor = func() string { return "ROW(" + strings.Join(g.typed(), ", ") + ")" }
		}
		switch rng.Intn(3) {
		case 0:
			x = ctor()
		default:
			x = "u"
		}
		y := ctor()
		q := fmt.Sprintf(use, x, y, from)
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
	if stats["same"] < len(queries)*9/10 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}
