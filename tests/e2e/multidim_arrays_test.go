package e2e

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
)

// TestMultidimArraysInBinary reads an INT[][] column and a timetz through
// pgx's extended protocol, which asks for binary results: an array of
// arrays arrives as PostgreSQL's two-dimensional int4[] (array_send with
// ndim 2) and scans into [][]int32 and pgtype's dimensions; a ragged value
// (which Fluss holds and PostgreSQL cannot) fails with 2202E, and reads in
// text.
func TestMultidimArraysInBinary(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn := connect(t, startServer(t).ConnString())
	mustExec(t, conn, "CREATE TABLE md (id INT, m INT[][])")
	mustExec(t, conn, "INSERT INTO md VALUES (1, '{{1,2,3},{4,NULL,6}}'), (2, '[[5],[6,7]]')")

	var flat pgtype.Array[pgtype.Int4]
	if err := conn.QueryRow(ctx, "SELECT m FROM md WHERE id = $1", 1).Scan(&flat); err != nil {
		t.Fatal(err)
	}
	if len(flat.Dims) != 2 || flat.Dims[0].Length != 2 || flat.Dims[1].Length != 3 || flat.Elements[4].Valid || flat.Elements[5].Int32 != 6 {
		t.Errorf("binary int[][]: dims %v elements %v", flat.Dims, flat.Elements)
	}
	var nested [][]int64
	if err := conn.QueryRow(ctx, "SELECT '{{1,2},{3,4}}'::bigint[][]").Scan(&nested); err != nil {
		t.Fatal(err)
	}
	if len(nested) != 2 || !slices.Equal(nested[1], []int64{3, 4}) {
		t.Errorf("binary bigint[][] = %v", nested)
	}

	var pe *pgconn.PgError
	_, err := conn.Exec(ctx, "SELECT m FROM md WHERE id = $1", 2)
	if err == nil {
		var got [][]int32
		err = conn.QueryRow(ctx, "SELECT m FROM md WHERE id = $1", 2).Scan(&got)
	}
	if !errors.As(err, &pe) || pe.Code != "2202E" {
		t.Errorf("ragged array in binary: %v, want 2202E", err)
	}
	var text string
	if err := conn.QueryRow(ctx, "SELECT m FROM md WHERE id = 2", pgx.QueryExecModeSimpleProtocol).Scan(&text); err != nil || text != "{{5},{6,7}}" {
		t.Errorf("ragged array in text: %q, %v", text, err)
	}

	// timetz in binary: time of day and zone as PostgreSQL's timetz_send
	var tz string
	if err := conn.QueryRow(ctx, "SELECT '12:34:56.5-05:30'::timetz::text").Scan(&tz); err != nil || tz != "12:34:56.5-05:30" {
		t.Errorf("timetz text: %q, %v", tz, err)
	}
	var raw []byte
	rr := conn.PgConn().ExecParams(ctx, "SELECT '12:34:56.5-05:30'::timetz", nil, nil, nil, []int16{1}).Read()
	if rr.Err != nil || len(rr.Rows) != 1 {
		t.Fatalf("timetz binary: %v", rr.Err)
	}
	raw = rr.Rows[0][0]
	want := []byte{0, 0, 0, 0x0a, 0x8b, 0xe1, 0xbd, 0x20, 0, 0, 0x4d, 0x58} // 45296500000 us, +19800 s west
	if !slices.Equal(raw, want) {
		t.Errorf("timetz binary = %x, want %x", raw, want)
	}
}
