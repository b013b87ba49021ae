package difftest

import (
	"context"
	"strings"
	"testing"
)

// bpcharGroupValues are the texts the grouping uses are tried with:
// values equal as bpchar but for their trailing blanks ('a', 'a  ' and the
// uses' own 'a '; the empty string and a blank), another value and NULL.
var bpcharGroupValues = []string{"'a'", "'a  '", "''", "' '", "NULL", "'b '"}

// bpcharGroupUses are queries over two values, $1 and $2 (each of
// bpcharGroupValues), that group, deduplicate or match bpchar values
// without a length: PostgreSQL's bpchar equality ignores trailing blanks,
// so values that differ only in them are one group (binder/bpchargroups.go;
// for the keys of every operator, exec's key encoding: lower/blankpadded.go),
// and array comparison compares bpchar elements so too.
var bpcharGroupUses = []string{
	"SELECT x FROM (VALUES ($1::bpchar), ($2::bpchar), ('a '::bpchar)) v(x) GROUP BY x",
	"SELECT x, count(*), pg_typeof(x) FROM (VALUES ($1::bpchar), ($2::bpchar), ('a '::bpchar)) v(x) GROUP BY x",
	"SELECT '[' || x || ']', length(x), upper(x) FROM (VALUES ($1::bpchar), ($2::bpchar), ('a '::bpchar)) v(x) GROUP BY x",
	"SELECT x, y, count(*) FROM (VALUES ($1::bpchar, 1), ($2::bpchar, 1), ('a '::bpchar, 2)) v(x, y) GROUP BY x, y",
	"SELECT x, count(*) FROM (VALUES ($1::bpchar), ($2::bpchar), ('a '::bpchar)) v(x) GROUP BY x HAVING count(*) > 1",
	"SELECT x, count(*) FROM (SELECT $1::char(1) UNION ALL SELECT $2::char(3) UNION ALL SELECT 'a'::char(2)) v(x) GROUP BY x",
	"SELECT DISTINCT x FROM (VALUES ($1::bpchar), ($2::bpchar), ('a '::bpchar)) v(x)",
	"SELECT DISTINCT x, x || '|' FROM (VALUES ($1::bpchar), ($2::bpchar), ('a '::bpchar)) v(x) ORDER BY 2",
	"SELECT count(*) FROM (SELECT DISTINCT x FROM (VALUES ($1::bpchar), ($2::bpchar)) v(x)) s",
	"SELECT count(DISTINCT x), count(x) FROM (VALUES ($1::bpchar), ($2::bpchar), ('a '::bpchar)) v(x)",
	"SELECT $1::bpchar UNION SELECT $2::bpchar",
	"SELECT $1::char(1) UNION SELECT $2::char(3)",
	"SELECT $1::bpchar, 1 UNION SELECT $2::bpchar, 1 UNION SELECT 'a '::bpchar, 2",
	"SELECT x FROM (VALUES ($1::bpchar), ('a '::bpchar)) v(x) INTERSECT SELECT $2::bpchar",
	"SELECT x FROM (VALUES ($1::bpchar), ('a '::bpchar)) v(x) EXCEPT SELECT $2::bpchar",
	"SELECT x, 1 FROM (VALUES ($1::bpchar), ($2::bpchar)) v(x) EXCEPT SELECT 'a'::bpchar, 1",
	"SELECT $1::char(2) INTERSECT SELECT $2::char(3)",
	"SELECT ARRAY[$1::bpchar] = ARRAY[$2::bpchar], ARRAY[$1::bpchar, 'b'] < ARRAY[$2::bpchar, 'c'], ARRAY[$1::char(1)] <> ARRAY[$2::char(3)]",
	"SELECT ARRAY[$1::bpchar, NULL] = ARRAY[$2::bpchar, NULL], ARRAY[ARRAY[$1::bpchar]] >= ARRAY[ARRAY[$2::bpchar]]",
	// the operators' own keys (exec's key encoding, lower/blankpadded.go)
	"SELECT DISTINCT ON (x) x, y FROM (VALUES ($1::bpchar, 1), ($2::bpchar, 2), ('a '::bpchar, 3)) v(x, y) ORDER BY x, y",
	"SELECT y, count(*) OVER (PARTITION BY x), sum(y) OVER (PARTITION BY x) FROM (VALUES ($1::bpchar, 1), ($2::bpchar, 2), ('a '::bpchar, 4)) v(x, y)",
	"SELECT y, rank() OVER (ORDER BY x), count(*) OVER (ORDER BY x DESC) FROM (VALUES ($1::bpchar, 1), ($2::bpchar, 2), ('a '::bpchar, 4), ('b', 8)) v(x, y)",
	"SELECT x FROM (VALUES ($1::bpchar), ('a '::bpchar)) v(x) INTERSECT ALL SELECT x FROM (VALUES ($2::bpchar), ('a'::bpchar)) w(x)",
	"SELECT x FROM (VALUES ($1::bpchar), ('a '::bpchar), ('a'::bpchar)) v(x) EXCEPT ALL SELECT x FROM (VALUES ($2::bpchar)) w(x)",
	"WITH RECURSIVE r(x, n) AS (SELECT $1::bpchar, 1 UNION SELECT $2::bpchar, 1 FROM r) SELECT count(*) FROM r",
	"SELECT x, count(*) FROM (VALUES ($1::bpchar), ($2::bpchar), ('a '::bpchar)) v(x) GROUP BY ROLLUP (x)",
	"SELECT x, y, count(*) FROM (VALUES ($1::bpchar, 1), ($2::bpchar, 1), ('a '::bpchar, 2)) v(x, y) GROUP BY GROUPING SETS ((x), (x, y), ())",
	"SELECT count(DISTINCT ARRAY[x]), array_length(array_agg(DISTINCT x), 1) FROM (VALUES ($1::bpchar), ($2::bpchar), ('a '::bpchar)) v(x)",
	"SELECT count(*), sum(y) FROM (VALUES ($1::bpchar, 1), ($2::bpchar, 2), ('a '::bpchar, 4)) v(x, y) GROUP BY ARRAY[x]",
	"SELECT count(*) FROM (SELECT DISTINCT ARRAY[x, 'b'] FROM (VALUES ($1::bpchar), ($2::bpchar)) v(x)) s",
	"SELECT y FROM (VALUES ($1::bpchar, 1), ($2::bpchar, 2), ('a '::bpchar, 4)) v(x, y) ORDER BY x, y DESC",
}

