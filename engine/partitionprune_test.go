package engine_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var partitionsRe = regexp.MustCompile(`partitions=\[[^\]]*\] \((\d+) of (\d+)\)`)

// TestPartitionPruningMatchesScan compares queries whose WHERE prunes
// partitions (=, IN, ranges, BETWEEN, parameters) with the same query
// written so that nothing prunes (key || ” or key + 0), on random rows of
// tables partitioned by a string, an integer and a date key, before and
// inside a transaction with writes of its own; and checks that EXPLAIN
// names fewer partitions than the table has when the filter excludes some.
func TestPartitionPruningMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	s := newSessionRows(t, 16)
	mustRun(t, s, `CREATE TABLE ps (k STRING, id INT, v INT) PARTITIONED BY (k) WITH ('bucket.num' = '2')`)
	mustRun(t, s, `CREATE TABLE pi (k INT, id BIGINT, v INT, PRIMARY KEY (k, id)) PARTITIONED BY (k) WITH ('bucket.num' = '3')`)
	mustRun(t, s, `CREATE TABLE pd (k DATE, id INT, v INT) PARTITIONED BY (k)`)
	type table struct {
		name     string
		value    func(int) string // the key's SQL literal of n
		unpruned string           // the key, written so that nothing prunes
	}
	tables := []table{
		{"ps", func(n int) string { return fmt.Sprintf("'k%02d'", n) }, "k || ''"},
		{"pi", func(n int) string { return fmt.Sprint(n*7 - 20) }, "k + 0"},
		{"pd", func(n int) string { return fmt.Sprintf("DATE '2024-02-%02d'", n+2) }, "k + 0"},
	}
	write := func(tb table, n int) {
		var vals []string
		for i := 0; i < n; i++ {
			vals = append(vals, fmt.Sprintf("(%s, %d, %d)", tb.value(rng.IntN(9)), rng.IntN(40), rng.IntN(100)))
		}
		mustRun(t, s, fmt.Sprintf("INSERT INTO %s VALUES %s", tb.name, strings.Join(vals, ", ")))
	}
	check := func(tb table, stage string) {
		t.Helper()
		for q := 0; q < 12; q++ {
			a, b := tb.value(rng.IntN(11)-1), tb.value(rng.IntN(11)-1)
			var cond string
			switch q % 6 {
			case 0:
				cond = "%s = " + a
			case 1:
				cond = "%s IN (" + a + ", " + b + ")"
			case 2:
				cond = "%s < " + a
			case 3:
				cond = "%s >= " + a + " AND v > 10"
			case 4:
				cond = "%s BETWEEN " + a + " AND " + b
			case 5:
				cond = a + " > %s"
			}
			fast := fmt.Sprintf("SELECT k, id, v FROM %s WHERE "+cond+" ORDER BY k, id, v", tb.name, "k")
			slow := fmt.Sprintf("SELECT k, id, v FROM %s WHERE "+cond+" ORDER BY k, id, v", tb.name, tb.unpruned)
			got, want := rowsOf(t, s, fast), rowsOf(t, s, slow)
			if !slices.Equal(got, want) {
				t.Fatalf("%s %s:\n got %q\nwant %q", fast, stage, got, want)
			}
			plan := strings.Join(mustRun(t, s, "EXPLAIN "+fast), "\n")
			if !strings.Contains(plan, "partitions=[") {
				t.Fatalf("%s: no pruning in\n%s", fast, plan)
			}
		}
		// a parameter prunes too
		one := tb.value(rng.IntN(9))
		got := rowsOf(t, s, fmt.Sprintf("SELECT k, id, v FROM %s WHERE k = (SELECT %s) ORDER BY k, id, v", tb.name, one))
		want := rowsOf(t, s, fmt.Sprintf("SELECT k, id, v FROM %s WHERE %s = %s ORDER BY k, id, v", tb.name, tb.unpruned, one))
		if !slices.Equal(got, want) {
			t.Fatalf("%s %s k = (SELECT %s):\n got %q\nwant %q", tb.name, stage, one, got, want)
		}
	}
	for _, tb := range tables {
		write(tb, 150)
		check(tb, "committed")
		m := partitionsRe.FindStringSubmatch(strings.Join(mustRun(t, s, "EXPLAIN SELECT * FROM "+tb.name+" WHERE k = "+tb.value(3)), "\n"))
		if m == nil || m[1] != "1" || m[2] == "1" {
			t.Fatalf("%s: EXPLAIN of k = one value: %v", tb.name, m)
		}
		mustRun(t, s, "BEGIN")
		write(tb, 30)
		check(tb, "in a transaction")
		mustRun(t, s, "ROLLBACK")
	}
	// parameters of a prepared statement
	for i := 0; i < 9; i++ {
		got := rowsOf(t, s, "SELECT count(*) FROM pi WHERE k = $1", int64(i*7-20))
		want := rowsOf(t, s, fmt.Sprintf("SELECT count(*) FROM pi WHERE k + 0 = %d", i*7-20))
		if !slices.Equal(got, want) {
			t.Fatalf("k = $1 (%d): got %q, want %q", i*7-20, got, want)
		}
	}
}
