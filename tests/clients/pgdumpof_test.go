package clients

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// pg_dump OF sqlgate: the database of TestPgDumpRestore is made in
// sqlgate, dumped by PostgreSQL 15's pg_dump in each format and mode
// (plain, custom, --schema-only, --data-only, -t), and restored into
// PostgreSQL and into a fresh sqlgate. pg_dump reads sqlgate's catalogs
// the way it reads PostgreSQL's (tableoid, acldefault, pg_depend,
// pg_init_privs, format_type and pg_get_expr under an empty search_path,
// LOCK TABLE, sequences read as relations ...): every catalog fact and row
// must come out the same on all three, and sqlgate's restored copy must
// dump to the same text again.

// dumpOfGaps are the checks whose PostgreSQL answer after restoring
// sqlgate's dump is known to differ from sqlgate's, with why.
var dumpOfGaps = map[string]string{}

func TestPgDumpOfSqlgate(t *testing.T) {
	for _, tool := range []string{"pg_dump", "pg_restore", "psql"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed (PostgreSQL 15's client tools): %v", tool, err)
		}
	}
	pg := pgtest.Start(t)
	pgURL := dumpOracle(t, pg)
	dumpPsql(t, pgURL, "CREATE ROLE dump_owner; CREATE ROLE dump_reader; CREATE DATABASE fromsg OWNER sqlgate", true)
	fromSg := strings.Replace(pgURL, "/sqlgate?", "/fromsg?", 1)

	sgURL := func() string {
		srv := startServer(t)
		host, port := hostPort(t, srv.Addr().String())
		url := "postgres://sqlgate@" + host + ":" + port + "/sqlgate?sslmode=disable"
		dumpPsql(t, url, "CREATE ROLE dump_owner; CREATE ROLE dump_reader;", true)
		return url
	}
	src := sgURL()
	dumpPsql(t, src, dumpSchema+dumpRows()+"REFRESH MATERIALIZED VIEW app.by_qty;", true)

	dir := t.TempDir()
	file := func(name string) string { return filepath.Join(dir, name) }
	// the dumps run at once (each is a session of its own, as pg_dump -j's)
	runAll(t,
		[]string{"pg_dump", "--no-password", "-f", file("plain.sql"), src},
		[]string{"pg_dump", "--no-password", "-Fc", "-f", file("dump.custom"), src},
		[]string{"pg_dump", "--no-password", "--schema-only", "-f", file("schema.sql"), src},
		[]string{"pg_dump", "--no-password", "--data-only", "-f", file("data.sql"), src},
		[]string{"pg_dump", "--no-password", "-t", "public.every", "-f", file("every.sql"), src})
	one := readDump(t, file("every.sql"))
	for _, want := range []string{"CREATE TABLE public.every (", "COPY public.every (", "ADD GENERATED ALWAYS AS IDENTITY (\n    SEQUENCE NAME public.every_id_seq",
		"COMMENT ON COLUMN public.every.t IS 'some text';", "GRANT SELECT ON TABLE public.every TO dump_reader;"} {
		if !strings.Contains(one, want) {
			t.Errorf("pg_dump -t public.every lacks %q:\n%s", want, one)
		}
	}
	if strings.Contains(one, "app.people") {
		t.Errorf("pg_dump -t public.every dumped another table:\n%s", one)
	}
	if s := readDump(t, file("schema.sql")); strings.Contains(s, "COPY ") {
		t.Errorf("pg_dump --schema-only has rows:\n%s", s)
	}
	if s := readDump(t, file("data.sql")); strings.Contains(s, "CREATE TABLE") || !strings.Contains(s, "COPY app.people ") {
		t.Errorf("pg_dump --data-only: want the rows alone:\n%s", s)
	}

	// into PostgreSQL (every statement must run), and into a fresh
	// sqlgate through pg_restore
	dst := sgURL()
	runAll(t,
		[]string{"psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", fromSg, "-f", file("plain.sql")},
		[]string{"pg_restore", "--no-password", "--exit-on-error", "-d", dst, file("dump.custom")})

	// the restored copy dumps to the same text (before the checks, whose
	// nextval calls move the sequences)
	dumpRun(t, "pg_dump", "--no-password", "-f", file("again.sql"), dst)
	if a, b := readDump(t, file("plain.sql")), readDump(t, file("again.sql")); a != b {
		t.Errorf("the dump of the restored copy differs:\n%s", lineDiff(a, b))
	}

	want, fromDst, fromPg := dumpCheckAll(t, src), dumpCheckAll(t, dst), dumpCheckAll(t, fromSg)
	for i, q := range dumpChecks {
		if fromDst[i] != want[i] {
			t.Errorf("%s\nsqlgate restored from its dump:\n%s\nsqlgate dumped:\n%s", q, fromDst[i], want[i])
		}
		if why, ok := dumpOfGaps[q]; ok {
			if fromPg[i] == want[i] {
				t.Errorf("%s: PostgreSQL now answers as sqlgate (the gap %q is closed: drop it)", q, why)
			}
			continue
		}
		if fromPg[i] != want[i] {
			t.Errorf("%s\nPostgreSQL restored from sqlgate's dump:\n%s\nsqlgate dumped:\n%s", q, fromPg[i], want[i])
		}
	}
}

