package difftest

import (
	"context"
	"strconv"
	"strings"
	"testing"
)

// TestDateOrderCopyAndCompositesDifferential: DateStyle's field order
// reaches COPY FROM (text and CSV) and a composite's date fields too, on
// sqlgate as on PostgreSQL 15: the same ambiguous dates read under DMY and
// YMD give the same stored values.
func TestDateOrderCopyAndCompositesDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	rp := startPair(t, ctx, &Schema{})
	runOnBoth(t, ctx, rp,
		"CREATE TYPE dscomp AS (d date, n int)",
		"CREATE TABLE dscopy (id int PRIMARY KEY, d date, ts timestamp)")
	// each valid in every order, read differently in each
	dates := []string{"03-04-05", "05.06.07", "07/08/09 10:11:12", "12-11-10", "02/03/04", "11/12/13"}
	id := 0
	for _, order := range []string{"ISO, DMY", "ISO, YMD", "ISO, MDY"} {
		runOnBoth(t, ctx, rp, "SET DateStyle = '"+order+"'")
		for _, format := range []string{"text", "csv"} {
			var text strings.Builder
			sep := "\t"
			if format == "csv" {
				sep = ","
			}
			for _, d := range dates {
				id++
				text.WriteString(strings.Join([]string{strconv.Itoa(id), d, d}, sep) + "\n")
			}
			for _, e := range []Executor{rp.SQLGate, rp.Postgres} {
				sess := e.(*Session)
				if _, err := sess.conn.CopyFrom(ctx, strings.NewReader(text.String()), "COPY dscopy FROM STDIN (FORMAT "+format+")"); err != nil {
					t.Fatalf("COPY %s under %s: %v", format, order, err)
				}
			}
		}
		for _, d := range dates {
			q := "SELECT ('(" + d + ",1)'::dscomp).d::text"
			if same, why := Compare(rp.SQLGate.Run(ctx, q), rp.Postgres.Run(ctx, q), true, false); !same {
				t.Errorf("%s under %s: %s", q, order, why)
			}
		}
	}
	q := "SELECT id, d::text, ts::text FROM dscopy ORDER BY id"
	sg, pg := rp.SQLGate.Run(ctx, q), rp.Postgres.Run(ctx, q)
	if same, why := Compare(sg, pg, true, false); !same {
		t.Errorf("rows COPY stored differ: %s", why)
	}
	if len(pg.Rows) != id {
		t.Fatalf("PostgreSQL holds %d rows, want %d", len(pg.Rows), id)
	}
}
