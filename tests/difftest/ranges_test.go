package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// rangeTypes are the built-in range types with random bound values of
// their subtype: few distinct ones, so that equal bounds, touching
// ranges and ties in order are common.
var rangeTypes = []struct {
	name string
	elem func(rng *rand.Rand) string
}{
	{"int4range", func(rng *rand.Rand) string { return fmt.Sprint(rng.Intn(9) - 2) }},
	{"int8range", func(rng *rand.Rand) string {
		return []string{"-3", "0", "1", "2", "5", "9", "4000000000", "-9223372036854775808"}[rng.Intn(8)]
	}},
	{"numrange", func(rng *rand.Rand) string {
		return []string{"-1.5", "0", "1", "1.0", "1.25", "2", "3.50", "10", "NaN"}[rng.Intn(9)]
	}},
	{"daterange", func(rng *rand.Rand) string {
		return []string{"2020-01-01", "2020-01-02", "2020-01-03", "2020-02-29", "1999-12-31", "infinity", "-infinity"}[rng.Intn(7)]
	}},
	{"tsrange", func(rng *rand.Rand) string {
		return []string{"2020-01-01 00:00", "2020-01-01 12:30:00.5", "2020-01-02", "2019-12-31 23:59:59", "infinity", "-infinity"}[rng.Intn(6)]
	}},
	{"tstzrange", func(rng *rand.Rand) string {
		return []string{"2020-01-01 00:00+00", "2020-01-01 12:30:00.5+02", "2020-01-02 00:00+00", "2019-12-31 23:59:59-05", "infinity", "-infinity"}[rng.Intn(6)]
	}},
}

// randomRange is a literal of range type k: empty, or bounds each
// infinite, quoted or plain, either inclusivity, the lower sometimes equal
// to the upper (seeded: a failure repeats). Literals whose lower bound is
// above the upper are kept: their error is compared too.
func randomRange(rng *rand.Rand, k int) string {
	rt := rangeTypes[k]
	switch rng.Intn(12) {
	case 0:
		return "'empty'::" + rt.name
	case 1:
		return "NULL::" + rt.name
	}
	bound := func() string {
		if rng.Intn(5) == 0 {
			return ""
		}
		return `"` + rt.elem(rng) + `"`
	}
	lo, hi := bound(), bound()
	if rng.Intn(4) == 0 {
		hi = lo
	}
	l, r := "[(", "])"
	return fmt.Sprintf("'%c%s,%s%c'::%s", l[rng.Intn(2)], lo, hi, r[rng.Intn(2)], rt.name)
}

// orderedRange is a random range of type k that range_in accepts: its
// constructor over the least and greatest of two values (or NULL, an
// infinite bound), with random flags, sometimes empty or NULL.
func orderedRange(rng *rand.Rand, k int) string {
	rt := rangeTypes[k]
	switch rng.Intn(10) {
	case 0:
		return "'empty'::" + rt.name
	case 1:
		return "NULL::" + rt.name
	}
	sub := []string{"int4", "int8", "numeric", "date", "timestamp", "timestamptz"}[k]
	a, b := "'"+rt.elem(rng)+"'::"+sub, "'"+rt.elem(rng)+"'::"+sub
	lo, hi := fmt.Sprintf("least(%s, %s)", a, b), fmt.Sprintf("greatest(%s, %s)", a, b)
	if rng.Intn(5) == 0 {
		lo = "NULL"
	}
	if rng.Intn(5) == 0 {
		hi = "NULL"
	}
	return fmt.Sprintf("%s(%s, %s, '%s')", rt.name, lo, hi, []string{"[]", "[)", "(]", "()"}[rng.Intn(4)])
}

