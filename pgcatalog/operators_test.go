package pgcatalog

import (
	"context"
	"strings"
	"testing"
)

// TestOperatorRowsMatchPostgres compares every pg_operator, pg_cast,
// pg_opfamily, pg_opclass, pg_amop and pg_amproc row sqlgate serves, the
// implementing, cast and support functions' pg_proc rows and the
// operators' pg_description rows with PostgreSQL 15's rows of the same OIDs, column by
// column (oprrest and oprjoin apart: sqlgate has no estimators, they are 0).
func TestOperatorRowsMatchPostgres(t *testing.T) {
	conn := sharedPG.Conn(t)
	ctx := context.Background()
	c := New(testStore(), Options{})
	cases := []struct {
		rel   string
		cols  []string
		query string // PostgreSQL's rows of the OIDs in $1, as scanAll prints them
		min   int
	}{
		{"pg_operator", []string{"oid", "oprname", "oprnamespace", "oprowner", "oprkind", "oprcanmerge", "oprcanhash", "oprleft", "oprright", "oprresult", "oprcom", "oprnegate", "oprcode"},
			`SELECT concat_ws('|', oid, oprname, oprnamespace, oprowner, oprkind, oprcanmerge::text, oprcanhash::text, oprleft, oprright, oprresult, oprcom, oprnegate, oprcode::oid)
			FROM pg_operator WHERE oid = ANY($1)`, 500},
		{"pg_cast", []string{"oid", "castsource", "casttarget", "castfunc", "castcontext", "castmethod"},
			`SELECT concat_ws('|', oid, castsource, casttarget, castfunc, castcontext, castmethod) FROM pg_cast WHERE oid = ANY($1)`, 150},
		{"pg_proc", []string{"oid", "proname", "pronamespace", "pronargs", "proargtypes", "prorettype", "provolatile", "proisstrict", "proparallel", "prosrc", "proretset", "prokind"},
			`SELECT concat_ws('|', oid, proname, pronamespace, pronargs, '{' || replace(proargtypes::text, ' ', ',') || '}', prorettype, provolatile, proisstrict::text, proparallel, prosrc, proretset::text, prokind)
			FROM pg_proc WHERE oid = ANY($1) AND oid IN (SELECT oprcode FROM pg_operator UNION SELECT castfunc FROM pg_cast UNION SELECT amproc FROM pg_amproc)
			AND provariadic = 0`, 580}, // the library's VARIADIC rows list the element type (json_extract_path: procs' own)
		{"pg_opfamily", []string{"oid", "opfmethod", "opfname", "opfnamespace", "opfowner"},
			`SELECT concat_ws('|', oid, opfmethod, opfname, opfnamespace, opfowner) FROM pg_opfamily WHERE oid = ANY($1)`, 55},
		{"pg_opclass", []string{"oid", "opcmethod", "opcname", "opcnamespace", "opcowner", "opcfamily", "opcintype", "opcdefault", "opckeytype"},
			`SELECT concat_ws('|', oid, opcmethod, opcname, opcnamespace, opcowner, opcfamily, opcintype, opcdefault::text, opckeytype) FROM pg_opclass WHERE oid = ANY($1)`, 70},
		{"pg_amop", []string{"oid", "amopfamily", "amoplefttype", "amoprighttype", "amopstrategy", "amoppurpose", "amopopr", "amopmethod", "amopsortfamily"},
			`SELECT concat_ws('|', oid, amopfamily, amoplefttype, amoprighttype, amopstrategy, amoppurpose, amopopr, amopmethod, amopsortfamily) FROM pg_amop WHERE oid = ANY($1)`, 300},
		{"pg_amproc", []string{"oid", "amprocfamily", "amproclefttype", "amprocrighttype", "amprocnum", "amproc"},
			`SELECT concat_ws('|', oid, amprocfamily, amproclefttype, amprocrighttype, amprocnum, amproc::oid) FROM pg_amproc WHERE oid = ANY($1)`, 170},
		{"pg_description", []string{"objoid", "classoid", "objsubid", "description"},
			`SELECT concat_ws('|', objoid, classoid, objsubid, description) FROM pg_description
			WHERE objoid = ANY($1) AND classoid = 'pg_operator'::regclass`, 500},
	}
	for _, tc := range cases {
		t.Run(tc.rel, func(t *testing.T) {
			got := map[string]string{}
			var oids []int64
			for _, r := range scanAll(t, c, "pg_catalog", tc.rel, tc.cols...) {
				oid := r[:strings.IndexByte(r, '|')]
				if tc.rel == "pg_description" && !strings.Contains(r, "|2617|") {
					continue
				}
				var n int64
				for _, d := range oid {
					n = n*10 + int64(d-'0')
				}
				if n >= 16384 {
					continue // sqlgate's own OIDs: functions PostgreSQL does not number so
				}
				got[oid] = r
				oids = append(oids, n)
			}
			rows, err := conn.Query(ctx, tc.query, oids)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]string{}
			for rows.Next() {
				var s string
				if err := rows.Scan(&s); err != nil {
					t.Fatal(err)
				}
				want[s[:strings.IndexByte(s, '|')]] = s
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			matched := 0
			for oid, g := range got {
				w, ok := want[oid]
				switch {
				case !ok && tc.rel != "pg_proc":
					t.Errorf("%s %s: PostgreSQL has no such row", tc.rel, g)
				case ok && g != w:
					t.Errorf("%s %s:\n got  %s\n want %s", tc.rel, oid, g, w)
				case ok:
					matched++
				}
			}
			if matched < tc.min {
				t.Errorf("%s: %d rows match PostgreSQL's, want at least %d", tc.rel, matched, tc.min)
			}
		})
	}
}
