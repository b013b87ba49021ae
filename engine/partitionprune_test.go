package engine_test

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/sqlerr"
)

var partitionsRe = regexp.MustCompile(`partitions=\[[^\]]*\] \((\d+) of (\d+)\)`)

// TestPartitionPruningMatchesScan compares queries whose WHERE prunes
// partitions (=, IN, ranges, BETWEEN, <>, NOT IN, parameters) with the same query
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
		for q := 0; q < 16; q++ {
			a, b := tb.value(rng.IntN(11)-1), tb.value(rng.IntN(11)-1)
			var cond string
			switch q % 8 {
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
			case 6: // a DEFAULT partition's condition prunes its siblings
				cond = "%s <> " + a
			case 7:
				cond = "NOT (%s IN (" + a + ", " + b + "))"
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

// TestRepeatableReadPartitioned: a REPEATABLE READ transaction reads a
// partitioned table as of its snapshot (rows written since into existing
// and new partitions stay unseen), and writing a row another transaction
// changed since fails with 40001, as for any table.
func TestRepeatableReadPartitioned(t *testing.T) {
	open := sessionsOf(t, engine.New(openStore(t), engine.Options{}))
	a, b := open(), open()
	mustRun(t, a, "CREATE TABLE ev (dt STRING, id INT) PARTITIONED BY (dt)")
	mustRun(t, a, "CREATE TABLE kv (region STRING, id INT, n INT, PRIMARY KEY (region, id)) PARTITIONED BY (region)")
	mustRun(t, a, "INSERT INTO ev VALUES ('d1', 1), ('d2', 2)")
	mustRun(t, a, "INSERT INTO kv VALUES ('eu', 1, 1), ('us', 1, 1)")
	mustRun(t, a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
	if got := rowsOf(t, a, "SELECT count(*) FROM ev"); got[0] != "2" {
		t.Fatalf("count %v", got)
	}
	mustRun(t, b, "INSERT INTO ev VALUES ('d1', 3), ('d3', 4)")
	mustRun(t, b, "INSERT INTO kv VALUES ('eu', 2, 2), ('apac', 1, 1)")
	mustRun(t, b, "UPDATE kv SET n = 5 WHERE region = 'us' AND id = 1")
	for q, want := range map[string]string{
		"SELECT count(*) FROM ev":                          "2",
		"SELECT count(*) FROM ev WHERE dt IN ('d1', 'd3')": "1",
		"SELECT count(*) FROM kv":                          "2",
		"SELECT n FROM kv WHERE region = 'us' AND id = 1":  "1",
	} {
		if got := rowsOf(t, a, q); len(got) != 1 || got[0] != want {
			t.Errorf("%s in the snapshot: %v, want %s", q, got, want)
		}
	}
	_, _, err := run(t, a, "UPDATE kv SET n = 0 WHERE region = 'us' AND id = 1")
	if sqlerr.CodeOf(err) != sqlerr.SerializationFailure {
		t.Errorf("UPDATE of a row changed since the snapshot: %v, want 40001", err)
	}
	mustRun(t, a, "ROLLBACK")
	mustRun(t, a, "BEGIN ISOLATION LEVEL REPEATABLE READ")
	mustRun(t, a, "SELECT count(*) FROM kv")
	mustRun(t, a, "UPDATE kv SET n = 7 WHERE region = 'eu' AND id = 1")
	mustRun(t, a, "COMMIT")
	if got := rowsOf(t, b, "SELECT n FROM kv WHERE region = 'eu' AND id = 1"); got[0] != "7" {
		t.Errorf("committed update: %v", got)
	}
}
