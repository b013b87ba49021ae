package difftest

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestOutputStylesDifferential writes SQLGATE_DIFF_STYLES (default 240)
// generated dates, timestamps, timestamptz values and intervals (BC
// years, infinity, fractions of a second) in every DateStyle output
// style and field order (ISO, SQL, Postgres, German x MDY, DMY, YMD),
// under time zones with odd offsets and abbreviations, and every
// IntervalStyle, on sqlgate and PostgreSQL 15: as text results, ::text
// casts (of columns and of constants, which must not be folded in the
// default style), array and record text, ||, json (always ISO), to_char
// (unaffected) and COPY TO; and interval text read back in sql_standard,
// whose leading minus negates every field. Every one must be the same
// text.
func TestOutputStylesDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_STYLES", 240)
	seed := diffSeed(t, 1)
	ctx := context.Background()
	rp := startPair(t, ctx, &Schema{})
	r := rand.New(rand.NewPCG(uint64(seed), 31))
	// a Fluss table holds no interval: its parts, made into one by
	// make_interval (ivs)
	runOnBoth(t, ctx, rp, "CREATE TABLE sty (id int PRIMARY KEY, d date, ts timestamp, tz timestamptz, m int, dd int, us bigint)")
	const ivs = "(SELECT id, make_interval(0, m, 0, dd, 0, 0, us / 1000000.0) AS iv FROM sty) AS ivs"
	var ivTexts []string
	for id := 1; id <= n; id++ {
		d, ts, tz, iv, parts := styleValue(r, id)
		ivTexts = append(ivTexts, iv)
		runOnBoth(t, ctx, rp, fmt.Sprintf("INSERT INTO sty VALUES (%d, '%s', '%s', '%s', %d, %d, %d)", id, d, ts, tz, parts[0], parts[1], parts[2]))
	}
	stats := map[string]int{}
	ordered := tallyRule{ordered: true}
	for _, zone := range []string{"Asia/Kolkata", "America/St_Johns", "Europe/Dublin", "UTC", "Asia/Kathmandu", "+05:30", "UTC+3", "-4"} {
		runOnBoth(t, ctx, rp, "SET TimeZone = '"+zone+"'")
		for _, style := range []string{"ISO", "SQL", "Postgres", "German"} {
			for _, order := range []string{"MDY", "DMY", "YMD"} {
				runOnBoth(t, ctx, rp, "SET DateStyle = '"+style+", "+order+"'")
				tally(t, ctx, rp, "SHOW DateStyle", stats)
				tallyBy(t, ctx, rp, "SELECT id, d, ts, tz FROM sty ORDER BY id", stats, ordered)
				tallyBy(t, ctx, rp, "SELECT id, d::text, ts::text, tz::text, ARRAY[d, NULL]::text, ARRAY[ts], ARRAY[tz], "+
					"ROW(d, ts, tz), ROW(d, tz)::text, 'x' || d, tz || 'y', to_json(tz)::text, to_json(ARRAY[d])::text, "+
					"to_char(ts, 'YYYY-MM-DD HH24:MI:SS.US') FROM sty ORDER BY id", stats, ordered)
				// constants: a cast that writes text depends on the
				// session's style, so it is not folded at plan time
				tally(t, ctx, rp, "SELECT date '2020-01-02'::text, timestamptz '2020-01-02 03:04:05.25+00'::text, "+
					"ARRAY[timestamp '0044-03-15 12:00 BC']::text, 'x' || date '2020-12-31', "+
					"format('%s', timestamptz 'infinity'), date '1999-01-08'::varchar", stats)
				copyOutBoth(t, ctx, rp, "COPY (SELECT d, ts, tz FROM sty ORDER BY id) TO STDOUT", stats)
				copyOutBoth(t, ctx, rp, "COPY (SELECT d, ts, tz FROM sty ORDER BY id) TO STDOUT (FORMAT csv)", stats)
			}
		}
	}
	for _, style := range []string{"postgres", "postgres_verbose", "sql_standard", "iso_8601"} {
		runOnBoth(t, ctx, rp, "SET IntervalStyle = "+style)
		tally(t, ctx, rp, "SHOW IntervalStyle", stats)
		tallyBy(t, ctx, rp, "SELECT id, iv, iv::text, ARRAY[iv], ROW(iv, iv), 'x' || iv, to_json(iv)::text FROM "+ivs+" ORDER BY id", stats, ordered)
		tally(t, ctx, rp, "SELECT interval '1 day 2 hours'::text, ARRAY[interval '-1 year 3 days']::text, interval '-1 2:00:00'", stats)
		copyOutBoth(t, ctx, rp, "COPY (SELECT iv FROM "+ivs+" ORDER BY id) TO STDOUT", stats)
		// input: the generated text, and the same with a leading minus
		// and no other sign, which sql_standard reads for every field
		for i, in := range ivTexts[:min(len(ivTexts), 60)] {
			unsigned := strings.NewReplacer("-", "").Replace(in)
			tally(t, ctx, rp, fmt.Sprintf("SELECT interval '-%s', '-%s'::text::interval, interval '%s', '{\"-%s\"}'::interval[], ARRAY['-%s']::interval[]",
				unsigned, unsigned, in, unsigned, unsigned), stats)
			if i%4 == 0 {
				tally(t, ctx, rp, fmt.Sprintf("SELECT interval '-%d %d:%02d:%02d'", i, i%30, i%60, (i*7)%60), stats)
			}
		}
	}
	t.Logf("%d rows (seed %d): %v", n, seed, stats)
	if stats["same"] == 0 || stats["different"] != 0 && stats["same"] < 10*stats["different"] {
		t.Errorf("stats %v", stats)
	}
}

