package difftest

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestFloatDigitsDifferential prints generated real and double precision
// values (subnormals, ±0, NaN, ±Infinity, the 1e-4/1e-5, 1e6 and
// 1e15..1e17 notation boundaries, values with 15, 16 and 17 significant
// digits, random bit patterns) under extra_float_digits -15, -3, 0, 1, 2
// and 3 through every path a float's text takes: result columns (simple
// and extended protocol), casts to text and varchar, arrays, records,
// json and jsonb, concatenation, format and concat, string_agg, COPY TO
// STDOUT (text and CSV), float4 <-> float8 and numeric <-> float casts;
// sqlgate's text must be PostgreSQL 15's byte for byte. Out-of-range and
// malformed settings must be refused alike, and SHOW must agree.
// SQLGATE_DIFF_FLOATS (default 300) sets how many values.
func TestFloatDigitsDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_FLOATS", 300)
	r := seededRand(t, 31)
	ctx := context.Background()
	rp := startPair(t, ctx, &Schema{})
	runOnBoth(t, ctx, rp, "CREATE TABLE fd (id int PRIMARY KEY, d float8, r float4)",
		"CREATE TABLE fdu (id int PRIMARY KEY, d float8 UNIQUE, r float4, n int NOT NULL DEFAULT 0, CHECK (r < 1e30))",
		"CREATE TABLE fdn (d float8, a float4[], n int NOT NULL)")
	vals := floatDigitValues(r, n)
	for start := 0; start < len(vals); start += 100 {
		var b strings.Builder
		b.WriteString("INSERT INTO fd VALUES ")
		for i := start; i < min(start+100, len(vals)); i++ {
			if i > start {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "(%d, '%s', '%s')", i, vals[i].d, vals[i].r)
		}
		runOnBoth(t, ctx, rp, b.String())
	}
	stats := map[string]int{}
	exact := tallyRule{ordered: true}
	// the range check and parse_int's reading of the value
	for _, v := range []string{"4", "-16", "'abc'", "2.5", "'0x2'", "'3.5'", "'99999999999'", "-15", "DEFAULT", "3", "1"} {
		q := "SET extra_float_digits = " + v
		sg, pg := rp.SQLGate.Run(ctx, q), rp.Postgres.Run(ctx, q)
		if kind, why := verdict(sg, pg, tallyRule{detail: true}); kind == "different" {
			t.Errorf("%s:\n%s", q, why)
		} else if sg.Err != nil && (sg.Err.Code != "22023" || pg.Err.Code != "22023") {
			t.Errorf("%s: refused with %s, want 22023", q, sg.Err.Code)
		}
		tallyBy(t, ctx, rp, "SHOW extra_float_digits", stats, exact)
	}
	queries := []string{
		"SELECT id, d, r, -d, r * 2 FROM fd ORDER BY id",
		"SELECT id, d::text, r::text, d::varchar(12), r::varchar, d::float4::float8::text FROM fd ORDER BY id",
		"SELECT id, ARRAY[d, -d], ARRAY[r], ARRAY[d]::text, ARRAY[[r, r], [r, 1]], ARRAY[d, r]::text[] FROM fd ORDER BY id",
		"SELECT id, ROW(d, r), ROW(d, r)::text, ROW(ARRAY[d], r) FROM fd ORDER BY id",
		"SELECT id, to_json(d), to_jsonb(r), to_json(ARRAY[d, r]), row_to_json(ROW(d, r)), json_build_array(d, r), jsonb_build_object('d', d, 'r', r) FROM fd ORDER BY id",
		"SELECT id, 'x' || d, r || 'y', format('%s|%L|%I', d, r, d), concat(d, '/', r), concat_ws(',', d, r) FROM fd ORDER BY id",
		"SELECT string_agg(d::text, ',' ORDER BY id), string_agg(r::text, ',' ORDER BY id), array_agg(r ORDER BY id)::text FROM fd",
		"SELECT id, r::float8, d::numeric, r::numeric, d::numeric::float8, r::numeric::float4 FROM fd ORDER BY id",
		"SELECT id, d::float4 FROM fd WHERE d = 0 OR abs(d) BETWEEN 1e-37 AND 1e38 ORDER BY id",
		"SELECT 'NaN'::float8::float4, '-Infinity'::float4::float8, 1.5::float8::text, (0.1::float8 + 0.2::float8)::text, 1e-320::float8, 5e-324::float8::text",
	}
	copies := []string{
		"COPY (SELECT id, d, r, ARRAY[d, r], ROW(d, r) FROM fd ORDER BY id) TO STDOUT",
		"COPY (SELECT id, d, r, ARRAY[d], to_json(r) FROM fd ORDER BY id) TO STDOUT (FORMAT csv)",
		"COPY fd TO STDOUT", // a table's own order: lines compared sorted
	}
	for _, edf := range []int{-15, -3, 0, 1, 2, 3} {
		runOnBoth(t, ctx, rp, "SET extra_float_digits = "+strconv.Itoa(edf))
		tallyBy(t, ctx, rp, "SHOW extra_float_digits", stats, exact)
		for _, q := range queries {
			before := stats["different"]
			tallyBy(t, ctx, rp, q, stats, exact)
			if stats["different"] > before {
				t.Logf("(under extra_float_digits = %d)", edf)
			}
		}
		// an error's DETAIL prints the values too (PostgreSQL's output
		// functions): a duplicate key, a row failing a check, a null in a
		// NOT NULL column
		for _, q := range []string{
			"INSERT INTO fdu SELECT 1, d, r FROM fd WHERE id = 22",
			"INSERT INTO fdu SELECT 2, d, r FROM fd WHERE id = 22",
			"INSERT INTO fdu SELECT 3, d * 3, 1e31 FROM fd WHERE id = 22",
			"INSERT INTO fdu SELECT 4, d, r * 1e30 FROM fd WHERE id = 23",
			"INSERT INTO fdu SELECT 5, d * 7, r, NULL FROM fd WHERE id = 22",
			"INSERT INTO fdn SELECT d, ARRAY[r], NULL FROM fd WHERE id = 22",
			"UPDATE fdu SET n = NULL, d = d / 3 WHERE id = 1",
		} {
			tallyBy(t, ctx, rp, q, stats, tallyRule{detail: true})
		}
		runOnBoth(t, ctx, rp, "DELETE FROM fdu")
		// the extended protocol: a prepared statement's encoder is cached
		// across executions, and the setting changed since the last one
		q := "SELECT id, d, r, ARRAY[r], ROW(d) FROM fd WHERE id < $1 ORDER BY id"
		sgx, pgx := execText(ctx, rp.SQLGate.(*Session), q, "40"), execText(ctx, rp.Postgres.(*Session), q, "40")
		if sgx != pgx {
			t.Errorf("extended protocol under extra_float_digits = %d:\n sqlgate:    %.400s\n PostgreSQL: %.400s", edf, sgx, pgx)
			stats["different"]++
		} else {
			stats["same"]++
		}
		for _, c := range copies {
			sg, pg := copyOut(ctx, rp.SQLGate.(*Session), c), copyOut(ctx, rp.Postgres.(*Session), c)
			if !strings.Contains(c, "ORDER BY") {
				sg, pg = sortedLines(sg), sortedLines(pg)
			}
			if sg != pg {
				t.Errorf("%s under extra_float_digits = %d: first difference:\n%s", c, edf, firstLineDiff(sg, pg))
				stats["different"]++
			} else {
				stats["same"]++
			}
		}
	}
	// DDL converts under the setting too: a column's type changed to
	// text, a default computed once for the stored rows
	runOnBoth(t, ctx, rp, "CREATE TABLE fda (id int PRIMARY KEY, d float8, a float8[])",
		"INSERT INTO fda SELECT id, d, ARRAY[d, r] FROM fd",
		"SET extra_float_digits = -2",
		"ALTER TABLE fda ALTER COLUMN d TYPE text",
		"ALTER TABLE fda ALTER COLUMN a TYPE text[]",
		"ALTER TABLE fda ADD COLUMN e text DEFAULT (1.0/3)::float8::text",
		"SET extra_float_digits = 1")
	tallyBy(t, ctx, rp, "SELECT * FROM fda ORDER BY id", stats, exact)
	// a client's startup packet may set it too (pgJDBC sends 3)
	for _, edf := range []string{"-2", "3"} {
		q := "SELECT id, d, ARRAY[r], d::text, current_setting('extra_float_digits') FROM fd WHERE id < 60 ORDER BY id"
		var outs [2]Outcome
		for i, e := range []Executor{rp.SQLGate, rp.Postgres} {
			s, err := Connect(ctx, withParam(e.(*Session).connString, "extra_float_digits", edf), queryTimeout)
			if err != nil {
				t.Fatalf("connect with extra_float_digits=%s: %v", edf, err)
			}
			outs[i] = s.Run(ctx, q)
			s.Close(ctx)
		}
		if kind, why := verdict(outs[0], outs[1], exact); kind != "same" {
			t.Errorf("extra_float_digits=%s in the startup packet: %s", edf, why)
			stats["different"]++
		} else {
			stats["same"]++
		}
	}
	t.Logf("%d values: %v", len(vals), stats)
	if stats["same"] < 6*(len(queries)+len(copies)) {
		t.Errorf("only %d outcomes agreed: %v", stats["same"], stats)
	}
}

