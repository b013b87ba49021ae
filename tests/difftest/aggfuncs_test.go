package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/server"
)

// The aggregate library, call by call: random SELECTs of two to four
// aggregates (avg and sum over every number type, the variance family,
// the (Y, X) statistics, string_agg and array_agg with ORDER BY and
// DISTINCT, bool_*, bit_*, min/max over text, bpchar, numbers, dates,
// arrays, bytea and intervals, count(DISTINCT)), each maybe with a FILTER,
// grouped or not, over a table of edge values (integer bounds, NaN, the
// infinities, -0, the float extremes, empty and multi-byte strings, a
// group of NULLs alone, one row alone) or over VALUES (numerics of many
// scales and NaN, intervals of equal spans written differently, bpchar
// with and without trailing blanks, 0 and -0), on sqlgate and PostgreSQL
// 15: the same rows of the same types, or the same SQLSTATE and message.
//
// What the generator leaves out is what PostgreSQL itself does not fix:
// the order of an aggregate's input without ORDER BY (every ORDER BY ends
// with the unique id), and which of equal values written differently (0
// and -0, 1.0 and 1.00, '1 mon' and '30 days', 'a' and 'a ') DISTINCT
// keeps (its sort is not stable): DISTINCT is drawn only over columns
// whose equal values print alike.

// aggSetup is the table the generated aggregates read. Its f4 and f8
// hold -0 and no 0 (see above); each group has something special: 1 the
// bounds, 2 NULLs alone, 3 one row, 4 the infinities and NaN, 5 small
// values and multi-byte text.
var aggSetup = []string{
	"DROP TABLE IF EXISTS ag",
	"CREATE TABLE ag (id int PRIMARY KEY, g int, i2 smallint, i4 int, i8 bigint, n numeric(14,4), f4 real, f8 double precision, " +
		"t text, c char(3), b boolean, bt bit(4), ba bytea, d date, ts timestamp, tz timestamptz, arr int[], tarr text[])",
	"INSERT INTO ag VALUES " +
		"(1, 1, 32767, 2147483647, 9223372036854775807, 9999999999.9999, 3.4e38, 1.7e308, 'zeta', 'z', true, B'1010', '\\xff', '2024-02-29', '2024-02-29 23:59:59.999999', '2024-03-10 07:30:00+00', '{3,2,1}', '{z,NULL}'), " +
		"(2, 1, -32768, -2147483648, -9223372036854775808, -9999999999.9999, -3.4e38, -1.7e308, '', '', false, B'0101', '\\x', '0044-03-15 BC', '1999-12-31 23:59:59', '2024-11-03 05:30:00+00', '{}', '{}'), " +
		"(3, 1, 1, 1, 1, 0.0001, 1e-45, 5e-324, 'Alpha', 'al', true, B'1111', '\\x00', 'infinity', '-infinity', 'infinity', '{NULL}', '{\"\"}'), " +
		"(4, 1, 7, 7, 7, 7.5, 7.5, 7.5, 'alpha', 'al ', NULL, B'0000', '\\x0001', '2000-01-01', '2000-01-01 00:00:00', '2000-01-01 00:00:00-08', '{1,2}', '{a,b}'), " +
		"(5, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), " +
		"(6, 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), " +
		"(7, 3, -5, -5, -5, -5.5, -5.5, -5.5, 'ß', 'ß', false, B'0110', '\\xdead', '1970-01-01', '1970-01-01 00:00:00', '1970-01-01 00:00:00+00', '{1,NULL}', '{ä}'), " +
		"(8, 4, 3, 3, 3, 1.25, 'NaN', 'NaN', 'NaN', 'NaN', true, B'1000', '\\xbeef', '-infinity', 'infinity', '-infinity', '{1}', '{a}'), " +
		"(9, 4, 2, 2, 2, 2.5, 'Infinity', 'Infinity', 'inf', 'inf', true, B'0001', '\\x01', '2024-12-31', '2024-12-31 12:00:00', '2024-12-31 23:59:59+14', '{2}', '{b}'), " +
		"(10, 4, 0, 0, 0, 0, '-Infinity', '-Infinity', '-inf', '-i', false, B'0011', '\\x02', '2025-01-01', '2025-01-01 00:00:00', '2025-01-01 00:00:00-12', '{2,1}', '{b,a}'), " +
		"(11, 5, 10, 10, 10, 0.3333, 0.1, 0.1, '日本語', '日本', true, B'0111', '\\x7f', '1600-02-29', '1600-02-29 12:00:00', '1600-02-29 12:00:00+01', '{10}', '{日本}'), " +
		"(12, 5, 20, 20, 20, 0.6667, 0.2, 0.2, 'éa', 'éa', true, B'1110', '\\x80', '2400-02-29', '2400-02-29 12:00:00', '2400-02-29 12:00:00+01', '{20}', '{é}'), " +
		"(13, 5, 30, 30, 30, 1.0001, '-0', '-0', 'e\u0301', 'e', true, B'1100', '\\x81', '2000-02-29', '2000-02-29 00:00:00', '2000-02-29 00:00:00+00', '{30,NULL}', '{NULL}'), " +
		"(14, NULL, 4, 4, 4, 4, 4, 4, 'nullg', 'ng', NULL, B'1001', '\\x04', '2004-04-04', '2004-04-04 04:04:04', '2004-04-04 04:04:04+04', '{4}', '{n}')",
}