// TestBpcharGroupsDifferential: every use × every ordered pair of values
// on sqlgate and PostgreSQL 15. Which of a group's values PostgreSQL shows
// is the first its plan met, so bpchar cells (OID 1042) are compared
// without trailing blanks; each of sqlgate's must be one of the values
// the query was given (a group of one shows its value unchanged).
func TestBpcharGroupsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	stats := map[string]int{}
	for _, use := range bpcharGroupUses {
		for _, x := range bpcharGroupValues {
			for _, y := range bpcharGroupValues {
				q := strings.NewReplacer("$1", x, "$2", y).Replace(use)
				sg := r.SQLGate.Run(ctx, q)
				pg := r.Postgres.Run(ctx, q)
				switch {
				case sg.Err != nil && sg.Err.Code == connErrorCode:
					t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
				case sg.Err != nil || pg.Err != nil:
					stats["different"]++
					t.Errorf("%s\n  sqlgate:    %s\n  PostgreSQL: %s", q, describe(sg), describe(pg))
					continue
				}
				if cell, ok := bpcharMembers(sg, q); !ok {
					stats["different"]++
					t.Errorf("%s\n  sqlgate shows %q, not one of the values given", q, cell)
					continue
				}
				if same, why := Compare(trimBpchar(sg), trimBpchar(pg), false, false); !same {
					stats["different"]++
					t.Errorf("%s\n  %s\n  sqlgate:    %s\n  PostgreSQL: %s", q, why, describe(sg), describe(pg))
					continue
				}
				stats["same"]++
			}
		}
	}
	t.Logf("%d uses × %d² values: %v", len(bpcharGroupUses), len(bpcharGroupValues), stats)
	if stats["same"] != len(bpcharGroupUses)*len(bpcharGroupValues)*len(bpcharGroupValues) {
		t.Errorf("not every query gave PostgreSQL's answer: %v", stats)
	}
}

// oidBpchar is bpchar's type OID.
const oidBpchar = 1042

// trimBpchar is o with its bpchar cells' trailing blanks dropped.
func trimBpchar(o Outcome) Outcome {
	out := Outcome{OIDs: o.OIDs, Err: o.Err}
	for _, row := range o.Rows {
		cells := make([]Cell, len(row))
		for i, c := range row {
			cells[i] = c
			if i < len(o.OIDs) && o.OIDs[i] == oidBpchar {
				cells[i].Text = strings.TrimRight(c.Text, " ")
			}
		}
		out.Rows = append(out.Rows, cells)
	}
	return out
}

// bpcharMembers reports whether every bpchar cell of o is NULL or a text
// quoted in q (one of the values the query was given), else the first
// one that is not. A query that casts to character(n) pads or cuts its
// values: there the trimmed comparison alone holds.
func bpcharMembers(o Outcome, q string) (string, bool) {
	if strings.Contains(q, "char(") {
		return "", true
	}
	for _, row := range o.Rows {
		for i, c := range row {
			if c.Null || i >= len(o.OIDs) || o.OIDs[i] != oidBpchar {
				continue
			}
			if !strings.Contains(q, "'"+c.Text+"'") {
				return c.Text, false
			}
		}
	}
	return "", true
}