// floatDigitValue is one row's double and real, as text both systems read
// to the same bits (Go's shortest round trip; NaN and the infinities by
// name).
type floatDigitValue struct{ d, r string }

// floatDigitValues are the fixed edge cases, then generated values up to n.
func floatDigitValues(r *rand.Rand, n int) []floatDigitValue {
	var out []floatDigitValue
	add := func(d float64, f float32) {
		out = append(out, floatDigitValue{d: floatLiteral(d, 64), r: floatLiteral(float64(f), 32)})
	}
	for _, f := range []float64{
		0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1),
		5e-324, 1e-320, 2.2250738585072009e-308, 2.2250738585072014e-308, math.MaxFloat64, -math.MaxFloat64,
		1e-4, 9.9999e-5, 1e-5, 0.00012345678901234567, 1e15, 1e15 - 1, 999999999999999.9, 1e16, 1e17, 1.2345678901234567e16,
		123456789012345678, 0.30000000000000004, 1.0 / 3, 2.0 / 3, math.Pi, math.E, 1e23, 9007199254740993, 4.35, 100, 1.5, -2.5e-7,
		123456, 1234567, 1e6, 999999.5, 3.4028234663852886e38, 1.401298464324817e-45, 1.1754943508222875e-38,
	} {
		add(f, float32(f))
	}
	for len(out) < n {
		var d float64
		switch r.IntN(6) {
		case 0: // any bit pattern
			d = math.Float64frombits(r.Uint64())
		case 1: // a decimal of 15, 16 or 17 significant digits
			digits := 15 + r.IntN(3)
			m := r.Int64N(int64(math.Pow10(digits)-math.Pow10(digits-1))) + int64(math.Pow10(digits-1))
			d, _ = strconv.ParseFloat(strconv.FormatInt(m, 10)+"e"+strconv.Itoa(r.IntN(40)-20-digits), 64)
		case 2: // around the notation boundaries
			d = math.Pow10([]int{-5, -4, 5, 6, 14, 15, 16, 17}[r.IntN(8)]) * (1 + (r.Float64()-0.5)*1e-3)
		case 3: // subnormal
			d = math.Float64frombits(r.Uint64N(1 << 52))
		case 4: // a short decimal
			d, _ = strconv.ParseFloat(strconv.Itoa(r.IntN(100000))+"e"+strconv.Itoa(r.IntN(30)-15), 64)
		default: // a float computed from others, as 0.1 + 0.2
			d = float64(r.IntN(1000)) / float64(1+r.IntN(999))
		}
		if r.IntN(2) == 0 {
			d = -d
		}
		f := float32(d)
		if r.IntN(3) == 0 {
			f = math.Float32frombits(r.Uint32())
		}
		add(d, f)
	}
	return out
}

