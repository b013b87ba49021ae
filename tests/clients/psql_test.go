package clients

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// psql runs psql with commands, returning its combined output.
func psql(t *testing.T, connString string, commands ...string) (string, error) {
	t.Helper()
	path, err := exec.LookPath("psql")
	if err != nil {
		t.Fatalf("psql is not installed (.ci/run installs postgresql-client): %v", err)
	}
	args := []string{"-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", connString}
	for _, c := range commands {
		args = append(args, "-c", c)
	}
	out, err := exec.Command(path, args...).CombinedOutput()
	return string(out), err
}

func TestPsqlCopy(t *testing.T) {
	srv := startServer(t)
	cs := srv.ConnString()
	dir := t.TempDir()
	if out, err := psql(t, cs, "CREATE TABLE pc (id INT NOT NULL, name TEXT, amount DECIMAL(10,2), day DATE)"); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	in := filepath.Join(dir, "in.txt")
	data := "1\tone\t1.50\t2024-01-02\n2\t\\N\t-2.25\t\\N\n3\ttab\\there\t0.00\t1999-12-31\n"
	if err := os.WriteFile(in, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := psql(t, cs, `\copy pc from '`+in+`'`); err != nil {
		t.Fatalf("\\copy from: %v: %s", err, out)
	}
	// Out again in text: byte-identical to what went in.
	outText := filepath.Join(dir, "out.txt")
	if out, err := psql(t, cs, `\copy pc to '`+outText+`'`); err != nil {
		t.Fatalf("\\copy to: %v: %s", err, out)
	}
	if got, _ := os.ReadFile(outText); string(got) != data {
		t.Fatalf("\\copy to text:\n got %q\nwant %q", got, data)
	}
	// CSV with a header and a column list, from a query.
	outCSV := filepath.Join(dir, "out.csv")
	if out, err := psql(t, cs, `\copy (SELECT id, name FROM pc WHERE id >= 2 ORDER BY id) to '`+outCSV+`' with (format csv, header)`); err != nil {
		t.Fatalf("\\copy query to csv: %v: %s", err, out)
	}
	if got, _ := os.ReadFile(outCSV); string(got) != "id,name\n2,\n3,tab\there\n" {
		t.Fatalf("\\copy to csv: got %q", got)
	}
	// CSV in, with omitted columns (NULL) and quoting.
	inCSV := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(inCSV, []byte("id,name\n10,\"a,\"\"b\"\"\"\n11,\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := psql(t, cs, `\copy pc (id, name) from '`+inCSV+`' csv header`); err != nil {
		t.Fatalf("\\copy from csv: %v: %s", err, out)
	}
	out, err := psql(t, cs, `SELECT id, name, name IS NULL, amount IS NULL FROM pc WHERE id >= 10 ORDER BY id`)
	if err != nil || out != "10|a,\"b\"|f|t\n11||t|t\n" {
		t.Fatalf("after csv copy: %v\n%s", err, out)
	}
	// A bad line: the error names it, and nothing of that COPY is kept.
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("20\tok\t1\t2024-01-01\n21\tbad\tnot-a-number\t2024-01-01\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err = psql(t, cs, `\copy pc from '`+bad+`'`)
	if err == nil || !strings.Contains(out, `invalid input syntax for type numeric: "not-a-number"`) || !strings.Contains(out, `COPY pc, line 2, column amount: "not-a-number"`) {
		t.Fatalf("bad line: %v\n%s", err, out)
	}
	// NOT NULL column omitted.
	names := filepath.Join(dir, "names.csv")
	if err := os.WriteFile(names, []byte("name\nx\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err = psql(t, cs, `\copy pc (name) from '`+names+`' csv header`)
	if err == nil || !strings.Contains(out, `null value in column "id" of relation "pc" violates not-null constraint`) {
		t.Fatalf("omitted NOT NULL column: %v\n%s", err, out)
	}
	out, err = psql(t, cs, `SELECT count(*) FROM pc`)
	if err != nil || out != "5\n" {
		t.Fatalf("rows after failed copies: %v\n%s", err, out)
	}
	// COPY among other statements of one simple query.
	out, err = psql(t, cs, `SELECT 7; COPY (SELECT id FROM pc WHERE id < 3 ORDER BY id) TO STDOUT; SELECT 8`)
	if err != nil || out != "7\n1\n2\n8\n" {
		t.Fatalf("COPY in a multi-statement query: %v\n%q", err, out)
	}
}

// TestPsqlArithmeticEdges is issue 4's acceptance 3 as a user sees it in
// psql: overflow and division by zero fail with their SQLSTATEs (psql prints
// the code with VERBOSITY verbose) and NaN equals NaN.
func TestPsqlArithmeticEdges(t *testing.T) {
	srv := startServer(t)
	cs := srv.ConnString()
	for _, tc := range []struct {
		query   string
		want    string // a line psql must print
		wantErr bool
	}{
		{"SELECT 9223372036854775807::bigint + 1", "ERROR:  22003: bigint out of range", true},
		{"SELECT 1/0", "ERROR:  22012: division by zero", true},
		{"SELECT 'NaN'::float8 = 'NaN'::float8", "t", false},
		{"SELECT '-0'::float8 = 0::float8", "t", false},
	} {
		out, err := psql(t, cs, `\set VERBOSITY verbose`, tc.query)
		if (err != nil) != tc.wantErr {
			t.Errorf("%s: psql error %v, want error %v; output %q", tc.query, err, tc.wantErr, out)
		}
		if !hasLine(out, tc.want) {
			t.Errorf("%s: psql printed %q, want a line %q", tc.query, out, tc.want)
		}
	}
}

// hasLine reports whether out has a line equal to want once trimmed, as psql pads its result lines.
func hasLine(out, want string) bool {
	for _, line := range strings.Split(out, "\n") {
		if strings.TrimSpace(line) == want {
			return true
		}
	}
	return false
}
