package e2e

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestComplexValuesThroughPgx writes MAP, ROW and ARRAY values (nested in
// each other) through SQL constructors, text parameters and COPY, and
// reads them back in text and binary result formats: the JSON text
// sqlgate prints is accepted back as input, so values round-trip.
func TestComplexValuesThroughPgx(t *testing.T) {
	srv := startServer(t)
	conn := connect(t, srv.ConnString())
	ctx := context.Background()
	mustExec(t, conn, `CREATE TABLE cx (id INT PRIMARY KEY, m MAP<STRING, INT>, r ROW<a INT, b STRING>, arr ARRAY<INT>,
		nr ROW<x INT NOT NULL, y ARRAY<STRING>, z ROW<p DOUBLE, q MAP<INT, ARRAY<STRING>>>>)`)

	mustExec(t, conn, `INSERT INTO cx VALUES (1, MAP['a', 1, 'b', NULL], ROW(1, 'x'), ARRAY[4, 5],
		ROW(7, ARRAY['s', NULL], ROW(1.5, MAP[2, ARRAY['two']])))`)
	mustExec(t, conn, `INSERT INTO cx (id, r, m) VALUES (2, (2, 'tuple'), MAP[])`)
	mustExec(t, conn, `UPDATE cx SET m = MAP['u', id * 10] WHERE id = 2`)
	mustExec(t, conn, `INSERT INTO cx (id, r) SELECT id + 10, ROW(id, 'copy of ' || id) FROM cx WHERE id = 1`)
	mustExec(t, conn, `INSERT INTO cx (id, r) VALUES (2, ROW(0, 'new')) ON CONFLICT (id) DO UPDATE SET r = ROW(excluded.id + 100, 'merged')`)

	// text parameters: the JSON text form, and PostgreSQL's array text
	mustExec(t, conn, `INSERT INTO cx (id, m, r, arr, nr) VALUES ($1, $2, $3, $4, $5)`,
		int32(3), `[["k",3],["k",4]]`, `{"a":3,"b":"param"}`, `{6}`, `{"x":3,"y":[],"z":null}`)

	// parameters inside constructors take the target's field, key and
	// value types
	sd, err := conn.Prepare(ctx, "ctor", `INSERT INTO cx (id, m, r) VALUES ($1, MAP['p', $2], ROW($3, $4))`)
	if err != nil {
		t.Fatal(err)
	}
	if len(sd.ParamOIDs) != 4 || sd.ParamOIDs[1] != 23 || sd.ParamOIDs[2] != 23 || sd.ParamOIDs[3] != 25 {
		t.Errorf("parameter OIDs %v, want [23 23 23 25]", sd.ParamOIDs)
	}
	mustExec(t, conn, "ctor", int32(4), int32(44), int32(45), "prep")

	want := map[int32][4]string{
		4:  {`[["p",44]]`, `{"a":45,"b":"prep"}`, ``, ``},
		1:  {`[["a",1],["b",null]]`, `{"a":1,"b":"x"}`, `{4,5}`, `{"x":7,"y":["s",null],"z":{"p":1.5,"q":[[2,["two"]]]}}`},
		2:  {`[["u",20]]`, `{"a":102,"b":"merged"}`, ``, ``},
		3:  {`[["k",3],["k",4]]`, `{"a":3,"b":"param"}`, `{6}`, `{"x":3,"y":[],"z":null}`},
		11: {``, `{"a":1,"b":"copy of 1"}`, ``, ``},
	}
	check := func(label string, resultFormat int16) {
		t.Helper()
		res := conn.PgConn().ExecParams(ctx, `SELECT id, m, r, arr, nr FROM cx ORDER BY id`, nil, nil, nil, []int16{0, resultFormat, resultFormat, 0, resultFormat}).Read()
		if res.Err != nil {
			t.Fatalf("%s: %v", label, res.Err)
		}
		if len(res.Rows) != len(want) {
			t.Fatalf("%s: %d rows, want %d", label, len(res.Rows), len(want))
		}
		for _, row := range res.Rows {
			var id int32
			for _, c := range row[0] {
				id = id*10 + int32(c-'0')
			}
			w, ok := want[id]
			if !ok {
				t.Errorf("%s: unexpected row %d", label, id)
				continue
			}
			for i, v := range row[1:] {
				if string(v) != w[i] {
					t.Errorf("%s: row %d column %d = %q, want %q", label, id, i+1, v, w[i])
				}
			}
		}
	}
	check("text", 0)
	check("binary", 1) // json's binary form is its text

	// field selection, lookup and the map functions on what was written
	var b string
	var v, n int32
	var keys []string
	if err := conn.QueryRow(ctx, `SELECT (r).b, m['k'], cardinality(m), map_keys(m) FROM cx WHERE id = 3`).Scan(&b, &v, &n, &keys); err != nil {
		t.Fatal(err)
	}
	if b != "param" || v != 3 || n != 2 || strings.Join(keys, ",") != "k,k" {
		t.Errorf("got %q %d %d %v", b, v, n, keys)
	}

	// COPY out, then COPY the same text back into another table
	mustExec(t, conn, `CREATE TABLE cy (id INT PRIMARY KEY, m MAP<STRING, INT>, r ROW<a INT, b STRING>,
		nr ROW<x INT NOT NULL, y ARRAY<STRING>, z ROW<p DOUBLE, q MAP<INT, ARRAY<STRING>>>>)`)
	var out bytes.Buffer
	if _, err := conn.PgConn().CopyTo(ctx, &out, `COPY (SELECT id, m, r, nr FROM cx ORDER BY id) TO STDOUT`); err != nil {
		t.Fatal(err)
	}
	tag, err := conn.PgConn().CopyFrom(ctx, bytes.NewReader(out.Bytes()), `COPY cy FROM STDIN`)
	if err != nil {
		t.Fatalf("COPY FROM text: %v\n%s", err, out.String())
	}
	if tag.RowsAffected() != 5 {
		t.Errorf("COPY FROM text: %d rows", tag.RowsAffected())
	}
	csv := "20,\"[[\"\"c\"\",1]]\",\"{\"\"a\"\":5,\"\"b\"\":\"\"csv, quoted\"\"}\",\n"
	if _, err := conn.PgConn().CopyFrom(ctx, strings.NewReader(csv), `COPY cy (id, m, r, nr) FROM STDIN (FORMAT csv)`); err != nil {
		t.Fatalf("COPY FROM csv: %v", err)
	}
	var again bytes.Buffer
	if _, err := conn.PgConn().CopyTo(ctx, &again, `COPY (SELECT id, m, r, nr FROM cy WHERE id < 20 ORDER BY id) TO STDOUT`); err != nil {
		t.Fatal(err)
	}
	if again.String() != out.String() {
		t.Errorf("COPY round trip:\n%s\nwant\n%s", again.String(), out.String())
	}
	var m, r string
	if err := conn.QueryRow(ctx, `SELECT m::text, r::text FROM cy WHERE id = 20`).Scan(&m, &r); err != nil {
		t.Fatal(err)
	}
	if m != `[["c",1]]` || r != `{"a":5,"b":"csv, quoted"}` {
		t.Errorf("CSV row: %s %s", m, r)
	}

	// malformed input is 22P02 in each path; a NULL map key 22004
	for _, c := range []struct {
		sql  string
		args []any
		code string
	}{
		{`INSERT INTO cx (id, m) VALUES (9, '[["a",1]')`, nil, "22P02"},
		{`INSERT INTO cx (id, m) VALUES ($1, $2)`, []any{int32(9), `{"a":"x"}`}, "22P02"},
		{`INSERT INTO cx (id, r) VALUES (9, ROW(1, 'x', 3))`, nil, "42804"},
		{`INSERT INTO cx (id, m) VALUES (9, MAP[NULL, 1])`, nil, "22004"},
		{`INSERT INTO cx (id, m) VALUES (9, MAP['a', 1, 'b'])`, nil, "42601"},
	} {
		_, err := conn.Exec(ctx, c.sql, c.args...)
		if pe := pgError(t, err); pe.Code != c.code {
			t.Errorf("%s: %s %s, want %s", c.sql, pe.Code, pe.Message, c.code)
		}
	}
	if _, err := conn.PgConn().CopyFrom(ctx, strings.NewReader("9\t{\"bad\t\\N\t\\N\n"), `COPY cy FROM STDIN`); err == nil {
		t.Error("COPY of malformed map text succeeded")
	} else if pe := pgError(t, err); pe.Code != "22P02" {
		t.Errorf("COPY of malformed map text: %s %s", pe.Code, pe.Message)
	}
}
