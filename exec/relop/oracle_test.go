package relop

import (
	"testing"
)

// TestPostgresOracle runs each operator and the same query on PostgreSQL 15
// over the same data, and compares the results.
func TestPostgresOracle(t *testing.T) {
	t.Parallel()
	pg := startPG(t)
	t.Run("aggregate", func(t *testing.T) {
		rows := aggRows(2000, 11, true)
		pg.load(t, "t", aggPGCols, rows)
		for _, c := range aggCases() {
			t.Run(c.name, func(t *testing.T) {
				_, got, err := runAgg(t, rows, c, nil, "", 300)
				if err != nil {
					t.Fatal(err)
				}
				compareRows(t, c.name, sorted(got), sorted(pg.query(t, c.sql)), pgEqual)
			})
		}
	})
	t.Run("sort", func(t *testing.T) {
		rows := sortRows(1500, 21, false)
		pg.load(t, "s", sortPGCols, rows)
		for _, c := range sortCases() {
			t.Run(c.name, func(t *testing.T) {
				_, got, err := runSort(t, rows, c.keys, nil, "", 200)
				if err != nil {
					t.Fatal(err)
				}
				// stable: ties keep input order, which is id order
				equalRows(t, c.name, got, pg.query(t, "SELECT * FROM s ORDER BY "+c.orderBy+", id"))
				top := &TopN{Input: rowsSource(t, schemaOf(sortTypes...), sortArrowRows(t, rows), 100), Keys: c.keys, N: 25}
				equalRows(t, c.name+" top-25", drain(t, top), pg.query(t, "SELECT * FROM s ORDER BY "+c.orderBy+", id LIMIT 25"))
			})
		}
	})
	t.Run("join", func(t *testing.T) {
		l := joinRows(400, 31, 30, false, true)
		r := joinRows(300, 32, 30, false, true)
		pg.load(t, "l", []string{"id int", "k int", "s text", "v int"}, l)
		pg.load(t, "r", []string{"id int", "k int", "s text", "w int"}, r)
		for _, c := range joinCases() {
			t.Run(c.name, func(t *testing.T) {
				_, got, err := runJoin(t, l, r, c, nil, "")
				if err != nil {
					t.Fatal(err)
				}
				equalRows(t, c.name, sorted(got), sorted(pg.query(t, c.sql)))
			})
		}
		// NOT IN when the subquery has no NULL
		pg.exec(t, "CREATE TABLE r2 AS SELECT * FROM r WHERE k IS NOT NULL")
		var r2 [][]any
		for _, row := range r {
			if row[1] != nil {
				r2 = append(r2, row)
			}
		}
		c := joinCase{typ: AntiJoin, lk: []int{1}, rk: []int{1}, nullAware: true}
		_, got, err := runJoin(t, l, r2[:40], c, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		pg.exec(t, "CREATE TABLE r3 AS SELECT * FROM r2 ORDER BY id LIMIT 40")
		equalRows(t, "not-in-no-nulls", sorted(got), sorted(pg.query(t, "SELECT l.* FROM l WHERE l.k NOT IN (SELECT k FROM r3)")))
	})
	t.Run("distinct-setop", func(t *testing.T) {
		l := projectRows(sortRows(800, 51, true), 1, 2, 3)
		r := projectRows(sortRows(600, 52, true), 1, 2, 3)
		cols := []string{"k int", "f double precision", "t text"}
		pg.load(t, "sl", cols, l)
		pg.load(t, "sr", cols, r)
		for _, c := range setOpCases() {
			got := runSetOp(t, l, r, c, NewMemoryAccount(1<<20), tempDir(t))
			equalRows(t, c.sql, sorted(got), sorted(pg.query(t, "SELECT * FROM sl "+c.sql+" SELECT * FROM sr")))
		}
		got := drain(t, &Distinct{Input: rowsSource(t, schemaOf(kftTypes...), l, 64)})
		equalRows(t, "distinct", sorted(got), sorted(pg.query(t, "SELECT DISTINCT * FROM sl")))
	})
	t.Run("window", func(t *testing.T) {
		rows := winRows(600, 61, true)
		pg.load(t, "w", winPGCols, rows)
		for _, c := range winCases() {
			t.Run(c.name, func(t *testing.T) {
				got, err := runWindow(t, rows, c, 50, nil)
				if err != nil {
					t.Fatal(err)
				}
				compareRows(t, c.name, sorted(got), sorted(pg.query(t, c.pgSQL())), pgEqual)
			})
		}
	})
}
