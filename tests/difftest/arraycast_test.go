package difftest

import (
	"context"
	"math/rand"
	"strings"
	"testing"
)

// arrayCastTargets are the element types ARRAY[...] constructors are cast
// to, typmods included (an explicit cast truncates varchar(2) and rounds
// numeric(5,2)).
var arrayCastTargets = []string{
	"int2", "int4", "int8", "numeric", "numeric(5,2)", "float4", "float8",
	"text", "varchar(2)", "char(2)", "bool", "date", "timestamp", "interval", "jsonb",
}

// arrayCastElems are constructor elements: untyped literals (read as the
// cast's element type when the cast is pushed into the constructor, as
// PostgreSQL does: ARRAY[10, 'NaN']::numeric[]), typed values (which need
// only an explicit cast to it: ARRAY[1, true]::int[]), and NULLs. Many
// fit only some targets; the refusals must match too.
var arrayCastElems = []string{
	"'1'", "'NaN'", "'2.5'", "'x'", "'abc'", "'2020-01-02'", "'t'", "'1 day'", "'{\"a\": 1}'", "' 7 '", "'40000'",
	"NULL", "10", "2.345", "true", "'12'::text", "1.5::float8", "3::int2", "'2020-01-02'::date", "'1 hour'::interval",
}

// genArrayCast builds a random ARRAY[...] constructor of 1 or 2
// dimensions cast to a target of arrayCastTargets: nested constructors,
// sometimes an array literal or a typed array among the sub-arrays, and
// when ragged, now and then sub-arrays of different lengths (2202E on
// both; only alone: sqlgate folds the constructor when binding, so its
// 2202E would come before a UNION's type error, which PostgreSQL, folding
// when planning, reports first).
func genArrayCast(rng *rand.Rand, ragged bool) (sql, target string, depth int) {
	target = arrayCastTargets[rng.Intn(len(arrayCastTargets))]
	pick := func() string {
		e := arrayCastElems[rng.Intn(len(arrayCastElems))]
		if target == "numeric(5,2)" && (e == "'NaN'" || e == "'40000'") {
			// two known gaps outside array casts: sqlgate's numeric(p,s)
			// holds no NaN (0A000, PostgreSQL NaN), and it raises a typmod
			// overflow when binding, before a later UNION's type error
			// that PostgreSQL, folding the typmod cast when planning,
			// reports first
			return "NULL"
		}
		return e
	}
	elems := func() string {
		parts := make([]string, 1+rng.Intn(3))
		for i := range parts {
			parts[i] = pick()
		}
		return strings.Join(parts, ", ")
	}
	suffix := "[]"
	if rng.Intn(5) == 0 {
		suffix = "[][]" // the same type in PostgreSQL
	}
	if rng.Intn(3) > 0 {
		return "ARRAY[" + elems() + "]::" + target + suffix, target, 1
	}
	width := 1 + rng.Intn(2)
	subs := make([]string, 1+rng.Intn(3))
	for i := range subs {
		w := width
		if ragged && rng.Intn(4) == 0 {
			w = 3 // a sub-array of another length
		}
		parts := make([]string, w)
		for j := range parts {
			parts[j] = pick()
		}
		switch {
		case i > 0 && rng.Intn(6) == 0:
			subs[i] = "'{" + strings.Repeat("1,", w-1) + "1}'" // an array literal among sub-arrays
		case i > 0 && rng.Intn(6) == 0:
			subs[i] = "ARRAY[" + strings.Repeat("2, ", w-1) + "2]" // a typed array
		default:
			subs[i] = "ARRAY[" + strings.Join(parts, ", ") + "]"
		}
	}
	return "ARRAY[" + strings.Join(subs, ", ") + "]::" + target + suffix, target, 2
}