// rangeUses are queries over two ranges $1 and $2 of one type and a value
// $e of its subtype ($t names the type, $s the subtype).
var rangeUses = []string{
	"SELECT $1, $1::text, lower($1), upper($1), isempty($1)",
	"SELECT lower_inc($1), upper_inc($1), lower_inf($1), upper_inf($1), pg_typeof(lower($1))",
	"SELECT $1 = $2, $1 <> $2, $1 < $2, $1 <= $2, $1 > $2, $1 >= $2",
	"SELECT $1 @> $2, $1 <@ $2, $1 && $2, $1 << $2, $1 >> $2",
	"SELECT $1 &< $2, $1 &> $2, $1 -|- $2, $1 * $2",
	"SELECT $1 + $2",
	"SELECT $1 - $2",
	"SELECT range_merge($1, $2), $1 @> $e::$s, $e::$s <@ $1",
	"SELECT $t(lower($1), upper($2)), $t(lower($1), upper($2), '[]'), $t(lower($2), upper($1), '(]'), $t(NULL, upper($1), '()')",
	"SELECT $t($e::$s, $e::$s, '[]'), $t($e::$s, $e::$s), $t($e::$s, NULL)",
	"SELECT x FROM (VALUES ($1), ($2), ('empty'::$t), ('(,)'::$t)) v(x) ORDER BY x",
	"SELECT x FROM (VALUES ($1), ($2), ('(,)'::$t)) v(x) ORDER BY x DESC",
	"SELECT $1 UNION SELECT $2 UNION SELECT 'empty' ORDER BY 1",
	"SELECT ($1::text)::$t, CAST($1 AS text)",
}

// rangeInputs are texts range_in is given: white space, quotes and
// escapes, junk, missing parts, bounds out of order, bad flags.
var rangeInputs = []string{"' [1,2) '", "'[ 1 , 2 )'", "'(1,1)'", "'[1,1]'", "'[2,1)'", "'(,)'", "'[,]'", "' empty '", "'EMPTY'", "'emptyx'",
	"'[1,2'", "'1,2)'", "'[1,2,3)'", "'[1,2)x'", "'[\"1\",\"2\")'", "'[\"1\" ,2)'", "'[\\1,2)'", "'[1,2\\'", "'[\"\",2)'", "'[a,2)'", "''",
	"'[1,2147483647]'", "'(2147483646,2147483647]'", "'[-2147483648,0)'"}

// TestRangeDifferential: every use × pairs of random ranges of each of
// the six types × values of the subtype, on sqlgate and PostgreSQL 15:
// the same values of the same types, or refused with the same SQLSTATE
// and message. SQLGATE_RANGE_PAIRS sets the pairs per value (default 2).
func TestRangeDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 3904))))
	per := envInt(t, "SQLGATE_RANGE_PAIRS", 2)
	stats := map[string]int{}
	subtypes := []string{"int4", "int8", "numeric", "date", "timestamp", "timestamptz"}
	for k, rt := range rangeTypes {
		var vals []string
		for i := 0; i < 6; i++ {
			vals = append(vals, randomRange(rng, k))
		}
		for _, use := range rangeUses {
			for _, x := range vals {
				for i := 0; i < per; i++ {
					y := vals[rng.Intn(len(vals))]
					e := "'" + rt.elem(rng) + "'"
					q := strings.NewReplacer("$1", x, "$2", y, "$e", e, "$t", rt.name, "$s", subtypes[k]).Replace(use)
					tally(t, ctx, r, q, stats)
				}
			}
		}
		for _, in := range rangeInputs {
			tally(t, ctx, r, fmt.Sprintf("SELECT %s::%s", in, rt.name), stats)
		}
	}
	for _, q := range []string{
		"SELECT int4range(1, 5, 'x')", "SELECT int4range(1, 5, NULL)", "SELECT int4range(1, 5, '[]]')",
		"SELECT int8range(1, 5) @> 3", "SELECT int4range(1, 5) = int8range(1, 5)", "SELECT '[1.0,2)'::numrange = '[1,2)'::numrange",
		"SELECT numrange(1, 2) @> 1.5, int4range(1, 10) @> '[2,3)', '[1,5)'::int4range @> '3'",
		"SELECT daterange('2020-01-01', '2020-01-05', '(]'), tsrange('2020-01-01', '2020-01-02'), tstzrange('2020-01-01 00:00+02', NULL)",
	} {
		tally(t, ctx, r, q, stats)
	}
	t.Logf("%d uses: %v", len(rangeUses), stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}

