package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestVolatileRowOrderDifferential: statements calling nextval (and
// currval) over rows of which one fails at a random position, cursors
// fetching some rows of a query calling nextval, and multi-row INSERTs
// into a SERIAL table whose row k fails NOT NULL or CHECK. PostgreSQL
// evaluates a row at a time, so the sequences stand after the rows up to
// the failing one (or the rows fetched); sqlgate's batches evaluated
// every row first (exec/roworder.go's journal and demand). Each statement
// is compared with PostgreSQL 15 (rows in order, SQLSTATE, message and
// DETAIL), then both sequences' next values.
func TestVolatileRowOrderDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 7373))))
	stats := map[string]int{}
	for _, s := range []string{
		"CREATE SEQUENCE sq",
		"CREATE TABLE tv (id serial, v int NOT NULL CHECK (v < 1000))",
	} {
		tallyBy(t, ctx, r, s, stats, tallyRule{})
	}
	both := func(sql string) {
		for _, s := range []Executor{r.SQLGate, r.Postgres} {
			s.Run(ctx, sql)
		}
	}
	failing := func(k int) string {
		return fmt.Sprintf(rowErrorTemplates[rng.Intn(len(rowErrorTemplates))], k) // roworder_test.go
	}
	n := envInt(t, "SQLGATE_VOLATILE_ROUNDS", 60)
	for i := 0; i < n; i++ {
		rows := 2 + rng.Intn(30)
		k := 1 + rng.Intn(rows)
		from := fmt.Sprintf("generate_series(1, %d) x", rows)
		if rng.Intn(2) == 0 {
			var vals []string
			for v := 1; v <= rows; v++ {
				vals = append(vals, fmt.Sprintf("(%d)", v))
			}
			from = "(VALUES " + strings.Join(vals, ", ") + ") t(x)"
		}
		var sql string
		switch rng.Intn(7) {
		case 0: // nextval beside an expression failing at row k, either first
			cols := []string{"nextval('sq')", failing(k), "x"}
			rng.Shuffle(len(cols), func(a, b int) { cols[a], cols[b] = cols[b], cols[a] })
			sql = fmt.Sprintf("SELECT %s FROM %s", strings.Join(cols, ", "), from)
		case 1: // one expression: nextval for the rows but the failing one
			sql = fmt.Sprintf("SELECT x, CASE WHEN x = %d THEN 1 / (x - x) ELSE nextval('sq') END FROM %s", k, from)
		case 2: // nextval in WHERE (first: PostgreSQL orders quals by cost, nextval's is the least)
			// (over generate_series: a VALUES list is a subquery here, whose
			// pushed-down conjunct PostgreSQL's values scan evaluates after nextval)
			sql = fmt.Sprintf("SELECT x FROM generate_series(1, %d) x WHERE nextval('sq') > 0 AND %s IS NULL", rows, failing(k))
		case 3: // sequence calls taking turns within a row
			sql = fmt.Sprintf("SELECT nextval('sq'), currval('sq'), nextval('sq') FROM %s", from)
		case 4: // a cursor fetches some rows
			q := fmt.Sprintf("SELECT x, nextval('sq') FROM %s", from)
			if rng.Intn(2) == 0 {
				q = fmt.Sprintf("SELECT x FROM %s WHERE nextval('sq') %% 2 = 0", from)
			}
			both("BEGIN")
			tallyBy(t, ctx, r, "DECLARE c NO SCROLL CURSOR FOR "+q, stats, tallyRule{})
			for f := 0; f < 1+rng.Intn(3); f++ {
				tallyBy(t, ctx, r, fmt.Sprintf("FETCH %d FROM c", 1+rng.Intn(rows)), stats, tallyRule{ordered: true})
				tallyBy(t, ctx, r, "SELECT currval('sq')", stats, tallyRule{})
			}
			both("COMMIT")
		case 5: // a multi-row INSERT whose row k fails NOT NULL or CHECK
			bad := "NULL"
			if rng.Intn(2) == 0 {
				bad = "5000"
			}
			var vals []string
			for v := 1; v <= rows; v++ {
				if v == k {
					vals = append(vals, "("+bad+")")
				} else {
					vals = append(vals, fmt.Sprintf("(%d)", v))
				}
			}
			sql = "INSERT INTO tv (v) VALUES " + strings.Join(vals, ", ")
			if rng.Intn(2) == 0 {
				sql = fmt.Sprintf("INSERT INTO tv (v) SELECT CASE WHEN x = %d THEN %s ELSE x END FROM generate_series(1, %d) x", k, bad, rows)
			}
		}
		if sql == "" && rng.Intn(2) == 0 { // (case 6) COPY, whose row k fails NOT NULL or CHECK
			var text strings.Builder
			for v := 1; v <= rows; v++ {
				switch {
				case v != k:
					fmt.Fprintf(&text, "%d\n", v)
				case rng.Intn(2) == 0:
					text.WriteString("\\N\n")
				default:
					text.WriteString("5000\n")
				}
			}
			var msgs [2]string
			for i, e := range []Executor{r.SQLGate, r.Postgres} {
				_, err := e.(*Session).conn.CopyFrom(ctx, strings.NewReader(text.String()), "COPY tv (v) FROM STDIN")
				if err != nil {
					msgs[i] = err.Error()
				}
			}
			if kind := "same"; msgs[0] != msgs[1] {
				t.Errorf("COPY failing at row %d of %d: sqlgate %q, PostgreSQL %q", k, rows, msgs[0], msgs[1])
				stats["different"]++
			} else {
				stats[kind]++
			}
		}
		if sql != "" {
			tallyBy(t, ctx, r, sql, stats, tallyRule{ordered: true, detail: true})
		}
		tallyBy(t, ctx, r, "SELECT nextval('sq'), nextval('tv_id_seq')", stats, tallyRule{})
	}
	t.Logf("%v", stats)
	if stats["same"] < n || stats["refused alike"] < n/4 {
		t.Errorf("outcomes: %v", stats)
	}
}

