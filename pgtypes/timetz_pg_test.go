package pgtypes

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TestTimeTZAgainstPostgres reads generated time with time zone text
// (every precision, fractions of 0 to 8 digits, offsets with and without
// minutes and seconds, compact and ISO spellings, 24:00:00) with
// types.ParseTimeTZ and with a real PostgreSQL 15's timetz_in, and
// compares timetz_out's text, timetz_send's bytes and the order
// timetz_cmp gives (by UTC-equivalent time, then zone) with sqlgate's.
// Input errors are compared by SQLSTATE.
func TestTimeTZAgainstPostgres(t *testing.T) {
	ctx, conn := pgConn(t)
	if _, err := conn.Exec(ctx, "SET TimeZone = 'UTC'"); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1266, 1270))
	inputs := []string{
		"12:34:56.789+02", "12:34:56 -05:30", "12:00 PST", "04:05:06", "24:00:00+01",
		"23:59:59.9999999+01", "23:59:59.5+00", "12:00+15:59:59", "12:00-15:59:59", "allballs",
		"12:00 z", "T12:00+02", "1200+02", "120000.25-03", " 12:00:00 +2 ", "12:00:00+2:30",
		"12:00:00+0230", "2024-07-01 04:05:06 America/New_York", "2024-01-01 04:05:06 Europe/Paris",
		"00:00:00.000001-00:00:01",
	}
	for i := 0; i < 1500; i++ {
		inputs = append(inputs, randomTimeTZ(rng))
	}
	mem := memory.NewGoAllocator()
	for _, p := range []int{-1, 0, 1, 3, 5, 6} {
		typ, tt := "timetz", types.TimeTZType(6)
		if p >= 0 {
			typ, tt = fmt.Sprintf("timetz(%d)", p), types.TimeTZType(p)
		}
		want := pgTextAndBinary(t, ctx, conn, "SELECT (s::"+typ+")::text, timetz_send(s::"+typ+") FROM unnest($1::text[]) WITH ORDINALITY AS u(s, i) ORDER BY i", inputs)
		b := array.NewInt64Builder(mem)
		vals := make([]int64, len(inputs))
		for i, s := range inputs {
			v, err := types.ParseTimeTZ(s, tt, time.UTC, time.Now())
			if err != nil {
				t.Fatalf("%s %q: %v", typ, s, err)
			}
			vals[i] = v
			b.Append(v)
		}
		arr := b.NewArray()
		bad := 0
		for i, w := range want {
			text, _, err := AppendValue(nil, tt, FormatText, arr, i)
			if err != nil {
				t.Fatal(err)
			}
			bin, _, _ := AppendValue(nil, tt, FormatBinary, arr, i)
			if (string(text) != w.Text || !bytes.Equal(bin, w.Binary)) && bad < 20 {
				bad++
				t.Errorf("%s %q: sqlgate %q %x, PostgreSQL %q %x", typ, inputs[i], text, bin, w.Text, w.Binary)
			}
		}
		arr.Release()
		b.Release()
		if p >= 0 {
			continue
		}
		// timetz_cmp's order against the packed integers'
		rows, err := conn.Query(ctx, "SELECT i::int FROM unnest($1::text[]) WITH ORDINALITY AS u(s, i) ORDER BY s::timetz, i", inputs)
		if err != nil {
			t.Fatal(err)
		}
		order, err := pgx.CollectRows(rows, pgx.RowTo[int32])
		if err != nil {
			t.Fatal(err)
		}
		ours := make([]int32, len(inputs))
		for i := range ours {
			ours[i] = int32(i + 1)
		}
		slices.SortStableFunc(ours, func(a, b int32) int { return cmp.Compare(vals[a-1], vals[b-1]) })
		if !slices.Equal(order, ours) {
			t.Errorf("order differs from PostgreSQL's timetz_cmp")
		}
	}
	// errors: the same SQLSTATE
	for _, s := range []string{"12:00+16", "12:00-16:00", "04:05:06 America/New_York", "25:00+01", "12:60+01",
		"12:00+01:60", "24:00:01+00", "noon", "12:00 Nowhere/Town", "12:00 +02 x", "", "1200-02:30", "042200-00:15:58",
		"042200-0015", "1200 -02:30"} {
		_, pgErr := conn.Exec(ctx, "SELECT $1::text::timetz", s)
		_, err := types.ParseTimeTZ(s, types.TimeTZType(6), time.UTC, time.Now())
		wantCode, gotCode := "ok", "ok"
		if pgErr != nil {
			wantCode = pgCode(pgErr)
		}
		if err != nil {
			gotCode = string(sqlerr.CodeOf(err))
		}
		if wantCode != gotCode {
			t.Errorf("%q: sqlgate %s (%v), PostgreSQL %s (%v)", s, gotCode, err, wantCode, pgErr)
		}
	}
}

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return err.Error()
}

// randomTimeTZ is timetz text of random fields and spelling.
func randomTimeTZ(rng *rand.Rand) string {
	h, m, s := rng.IntN(24), rng.IntN(60), rng.IntN(60)
	var b strings.Builder
	if rng.IntN(8) == 0 {
		fmt.Fprintf(&b, "%02d%02d%02d", h, m, s)
	} else {
		fmt.Fprintf(&b, "%02d:%02d:%02d", h, m, s)
	}
	if d := rng.IntN(9); d > 0 {
		b.WriteByte('.')
		for i := 0; i < d; i++ {
			b.WriteByte(byte('0' + rng.IntN(10)))
		}
	}
	sign, form := "+-"[rng.IntN(2)], rng.IntN(4)
	if rng.IntN(4) == 0 || sign == '-' && form >= 2 && !strings.ContainsAny(b.String(), ":.") {
		// (PostgreSQL reads 042200-02:30 as a date-like field: an error)
		b.WriteByte(' ')
	}
	b.WriteByte(sign)
	oh := rng.IntN(16)
	switch form {
	case 0:
		fmt.Fprintf(&b, "%d", oh)
	case 1:
		fmt.Fprintf(&b, "%02d", oh)
	case 2:
		fmt.Fprintf(&b, "%02d:%02d", oh, rng.IntN(60))
	default:
		fmt.Fprintf(&b, "%02d:%02d:%02d", oh, rng.IntN(60), rng.IntN(60))
	}
	return b.String()
}
