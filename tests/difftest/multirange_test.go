package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// randomMultirange is a multirange of the multirange type of range type
// k: the constructor over up to three ranges, or a literal: braces around up to four ranges (empty ones, touching, overlapping and
// equal ones common, as rangeTypes' few values make them), white space
// here and there, and now and then a malformed one (a missing brace or
// comma, junk, a bound out of order), whose error is compared too.
func randomMultirange(rng *rand.Rand, k int) string {
	rt := rangeTypes[k]
	mt := strings.Replace(rt.name, "range", "multirange", 1)
	if rng.Intn(12) == 0 {
		return "NULL::" + mt
	}
	if rng.Intn(2) == 0 {
		// the constructor over ranges range_in accepts, so that most
		// values are valid (a literal's bounds are often out of order)
		parts := make([]string, rng.Intn(4))
		for i := range parts {
			parts[i] = fmt.Sprintf("COALESCE(%s, 'empty')", orderedRange(rng, k))
		}
		return mt + "(" + strings.Join(parts, ", ") + ")"
	}
	space := func() string { return []string{"", "", "", " ", "  "}[rng.Intn(5)] }
	one := func() string {
		if rng.Intn(8) == 0 {
			return "empty"
		}
		bound := func() string {
			if rng.Intn(6) == 0 {
				return ""
			}
			return `"` + rt.elem(rng) + `"`
		}
		lo, hi := bound(), bound()
		l, r := "[(", "])"
		return fmt.Sprintf("%c%s,%s%c", l[rng.Intn(2)], lo, hi, r[rng.Intn(2)])
	}
	parts := make([]string, rng.Intn(5))
	for i := range parts {
		parts[i] = space() + one() + space()
	}
	s := "{" + strings.Join(parts, ",") + "}"
	switch rng.Intn(20) {
	case 0:
		s = s[1:]
	case 1:
		s = s[:len(s)-1]
	case 2:
		s += " x"
	case 3:
		s = strings.Replace(s, ",", "", 1)
	case 4:
		s = strings.Replace(s, "}", ",}", 1)
	}
	return "'" + space() + s + space() + "'::" + mt
}

// multirangeUses are queries over two multiranges $1 and $2 of one type,
// a range $r and a value $e of its subtype ($m names the multirange type,
// $t the range type, $s the subtype).
var multirangeUses = []string{
	"SELECT $1, $1::text, lower($1), upper($1), isempty($1), range_merge($1)",
	"SELECT lower_inc($1), upper_inc($1), lower_inf($1), upper_inf($1), pg_typeof($1)",
	"SELECT $1 = $2, $1 <> $2, $1 < $2, $1 <= $2, $1 > $2, $1 >= $2",
	"SELECT $1 @> $2, $1 <@ $2, $1 && $2, $1 << $2, $1 >> $2, $1 &< $2, $1 &> $2, $1 -|- $2",
	"SELECT $1 + $2, $1 * $2, $1 - $2, $2 - $1",
	"SELECT $1 @> $r, $r <@ $1, $r @> $1, $1 <@ $r, $1 && $r, $r && $1",
	"SELECT $1 << $r, $r << $1, $1 >> $r, $r >> $1, $1 &< $r, $r &< $1, $1 &> $r, $r &> $1, $1 -|- $r, $r -|- $1",
	"SELECT $1 @> $e::$s, $e::$s <@ $1, multirange($r), $r::$m, $m($r, $r), $m()",
	"SELECT range_agg(x), range_intersect_agg(x) FROM (VALUES ($1), ($2), (NULL)) v(x)",
	"SELECT range_agg(x), range_intersect_agg(x) FROM (VALUES ($r), (NULL), (range_merge($1))) v(x)",
	"SELECT x FROM unnest($1) u(x)",
	"SELECT x FROM (VALUES ($1), ($2), ('{}'::$m)) v(x) ORDER BY x",
	"SELECT $1 UNION SELECT $2 ORDER BY 1",
	"SELECT ($1::text)::$m",
}

// TestMultirangeDifferential: every use × pairs of random multiranges of
// each of the six multirange types × ranges and values of the subtype,
// on sqlgate and PostgreSQL 15: the same values of the same types, or
// refused with the same SQLSTATE and message. SQLGATE_MULTIRANGE_PAIRS
// sets the pairs per value (default 2).
func TestMultirangeDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 4451))))
	per := envInt(t, "SQLGATE_MULTIRANGE_PAIRS", 2)
	stats := map[string]int{}
	subtypes := []string{"int4", "int8", "numeric", "date", "timestamp", "timestamptz"}
	for k, rt := range rangeTypes {
		mt := strings.Replace(rt.name, "range", "multirange", 1)
		var vals []string
		for i := 0; i < 6; i++ {
			vals = append(vals, randomMultirange(rng, k))
		}
		for _, use := range multirangeUses {
			for _, x := range vals {
				for i := 0; i < per; i++ {
					y := vals[rng.Intn(len(vals))]
					e := "'" + rt.elem(rng) + "'"
					q := strings.NewReplacer("$1", x, "$2", y, "$r", orderedRange(rng, k), "$e", e, "$m", mt, "$t", rt.name, "$s", subtypes[k]).Replace(use)
					tally(t, ctx, r, q, stats)
				}
			}
		}
	}
	for _, q := range []string{
		"SELECT int4multirange(VARIADIC ARRAY['[1,2)'::int4range, NULL])", "SELECT int4multirange(NULL::int4range)",
		"SELECT int4multirange('[1,3)', '[2,5)', '[7,8)'), nummultirange(numrange(1.0, 2), numrange(2, 3.00))",
		"SELECT '{[1,2)}'::int4multirange = '{[1,2)}'::int8multirange", "SELECT '{[1,2)}'::int4multirange + '[3,4)'::int4range",
		"SELECT '[1,2)'::int4range::int8multirange", "SELECT '{[1,2)}'::int4multirange::int4range",
		"SELECT '{[1,5)}'::int4multirange @> 3, '{[1,5)}'::int4multirange @> '{[2,3)}', '{[1,5)}'::int4multirange && '{[4,9)}'",
		"SELECT '{[2020-01-01,2020-01-05)}'::datemultirange, '{[2020-01-01 10:00+02,)}'::tstzmultirange",
		"SELECT range_agg(x) FROM (VALUES ('{[1,2),[5,6)}'::int4multirange), ('{[2,5)}')) v(x)",
		"SELECT range_agg(x) FROM (SELECT NULL::int4range WHERE false) v(x)",
	} {
		tally(t, ctx, r, q, stats)
	}
	t.Logf("%d uses: %v", len(multirangeUses), stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}

