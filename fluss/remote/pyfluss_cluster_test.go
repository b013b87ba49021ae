//go:build fluss_cluster

package remote_test

// Interop with Fluss's own Python client, pyfluss 1.0.0 (issue 26,
// acceptance 2), both directions, every type sqlgate maps, nested ones and
// NULLs at every level included (testdata/pyfluss_interop.py holds the data
// set and pyfluss's side):
//
//   - pyfluss appends rows and an Arrow batch to a log table and upserts into
//     a primary-key table (over older versions, with a delete); sqlgate's
//     INSERT and COPY write the same values, as PostgreSQL text literals,
//     into tables of their own; read through sqlgate (pgx, text results as
//     psql shows them), every table's rows are the same, value by value.
//   - pyfluss reads what sqlgate's INSERT and COPY wrote, by an Arrow scan of
//     the log tables and by lookups (and a changelog replay) of the
//     primary-key tables, and finds exactly the data set's values.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/fluss/remote"
	"github.com/sqlgate/sqlgate/tests/testbin"
)

// pyflussPython is the interpreter with pyfluss installed:
// $SQLGATE_PYFLUSS_PYTHON, or the virtualenv scripts/install-test-deps.sh
// makes.
func pyflussPython(t *testing.T) string {
	if p := os.Getenv("SQLGATE_PYFLUSS_PYTHON"); p != "" {
		return p
	}
	p := testbin.ToolPath("pyfluss-1.0.0", "bin", "python")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("pyfluss is not installed (%v): run scripts/install-test-deps.sh or set SQLGATE_PYFLUSS_PYTHON", err)
	}
	return p
}

func runPy(t *testing.T, python string, args ...string) []byte {
	t.Helper()
	return runPyScript(t, python, "testdata/pyfluss_interop.py", args...)
}

// runPyScript runs a script of testdata with args and returns its output.
func runPyScript(t *testing.T, python, script string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(python, append([]string{script}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", script, args[0], err, stderr.String())
	}
	return out
}

func TestClusterPyflussInterop(t *testing.T) {
	python := pyflussPython(t)
	ctx, conn := serveCluster(t)
	var data struct {
		Columns string
		Names   []string
		Rows    [][]*string
	}
	if err := json.Unmarshal(runPy(t, python, "sql"), &data); err != nil {
		t.Fatal(err)
	}
	suffix := fmt.Sprint(time.Now().UnixNano() % 1e6)
	tables := map[string]string{} // role -> name
	for _, role := range []string{"py_log", "py_pk", "ins_log", "ins_pk", "copy_log", "copy_pk"} {
		name := role + "_" + suffix
		tables[role] = name
		ddl := fmt.Sprintf("CREATE TABLE %s (%s)", name, data.Columns)
		if strings.HasSuffix(role, "_pk") {
			ddl = fmt.Sprintf("CREATE TABLE %s (%s, PRIMARY KEY (id))", name, data.Columns)
		}
		if _, err := conn.Exec(ctx, ddl); err != nil {
			t.Fatalf("%s: %v", ddl, err)
		}
		defer conn.Exec(ctx, "DROP TABLE "+name)
	}

	// sqlgate writes: INSERT of text literals, COPY FROM STDIN (text format).
	for _, role := range []string{"ins_log", "ins_pk"} {
		for _, row := range data.Rows {
			vals := make([]string, len(row))
			for i, v := range row {
				if v == nil {
					vals[i] = "NULL"
				} else {
					vals[i] = "'" + strings.ReplaceAll(*v, "'", "''") + "'"
				}
			}
			sql := fmt.Sprintf("INSERT INTO %s VALUES (%s)", tables[role], strings.Join(vals, ", "))
			if _, err := conn.Exec(ctx, sql); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
		}
	}
	var copyText strings.Builder
	for _, row := range data.Rows {
		for i, v := range row {
			if i > 0 {
				copyText.WriteByte('\t')
			}
			if v == nil {
				copyText.WriteString(`\N`)
				continue
			}
			copyText.WriteString(strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`).Replace(*v))
		}
		copyText.WriteByte('\n')
	}
	for _, role := range []string{"copy_log", "copy_pk"} {
		tag, err := conn.PgConn().CopyFrom(ctx, strings.NewReader(copyText.String()), fmt.Sprintf("COPY %s FROM STDIN", tables[role]))
		if err != nil || tag.RowsAffected() != int64(len(data.Rows)) {
			t.Fatalf("COPY %s: %v, %v", tables[role], tag, err)
		}
	}

	// pyfluss writes.
	bs := remote.ClusterBootstrap()
	runPy(t, python, "write", bs, "public", tables["py_log"], tables["py_pk"])

	// Through sqlgate, every table holds the same values.
	var query func(sql string) [][]string
	if _, err := conn.Exec(ctx, "SET TimeZone = 'UTC'"); err != nil {
		t.Fatal(err)
	}
	read := func(table string) [][]string {
		t.Helper()
		return query(fmt.Sprintf("SELECT * FROM %s ORDER BY id", table))
	}
	query = func(sql string) [][]string {
		t.Helper()
		res := conn.PgConn().ExecParams(ctx, sql, nil, nil, nil, nil).Read()
		if res.Err != nil {
			t.Fatalf("%s: %v", sql, res.Err)
		}
		var rows [][]string
		for _, r := range res.Rows {
			row := make([]string, len(r))
			for i, v := range r {
				if v == nil {
					row[i] = "NULL"
				} else {
					row[i] = string(v)
				}
			}
			rows = append(rows, row)
		}
		return rows
	}
	want := read(tables["ins_log"])
	if len(want) != len(data.Rows) {
		t.Fatalf("%s: %d rows, want %d", tables["ins_log"], len(want), len(data.Rows))
	}
	for i, row := range want {
		if row[0] != *data.Rows[i][0] {
			t.Fatalf("%s row %d has id %s, want %s", tables["ins_log"], i, row[0], *data.Rows[i][0])
		}
	}
	for _, role := range []string{"py_log", "py_pk", "ins_pk", "copy_log", "copy_pk"} {
		got := read(tables[role])
		if len(got) != len(want) {
			t.Errorf("%s: %d rows, want %d", role, len(got), len(want))
			continue
		}
		for i := range want {
			for j, name := range data.Names {
				if got[i][j] != want[i][j] {
					t.Errorf("%s id %s column %s: %q through sqlgate, want %q (as sqlgate's INSERT stored it)", role, want[i][0], name, got[i][j], want[i][j])
				}
			}
		}
	}

	// One column at a time (after the key, to reorder them): a log table's
	// scan asks the server for those columns only (scan_projection.go),
	// and the server cuts them out of pyfluss's and sqlgate's batches.
	for _, role := range []string{"py_log", "ins_log", "copy_log"} {
		for j, name := range data.Names[1:] {
			got := query(fmt.Sprintf("SELECT %s, id FROM %s ORDER BY id", name, tables[role]))
			for i := range want {
				if i >= len(got) || got[i][0] != want[i][j+1] || got[i][1] != want[i][0] {
					t.Errorf("%s column %s alone, row %d: %v, want [%s %s]", role, name, i, got, want[i][j+1], want[i][0])
					break
				}
			}
		}
	}

	// pyfluss reads what sqlgate wrote, and what it wrote itself.
	runPy(t, python, "read", bs, "public", tables["ins_log"], tables["ins_pk"], tables["copy_log"], tables["copy_pk"],
		tables["py_log"], tables["py_pk"])
}