// aggValues is a VALUES source of the types a table cannot hold or that
// need values of one type written differently: numerics of many scales
// with NaN and the infinities, intervals, bpchar without a length, and
// floats with 0 and -0 in one group.
const aggValues = "(VALUES (1, 1, 1.0::numeric, interval '1 mon', 'a'::bpchar, 0::float8), (2, 1, 1.00, interval '30 days', 'a ', '-0'), " +
	"(3, 1, 'NaN', interval '-1 day', 'a  ', 0), (4, 2, 'Infinity', interval '1 day', 'b ', '-0'), (5, 2, 2.5000, interval '24 hours', 'b', 0), " +
	"(6, 2, 2.5, interval '1 year -1 day', 'b', '-0'), (7, 3, '-Infinity', interval '-2147483648 months', 'c', 'NaN'), " +
	"(8, 3, 0.000000000000001, interval '1 mon 1 day', 'c\u00a0', 1e-300), (9, 3, 123456789012345678901234567890.5, interval '2 mons -29 days', ' c', 1e300), " +
	"(10, 4, NULL, NULL, NULL, NULL), (11, 5, 1e-20, interval '178000000 years', 'e', 'Infinity'), (12, 5, 33.333, interval '1 microsecond', 'é', 2))" +
	" v(k, g, n, iv, bp, f)"

// aggColumn is a column of ag or aggValues and what can aggregate it.
type aggColumn struct {
	name string
	kind string // num, float, text, bytes, bool, bits, date, array, interval, bpchar
	// canon: equal values print alike, so DISTINCT may take it
	canon bool
}

var (
	aggTableCols = []aggColumn{
		{"i2", "int", true}, {"i4", "int", true}, {"i8", "int", true}, {"n", "num", true}, {"f4", "float", true}, {"f8", "float", true},
		{"t", "text", true}, {"c", "text", true}, {"b", "bool", true}, {"bt", "bits", true}, {"ba", "bytes", true},
		{"d", "date", true}, {"ts", "date", true}, {"tz", "date", true}, {"arr", "array", true}, {"tarr", "array", true},
		{"i4::numeric(20,3)", "num", true}, {"i2 * 1.5", "num", true}, {"f4::float8", "float", true}, {"length(t)", "int", true},
	}
	aggValuesCols = []aggColumn{
		{"n", "num", false}, {"iv", "interval", false}, {"bp", "text", false}, {"f", "float", false},
		{"n::float8", "float", true}, {"g", "int", true}, {"bp::text", "text", true},
	}
)

