package psql

import (
	"regexp"
	"strings"
	"testing"
)

// opclassesMatchPostgres compares psql's access-method listings (\dAc,
// \dAf, \dAo, \dAp) and collations (\dO) with PostgreSQL's. The commands
// naming a family or class sqlgate lists compare whole; the listings of
// every class of each access method, unaligned, row by row: every row
// sqlgate prints is PostgreSQL's, and each of PostgreSQL's rows sqlgate
// lacks is of a family with an operator sqlgate does not bind (tid, cid,
// xid8, aclitem, multiranges, record_image, the geometric types: types or
// operators sqlgate does not have; gin's tsvector_ops: @@@; gist's
// tsquery_ops: tsquery's <@ and @>).
func opclassesMatchPostgres(t *testing.T, pg, sg int) {
	for _, cmd := range []string{`\dAc btree int4`, `\dAc hash text`, `\dAf hash text`, `\dAf btree integer_ops`,
		`\dAo btree integer_ops`, `\dAo+ hash text_ops`, `\dAp hash text_ops`, `\dAp+ btree float_ops`, `\dO`, `\dO+ "C"`,
		`\dAc btree anyenum`, `\dAo btree enum_ops`, `\dAp+ hash enum_ops`, `\dAc gin jsonb`, `\dAo gin jsonb_ops`, `\dAp gin array_ops`,
		`\dAc spgist text`, `\dAc gist inet`, `\dAc brin int4`, `\dAo brin integer_minmax_ops`} {
		got := runPsql(t, sg, "sqlgate", "sqlgate", "-c", cmd)
		if want := runPsql(t, pg, "sqlgate", "sqlgate", "-c", cmd); got != want {
			t.Errorf("%s differs\n--- sqlgate:\n%s\n--- PostgreSQL:\n%s", cmd, got, want)
		}
	}
	lacking := map[string][]string{
		"btree":  {"|tid_ops|", "|xid8_ops|", "|multirange_ops|", "|record_image_ops|"},
		"hash":   {"|tid_ops|", "|cid_ops|", "|xid8_ops|", "|aclitem_ops|", "|multirange_ops|"},
		"gist":   {"|point_ops|", "|box_ops|", "|poly_ops|", "|circle_ops|", "|tsquery_ops|", "|range_ops|", "|multirange_ops|"},
		"gin":    {"|tsvector_ops|"},
		"spgist": {"|quad_point_ops|", "|kd_point_ops|", "|box_ops|", "|poly_ops|"},
		"brin":   {"|tid_minmax_ops|", "|tid_bloom_ops|", "|tid_minmax_multi_ops|", "|box_inclusion_ops|"},
	}
	// (\dAc+ and \dAf+ name the family; their last column, the owner,
	// is each server's bootstrap role)
	owner := regexp.MustCompile(`(?m)\|[^|\n]*$`)
	for _, method := range []string{"btree", "hash", "gist", "gin", "spgist", "brin"} {
		for _, cmd := range []string{`\dAc+ ` + method, `\dAf+ ` + method} {
			got := strings.Split(owner.ReplaceAllString(runPsql(t, sg, "sqlgate", "sqlgate", "-A", "-c", cmd), "|"), "\n")
			want := strings.Split(owner.ReplaceAllString(runPsql(t, pg, "sqlgate", "sqlgate", "-A", "-c", cmd), "|"), "\n")
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
		missing:
			for r := range pgRows {
				for _, l := range lacking[method] {
					if strings.Contains(r+"|", l) {
						continue missing
					}
				}
				t.Errorf("%s: PostgreSQL's row %q is missing", cmd, r)
			}
			if len(rows) < 2 {
				t.Errorf("%s: %d rows", cmd, len(rows))
			}
		}
	}
}
