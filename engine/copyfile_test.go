package engine_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fileio"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/tests/testbin"
)

// allTypes is a table of every Fluss type, nested ones nested in each
// other, and rows with NULLs at every level.
const allTypes = `CREATE TABLE %s (id INT NOT NULL, b BOOLEAN, i8 TINYINT, i16 SMALLINT, i64 BIGINT, f32 FLOAT, f64 DOUBLE,
	dec DECIMAL(38,10), s STRING, c CHAR(3), by BYTES, bin BINARY(4), d DATE, t TIME, ts3 TIMESTAMP(3), ts9 TIMESTAMP(9),
	tz3 TIMESTAMP_LTZ(3), tz9 TIMESTAMP_LTZ(9), a ARRAY<INT>, aa ARRAY<ARRAY<STRING>>, m MAP<STRING, INT>,
	r ROW<x INT, y ARRAY<STRING>>, ar ARRAY<ROW<p INT>>, mr MAP<INT, ROW<q STRING>>%s)`

const allRows = `INSERT INTO %s VALUES
	(1, true, -8, -16, -64, 1.5, -2.25, 12345678901234567890.0123456789, 'héllo, "q"' || chr(10) || 'x\t', 'ab', '\x00ff', '\x01020304',
	 '2024-02-29', '23:59:58', '2024-01-02 03:04:05.123', '2024-01-02 03:04:05.123456789', '2024-01-02 03:04:05.123+00',
	 '1969-12-31 23:59:59.999999999+00', ARRAY[1, NULL, 3], ARRAY[ARRAY['a', NULL], ARRAY['b', 'c']], MAP['k', 1, 'n', NULL],
	 ROW(1, ARRAY['z', NULL]), ARRAY[ROW(1), NULL, ROW(NULL)], MAP[1, ROW('v'), 2, NULL, 3, ROW(NULL)]),
	(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
	(3, false, 127, 32767, 9223372036854775807, 'Infinity', 'NaN', -0.0000000001, '', '', '\x', '\x00000000',
	 '0001-01-01', '00:00:00', '1900-01-01 00:00:00', '2200-01-01 00:00:00.000000001', '1970-01-01 00:00:00+00',
	 '2000-01-01 00:00:00.000000001+00', ARRAY[]::int[], ARRAY[ARRAY[NULL::text]], MAP['only', 0],
	 ROW(NULL, NULL), ARRAY[ROW(-1)], MAP[0, ROW('')])`

// irregularRow has an array of arrays PostgreSQL's multidimensional arrays
// cannot hold (a NULL and an empty sub-array): its text form is not read
// back by COPY's text input, so only the columnar formats carry it.
// (An ARRAY[...] constructor is rectangular, as PostgreSQL's; a ragged
// Fluss array of arrays is written in its JSON text form, README.)
const irregularRow = `INSERT INTO src (id, aa) VALUES (4, '[["a", null], null, []]')`

// fileSessions opens an engine whose server-side files live in a fresh
// directory, with a superuser session and a plain one.
func fileSessions(t *testing.T) (dir string, admin, plain pgwire.Session) {
	t.Helper()
	dir = t.TempDir()
	fd, err := fileio.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	ss := sessions(t, t.TempDir(), engine.Options{Roles: roles{"admin": true, "bob": false}, FileDir: fd}, "admin", "bob")
	return dir, ss[0], ss[1]
}

// rowsText is each row of table t as text, in id order.
func rowsText(t *testing.T, s pgwire.Session, from string) string {
	t.Helper()
	return strings.Join(mustRun(t, s, "SELECT x::text FROM (SELECT * FROM "+from+") x ORDER BY id"), "\n")
}

