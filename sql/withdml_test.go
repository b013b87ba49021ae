package sql

import (
	"strings"
	"testing"
)

// TestWithBeforeInsertKeepsInsertClauses: WITH ... INSERT is hoisted into
// INSERT ... WITH ... SELECT and then rewritten as any INSERT: its alias,
// ON CONFLICT and RETURNING are read as without WITH.
func TestWithBeforeInsertKeepsInsertClauses(t *testing.T) {
	tests := []struct {
		in        string
		rewritten string // lower-cased, spaces as emitted
		alias     string
		nothing   bool
		returning bool
	}{
		{"WITH w AS (SELECT 1 AS x) INSERT INTO t SELECT x FROM w RETURNING id", `insert into t with w as (select 1 as "x") select x from w ; select id`, "", false, true},
		{"WITH w AS (SELECT 1 AS x) INSERT INTO t AS r SELECT x FROM w ON CONFLICT DO NOTHING RETURNING r.id",
			`insert into t with w as (select 1 as "x") select x from w ; select r.id`, "r", true, true},
		{"WITH w AS (SELECT 1 AS x) INSERT INTO t SELECT x FROM w ON CONFLICT (id) DO UPDATE SET v = excluded.v",
			`insert into t with w as (select 1 as "x") select x from w on duplicate key update v = values (v )`, "", false, false},
	}
	for _, tc := range tests {
		st := parseOne(t, tc.in)
		if st.Kind != Insert {
			t.Errorf("%s: kind %v, want Insert", tc.in, st.Kind)
		}
		if got := strings.ToLower(st.Rewritten); got != tc.rewritten {
			t.Errorf("%s: rewritten\n got %q\nwant %q", tc.in, got, tc.rewritten)
		}
		if st.InsertAlias != tc.alias || st.OnConflictDoNothing != tc.nothing || (st.Returning != nil) != tc.returning {
			t.Errorf("%s: alias %q, do nothing %v, returning %v", tc.in, st.InsertAlias, st.OnConflictDoNothing, st.Returning != nil)
		}
	}
}
