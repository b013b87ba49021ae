package difftest

import (
	"context"
	"strings"
	"testing"
)

// bpcharOrderValues are the texts the ordering uses are tried with. Beside
// values equal as bpchar but for their trailing blanks ('a', 'a  '), it
// holds one whose next byte sorts below a blank (E'a\001'): bytewise,
// 'a  ' > E'a\001', but bpchar drops the trailing blanks first, so 'a' <
// E'a\001'. A kernel that compares a bpchar's bytes orders the two wrongly.
var bpcharOrderValues = []string{"'a'", "'a  '", `E'a\001'`, "' '", "NULL", "'b '"}

// bpcharOrderUses are queries over two values, $1 and $2 (each of
// bpcharOrderValues), and the fixed E'a\001' and 'a ', whose answers
// depend on bpchar's order or equality in every operator that compares
// values: window min/max and the value functions over an ORDER BY,
// ntile, the plain aggregates, sort, DISTINCT, GROUP BY, joins, IN lists
// and subqueries, and the scalar comparisons. One rule throughout:
// bpcharcmp, trailing blanks insignificant.
var bpcharOrderUses = []string{
	"SELECT y, min(x) OVER w, max(x) OVER w FROM (VALUES ($1::bpchar, 1), ($2::bpchar, 2), (E'a\\001'::bpchar, 3), ('a '::bpchar, 4)) v(x, y) WINDOW w AS (PARTITION BY y % 2) ORDER BY y",
	"SELECT y, min(x) OVER (ORDER BY y), max(x) OVER (ORDER BY y) FROM (VALUES ($1::bpchar, 1), ($2::bpchar, 2), (E'a\\001'::bpchar, 3), ('a '::bpchar, 4)) v(x, y) ORDER BY y",
	"SELECT y, max(x) OVER (ORDER BY y ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING), min(x) OVER (ORDER BY y ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM (VALUES ($1::bpchar, 1), ($2::bpchar, 2), (E'a\\001'::bpchar, 3), ('a '::bpchar, 4)) v(x, y) ORDER BY y",
	"SELECT y, first_value(y) OVER w, last_value(y) OVER w, lead(y, 1, 0) OVER w, lag(y, 1, 0) OVER w, ntile(2) OVER w, rank() OVER w FROM (VALUES ($1::bpchar, 1), ($2::bpchar, 2), (E'a\\001'::bpchar, 3), ('a '::bpchar, 4)) v(x, y) WINDOW w AS (ORDER BY x, y ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) ORDER BY y",
	"SELECT y, lead(x, 1, 'zz') OVER (ORDER BY x, y) < 'a', lag(x, 1, 'a') OVER (ORDER BY x DESC, y) = 'a' FROM (VALUES ($1::bpchar, 1), ($2::bpchar, 2), (E'a\\001'::bpchar, 3)) v(x, y) ORDER BY y",
	"SELECT min(x), max(x), count(DISTINCT x) FROM (VALUES ($1::bpchar), ($2::bpchar), (E'a\\001'::bpchar), ('a '::bpchar)) v(x)",
	"SELECT y FROM (VALUES ($1::bpchar, 1), ($2::bpchar, 2), (E'a\\001'::bpchar, 3), ('a '::bpchar, 4)) v(x, y) ORDER BY x DESC, y",
	"SELECT y FROM (VALUES ($1::bpchar, 1), ($2::bpchar, 2), (E'a\\001'::bpchar, 3), ('a '::bpchar, 4)) v(x, y) ORDER BY x, y LIMIT 2",
	"SELECT count(*) FROM (SELECT DISTINCT x FROM (VALUES ($1::bpchar), ($2::bpchar), (E'a\\001'::bpchar), ('a '::bpchar)) v(x)) s",
	"SELECT count(*), min(y) FROM (VALUES ($1::bpchar, 1), ($2::bpchar, 2), (E'a\\001'::bpchar, 3), ('a '::bpchar, 4)) v(x, y) GROUP BY x ORDER BY 2",
	"SELECT v.y, w.y FROM (VALUES ($1::bpchar, 1), (E'a\\001'::bpchar, 3)) v(x, y) JOIN (VALUES ($2::bpchar, 2), ('a '::bpchar, 4)) w(x, y) ON v.x = w.x ORDER BY 1, 2",
	"SELECT v.y, w.y FROM (VALUES ($1::bpchar, 1), (E'a\\001'::bpchar, 3)) v(x, y) JOIN (VALUES ($2::bpchar, 2), ('a '::bpchar, 4)) w(x, y) ON v.x < w.x ORDER BY 1, 2",
	"SELECT y FROM (VALUES ($1::bpchar, 1), (E'a\\001'::bpchar, 3), ('a '::bpchar, 4)) v(x, y) WHERE x IN ($2::bpchar, 'b') ORDER BY y",
	"SELECT y FROM (VALUES ($1::bpchar, 1), (E'a\\001'::bpchar, 3), ('a '::bpchar, 4)) v(x, y) WHERE x IN (SELECT $2::bpchar) ORDER BY y",
	"SELECT y FROM (VALUES ($1::bpchar, 1), (E'a\\001'::bpchar, 3), ('a '::bpchar, 4)) v(x, y) WHERE x > ALL (SELECT $2::bpchar) ORDER BY y",
	"SELECT $1::bpchar < $2::bpchar, $1::bpchar = $2::bpchar, $1::bpchar < E'a\\001'::bpchar, $1::char(3) > $2::char(1)",
	"SELECT y FROM (VALUES ($1::char(3), 1), ($2::char(3), 2), (E'a\\001'::char(3), 3)) v(x, y) ORDER BY x, y",
	"SELECT max(x) OVER () = E'a\\001', min(x) OVER () FROM (VALUES ($1::char(3)), ($2::char(3)), (E'a\\001'::char(3))) v(x) LIMIT 1",
}

// TestBpcharOrderDifferential: every use × every ordered pair of values
// on sqlgate and PostgreSQL 15. Which of equal values min, max or a group
// shows is the first the plan met, so bpchar cells are compared without
// trailing blanks.
func TestBpcharOrderDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	stats := map[string]int{}
	for _, use := range bpcharOrderUses {
		for _, x := range bpcharOrderValues {
			for _, y := range bpcharOrderValues {
				q := strings.NewReplacer("$1", x, "$2", y).Replace(use)
				sg := r.SQLGate.Run(ctx, q)
				pg := r.Postgres.Run(ctx, q)
				switch {
				case sg.Err != nil && sg.Err.Code == connErrorCode:
					t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
				case pg.Err != nil:
					t.Fatalf("%s fails on PostgreSQL: %s", q, describe(pg))
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
	t.Logf("%d uses × %d² values: %v", len(bpcharOrderUses), len(bpcharOrderValues), stats)
	if stats["same"] != len(bpcharOrderUses)*len(bpcharOrderValues)*len(bpcharOrderValues) {
		t.Errorf("not every query gave PostgreSQL's answer: %v", stats)
	}
}