// aggCall is a random aggregate call over one of cols.
func aggCall(rng *rand.Rand, cols []aggColumn) string {
	p := pickFrom(rng)
	pickKind := func(kinds ...string) (aggColumn, bool) {
		var ok []aggColumn
		for _, c := range cols {
			for _, k := range kinds {
				if c.kind == k {
					ok = append(ok, c)
				}
			}
		}
		if len(ok) == 0 {
			return aggColumn{}, false
		}
		return ok[rng.Intn(len(ok))], true
	}
	distinct := func(c aggColumn) string {
		if c.canon && rng.Intn(4) == 0 {
			return "DISTINCT "
		}
		return ""
	}
	orderBy := func(c aggColumn) string {
		// PostgreSQL's sort is not stable: a tie-break makes the order one
		tie := ", id"
		if !strings.Contains(cols[0].name, "i2") {
			tie = ", k"
		}
		return " ORDER BY " + c.name + p("", " DESC", " NULLS FIRST", " DESC NULLS LAST") + tie + p("", " DESC")
	}
	var call string
	switch rng.Intn(11) {
	case 0, 1:
		c, _ := pickKind("int", "num", "float", "interval")
		call = fmt.Sprintf("%s(%s%s)", p("avg", "sum"), distinct(c), c.name)
	case 2:
		c, _ := pickKind("int", "num", "float")
		call = fmt.Sprintf("%s(%s%s)", p("stddev", "variance", "stddev_pop", "stddev_samp", "var_pop", "var_samp"), distinct(c), c.name)
	case 3:
		y, _ := pickKind("int", "num", "float")
		x, _ := pickKind("int", "num", "float")
		call = fmt.Sprintf("%s(%s, %s)", p("corr", "covar_pop", "covar_samp", "regr_slope", "regr_intercept", "regr_r2", "regr_count",
			"regr_avgx", "regr_avgy", "regr_sxx", "regr_syy", "regr_sxy"), y.name, x.name)
	case 4:
		c, ok := pickKind("text", "bytes")
		if !ok {
			return "count(*)"
		}
		sep := p("','", "''", "NULL", "' | '", "'ä'")
		if c.kind == "bytes" {
			sep = p("'\\x2c'::bytea", "''::bytea", "NULL::bytea")
		}
		if d := distinct(c); d != "" {
			call = fmt.Sprintf("string_agg(DISTINCT %s, %s)", c.name, sep)
			if rng.Intn(2) == 0 {
				call = fmt.Sprintf("string_agg(DISTINCT %s, %s ORDER BY %s%s)", c.name, sep, c.name, p("", " DESC", " DESC NULLS LAST"))
			}
		} else {
			call = fmt.Sprintf("string_agg(%s, %s%s)", c.name, sep, orderBy(c))
		}
	case 5:
		c := cols[rng.Intn(len(cols))]
		if c.canon && rng.Intn(3) == 0 {
			call = fmt.Sprintf("array_agg(DISTINCT %s)", c.name)
		} else {
			call = fmt.Sprintf("array_agg(%s%s)", c.name, orderBy(c))
		}
	case 6:
		if c, ok := pickKind("bool"); ok {
			call = fmt.Sprintf("%s(%s)", p("bool_and", "bool_or", "every"), c.name)
		} else {
			c, _ := pickKind("int", "num")
			call = fmt.Sprintf("%s(%s > 1)", p("bool_and", "bool_or", "every"), c.name)
		}
	case 7:
		c, ok := pickKind("int", "bits")
		if !ok || strings.ContainsAny(c.name, "*:(") {
			return "count(*)"
		}
		call = fmt.Sprintf("%s(%s)", p("bit_and", "bit_or", "bit_xor"), c.name)
	case 8:
		c, _ := pickKind("int", "num", "float", "text", "bytes", "date", "array", "interval")
		call = fmt.Sprintf("%s(%s%s)", p("min", "max"), distinct(c), c.name)
	case 9:
		c := cols[rng.Intn(len(cols))]
		call = p("count(*)", "count("+c.name+")", "count(DISTINCT "+c.name+")")
		if !c.canon && strings.Contains(call, "DISTINCT") {
			call = "count(" + c.name + ")"
		}
	default:
		c, _ := pickKind("int", "num", "float", "text")
		call = fmt.Sprintf("%s(%s%s)", p("min", "max", "sum", "avg"), distinct(c), c.name)
		if c.kind == "text" {
			call = fmt.Sprintf("%s(%s%s)", p("min", "max"), distinct(c), c.name)
		}
	}
	if rng.Intn(4) == 0 {
		c := cols[rng.Intn(len(cols))]
		call += " FILTER (WHERE " + p(c.name+" IS NOT NULL", c.name+" IS NULL", "g <> 3", "g IN (1, 4)", "false") + ")"
	}
	if rng.Intn(6) == 0 {
		call = "pg_typeof(" + call + ")"
	}
	return call
}

// aggQuery is a random aggregate query over ag or aggValues.
func aggQuery(rng *rand.Rand) string {
	p := pickFrom(rng)
	cols, from, where := aggTableCols, "ag", p("", "", " WHERE id % 2 = 0", " WHERE g > 3", " WHERE false", " WHERE i4 >= 0", " WHERE g = 5")
	if rng.Intn(3) == 0 {
		cols, from, where = aggValuesCols, aggValues, p("", "", " WHERE g < 3", " WHERE false")
	}
	calls := make([]string, 2+rng.Intn(3))
	for i := range calls {
		calls[i] = aggCall(rng, cols)
	}
	if rng.Intn(3) == 0 {
		return "SELECT " + strings.Join(calls, ", ") + " FROM " + from + where
	}
	return "SELECT g, " + strings.Join(calls, ", ") + " FROM " + from + where + " GROUP BY g ORDER BY g"
}

// TestAggregatesDifferential runs SQLGATE_DIFF_AGG_QUERIES (default 1500)
// generated aggregate queries (seed SQLGATE_DIFF_SEED) on the row path
// and on the columnar one (ColumnarMinRows 1: ag's scans read its
// columnar image once built).
func TestAggregatesDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_AGG_QUERIES", 1500)
	for _, mode := range []struct {
		name      string
		inProcess func(context.Context, string) (string, func(), error)
		seed      int
	}{
		{"row", server.InProcess, 41},
		{"columnar", server.InProcessColumnar(1), 42},
	} {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			r := startPairWith(t, ctx, &Schema{}, mode.inProcess)
			for _, c := range []*Session{r.SQLGate.(*Session), r.Postgres.(*Session)} {
				if err := c.Exec(ctx, aggSetup); err != nil {
					t.Fatal(err)
				}
			}
			rng := rand.New(rand.NewSource(int64(diffSeed(t, mode.seed))))
			stats := map[string]int{}
			for i := 0; i < n; i++ {
				tallyBy(t, ctx, r, aggQuery(rng), stats, tallyRule{ordered: true})
			}
			t.Logf("%d aggregate queries: %v", n, stats)
			if stats["same"] < n/2 || stats["different"] > 0 {
				t.Errorf("outcomes: %v", stats)
			}
		})
	}
}
