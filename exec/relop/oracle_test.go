package relop

import (
	"testing"
)

// TestPostgresOracle runs each operator and the same query on PostgreSQL 15
// over the same data, and compares the results.
func TestPostgresOracle(t *testing.T) {
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
}
