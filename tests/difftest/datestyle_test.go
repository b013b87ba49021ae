package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// TestDateOrderDifferential reads SQLGATE_DIFF_DTINPUT/3 (default 500)
// dates written in numbers only (1/2/2020, 02-01-20, 2020.1.2, Jan 2 20,
// 2-Jan-2020, with and without a time) under each DateStyle field order,
// set by every spelling PostgreSQL takes (MDY, US, NonEuropean, DMY,
// European, Euro, YMD, alone or after a style), on sqlgate and
// PostgreSQL 15: as date, timestamp and timestamptz literals and
// parameters sent as text, as array elements, as text columns cast at run time, and as text inserted into
// date and timestamp columns. Every one must give the same value, or the same error: a date
// read in another order is stored silently wrong.
func TestDateOrderDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_DTINPUT", 1500) / 3
	seed := diffSeed(t, 1)
	ctx := context.Background()
	rp := startPair(t, ctx, &Schema{})
	g := dtGen{r: rand.New(rand.NewPCG(uint64(seed), 23))}
	styles := []struct{ set, show string }{
		{"ISO, MDY", "ISO, MDY"}, {"DMY", "ISO, DMY"}, {"US", "ISO, MDY"}, {"YMD", "ISO, YMD"},
		{"European", "ISO, DMY"}, {"NonEuropean, ISO", "ISO, MDY"}, {"euro", "ISO, DMY"}, {"iso, ymd", "ISO, YMD"},
	}
	for _, e := range []Executor{rp.SQLGate, rp.Postgres} {
		for _, q := range []string{
			"SET TimeZone = 'Asia/Kolkata'",
			"CREATE TABLE dsin (id int PRIMARY KEY, s text)",
			"CREATE TABLE dsout (id int PRIMARY KEY, d date, ts timestamp, tz timestamptz)",
		} {
			if o := e.Run(ctx, q); o.Err != nil {
				t.Fatalf("%s: %s", q, o.Err.Message)
			}
		}
	}
	stats := map[string]int{}
	id := 0
	for _, st := range styles {
		for _, e := range []Executor{rp.SQLGate, rp.Postgres} {
			if o := e.Run(ctx, "SET DateStyle = '"+st.set+"'"); o.Err != nil {
				t.Fatalf("SET DateStyle = %q: %s", st.set, o.Err.Message)
			}
		}
		show := rp.SQLGate.Run(ctx, "SHOW DateStyle")
		if show.Err != nil || len(show.Rows) != 1 || show.Rows[0][0].Text != st.show {
			t.Errorf("SET DateStyle = %q; SHOW DateStyle: %s, want %q", st.set, describeErr(show), st.show)
		}
		tally(t, ctx, rp, "SELECT current_setting('DateStyle')", stats)
		for range n / len(styles) {
			in := g.ambiguousDate()
			if g.r.IntN(3) == 0 {
				in += g.pick(" 10:20:30", " 23:59:59.5", " 04:05 pm", "T01:02:03")
			}
			lit := "'" + strings.ReplaceAll(in, "'", "''") + "'"
			tally(t, ctx, rp, "SELECT "+lit+"::date", stats)
			tally(t, ctx, rp, "SELECT timestamp "+lit+", "+lit+"::timestamptz", stats)
			// as array elements: in array text, and a text array cast
			arr := `'{"` + strings.ReplaceAll(in, "'", "''") + `"}'`
			tally(t, ctx, rp, "SELECT "+arr+"::date[], ARRAY["+lit+"]::timestamp[]", stats)
			// as parameters sent as text, declared date, timestamp,
			// timestamptz or left unknown
			for _, oid := range []uint32{1082, 1114, 1184, 0} {
				q := "SELECT $1::date"
				if oid == 1114 || oid == 1184 {
					q = "SELECT $1"
				}
				sg := runTextParam(ctx, rp.SQLGate.(*Session), q, in, oid)
				pg := runTextParam(ctx, rp.Postgres.(*Session), q, in, oid)
				if same, why := sameOutcome(sg, pg); !same && beyondTimestampEnd(sg, pg) {
					stats["refused: beyond sqlgate's timestamps"]++
				} else if !same {
					t.Errorf("%s with $1 = %q (type %d): %s", q, in, oid, why)
					stats["different"]++
				} else {
					stats["same parameter"]++
				}
			}
			id++
			ins := fmt.Sprintf("INSERT INTO dsout VALUES (%d, %s, %s, %s)", id, lit, lit, lit)
			tally(t, ctx, rp, ins, stats)
			tally(t, ctx, rp, fmt.Sprintf("INSERT INTO dsin VALUES (%d, %s)", id, lit), stats)
			// the text read at run time from a column (no constant
			// folding)
			tally(t, ctx, rp, fmt.Sprintf("SELECT s::date, s::timestamp FROM dsin WHERE id = %d", id), stats)
		}
	}
	tallyBy(t, ctx, rp, "SELECT * FROM dsout ORDER BY id", stats, tallyRule{ordered: true})
	t.Logf("%d inputs in %d styles (seed %d): %v", id, len(styles), seed, stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("the generator reached too few shapes: %v", stats)
	}
}

// runTextParam runs q with one parameter sent as text and declared oid
// (0: unknown).
func runTextParam(ctx context.Context, s *Session, q, arg string, oid uint32) Outcome {
	var res *pgconn.Result
	if qe := s.try(ctx, func(qctx context.Context) error { // run.go
		res = s.conn.ExecParams(qctx, q, [][]byte{[]byte(arg)}, []uint32{oid}, []int16{0}, []int16{0}).Read()
		return res.Err
	}); qe != nil {
		return Outcome{Err: qe}
	}
	return outcomeOf(res)
}

// sameOutcome: the same rows, or the same SQLSTATE and message.
func sameOutcome(sg, pg Outcome) (bool, string) {
	switch {
	case sg.Err != nil && pg.Err != nil:
		if sg.Err.Code == pg.Err.Code && sg.Err.Message == pg.Err.Message {
			return true, ""
		}
	case sg.Err == nil && pg.Err == nil:
		return Compare(sg, pg, true, false)
	}
	return false, fmt.Sprintf("sqlgate: %s; PostgreSQL: %s", describeErr(sg), describeErr(pg))
}

// beyondTimestampEnd reports whether PostgreSQL read a timestamp that
// sqlgate refuses as out of range because it lies past sqlgate's end:
// sqlgate's timestamps are microseconds since 1970 in an int64 and end in
// 294247 AD, PostgreSQL's (microseconds since 2000) in 294276 AD; a date
// of 294277 at a zone east of UTC is such a value (the README's types
// table states the range).
func beyondTimestampEnd(sg, pg Outcome) bool {
	if sg.Err == nil || sg.Err.Code != "22008" || pg.Err != nil || len(pg.Rows) != 1 {
		return false
	}
	for _, c := range pg.Rows[0] {
		var year int
		if _, err := fmt.Sscanf(c.Text, "%d-", &year); err == nil && year >= 294247 {
			return true
		}
	}
	return false
}
