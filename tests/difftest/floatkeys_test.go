package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// floatKeyValues are the float texts the key uses are tried with: -0 and 0
// (equal in float8eq, and so in every key), NaN twice over (equal to
// itself, above everything), the infinities, a plain value and NULL.
var floatKeyValues = []string{"'0'", "'-0'", "'NaN'", "'-Infinity'", "'Infinity'", "'1'", "NULL"}

// floatKeyUses are queries over two values, $1 and $2 (each of
// floatKeyValues), and $T, float8 or real, whose answers depend on float
// equality or order as a key: GROUP BY, DISTINCT, count(DISTINCT), set
// operations, hash and merge joins, IN lists and subqueries, window
// partitions, sort and min/max.
var floatKeyUses = []string{
	"SELECT x, count(*) FROM (VALUES ($1::$T), ($2::$T), ('-0'::$T), ('NaN'::$T)) v(x) GROUP BY x ORDER BY x",
	"SELECT count(*) FROM (SELECT DISTINCT x FROM (VALUES ($1::$T), ($2::$T), ('0'::$T)) v(x)) s",
	"SELECT count(DISTINCT x), count(x) FROM (VALUES ($1::$T), ($2::$T), ('-0'::$T)) v(x)",
	"SELECT count(*) FROM (SELECT $1::$T UNION SELECT $2::$T) s",
	"SELECT count(*) FROM (SELECT $1::$T INTERSECT SELECT $2::$T) s",
	"SELECT count(*) FROM (SELECT $1::$T EXCEPT SELECT $2::$T) s",
	"SELECT v.y, w.y FROM (VALUES ($1::$T, 1), ('NaN'::$T, 3), ('0'::$T, 5)) v(x, y) JOIN (VALUES ($2::$T, 2), ('-0'::$T, 4)) w(x, y) ON v.x = w.x ORDER BY 1, 2",
	"SELECT v.y, w.y FROM (VALUES ($1::$T, 1), ('NaN'::$T, 3)) v(x, y) JOIN (VALUES ($2::float8, 2), ('-0'::float8, 4)) w(x, y) ON v.x = w.x ORDER BY 1, 2",
	"SELECT v.y, w.y FROM (VALUES ($1::$T, 1), ('NaN'::$T, 3)) v(x, y) LEFT JOIN (VALUES ($2::$T, 2), ('-0'::$T, 4)) w(x, y) ON v.x = w.x AND w.x >= v.x ORDER BY 1, 2",
	"SELECT v.y, w.y FROM (VALUES ($1::$T, 1), ('NaN'::$T, 3)) v(x, y) FULL JOIN (VALUES ($2::$T, 2), ('-0'::$T, 4)) w(x, y) USING (x) ORDER BY 1, 2",
	"SELECT y FROM (VALUES ($1::$T, 1), ('NaN'::$T, 3), ('-0'::$T, 4)) v(x, y) WHERE x IN ($2::$T, '0') ORDER BY y",
	"SELECT y FROM (VALUES ($1::$T, 1), ('NaN'::$T, 3), ('-0'::$T, 4)) v(x, y) WHERE x NOT IN (SELECT $2::$T) ORDER BY y",
	"SELECT y FROM (VALUES ($1::$T, 1), ('NaN'::$T, 3), ('0'::$T, 4)) v(x, y) WHERE x IN (SELECT $2::$T UNION ALL SELECT 'NaN') ORDER BY y",
	"SELECT y, count(*) OVER (PARTITION BY x), rank() OVER (ORDER BY x) FROM (VALUES ($1::$T, 1), ($2::$T, 2), ('-0'::$T, 3), ('NaN'::$T, 4)) v(x, y) ORDER BY y",
	"SELECT y FROM (VALUES ($1::$T, 1), ($2::$T, 2), ('-0'::$T, 3), ('NaN'::$T, 4), ('Infinity'::$T, 5)) v(x, y) ORDER BY x DESC, y",
	"SELECT min(x), max(x), max(x) = 'NaN' FROM (VALUES ($1::$T), ($2::$T), ('1'::$T)) v(x)",
	"SELECT $1::$T = $2::$T, $1::$T < $2::$T, $1::$T > $2::$T, $1::$T IS DISTINCT FROM $2::$T, greatest($1::$T, $2::$T)",
}