// Every type survives a round trip through a file of every format: COPY TO,
// then COPY FROM into a table of the same columns, and for the columnar
// formats read_parquet / read_arrow in a query and in INSERT ... SELECT.
func TestCopyFileRoundTrip(t *testing.T) {
	_, admin, _ := fileSessions(t)
	mustRun(t, admin, strings.Replace(strings.Replace(allTypes, "%s", "src", 1), "%s", ", PRIMARY KEY (id)", 1))
	mustRun(t, admin, strings.Replace(allRows, "%s", "src", 1))
	mustRun(t, admin, irregularRow)
	want := rowsText(t, admin, "src")
	if n := len(mustRun(t, admin, "SELECT id FROM src")); n != 4 {
		// (a row's text holds a newline of its own: count rows, not lines)
		t.Fatalf("%d source rows: %s", n, want)
	}
	rows := "4"
	for _, format := range []string{"parquet", "arrow", "csv", "text", "binary"} {
		if format == "csv" {
			mustRun(t, admin, "DELETE FROM src WHERE id = 4")
			want, rows = rowsText(t, admin, "src"), "3"
		}
		file := "all." + format
		_, tag, err := run(t, admin, "COPY src TO '"+file+"' (FORMAT "+format+")")
		if err != nil || tag != "COPY "+rows {
			t.Fatalf("%s: COPY TO: %s %v", format, tag, err)
		}
		for _, keyed := range []bool{true, false} { // the upsert and the staged append
			dst := format + map[bool]string{true: "_pk", false: "_log"}[keyed]
			pk := ""
			if keyed {
				pk = ", PRIMARY KEY (id)"
			}
			mustRun(t, admin, strings.Replace(strings.Replace(allTypes, "%s", dst, 1), "%s", pk, 1))
			if _, tag, err := run(t, admin, "COPY "+dst+" FROM '"+file+"' (FORMAT "+format+")"); err != nil || tag != "COPY "+rows {
				t.Fatalf("%s: COPY FROM: %s %v", dst, tag, err)
			}
			if got := rowsText(t, admin, dst); got != want {
				t.Errorf("%s after the round trip:\n got %s\nwant %s", dst, got, want)
			}
		}
		if format != "parquet" && format != "arrow" {
			continue
		}
		fn := "read_" + format
		if got := rowsText(t, admin, fn+"('"+file+"')"); got != want {
			t.Errorf("%s:\n got %s\nwant %s", fn, got, want)
		}
		dst := format + "_select"
		mustRun(t, admin, strings.Replace(strings.Replace(allTypes, "%s", dst, 1), "%s", "", 1))
		if _, tag, err := run(t, admin, "INSERT INTO "+dst+" SELECT * FROM "+fn+"('"+file+"')"); err != nil || tag != "INSERT 0 "+rows {
			t.Fatalf("INSERT ... SELECT FROM %s: %s %v", fn, tag, err)
		}
		if got := rowsText(t, admin, dst); got != want {
			t.Errorf("%s:\n got %s\nwant %s", dst, got, want)
		}
	}
	// read_csv: text columns named by the header, cast as needed.
	mustRun(t, admin, "COPY (SELECT id, s, a FROM src) TO 'h.csv' (FORMAT csv, HEADER)")
	if got := strings.Join(mustRun(t, admin, "SELECT (id::int * 10)::text || ':' || coalesce(s, 'NULL') || ':' || coalesce(a, '-') FROM read_csv('h.csv', 'header', 'true') ORDER BY id::int"), "|"); got != "10:héllo, \"q\"\nx\\t:{1,NULL,3}|20:NULL:-|30::{}" {
		t.Errorf("read_csv: %q", got)
	}
	if got := mustRun(t, admin, "SELECT column2 FROM read_csv('all.text', 'format', 'text') WHERE column1 = '3'"); len(got) != 1 || got[0] != "t" && got[0] != "f" {
		t.Errorf("read_csv of text without a header: %q", got)
	}
}

func wantFileErr(t *testing.T, s pgwire.Session, sql string, code sqlerr.Code, parts ...string) {
	t.Helper()
	_, _, err := run(t, s, sql)
	if sqlerr.CodeOf(err) != code {
		t.Errorf("%s: %v, want %s", sql, err, code)
		return
	}
	text := err.Error()
	if e := sqlerr.As(err); e != nil {
		text += " | " + e.Detail + " | " + e.Hint
	}
	var cd *pgwire.CopyDataError
	if errors.As(err, &cd) {
		text += " | " + cd.Where()
	}
	for _, p := range parts {
		if !strings.Contains(text, p) {
			t.Errorf("%s: %q does not say %q", sql, text, p)
		}
	}
}