// dumpCheckAll runs every query of dumpChecks in one psql session (one
// process, not one per query) and returns their outputs in order.
func dumpCheckAll(t *testing.T, url string) []string {
	t.Helper()
	const mark = "<<end of check>>"
	var b strings.Builder
	for _, q := range dumpChecks {
		b.WriteString(q + ";\n\\echo '" + mark + "'\n")
	}
	out := strings.Split(dumpPsql(t, url, b.String(), true), mark+"\n")
	if len(out) != len(dumpChecks)+1 {
		t.Fatalf("psql answered %d checks of %d", len(out)-1, len(dumpChecks))
	}
	return out[:len(dumpChecks)]
}

// readDump is a plain dump's text without psql's \restrict and
// \unrestrict lines, whose keys are random.
func readDump(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(l, `\restrict `) && !strings.HasPrefix(l, `\unrestrict `) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// lineDiff lists the lines of a missing from b and of b missing from a.
func lineDiff(a, b string) string {
	count := func(s string) map[string]int {
		m := map[string]int{}
		for _, l := range strings.Split(s, "\n") {
			m[l]++
		}
		return m
	}
	ca, cb := count(a), count(b)
	var out []string
	for _, l := range strings.Split(a, "\n") {
		if ca[l] > cb[l] {
			out = append(out, "- "+l)
			ca[l]--
		}
	}
	for _, l := range strings.Split(b, "\n") {
		if cb[l] > count(a)[l] {
			out = append(out, "+ "+l)
			cb[l]--
		}
	}
	return strings.Join(out, "\n")
}

// runAll runs the commands at once and fails the test with the output of
// each that failed.
func runAll(t *testing.T, cmds ...[]string) {
	t.Helper()
	errs := make([]string, len(cmds))
	var wg sync.WaitGroup
	for i, c := range cmds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
				errs[i] = fmt.Sprintf("%s: %v\n%s", strings.Join(c, " "), err, out)
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Error(e)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}

// trustUserSchema is made by a user that logged in without
// authentication and without CREATE ROLE: its objects are owned by that
// user, and the views name relations in and off the search path.
const trustUserSchema = `
CREATE SCHEMA s2;
CREATE TABLE public.t (a integer, b text);
CREATE TABLE s2.c0 (a integer, b text);
CREATE VIEW public.v AS SELECT a FROM t WHERE b <> 'x';
CREATE VIEW s2.v3 AS SELECT t.a, c0.b FROM t JOIN s2.c0 ON c0.a = t.a;
CREATE VIEW public.v4 AS SELECT v.a, count(*) AS n FROM v JOIN s2.v3 ON v3.a = v.a GROUP BY v.a;
CREATE FUNCTION public.f(n integer) RETURNS boolean LANGUAGE sql IMMUTABLE RETURN n > 0;
CREATE FUNCTION public.g(a integer, b text) RETURNS integer LANGUAGE sql IMMUTABLE RETURN a + length(b);
CREATE TABLE s2.c1 (n integer CHECK (public.f(n)), m integer CHECK (f(m) AND m > 2), k text CHECK (g(n, k) > 1),
  l text CHECK (public.g(m, 'x') < 100 OR lower(l) = 'y'));
CREATE VIEW public.v5 AS SELECT f(n) AS fn, public.g(m, k) AS gm, g(1, 'z') FROM s2.c1 WHERE public.f(m) AND lower(k) <> 'q';
INSERT INTO public.t VALUES (1, 'a'), (2, 'x');
INSERT INTO s2.c0 VALUES (1, 'c');
INSERT INTO s2.c1 VALUES (1, 3, 'ab', 'y');
`

// trustUserChecks must come out the same on sqlgate, on PostgreSQL
// where the user made the same objects, and on PostgreSQL restored from
// sqlgate's dump: the user is a role, it owns what it made, and the
// views print their relations qualified off the search path (pg_dump's
// is empty).
var trustUserChecks = []string{
	`SELECT rolname, rolsuper, rolcanlogin FROM pg_roles WHERE rolname = 'dump_alice'`,
	`SELECT n.nspname, c.relname, c.relkind, pg_get_userbyid(c.relowner) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	   WHERE n.nspname IN ('public', 's2') AND c.relkind IN ('r', 'v') ORDER BY 1, 2`,
	`SELECT nspname, pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 's2'`,
	`SELECT proname, pg_get_userbyid(proowner) FROM pg_proc WHERE proname = 'f'`,
	`SELECT c.relname, pg_get_viewdef(c.oid) FROM pg_class c WHERE c.relkind = 'v' AND c.relnamespace IN ('public'::regnamespace, 's2'::regnamespace) ORDER BY 1`,
	`SET search_path = ''; SELECT c.relname, pg_catalog.pg_get_viewdef(c.oid, true) FROM pg_catalog.pg_class c
	   WHERE c.relkind = 'v' AND c.relnamespace IN ('public'::pg_catalog.regnamespace, 's2'::pg_catalog.regnamespace) ORDER BY 1`,
	`SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 's2.c1'::regclass ORDER BY 1`,
	`SET search_path = ''; SELECT conname, pg_catalog.pg_get_constraintdef(oid, true) FROM pg_catalog.pg_constraint
	   WHERE conrelid = 's2.c1'::pg_catalog.regclass ORDER BY 1`,
	`SELECT * FROM s2.v3 ORDER BY 1`,
	`SELECT * FROM public.v5`,
	`SELECT * FROM public.v4 ORDER BY 1`,
}

// TestPgDumpOfTrustUser: a user that logs in to a server without
// authentication is a superuser role (README: Privileges) that pg_roles
// lists, so that PostgreSQL 15's pg_dump resolves the owner of what it
// made (an unknown owner OID aborts the dump), and the dump restores into
// PostgreSQL as the same objects.
func TestPgDumpOfTrustUser(t *testing.T) {
	for _, tool := range []string{"pg_dump", "psql"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed (PostgreSQL 15's client tools): %v", tool, err)
		}
	}
	pg := pgtest.Start(t)
	pgURL := dumpOracle(t, pg)
	dumpPsql(t, pgURL, "CREATE ROLE dump_alice SUPERUSER LOGIN; CREATE DATABASE direct; CREATE DATABASE fromsg", true)
	alice := func(url string) string {
		return strings.Replace(url, "postgres://sqlgate@", "postgres://dump_alice@", 1)
	}
	direct := alice(strings.Replace(pgURL, "/sqlgate?", "/direct?", 1))
	fromSg := alice(strings.Replace(pgURL, "/sqlgate?", "/fromsg?", 1))
	dumpPsql(t, direct, trustUserSchema, true)

	srv := startServer(t)
	host, port := hostPort(t, srv.Addr().String())
	src := "postgres://dump_alice@" + host + ":" + port + "/sqlgate?sslmode=disable"
	dumpPsql(t, src, trustUserSchema, true)
	file := filepath.Join(t.TempDir(), "plain.sql")
	dumpRun(t, "pg_dump", "--no-password", "-f", file, src)
	dumpRun(t, "psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", fromSg, "-f", file)

	for _, q := range trustUserChecks {
		want := dumpPsql(t, direct, q, true)
		if got := dumpPsql(t, src, q, true); got != want {
			t.Errorf("%s\nsqlgate:\n%s\nPostgreSQL:\n%s", q, got, want)
		}
		if got := dumpPsql(t, fromSg, q, true); got != want {
			t.Errorf("%s\nPostgreSQL restored from sqlgate's dump:\n%s\nPostgreSQL:\n%s", q, got, want)
		}
	}
}