// TestRangeColumnsDifferential stores random ranges in a column of each
// type and reads them back ordered, filtered by the operators, grouped
// and made distinct.
func TestRangeColumnsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 3905))))
	stats := map[string]int{}
	tally(t, ctx, r, "CREATE TABLE rs (id int PRIMARY KEY, a int4range, b int8range, c numrange, d daterange, e tsrange, f tstzrange)", stats)
	for id := 1; id <= 25; id++ {
		vals := make([]string, len(rangeTypes))
		for k := range rangeTypes {
			vals[k] = orderedRange(rng, k)
		}
		tally(t, ctx, r, fmt.Sprintf("INSERT INTO rs VALUES (%d, %s)", id, strings.Join(vals, ", ")), stats)
	}
	for _, q := range []string{
		"SELECT * FROM rs ORDER BY id",
		"SELECT id, a FROM rs ORDER BY a, id",
		"SELECT id, b FROM rs ORDER BY b DESC NULLS LAST, id",
		"SELECT id, c FROM rs ORDER BY c, id",
		"SELECT id, d, e, f FROM rs ORDER BY d, e, f, id",
		"SELECT id FROM rs WHERE a @> 2 OR d @> '2020-01-02'::date ORDER BY id",
		"SELECT id FROM rs WHERE a && '[0,3)' AND NOT isempty(a) ORDER BY id",
		"SELECT id FROM rs WHERE e << '[2020-01-02,)' OR f >> '(,2020-01-01)' ORDER BY id",
		"SELECT a, count(*) FROM rs GROUP BY a ORDER BY a",
		"SELECT DISTINCT d FROM rs ORDER BY d",
		"SELECT id, rank() OVER (ORDER BY b) FROM rs ORDER BY id",
		"SELECT id, lower(c), upper(c), lower(f), upper(e) FROM rs ORDER BY id",
		"SELECT range_intersect_agg(a), range_intersect_agg(c), range_intersect_agg(e) FROM rs WHERE id % 3 = 0",
		"SELECT id % 4, range_intersect_agg(d), range_intersect_agg(f) FROM rs GROUP BY 1 ORDER BY 1",
		"UPDATE rs SET a = a * '[0,4)' WHERE id % 2 = 0",
		"SELECT id, a FROM rs ORDER BY id",
		"INSERT INTO rs (id, a) VALUES (100, '[3,1)')",
		"INSERT INTO rs (id, a) VALUES (100, 'x')",
		"DROP TABLE rs",
	} {
		tally(t, ctx, r, q, stats)
	}
	t.Logf("%v", stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}

// rangeBinaryQueries return ranges of each type and arrays of them, which
// travel in binary as range_send's flags and bounds; $1 is sent as a
// binary int4range parameter.
var rangeBinaryQueries = []string{
	"SELECT '[1,5)'::int4range, 'empty'::int4range, '(,3]'::int8range, '[1.5,)'::numrange, '[2020-01-01,2020-02-01)'::daterange, '[infinity,infinity]'::daterange",
	"SELECT '[2020-01-01 10:00,2020-01-02)'::tsrange, '(2020-01-01 10:00+02,)'::tstzrange, ARRAY['[1,2)'::int4range, 'empty'], NULL::numrange",
	"SELECT $1::int4range, upper($1::int4range), $1::int4range @> 2",
}

// TestRangeBinaryDifferential reads ranges in binary format and sends an
// int4range as a binary parameter (OID 3904): the same bytes as
// PostgreSQL's, and the same result types.
func TestRangeBinaryDifferential(t *testing.T) {
	t.Parallel()
	// (1,3] as range_send writes it (flags: upper inclusive), which the
	// server reads as [2,4)
	compareBinary(t, rangeBinaryQueries, []byte{0x04, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 3}, 3904)
}