// Server-side files are for superusers only, as in PostgreSQL, and only
// under the file directory: absolute paths elsewhere, "..", and symbolic
// links leading out are refused for everyone.
func TestServerFilePrivilegesAndConfinement(t *testing.T) {
	dir, admin, bob := fileSessions(t)
	mustRun(t, admin, "CREATE TABLE t (id INT, v STRING)")
	mustRun(t, admin, "GRANT ALL ON t TO bob")
	mustRun(t, admin, "COPY (SELECT 1 AS id, 'x' AS v) TO 'ok.csv' (FORMAT csv)")
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.csv"), []byte("7,secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range [][2]string{{outside, "esc"}, {filepath.Join(outside, "secret.csv"), "escfile"}, {"ok.csv", "inlink.csv"}} {
		if err := os.Symlink(l[0], filepath.Join(dir, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	// PostgreSQL 15's messages for roles without pg_read_server_files /
	// pg_write_server_files.
	wantFileErr(t, bob, "COPY t FROM 'ok.csv' (FORMAT csv)", sqlerr.InsufficientPrivilege,
		"must be superuser or have privileges of the pg_read_server_files role to COPY from a file", "Anyone can COPY to stdout or from stdin.")
	wantFileErr(t, bob, "COPY t TO 'bob.csv'", sqlerr.InsufficientPrivilege,
		"must be superuser or have privileges of the pg_write_server_files role to COPY to a file")
	wantFileErr(t, bob, "COPY (SELECT 1) TO 'bob.csv'", sqlerr.InsufficientPrivilege, "pg_write_server_files")
	wantFileErr(t, bob, "SELECT * FROM read_csv('ok.csv')", sqlerr.InsufficientPrivilege, "pg_read_server_files", "read_csv")
	wantFileErr(t, bob, "SELECT * FROM read_parquet('/etc/passwd')", sqlerr.InsufficientPrivilege, "pg_read_server_files")
	for _, name := range []string{"/etc/passwd", "../secret.csv", outside + "/secret.csv", "sub/../../x.csv", "esc/secret.csv", "escfile"} {
		wantFileErr(t, admin, "COPY t FROM '"+name+"' (FORMAT csv)", sqlerr.InsufficientPrivilege, `path "`+name+`" is outside the server's file directory`)
		wantFileErr(t, admin, "SELECT * FROM read_csv('"+name+"')", sqlerr.InsufficientPrivilege, "is outside the server's file directory")
	}
	for _, name := range []string{"/tmp/x.csv", "../x.csv", "esc/x.csv", "escfile"} {
		wantFileErr(t, admin, "COPY t TO '"+name+"' (FORMAT csv)", sqlerr.InsufficientPrivilege, "is outside the server's file directory")
	}
	if b, _ := os.ReadFile(filepath.Join(outside, "secret.csv")); string(b) != "7,secret\n" {
		t.Errorf("the file outside was changed: %q", b)
	}
	// Inside the directory: relative names, absolute ones, links that stay.
	for _, name := range []string{"ok.csv", dir + "/ok.csv", "sub/../ok.csv", "inlink.csv"} {
		if _, tag, err := run(t, admin, "COPY t FROM '"+name+"' (FORMAT csv)"); err != nil || tag != "COPY 1" {
			t.Errorf("COPY FROM %s: %s %v", name, tag, err)
		}
	}
	if _, tag, err := run(t, admin, "COPY t TO 'sub/out.csv' (FORMAT csv)"); err != nil || tag != "COPY 4" {
		t.Errorf("COPY TO sub/out.csv: %s %v", tag, err)
	}
	wantFileErr(t, admin, "COPY t FROM 'sub' (FORMAT csv)", sqlerr.WrongObjectType, `"sub" is a directory`)
	wantFileErr(t, admin, "COPY t FROM 'missing.csv' (FORMAT csv)", fileio.UndefinedFile, `could not open file "missing.csv" for reading`)
	// Without a file directory, server-side files are off for everyone.
	off := sessions(t, t.TempDir(), engine.Options{}, "admin")[0]
	mustRun(t, off, "CREATE TABLE t (id INT)")
	for _, q := range []string{"COPY t FROM 'ok.csv'", "COPY t TO 'ok.csv'", "SELECT * FROM read_parquet('x.parquet')"} {
		wantFileErr(t, off, q, sqlerr.FeatureNotSupported, "server-side files are off", "--file-dir")
	}
}

// A bad file is a clear error naming the file (and the column where there
// is one), and writes nothing: not a row of a file whose last row is bad.
func TestBadServerFiles(t *testing.T) {
	dir, admin, _ := fileSessions(t)
	mustRun(t, admin, "CREATE TABLE pk (id INT NOT NULL, c CHAR(3), n BIGINT, PRIMARY KEY (id))")
	mustRun(t, admin, "CREATE TABLE lg (id INT NOT NULL, c CHAR(3), n BIGINT)")
	mustRun(t, admin, "COPY (SELECT 1 AS id, 'abc' AS c, 2::bigint AS n) TO 'good.parquet' (FORMAT parquet)")
	good, err := os.ReadFile(filepath.Join(dir, "good.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("truncated.parquet", good[:len(good)-9])
	write("magic.parquet", []byte("id,c,n\n1,abc,2\n"))
	write("empty.arrow", nil)
	mustRun(t, admin, "COPY (SELECT 1 AS id, 'abc' AS c, 2 AS n) TO 'narrow.parquet' (FORMAT parquet)")
	mustRun(t, admin, "COPY (SELECT 1 AS id, 'abc' AS cc, 2::bigint AS n) TO 'renamed.arrow' (FORMAT arrow)")
	mustRun(t, admin, "COPY (SELECT 1 AS id, 'abc' AS c) TO 'short.parquet' (FORMAT parquet)")
	mustRun(t, admin, "COPY (SELECT g AS id, CASE WHEN g = 99999 THEN 'abcd' ELSE 'a' END AS c, g::bigint AS n FROM generate_series(1, 100000) g) TO 'long.parquet' (FORMAT parquet)")
	mustRun(t, admin, "COPY (SELECT CASE WHEN g < 100000 THEN g END AS id, 'a' AS c, g::bigint AS n FROM generate_series(1, 100000) g) TO 'null.parquet' (FORMAT parquet)")
	write("bad.csv", []byte("1,a,1\n2,b,x\n"))
	for _, table := range []string{"pk", "lg"} {
		for _, c := range []struct {
			file, format string
			code         sqlerr.Code
			parts        []string
		}{
			{"truncated.parquet", "parquet", fileio.BadCopyFileFormat, []string{`file "truncated.parquet" is not a valid Parquet file`}},
			{"magic.parquet", "parquet", fileio.BadCopyFileFormat, []string{`file "magic.parquet" is not a valid Parquet file`}},
			{"empty.arrow", "arrow", fileio.BadCopyFileFormat, []string{`file "empty.arrow" is not a valid Arrow IPC file`}},
			{"narrow.parquet", "parquet", sqlerr.DatatypeMismatch, []string{`column "n" of file "narrow.parquet" has type int32`, "bigint"}},
			{"renamed.arrow", "arrow", fileio.BadCopyFileFormat, []string{`file "renamed.arrow" has column "cc" where column "c" is expected`}},
			{"short.parquet", "parquet", fileio.BadCopyFileFormat, []string{`file "short.parquet" has 2 columns, but 3 are expected (id, c, n)`}},
			{"long.parquet", "parquet", sqlerr.StringDataRightTruncation, []string{`column "c" of file "long.parquet": value too long for type character(3)`, "Row 99999 of the file."}},
			{"null.parquet", "parquet", sqlerr.NotNullViolation, []string{`null value in column "id"`}},
			{"bad.csv", "csv", sqlerr.InvalidTextRepresentation, []string{`invalid input syntax for type bigint: "x"`, `COPY ` + table + `, file "bad.csv", line 2, column n: "x"`}},
		} {
			wantFileErr(t, admin, "COPY "+table+" FROM '"+c.file+"' (FORMAT "+c.format+")", c.code, c.parts...)
			if got := mustRun(t, admin, "SELECT count(*) FROM "+table); got[0] != "0" {
				t.Fatalf("%s after the failed COPY of %s: %s rows", table, c.file, got[0])
			}
		}
	}
	wantFileErr(t, admin, "SELECT * FROM read_parquet('truncated.parquet')", fileio.BadCopyFileFormat, `file "truncated.parquet"`)
	// A COPY TO that fails leaves no file (nor a temporary one) behind, and
	// an existing file as it was.
	write("keep.csv", []byte("kept\n"))
	for _, name := range []string{"fail.parquet", "keep.csv"} {
		wantFileErr(t, admin, "COPY (SELECT 1 / (g - 70000) FROM generate_series(1, 100000) g) TO '"+name+"' (FORMAT "+strings.TrimPrefix(filepath.Ext(name), ".")+")", sqlerr.DivisionByZero)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() == "fail.parquet" || strings.Contains(e.Name(), ".sqlgate-") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "keep.csv")); string(b) != "kept\n" {
		t.Errorf("keep.csv changed: %q", b)
	}
}

// pyarrowPython is the Python with pyarrow that scripts/install-test-deps.sh
// installs (the ADBC driver's virtualenv).
func pyarrowPython(t *testing.T) string {
	p := testbin.ToolPath("adbc-flightsql-1.13.0", "bin", "python")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("no Python with pyarrow at %s (run scripts/install-test-deps.sh): %v", p, err)
	}
	return p
}

// A Parquet file pyarrow writes is read by COPY and read_parquet with the
// values pyarrow wrote, and the file sqlgate writes of that table is read
// back by pyarrow with identical values (testdata/pyarrow_interop.py).
func TestPyarrowInterop(t *testing.T) {
	dir, admin, _ := fileSessions(t)
	py := pyarrowPython(t)
	script, err := filepath.Abs("testdata/pyarrow_interop.py")
	if err != nil {
		t.Fatal(err)
	}
	pyRun := func(args ...string) {
		t.Helper()
		out, err := exec.Command(py, append([]string{script}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("pyarrow_interop.py %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	pyRun("write", filepath.Join(dir, "py.parquet"), filepath.Join(dir, "py.arrow"))
	mustRun(t, admin, strings.Replace(strings.Replace(allTypes, "%s", "py", 1), "%s", ", PRIMARY KEY (id)", 1))
	mustRun(t, admin, strings.Replace(strings.Replace(allTypes, "%s", "want", 1), "%s", ", PRIMARY KEY (id)", 1))
	mustRun(t, admin, strings.Replace(allRows, "%s", "want", 1))
	want := rowsText(t, admin, "want")
	for _, q := range []string{"COPY py FROM 'py.parquet' (FORMAT parquet)", "COPY py FROM 'py.arrow' (FORMAT arrow)"} {
		if _, tag, err := run(t, admin, q); err != nil || tag != "COPY 3" {
			t.Fatalf("%s: %s %v", q, tag, err)
		}
		if got := rowsText(t, admin, "py"); got != want {
			t.Errorf("%s:\n got %s\nwant %s", q, got, want)
		}
	}
	if got := rowsText(t, admin, "read_parquet('py.parquet')"); got != want {
		t.Errorf("read_parquet of pyarrow's file:\n got %s\nwant %s", got, want)
	}
	mustRun(t, admin, "COPY py TO 'sqlgate.parquet' (FORMAT parquet)")
	mustRun(t, admin, "COPY (SELECT * FROM py ORDER BY id) TO 'sqlgate.arrow' (FORMAT arrow)")
	pyRun("check", filepath.Join(dir, "sqlgate.parquet"), filepath.Join(dir, "sqlgate.arrow"))
}
