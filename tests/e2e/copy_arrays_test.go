package e2e

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestCopyArraysAgainstPostgres loads the same ARRAY data into sqlgate and
// PostgreSQL 15 with COPY FROM STDIN in text, CSV and binary, and checks
// that COPY TO STDOUT gives the same bytes in every format from both, and
// that each format's output loads back unchanged.
func TestCopyArraysAgainstPostgres(t *testing.T) {
	ctx := context.Background()
	pg := sharedPG.Conn(t)
	sg := connect(t, startServer(t).ConnString())
	mustExec(t, pg, `CREATE TABLE ca (id INT PRIMARY KEY, a INT[], s TEXT[], d FLOAT8[], b BOOL[], n NUMERIC(10,2)[], ts TIMESTAMP[])`)
	mustExec(t, sg, `CREATE TABLE ca (id INT PRIMARY KEY, a ARRAY<INT>, s ARRAY<STRING>, d ARRAY<DOUBLE>, b ARRAY<BOOLEAN>, n ARRAY<DECIMAL(10,2)>, ts ARRAY<TIMESTAMP(6)>)`)
	text := "1\t{1,2,NULL}\t{a,\"b c\",NULL,\"NULL\",\"\\\\\"q\\\\\"\",\"x,y\"}\t{1.5,NaN,-Infinity,-0}\t{t,f,NULL}\t{1.5,-2.25}\t{\"2024-01-02 03:04:05.5\"}\n" +
		"2\t\\N\t{}\t{}\t\\N\t{}\t{}\n" +
		"3\t{ -2147483648 , 2147483647 }\t{\"\"}\t{1e300}\t{}\t{NULL}\t{NULL}\n"
	csv := "4,\"{4,5}\",\"{\"\"a b\"\",NULL}\",{0.1},{true},{0},\"{\"\"1999-12-31 23:59:59\"\"}\"\n5,,{},,,,\n"
	for name, conn := range map[string]*pgx.Conn{"postgres": pg, "sqlgate": sg} {
		if _, err := conn.PgConn().CopyFrom(ctx, strings.NewReader(text), `COPY ca FROM STDIN`); err != nil {
			t.Fatalf("%s: text COPY: %v", name, err)
		}
		if _, err := conn.PgConn().CopyFrom(ctx, strings.NewReader(csv), `COPY ca FROM STDIN (FORMAT csv)`); err != nil {
			t.Fatalf("%s: CSV COPY: %v", name, err)
		}
	}
	copyOut := func(conn *pgx.Conn, table, format string) []byte {
		t.Helper()
		var out bytes.Buffer
		if _, err := conn.PgConn().CopyTo(ctx, &out, `COPY (SELECT * FROM `+table+` ORDER BY id) TO STDOUT (FORMAT `+format+`)`); err != nil {
			t.Fatalf("COPY %s TO (%s): %v", table, format, err)
		}
		return out.Bytes()
	}
	// PostgreSQL's binary output loads into sqlgate (a second table), and
	// every format's output of both tables is PostgreSQL's, byte for byte.
	mustExec(t, sg, `CREATE TABLE cb (id INT PRIMARY KEY, a ARRAY<INT>, s ARRAY<STRING>, d ARRAY<DOUBLE>, b ARRAY<BOOLEAN>, n ARRAY<DECIMAL(10,2)>, ts ARRAY<TIMESTAMP(6)>)`)
	if tag, err := sg.PgConn().CopyFrom(ctx, bytes.NewReader(copyOut(pg, "ca", "binary")), `COPY cb FROM STDIN (FORMAT binary)`); err != nil || tag.RowsAffected() != 5 {
		t.Fatalf("binary COPY from PostgreSQL's bytes: %v %v", tag, err)
	}
	for _, format := range []string{"text", "csv", "binary"} {
		want := copyOut(pg, "ca", format)
		for _, table := range []string{"ca", "cb"} {
			if got := copyOut(sg, table, format); !bytes.Equal(got, want) {
				t.Errorf("COPY %s TO (%s):\n got %q\nwant %q", table, format, got, want)
			}
		}
		// round trip: sqlgate's own output loads back to the same rows
		mustExec(t, sg, `DELETE FROM cb`)
		if _, err := sg.PgConn().CopyFrom(ctx, bytes.NewReader(copyOut(sg, "ca", format)), `COPY cb FROM STDIN (FORMAT `+format+`)`); err != nil {
			t.Fatalf("%s round trip: %v", format, err)
		}
		if got := copyOut(sg, "cb", format); !bytes.Equal(got, want) {
			t.Errorf("%s round trip:\n got %q\nwant %q", format, got, want)
		}
	}
	// a malformed array is PostgreSQL's error
	_, err := sg.PgConn().CopyFrom(ctx, strings.NewReader("9\t{1,2\t\\N\t\\N\t\\N\t\\N\t\\N\n"), `COPY ca FROM STDIN`)
	if pe := pgError(t, err); pe.Code != "22P02" || !strings.Contains(pe.Message, `malformed array literal: "{1,2"`) {
		t.Errorf("malformed array: %s %s", pe.Code, pe.Message)
	}
}