// TestFloatKeysDifferential: every use × every ordered pair of values,
// for float8 and real, on sqlgate and PostgreSQL 15. Which of 0 and -0 a
// group shows is the first its plan met, so a "-0" cell is compared as 0.
func TestFloatKeysDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	stats := map[string]int{}
	total := 0
	for _, typ := range []string{"float8", "real"} {
		for _, use := range floatKeyUses {
			for _, x := range floatKeyValues {
				for _, y := range floatKeyValues {
					total++
					q := strings.NewReplacer("$1", x, "$2", y, "$T", typ).Replace(use)
					sg := r.SQLGate.Run(ctx, q)
					pg := r.Postgres.Run(ctx, q)
					if sg.Err != nil && sg.Err.Code == connErrorCode {
						t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
					}
					if same, why := Compare(unsignZero(sg), unsignZero(pg), false, false); !same {
						stats["different"]++
						t.Errorf("%s\n  %s\n  sqlgate:    %s\n  PostgreSQL: %s", q, why, describe(sg), describe(pg))
						continue
					}
					stats["same"]++
				}
			}
		}
	}
	t.Logf("%d queries: %v", total, stats)
	if stats["same"] != total {
		t.Errorf("not every query gave PostgreSQL's answer: %v", stats)
	}
}

// TestFloatPrimaryKeyDifferential: a float primary key holds one row per
// value as float8eq sees values (-0 is 0, NaN is NaN): for every ordered
// pair of non-null values, the first written and then the second upserted
// (ON CONFLICT DO UPDATE, DO NOTHING), looked up, updated and deleted by
// it, on sqlgate and PostgreSQL 15.
func TestFloatPrimaryKeyDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	stats := map[string]int{}
	total := 0
	n := 0
	for _, typ := range []string{"float8", "real"} {
		for _, x := range floatKeyValues {
			for _, y := range floatKeyValues {
				if x == "NULL" || y == "NULL" {
					continue
				}
				n++
				tbl := fmt.Sprintf("fpk%d", n)
				stmts := []string{
					fmt.Sprintf("CREATE TABLE %s (k %s PRIMARY KEY, v int)", tbl, typ),
					fmt.Sprintf("INSERT INTO %s VALUES (%s, 1)", tbl, x),
					fmt.Sprintf("INSERT INTO %s VALUES (%s, 2) ON CONFLICT (k) DO UPDATE SET v = %s.v + 10 RETURNING v", tbl, y, tbl),
					fmt.Sprintf("INSERT INTO %s VALUES (%s, 3) ON CONFLICT DO NOTHING RETURNING v", tbl, y),
					fmt.Sprintf("INSERT INTO %s VALUES (%s, 4), (%s, 5) ON CONFLICT (k) DO UPDATE SET v = excluded.v", tbl, x, y),
					fmt.Sprintf("SELECT v FROM %s WHERE k = %s ORDER BY v", tbl, y),
					fmt.Sprintf("SELECT v FROM %s WHERE k IN (%s, 'Infinity') ORDER BY v", tbl, x),
					fmt.Sprintf("UPDATE %s SET v = v + 100 WHERE k = %s RETURNING v", tbl, y),
					fmt.Sprintf("SELECT count(*), sum(v) FROM %s", tbl),
					fmt.Sprintf("DELETE FROM %s WHERE k = %s RETURNING v", tbl, x),
					fmt.Sprintf("SELECT count(*) FROM %s", tbl),
					fmt.Sprintf("DROP TABLE %s", tbl),
				}
				for _, q := range stmts {
					total++
					sg := r.SQLGate.Run(ctx, q)
					pg := r.Postgres.Run(ctx, q)
					if sg.Err != nil && sg.Err.Code == connErrorCode {
						t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
					}
					if same, why := Compare(unsignZero(sg), unsignZero(pg), false, false); !same {
						stats["different"]++
						t.Errorf("after INSERT %s: %s\n  %s\n  sqlgate:    %s\n  PostgreSQL: %s", x, q, why, describe(sg), describe(pg))
						continue
					}
					stats["same"]++
				}
			}
		}
	}
	t.Logf("%d statements: %v", total, stats)
	if stats["same"] != total {
		t.Errorf("not every statement gave PostgreSQL's answer: %v", stats)
	}
}

// unsignZero is o with its "-0" cells shown as "0": which of a group's
// equal values PostgreSQL shows is the one its plan met first.
func unsignZero(o Outcome) Outcome {
	out := Outcome{OIDs: o.OIDs, Names: o.Names, Err: o.Err}
	for _, row := range o.Rows {
		cells := make([]Cell, len(row))
		for i, c := range row {
			cells[i] = c
			if c.Text == "-0" {
				cells[i].Text = "0"
			}
		}
		out.Rows = append(out.Rows, cells)
	}
	return out
}
