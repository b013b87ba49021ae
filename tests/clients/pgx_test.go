package clients

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

func numeric(t *testing.T, s string) pgtype.Numeric {
	t.Helper()
	var n pgtype.Numeric
	if err := n.Scan(s); err != nil {
		t.Fatal(err)
	}
	return n
}

// pgxRows are the round-trip rows as pgx parameters.
func pgxRows(t *testing.T) [][]any {
	return [][]any{
		{int32(1), int64(math.MaxInt64), int32(math.MaxInt32), int16(math.MaxInt16), math.MaxFloat64, float32(math.MaxFloat32), true,
			rtText1, rtVchar1, numeric(t, "9999999999999999.9999"), pgtype.Date{Time: rtDate1, Valid: true}, rtTS1, rtTS1, rtBytes1},
		{int32(2), int64(math.MinInt64), int32(math.MinInt32), int16(math.MinInt16), -2.2250738585072014e-308, float32(-1.1754944e-38), false,
			rtText2, "", numeric(t, "-9999999999999999.9999"), pgtype.Date{Time: rtDate2, Valid: true}, rtTS2, rtTS2, []byte{}},
		{int32(3), nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
	}
}

// roundTripPgx inserts the rows with parameters and reads them back in
// the connection's mode.
func roundTripPgx(t *testing.T, conn *pgx.Conn, table string, mode pgx.QueryExecMode) {
	t.Helper()
	ctx := context.Background()
	for _, row := range pgxRows(t) {
		args := append([]any{mode}, row...)
		if _, err := conn.Exec(ctx, fmt.Sprintf(roundTripInsert, table), args...); err != nil {
			t.Fatalf("insert row %v: %v", row[0], err)
		}
	}
	rows, err := conn.Query(ctx, fmt.Sprintf(roundTripSelect, table), mode)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	want := pgxRows(t)
	i := 0
	for rows.Next() {
		var (
			id        int32
			i8        *int64
			i4        *int32
			i2        *int16
			f8        *float64
			f4        *float32
			b         *bool
			tx, v     *string
			n         pgtype.Numeric
			d, ts, tz *time.Time
			bin       []byte
		)
		if err := rows.Scan(&id, &i8, &i4, &i2, &f8, &f4, &b, &tx, &v, &n, &d, &ts, &tz, &bin); err != nil {
			t.Fatalf("scan row %d: %v", i+1, err)
		}
		w := want[i]
		got := []any{id, deref(i8), deref(i4), deref(i2), deref(f8), deref(f4), deref(b), deref(tx), deref(v), numText(n), timeOf(d), timeOf(ts), timeOf(tz), bytesOrNil(bin)}
		exp := []any{w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], numTextAny(w[9]), dateAny(w[10]), timeAny(w[11]), timeAny(w[12]), bytesAny(w[13])}
		for k := range got {
			if !reflect.DeepEqual(got[k], exp[k]) {
				t.Errorf("%s row %d column %d: got %#v, want %#v", table, i+1, k, got[k], exp[k])
			}
		}
		i++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if i != 3 {
		t.Fatalf("read %d rows, want 3", i)
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func numText(n pgtype.Numeric) any {
	if !n.Valid {
		return nil
	}
	v, _ := n.Value()
	return v
}

func numTextAny(v any) any {
	if v == nil {
		return nil
	}
	return numText(v.(pgtype.Numeric))
}

func timeOf(p *time.Time) any {
	if p == nil {
		return nil
	}
	return p.UTC()
}

func timeAny(v any) any {
	if v == nil {
		return nil
	}
	return v.(time.Time).UTC()
}

func dateAny(v any) any {
	if v == nil {
		return nil
	}
	return v.(pgtype.Date).Time.UTC()
}

func bytesOrNil(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}

func bytesAny(v any) any {
	if v == nil {
		return nil
	}
	return string(v.([]byte))
}

func TestPgxModes(t *testing.T) {
	srv := startServer(t)
	modes := []struct {
		name string
		mode pgx.QueryExecMode
	}{
		{"cache_statement", pgx.QueryExecModeCacheStatement},
		{"cache_describe", pgx.QueryExecModeCacheDescribe},
		{"describe_exec", pgx.QueryExecModeDescribeExec},
		{"exec", pgx.QueryExecModeExec},
		{"simple", pgx.QueryExecModeSimpleProtocol},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			conn := connectPgx(t, srv.ConnString())
			table := "rt_pgx_" + m.name
			createRoundTripTable(t, conn, table)
			roundTripPgx(t, conn, table, m.mode)
			checkStored(t, srv.ConnString(), table)
		})
	}
}

func TestPgxBatch(t *testing.T) {
	srv := startServer(t)
	conn := connectPgx(t, srv.ConnString())
	ctx := context.Background()
	createRoundTripTable(t, conn, "rt_batch")
	b := &pgx.Batch{}
	for _, row := range pgxRows(t) {
		b.Queue(fmt.Sprintf(roundTripInsert, "rt_batch"), row...)
	}
	b.Queue("SELECT count(*) FROM rt_batch")
	br := conn.SendBatch(ctx, b)
	for i := 0; i < 3; i++ {
		tag, err := br.Exec()
		if err != nil || tag.String() != "INSERT 0 1" {
			t.Fatalf("batch insert %d: %v %v", i, tag, err)
		}
	}
	var n int64
	if err := br.QueryRow().Scan(&n); err != nil || n != 3 {
		t.Fatalf("count: %d %v", n, err)
	}
	if err := br.Close(); err != nil {
		t.Fatal(err)
	}
	checkStored(t, srv.ConnString(), "rt_batch")

	// An error in the middle of a pipelined batch (exec mode: no prepare
	// round trip first): the batch is one implicit transaction, so the
	// statement before it is rolled back, the ones after it are skipped,
	// and the connection stays usable.
	exec := connectPgx(t, srv.ConnString()+"&default_query_exec_mode=exec")
	b = &pgx.Batch{}
	b.Queue("INSERT INTO rt_batch (id) VALUES (4)")
	b.Queue("SELECT nope FROM rt_batch")
	b.Queue("INSERT INTO rt_batch (id) VALUES (5)")
	br = exec.SendBatch(ctx, b)
	if _, err := br.Exec(); err != nil {
		t.Fatalf("first statement of the failing batch: %v", err)
	}
	if _, err := br.Exec(); err == nil || !strings.Contains(err.Error(), "42703") {
		t.Fatalf("bad column in batch: %v", err)
	}
	if _, err := br.Exec(); err == nil {
		t.Fatal("the statement after the error ran")
	}
	br.Close()
	var ids []int32
	rows, err := exec.Query(ctx, "SELECT id FROM rt_batch WHERE id > 3 ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int32
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	if rows.Err() != nil || len(ids) != 0 {
		t.Fatalf("after the failed batch: ids %v, %v", ids, rows.Err())
	}
}

// TestPgxCopyRoundTrip copies the round-trip rows in with CopyFrom (binary)
// and out again with COPY TO in every format.
func TestPgxCopyRoundTrip(t *testing.T) {
	srv := startServer(t)
	conn := connectPgx(t, srv.ConnString())
	ctx := context.Background()
	createRoundTripTable(t, conn, "rt_copy")
	cols := []string{"id", "i8", "i4", "i2", "f8", "f4", "b", "t", "v", "n", "d", "ts", "tz", "bin"}
	n, err := conn.CopyFrom(ctx, pgx.Identifier{"rt_copy"}, cols, pgx.CopyFromRows(pgxRows(t)))
	if err != nil || n != 3 {
		t.Fatalf("CopyFrom: %d %v", n, err)
	}
	checkStored(t, srv.ConnString(), "rt_copy")

	// COPY TO in text, then back in with COPY FROM text: same rows.
	for _, format := range []string{"text", "csv", "binary"} {
		var buf strings.Builder
		tag, err := conn.PgConn().CopyTo(ctx, &buf, "COPY rt_copy TO STDOUT (FORMAT "+format+")")
		if err != nil || tag.String() != "COPY 3" {
			t.Fatalf("COPY TO %s: %v %v", format, tag, err)
		}
		table := "rt_copy_" + format
		createRoundTripTable(t, conn, table)
		tag, err = conn.PgConn().CopyFrom(ctx, strings.NewReader(buf.String()), "COPY "+table+" FROM STDIN (FORMAT "+format+")")
		if err != nil || tag.String() != "COPY 3" {
			t.Fatalf("COPY FROM %s: %v %v", format, tag, err)
		}
		checkStored(t, srv.ConnString(), table)
	}
}