// TestMultirangeColumnsDifferential stores random multiranges in a column
// of each type (a STRING of the text, as the ranges) and reads them back
// ordered, filtered by the operators, grouped and aggregated.
func TestMultirangeColumnsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 4452))))
	stats := map[string]int{}
	tally(t, ctx, r, "CREATE TABLE ms (id int PRIMARY KEY, a int4multirange, b int8multirange, c nummultirange, d datemultirange, e tsmultirange, f tstzmultirange)", stats)
	for id := 1; id <= 20; id++ {
		vals := make([]string, len(rangeTypes))
		for k, rt := range rangeTypes {
			mt := strings.Replace(rt.name, "range", "multirange", 1)
			vals[k] = fmt.Sprintf("range_agg(x)::%s FROM (VALUES (%s), (%s)) v(x)", mt, orderedRange(rng, k), orderedRange(rng, k))
		}
		cols := make([]string, len(vals))
		for k, v := range vals {
			cols[k] = "(SELECT " + v + ")"
		}
		tally(t, ctx, r, fmt.Sprintf("INSERT INTO ms VALUES (%d, %s)", id, strings.Join(cols, ", ")), stats)
	}
	for _, q := range []string{
		"SELECT * FROM ms ORDER BY id",
		"SELECT id, a FROM ms ORDER BY a, id",
		"SELECT id, c FROM ms ORDER BY c DESC NULLS LAST, id",
		"SELECT id FROM ms WHERE a @> 2 OR d @> '2020-01-02'::date ORDER BY id",
		"SELECT id FROM ms WHERE a && '{[0,3)}' AND NOT isempty(a) ORDER BY id",
		"SELECT a, count(*) FROM ms GROUP BY a ORDER BY a",
		"SELECT range_agg(a), range_agg(c), range_intersect_agg(e), range_agg(f) FROM ms",
		"SELECT id % 3, range_agg(b), range_intersect_agg(d) FROM ms GROUP BY 1 ORDER BY 1",
		"UPDATE ms SET a = a - '{[0,2)}' WHERE id % 2 = 0",
		"SELECT id, a FROM ms ORDER BY id",
		"INSERT INTO ms (id, a) VALUES (100, '{[3,1)}')",
		"INSERT INTO ms (id, a) VALUES (100, '{[1,2)')",
		"DROP TABLE ms",
	} {
		tally(t, ctx, r, q, stats)
	}
	t.Logf("%v", stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}

// multirangeBinaryQueries return multiranges of each type and arrays of
// them in binary (multirange_send: the count, then each range's length
// and range_send form); $1 is sent as a binary int4multirange parameter.
var multirangeBinaryQueries = []string{
	"SELECT '{[1,5),[7,9)}'::int4multirange, '{}'::int4multirange, '{(,3]}'::int8multirange, '{[1.5,2),[3,)}'::nummultirange, '{[2020-01-01,2020-02-01)}'::datemultirange",
	"SELECT '{[2020-01-01 10:00,2020-01-02)}'::tsmultirange, '{(2020-01-01 10:00+02,)}'::tstzmultirange, ARRAY['{[1,2)}'::int4multirange, '{}'], NULL::nummultirange",
	"SELECT $1::int4multirange, upper($1::int4multirange), $1::int4multirange @> 2",
}

// TestMultirangeBinaryDifferential reads multiranges in binary format and
// sends an int4multirange as a binary parameter (OID 4451): the same bytes
// as PostgreSQL's, and the same result types.
func TestMultirangeBinaryDifferential(t *testing.T) {
	t.Parallel()
	// {(5,7], (1,3]} as multirange_send would write it unsorted, which
	// the server reads, normalised, as {[2,4),[6,8)}
	rangeBytes := func(lo, hi byte) []byte {
		return []byte{0, 0, 0, 17, 0x04, 0, 0, 0, 4, 0, 0, 0, lo, 0, 0, 0, 4, 0, 0, 0, hi}
	}
	param := append([]byte{0, 0, 0, 2}, append(rangeBytes(5, 7), rangeBytes(1, 3)...)...)
	compareBinary(t, multirangeBinaryQueries, param, 4451)
}