// styleValue generates one row's literals: a date, a timestamp, a
// timestamptz (with an offset, odd minutes included, or none) and an
// interval, all in ISO and postgres forms that every style reads.
func styleValue(r *rand.Rand, id int) (d, ts, tz, iv string, parts [3]int64) {
	ymd := func() string {
		y := r.IntN(4700) - 700 // 700 BC to 4000 AD
		if r.IntN(4) == 0 {
			y = 1990 + r.IntN(60)
		}
		m, dd := 1+r.IntN(12), 1+r.IntN(28)
		if y <= 0 {
			return fmt.Sprintf("%04d-%02d-%02d BC", 1-y, m, dd)
		}
		return fmt.Sprintf("%04d-%02d-%02d", y, m, dd)
	}
	clock := func() string {
		s := fmt.Sprintf("%02d:%02d:%02d", r.IntN(24), r.IntN(60), r.IntN(60))
		switch r.IntN(3) {
		case 0:
			s += fmt.Sprintf(".%06d", r.IntN(1e6))
		case 1:
			s += ".5"
		}
		return s
	}
	withClock := func(date string) string {
		date, bc := strings.CutSuffix(date, " BC")
		s := date + " " + clock()
		if bc {
			s += " BC"
		}
		return s
	}
	d, ts, tz = ymd(), withClock(ymd()), withClock(ymd())
	if off := r.IntN(4); off > 0 {
		zone := []string{"+00", "-03:30", "+05:45"}[off-1]
		date, bc := strings.CutSuffix(tz, " BC")
		tz = date + zone
		if bc {
			tz += " BC"
		}
	}
	switch id % 17 {
	case 3:
		d = "infinity"
	case 5:
		ts = "-infinity"
	case 7:
		tz = "infinity"
	}
	sign := func() int {
		if r.IntN(3) == 0 {
			return -1
		}
		return 1
	}
	var words []string
	if r.IntN(2) == 0 {
		parts[0] = int64(sign() * r.IntN(40))
		words = append(words, fmt.Sprintf("%d mons", parts[0]))
	}
	if r.IntN(2) == 0 {
		parts[1] = int64(sign() * r.IntN(40))
		words = append(words, fmt.Sprintf("%d days", parts[1]))
	}
	if r.IntN(3) > 0 {
		us := r.Int64N(200_000_000_000)
		if r.IntN(2) == 0 {
			us -= us % 1_000_000
		}
		parts[2] = int64(sign()) * us
		words = append(words, fmt.Sprintf("%d microseconds", parts[2]))
	}
	if len(words) == 0 {
		words = append(words, "0")
	}
	return d, ts, tz, strings.Join(words, " "), parts
}