// TestKeyMovingUpdateOrderDifferential: an UPDATE that moves primary keys
// checks its rows one by one in PostgreSQL (NOT NULL, then CHECK, then
// the new key's uniqueness), so the error is the first row's to fail any
// of them; sqlgate's key-moving path checked NOT NULL over the whole
// statement first. Random failing rows of each kind (NOT NULL, CHECK, an
// error of the SET list), each in a rolled-back block, compared with
// PostgreSQL 15 (SQLSTATE, message and DETAIL).
func TestKeyMovingUpdateOrderDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 4711))))
	stats := map[string]int{}
	const rows = 20
	for _, s := range []string{
		"CREATE TABLE km (id int PRIMARY KEY, b int NOT NULL, c int CHECK (c < 100))",
		fmt.Sprintf("INSERT INTO km SELECT g, g, g FROM generate_series(1, %d) g", rows),
	} {
		tallyBy(t, ctx, r, s, stats, tallyRule{})
	}
	pick := func() int { return 1 + rng.Intn(rows+rows/2) } // beyond rows: no failure
	n := envInt(t, "SQLGATE_VOLATILE_ROUNDS", 60)
	for i := 0; i < n; i++ {
		// onto free keys: a key moved onto one a later row still holds is
		// refused at once by PostgreSQL, taken as simultaneous here
		// (exec.Update's KeyChanged)
		set := []string{fmt.Sprintf("id = id + %d", rows+rng.Intn(rows))}
		if rng.Intn(4) > 0 {
			set = append(set, fmt.Sprintf("b = CASE WHEN id = %d THEN NULL ELSE b END", pick()))
		}
		if rng.Intn(4) > 0 {
			set = append(set, fmt.Sprintf("c = CASE WHEN id = %d THEN 500 ELSE c END", pick()))
		}
		if rng.Intn(3) == 0 {
			set = append(set, fmt.Sprintf("b = CASE WHEN id = %d THEN 1 / (id - id) ELSE b END", pick()))
		}
		rng.Shuffle(len(set)-1, func(a, b int) { set[a+1], set[b+1] = set[b+1], set[a+1] })
		set = dedupeSetTargets(set)
		where := ""
		if rng.Intn(2) == 0 {
			where = fmt.Sprintf(" WHERE id <= %d", 1+rng.Intn(rows))
		}
		for _, s := range []Executor{r.SQLGate, r.Postgres} {
			s.Run(ctx, "BEGIN")
		}
		tallyBy(t, ctx, r, "UPDATE km SET "+strings.Join(set, ", ")+where, stats, tallyRule{detail: true})
		for _, s := range []Executor{r.SQLGate, r.Postgres} {
			s.Run(ctx, "ROLLBACK")
		}
	}
	t.Logf("%v", stats)
	// about half the statements fail (a failing row is drawn in 20 of 30
	// ids, under a WHERE half the time): a third is the yield check, as
	// half was below it at seed 131071 (28 of 60) with no difference
	if stats["refused alike"] < n/3 || stats["same"] < 2 {
		t.Errorf("outcomes: %v", stats)
	}
}

// dedupeSetTargets keeps the first assignment of each column.
func dedupeSetTargets(set []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range set {
		col := strings.Fields(s)[0]
		if !seen[col] {
			seen[col] = true
			out = append(out, s)
		}
	}
	return out
}