// arrayCastUses put one or two generated casts ($a, $b; $b of the same
// number of dimensions) in a query: alone, and in the constructs that
// look for a common array type.
var arrayCastUses = []string{
	"SELECT $a",
	"SELECT $a AS x UNION ALL SELECT $b",
	"SELECT $a AS x UNION SELECT $b",
	"VALUES ($a), ($b)",
	"SELECT COALESCE(NULL, $a, $b)",
	"SELECT CASE WHEN g > 1 THEN $a ELSE $b END FROM generate_series(1, 2) g",
	"SELECT x FROM (VALUES ('1'), ('5')) v(s), LATERAL (SELECT ARRAY[s, $e]::$T[] AS x) l",
}

// TestArrayCastDifferential: random casts of ARRAY[...] constructors to
// every element type, alone and unified with one another by UNION,
// VALUES, COALESCE and CASE, on sqlgate and PostgreSQL 15: the same rows
// of the same column types, or the same SQLSTATE and message (and, for
// an element's input error, the same position). Arrays of different
// numbers of dimensions are not unified here: sqlgate's array types fix
// them and it refuses such a column with 0A000 (TestArrayCastDepths).
func TestArrayCastDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 23))))
	stats := map[string]int{}
	placed := func(code string) bool { return code == "22P02" || code == "22003" }
	n := 150
	if testing.Short() {
		n = 30
	}
	for i := 0; i < n; i++ {
		ragged, _, _ := genArrayCast(rng, true)
		tallyBy(t, ctx, r, "SELECT "+ragged, stats, tallyRule{placed: placed})
		a, at, da := genArrayCast(rng, false)
		b, _, db := genArrayCast(rng, false)
		for db != da {
			b, _, db = genArrayCast(rng, false)
		}
		e := arrayCastElems[rng.Intn(len(arrayCastElems))]
		if at == "numeric(5,2)" {
			e = "'2.5'" // see genArrayCast
		}
		rep := strings.NewReplacer("$a", a, "$b", b, "$e", e, "$T", at)
		for _, use := range arrayCastUses {
			tallyBy(t, ctx, r, rep.Replace(use), stats, tallyRule{placed: placed})
		}
	}
	t.Logf("%d pairs of casts × %d uses, and %d casts of ragged constructors: %v", n, len(arrayCastUses), n, stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 || stats["different"] > 0 {
		t.Errorf("outcomes: %v", stats)
	}
}

// TestArrayCastDepths: a common type of arrays of different numbers of
// dimensions, which PostgreSQL takes (int[] and int[][] are one type) and
// sqlgate refuses with 0A000 rather than answer wrongly, unless the
// elements have no common type, which both refuse alike.
func TestArrayCastDepths(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	for _, tc := range []struct {
		q    string
		code string // sqlgate's SQLSTATE; "" when it answers as PostgreSQL
	}{
		{"SELECT ARRAY[1] AS x UNION ALL SELECT ARRAY[ARRAY[2, 3]]", "0A000"},
		{"VALUES (ARRAY[1]), (ARRAY[ARRAY[2.5]])", "0A000"},
		{"SELECT COALESCE(NULL, ARRAY[ARRAY[1]], ARRAY[2])", "0A000"},
		{"SELECT ARRAY[1] AS x UNION ALL SELECT ARRAY[ARRAY['a'::text]]", ""},
		{"SELECT ARRAY[ARRAY[1], ARRAY[ARRAY[2]]]", ""},
		{"SELECT ARRAY[ARRAY[1], ARRAY[ARRAY['2']]]::int[]", ""},
		{"SELECT '{{1},{2}}'::int[], '{1}'::int[][], ARRAY[1, 2]::int[][]", ""},
	} {
		sg := r.SQLGate.Run(ctx, tc.q)
		if tc.code != "" {
			if sg.Err == nil || sg.Err.Code != tc.code {
				t.Errorf("%s: sqlgate %s, want SQLSTATE %s", tc.q, describeErr(sg), tc.code)
			}
			continue
		}
		stats := map[string]int{}
		tally(t, ctx, r, tc.q, stats)
	}
}
