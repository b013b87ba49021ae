package clients

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestPgJDBCMetadata compares what pgJDBC's DatabaseMetaData (getSchemas,
// getTables, getColumns, getPrimaryKeys, getIndexInfo) answers on sqlgate
// with what it answers on PostgreSQL 15 for the same tables. The outputs
// are compared line for line, without normalisation: pgJDBC orders every
// one of these result sets, and none of them shows an OID.
func TestPgJDBCMetadata(t *testing.T) {
	for _, tool := range []string{"javac", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed (.ci/run installs default-jdk-headless): %v", tool, err)
		}
	}
	if _, err := os.Stat(jdbcJar); err != nil {
		t.Fatalf("pgJDBC is not installed (.ci/run installs libpostgresql-jdbc-java): %v", err)
	}
	p := startOraclePair(t)
	dir := t.TempDir()
	if out, err := exec.Command("javac", "-encoding", "UTF-8", "-d", dir, "-cp", jdbcJar, filepath.Join("java", "Metadata.java")).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	run := func(host, port string) string {
		url := "jdbc:postgresql://" + host + ":" + port + "/sqlgate?user=sqlgate&sslmode=disable"
		out, err := exec.Command("java", "-cp", jdbcJar+string(os.PathListSeparator)+dir, "Metadata", url).CombinedOutput()
		if err != nil {
			t.Fatalf("Metadata against %s:%s (sqlgate is on %s): %v\n%s", host, port, p.sgPort, err, out)
		}
		return string(out)
	}
	want := run(p.pgHost, p.pgPort)
	got := run(p.sgHost, p.sgPort)
	compareSections(t, got, want, jdbcMetadataGaps)
}

// jdbcMetadataGaps are the calls sqlgate cannot answer yet, with the exact
// error it gives; the test fails once a call answers anything else, so the
// list stays true. None today: getPrimaryKeys and getIndexInfo select a
// field of the composite information_schema._pg_expandarray returns.
var jdbcMetadataGaps = map[string]string{}

// compareSections compares two outputs made of "== call" sections and
// reports each section that differs with both versions. A section named in
// gaps must instead hold exactly that error line on sqlgate.
func compareSections(t *testing.T, got, want string, gaps map[string]string) {
	t.Helper()
	gs, ws := splitSections(got), splitSections(want)
	if len(ws) < 2 {
		t.Fatalf("the oracle's output has no sections:\n%s", want)
	}
	names := make([]string, 0, len(ws))
	for name := range ws {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		g, ok := gs[name]
		if !ok {
			t.Errorf("%s: missing from sqlgate's output:\n%s", name, got)
			continue
		}
		if gap, ok := gaps[strings.TrimPrefix(name, "== ")]; ok {
			if g != name+"\n"+gap {
				t.Errorf("%s: known gap no longer fails as listed (compare it with PostgreSQL now)\n--- sqlgate:\n%s\n--- listed:\n%s", name, g, gap)
			}
			continue
		}
		if g != ws[name] {
			t.Errorf("%s differs\n--- sqlgate:\n%s\n--- PostgreSQL:\n%s", name, g, ws[name])
		}
	}
}

// splitSections maps each section's "== call" line to the whole section.
func splitSections(s string) map[string]string {
	out := map[string]string{}
	for _, sec := range strings.Split(s, "\n== ") {
		sec = strings.TrimPrefix(sec, "== ")
		if sec == "" {
			continue
		}
		out["== "+strings.SplitN(sec, "\n", 2)[0]] = "== " + strings.TrimRight(sec, "\n")
	}
	return out
}
