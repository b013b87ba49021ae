package e2e

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestComplexArrayBinaryWriteChecks sends values a column's type refuses
// (a BINARY(3) value of the wrong length; a null in an ARRAY<INT NOT
// NULL>, in a NOT NULL ROW field, in an ARRAY<... NOT NULL> inside a ROW
// or a MAP) through COPY in text, CSV and binary (the bytes sqlgate's own COPY
// TO writes for a table of the same shape without the constraints) and
// through parameters of the extended protocol in text and binary formats.
// Each is refused with 22001 or 23502 naming the column path, never XX000,
// and nothing is written.
func TestComplexArrayBinaryWriteChecks(t *testing.T) {
	srv := startServer(t)
	conn := connect(t, srv.ConnString())
	ctx := context.Background()
	mustExec(t, conn, `CREATE TABLE src (id INT PRIMARY KEY, a ARRAY<INT>, nr ROW<x INT, l ARRAY<STRING>>, b BYTES, m MAP<STRING, ARRAY<INT>>)`)
	mustExec(t, conn, `CREATE TABLE dst (id INT PRIMARY KEY, a ARRAY<INT NOT NULL>, nr ROW<x INT NOT NULL, l ARRAY<STRING NOT NULL>>, b BINARY(3), m MAP<STRING, ARRAY<INT NOT NULL>>)`)

	written := func(label string) {
		t.Helper()
		var n int
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM dst`).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s: dst has %d rows (%v), want 0", label, n, err)
		}
	}
	check := func(label string, err error, code, msg string) {
		t.Helper()
		if err == nil {
			t.Errorf("%s: succeeded, want %s", label, code)
			return
		}
		pe := pgError(t, err)
		if pe.Code != code || !strings.Contains(pe.Message, msg) {
			t.Errorf("%s: %s %q, want %s containing %q", label, pe.Code, pe.Message, code, msg)
		}
		written(label)
	}

	// the first row is good, the second is not
	cases := []struct {
		values, code, msg string
	}{
		{`'{1,NULL}', NULL, NULL, NULL`, "23502", `column "a" of relation "dst"`},
		{`NULL, '{"x":null}', NULL, NULL`, "23502", `column "nr.x" of relation "dst"`},
		{`NULL, '{"x":1,"l":["s",null]}', NULL, NULL`, "23502", `column "nr.l" of relation "dst"`},
		{`NULL, NULL, '\x0102', NULL`, "22001", "value too short for type binary(3)"},
		{`NULL, NULL, '\x01020304', NULL`, "22001", "value too long for type binary(3)"},
		{`NULL, NULL, NULL, MAP['k', ARRAY[2], 'j', ARRAY[NULL, 1]]`, "23502", `column "m" of relation "dst"`},
	}
	for _, tc := range cases {
		mustExec(t, conn, `DELETE FROM src`)
		mustExec(t, conn, `INSERT INTO src VALUES (1, '{1}', '{"x":1,"l":["s"]}', '\x010203', '{"k":[1]}'), (2, `+tc.values+`)`)
		for _, format := range []string{"text", "csv", "binary"} {
			var out bytes.Buffer
			if _, err := conn.PgConn().CopyTo(ctx, &out, `COPY (SELECT * FROM src ORDER BY id) TO STDOUT (FORMAT `+format+`)`); err != nil {
				t.Fatalf("COPY TO %s: %v", format, err)
			}
			_, err := conn.PgConn().CopyFrom(ctx, &out, `COPY dst FROM STDIN (FORMAT `+format+`)`)
			check("COPY "+format+" of "+tc.values, err, tc.code, tc.msg)
		}
	}

	// parameters: pgx sends []byte as binary bytea, the text form as text
	_, err := conn.Exec(ctx, `INSERT INTO dst (id, b) VALUES ($1, $2)`, int32(1), []byte{1, 2})
	check("binary bytea parameter", err, "22001", "value too short for type binary(3)")
	res := conn.PgConn().ExecParams(ctx, `INSERT INTO dst (id, b) VALUES ($1, $2)`, [][]byte{[]byte("1"), []byte(`\x01020304`)}, nil, []int16{0, 0}, nil).Read()
	check("text bytea parameter", res.Err, "22001", "value too long for type binary(3)")
	var got []byte
	err = conn.QueryRow(ctx, `SELECT CAST($1 AS BINARY(3))`, []byte{1, 2, 3, 4}).Scan(&got)
	check("CAST of a parameter", err, "22001", "value too long for type binary(3)")
	_, err = conn.Exec(ctx, `UPDATE dst SET b = $1`, []byte{1})
	if err == nil || pgError(t, err).Code != "22001" {
		t.Errorf("UPDATE SET b = $1: %v, want 22001", err)
	}
	one := int32(1)
	_, err = conn.Exec(ctx, `INSERT INTO dst (id, a) VALUES ($1, $2)`, int32(1), []*int32{&one, nil})
	check("binary array parameter", err, "23502", `column "a" of relation "dst"`)
	_, err = conn.Exec(ctx, `INSERT INTO dst (id, nr) VALUES ($1, $2)`, int32(1), `{"x":1,"l":[null]}`)
	check("text ROW parameter", err, "23502", `column "nr.l" of relation "dst"`)

	// the right length goes in
	mustExec(t, conn, `INSERT INTO dst (id, b) VALUES ($1, $2)`, int32(1), []byte{1, 2, 3})
	if err := conn.QueryRow(ctx, `SELECT b FROM dst WHERE id = 1`).Scan(&got); err != nil || !bytes.Equal(got, []byte{1, 2, 3}) {
		t.Errorf("BINARY(3) round trip: %x %v", got, err)
	}
}
