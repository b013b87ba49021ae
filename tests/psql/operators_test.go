package psql

import (
	"strings"
	"testing"
)

// operatorsMatchPostgres compares psql's operator and cast listings (\do,
// \dC) with PostgreSQL's. The commands that list only operators sqlgate has
// compare whole; the others, unaligned, row by row: every row sqlgate prints
// is PostgreSQL's, and each of PostgreSQL's rows sqlgate lacks names a type
// sqlgate does not have (geometry, multiranges, xml, aclitem ...).
func operatorsMatchPostgres(t *testing.T, pg, sg int) {
	for _, cmd := range []string{`\do+ ||`, `\do ~~*`, `\do int4*`, `\do`, `\doS+ ~`} {
		got := runPsql(t, sg, "sqlgate", "sqlgate", "-c", cmd)
		if want := runPsql(t, pg, "sqlgate", "sqlgate", "-c", cmd); got != want {
			t.Errorf("%s differs\n--- sqlgate:\n%s\n--- PostgreSQL:\n%s", cmd, got, want)
		}
	}
	typeNames := func(port int) map[string]bool {
		out := map[string]bool{}
		for _, n := range strings.Split(runPsql(t, port, "sqlgate", "sqlgate", "-At", "-c", "SELECT format_type(oid, NULL) FROM pg_type"), "\n") {
			out[n] = true
		}
		return out
	}
	sgTypes, pgTypes := typeNames(sg), typeNames(pg)
	// types pg_type lists that no operator or cast of sqlgate's takes:
	// catalog columns' types and the pseudo-types of multiranges and
	// enums (an enum's own operators are the binder's, enumops.go)
	for _, n := range []string{"aclitem", "aclitem[]", "cid", "tid", "pg_node_tree", "anymultirange", "anyenum"} {
		sgTypes[n] = false
	}
	// operators sqlgate does not have over types it has
	// (TestOperatorsMatchPostgres's log lists them): pg_lsn's with
	// numeric, tsquery's containment
	unbound := []string{"|pg_lsn|numeric|", "|numeric|pg_lsn|", "|@>|tsquery|tsquery|", "|<@|tsquery|tsquery|"}
	// lacking reports whether a row names a type PostgreSQL has and
	// sqlgate does not, or is one of unbound
	lacking := func(row string) bool {
		for _, u := range unbound {
			if strings.Contains(row, u) {
				return true
			}
		}
		for _, f := range strings.Split(row, "|") {
			if pgTypes[f] && !sgTypes[f] {
				return true
			}
		}
		return false
	}
	for _, cmd := range []string{`\doS+ +`, `\doS =`, `\do+ @>`, `\dC`, `\dC+ text`, `\dC integer`} {
		got := strings.Split(runPsql(t, sg, "sqlgate", "sqlgate", "-A", "-c", cmd), "\n")
		want := strings.Split(runPsql(t, pg, "sqlgate", "sqlgate", "-A", "-c", cmd), "\n")
		pgRows := map[string]bool{}
		for _, r := range want[2 : len(want)-1] {
			pgRows[r] = true
		}
		if got[0] != want[0] || got[1] != want[1] {
			t.Errorf("%s: title and header %q, PostgreSQL's %q", cmd, got[:2], want[:2])
		}
		rows := got[2 : len(got)-1]
		for _, r := range rows {
			if !pgRows[r] {
				t.Errorf("%s: row %q is not PostgreSQL's", cmd, r)
			}
			delete(pgRows, r)
		}
		for r := range pgRows {
			if !lacking(r) {
				t.Errorf("%s: PostgreSQL's row %q is missing", cmd, r)
			}
		}
		if len(rows) < 3 {
			t.Errorf("%s: %d rows", cmd, len(rows))
		}
	}
}