// floatLiteral is f's text as float8in/float4in read it back exactly.
func floatLiteral(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(f, 'g', -1, bits)
}

// execText runs q with one text parameter through the extended protocol
// (a prepared statement executed twice: the second execution reuses what
// the first built) and returns the second result's rows as text.
func execText(ctx context.Context, s *Session, q, param string) string {
	var out strings.Builder
	for range 2 {
		out.Reset()
		res := s.conn.ExecParams(ctx, q, [][]byte{[]byte(param)}, nil, nil, nil).Read()
		if res.Err != nil {
			return "error: " + res.Err.Error()
		}
		for _, row := range res.Rows {
			for i, c := range row {
				if i > 0 {
					out.WriteByte('|')
				}
				out.Write(c)
			}
			out.WriteByte('\n')
		}
	}
	return out.String()
}

// copyOut is the data COPY ... TO STDOUT sends, or its error.
func copyOut(ctx context.Context, s *Session, q string) string {
	var b bytes.Buffer
	if _, err := s.conn.CopyTo(ctx, &b, q); err != nil {
		return "error: " + err.Error()
	}
	return b.String()
}

// firstLineDiff is the first line two texts differ on.
func firstLineDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < max(len(al), len(bl)); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("  line %d\n  sqlgate:    %q\n  PostgreSQL: %q", i+1, x, y)
		}
	}
	return "  (same lines)"
}

// sortedLines is s's lines in sorted order.
func sortedLines(s string) string {
	lines := strings.Split(s, "\n")
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// withParam is connection string cs (a URL or key=value pairs) with a run
// time parameter sent in the startup packet.
func withParam(cs, name, value string) string {
	switch {
	case !strings.Contains(cs, "://"):
		return cs + " " + name + "=" + value
	case strings.Contains(cs, "?"):
		return cs + "&" + name + "=" + value
	}
	return cs + "?" + name + "=" + value
}