// copyOutBoth runs a COPY ... TO STDOUT on both and compares the bytes.
func copyOutBoth(t *testing.T, ctx context.Context, rp *Runner, q string, stats map[string]int) {
	t.Helper()
	var out [2]bytes.Buffer
	for i, e := range []Executor{rp.SQLGate, rp.Postgres} {
		if _, err := e.(*Session).conn.CopyTo(ctx, &out[i], q); err != nil {
			t.Errorf("%s: %v", q, err)
			return
		}
	}
	if out[0].String() != out[1].String() {
		stats["different"]++
		sg, pg := strings.Split(out[0].String(), "\n"), strings.Split(out[1].String(), "\n")
		for i := range min(len(sg), len(pg)) {
			if sg[i] != pg[i] {
				t.Errorf("%s: line %d\n  sqlgate:    %q\n  PostgreSQL: %q", q, i+1, sg[i], pg[i])
				return
			}
		}
		t.Errorf("%s: %d lines, PostgreSQL %d", q, len(sg), len(pg))
		return
	}
	stats["same"]++
}

// TestStartupOptionsStyles: DateStyle and IntervalStyle given in the
// startup packet's options (PGOPTIONS='-c datestyle=SQL,DMY') set the
// session on sqlgate as on PostgreSQL 15: the ParameterStatus sent, SHOW,
// and the text of dates and intervals; a parameter of the packet itself
// wins over the options.
func TestStartupOptionsStyles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rp := startPair(t, ctx, &Schema{})
	for _, c := range []struct{ options, dateStyle, wantDS, wantIS string }{
		{`-c datestyle=SQL,DMY -c intervalstyle=sql_standard`, "", "SQL, DMY", "sql_standard"},
		{`-c datestyle=German --intervalstyle=iso_8601`, "", "German, DMY", "iso_8601"},
		{`-c datestyle=Postgres,\ YMD`, "", "Postgres, YMD", "postgres"},
		{`-c datestyle=SQL`, "ISO, DMY", "ISO, DMY", "postgres"},
	} {
		var texts [2]string
		for i, e := range []Executor{rp.SQLGate, rp.Postgres} {
			cfg, err := pgconn.ParseConfig(e.(*Session).connString)
			if err != nil {
				t.Fatal(err)
			}
			cfg.RuntimeParams["options"] = c.options
			if c.dateStyle != "" {
				cfg.RuntimeParams["DateStyle"] = c.dateStyle
			}
			conn, err := pgconn.ConnectConfig(ctx, cfg)
			if err != nil {
				t.Fatalf("options %q: %v", c.options, err)
			}
			if ds, is := conn.ParameterStatus("DateStyle"), conn.ParameterStatus("IntervalStyle"); ds != c.wantDS || is != c.wantIS {
				t.Errorf("options %q: ParameterStatus DateStyle %q, IntervalStyle %q; want %q, %q", c.options, ds, is, c.wantDS, c.wantIS)
			}
			res := conn.Exec(ctx, "SELECT current_setting('DateStyle'), date '2020-01-02', timestamp '2020-01-02 03:04:05', interval '-1 2:00:00'")
			rs, err := res.ReadAll()
			if err != nil || len(rs) != 1 || len(rs[0].Rows) != 1 {
				t.Fatalf("options %q: %v", c.options, err)
			}
			texts[i] = fmt.Sprintf("%q", rs[0].Rows[0])
			conn.Close(ctx)
		}
		if texts[0] != texts[1] {
			t.Errorf("options %q: sqlgate %s, PostgreSQL %s", c.options, texts[0], texts[1])
		}
	}
}
