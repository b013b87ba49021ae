package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// MERGE, generated: random sources (VALUES lists with duplicate keys and
// NULLs, a log table, a subquery over it) merged into a primary-key
// target on random join conditions, with random lists of WHEN [NOT]
// MATCHED [AND cond] THEN UPDATE / DELETE / INSERT / DO NOTHING clauses,
// some with $n parameters, some in a transaction block rolled back to a
// savepoint. Each statement's outcome (its MERGE n count, or its error's
// SQLSTATE and message) and the target's rows after it are compared with
// PostgreSQL's.
//
// The generator keeps to what PostgreSQL decides the same whatever order
// its join yields rows in: SET never changes the key (PostgreSQL's unique
// index is checked row by row, sqlgate's statement by statement), and a
// statement can fail with one class of error only (mergeGen.statement).

// mergeGen generates the statements.
type mergeGen struct {
	r    *rand.Rand
	args []string
}

func (g *mergeGen) pick(xs ...string) string { return xs[g.r.Intn(len(xs))] }

// source is a USING clause: its rows have k (duplicates, NULLs), v (NULLs)
// and w.
func (g *mergeGen) source(unique bool) string {
	switch g.r.Intn(4) {
	case 0:
		if !unique {
			return "mgs AS s"
		}
	case 1:
		if !unique {
			return fmt.Sprintf("(SELECT k %% %d AS k, v, w FROM mgs WHERE v IS NULL OR v > %d) AS s", 10+g.r.Intn(25), g.r.Intn(5))
		}
	}
	n := 1 + g.r.Intn(6)
	seen := map[int]bool{}
	var rows []string
	for i := 0; i < n; i++ {
		k := 1 + g.r.Intn(30)
		if unique {
			if seen[k] {
				continue
			}
			seen[k] = true
		}
		ks, vs := fmt.Sprint(k), fmt.Sprint(g.r.Intn(10))
		if !unique && g.r.Intn(6) == 0 {
			ks = "NULL"
		}
		if g.r.Intn(5) == 0 {
			vs = "NULL"
		}
		rows = append(rows, fmt.Sprintf("(%s::int, %s::int, 's%d')", ks, vs, i))
	}
	return "(VALUES " + strings.Join(rows, ", ") + ") AS s(k, v, w)"
}

func (g *mergeGen) matchedCond() string {
	if g.args != nil && g.r.Intn(3) == 0 {
		return "t.v > $1"
	}
	return g.pick("t.v > s.v", "s.v IS NULL", "t.w LIKE 'r%'", "s.v % 2 = 0", "t.v + s.v > 5", "t.k % 3 = 0")
}

func (g *mergeGen) notMatchedCond() string {
	if g.args != nil && g.r.Intn(3) == 0 {
		return "s.v < $1"
	}
	return g.pick("s.v IS NOT NULL", "s.v > 3", "s.k % 2 = 1", "s.w <> 's0'")
}

// statement generates one MERGE and its parameters. Each statement keeps
// to one class of error, so that the order PostgreSQL's join yields rows
// in cannot pick another: mode 0 updates and deletes (a target row
// matched twice: 21000), mode 1 also inserts, each key written at most
// once by an UPDATE or DELETE (a key inserted twice or existing: 23505),
// mode 2 writes NULLs into the NOT NULL column (23502) and nothing else
// can fail.
func (g *mergeGen) statement() (string, []string) {
	g.args = nil
	if g.r.Intn(4) == 0 {
		g.args = []string{fmt.Sprint(g.r.Intn(8))}
	}
	mode := g.r.Intn(3)
	// unique: the source's keys are unique and not NULL
	unique := mode == 2 || g.r.Intn(2) == 0
	on := g.pick("t.k = s.k", "t.k = s.k AND s.v IS NOT NULL", "t.k = s.k + 1", "t.k = s.k AND t.v < s.v + 5")
	if mode == 2 {
		on = "t.k = s.k" // a row not matched has a key the target lacks
	}
	changes := mode != 1 || unique // a target row is changed once at most in mode 1
	var clauses []string
	// an unconditional clause ends its group: one after it is
	// PostgreSQL's 42601, generated now and then
	closed := map[bool]bool{}
	for i := 0; i < 1+g.r.Intn(4); i++ {
		matched := g.r.Intn(2) == 0
		if closed[matched] && g.r.Intn(10) != 0 {
			continue
		}
		cond := g.r.Intn(2) == 0
		closed[matched] = closed[matched] || !cond
		c := ""
		if matched {
			c = "WHEN MATCHED"
			if cond {
				c += " AND " + g.matchedCond()
			}
			switch a := g.r.Intn(5); {
			case a <= 1 && changes:
				set := g.pick("v = t.v + coalesce(s.v, 1)", "v = t.v * 2 % 50", "w = t.w || '+'", "v = t.v + 1, w = s.w")
				if mode == 2 && g.r.Intn(2) == 0 {
					set = "v = s.v" // NULL: 23502
				}
				if g.args != nil && g.r.Intn(2) == 0 {
					set = "v = t.v + $1"
				}
				c += " THEN UPDATE SET " + set
			case a <= 3 && changes:
				c += " THEN DELETE"
			default:
				c += " THEN DO NOTHING"
			}
		} else {
			c = "WHEN NOT MATCHED"
			if cond {
				c += " AND " + g.notMatchedCond()
			}
			switch a := g.r.Intn(4); {
			case mode == 2 && a < 3:
				c += " THEN INSERT VALUES (s.k, s.v, s.w)" // a NULL v: 23502
			case mode == 1 && a == 0:
				c += " THEN INSERT VALUES (coalesce(s.k, 0) + 100, coalesce(s.v, 0), s.w)"
			case mode == 1 && a == 1:
				c += " THEN INSERT (w, k, v) VALUES ('n' || s.w, coalesce(s.k, 0) + 200, 7)"
			case mode == 1 && a == 2:
				c += " THEN INSERT (k, v) VALUES (coalesce(s.k, 0) + 300, coalesce(s.v, 9))"
			default:
				c += " THEN DO NOTHING"
			}
		}
		clauses = append(clauses, c)
	}
	q := "MERGE INTO mgt " + g.pick("AS t", "t") + " USING " + g.source(unique) + " ON " + on + " " + strings.Join(clauses, " ")
	if g.args != nil && !strings.Contains(q, "$1") {
		g.args = nil
	}
	return q, g.args
}

// runMerge runs q (with text parameters when args is set) and returns its
// outcome and command tag.
func runMerge(ctx context.Context, s *Session, q string, args []string) (Outcome, string) {
	vals := make([][]byte, len(args))
	for i, a := range args {
		vals[i] = []byte(a)
	}
	var res *pgconn.Result
	if qe := s.try(ctx, func(qctx context.Context) error { // run.go
		res = s.conn.ExecParams(qctx, q, vals, nil, nil, nil).Read()
		return res.Err
	}); qe != nil {
		return Outcome{Err: qe}, ""
	}
	return outcomeOf(res), res.CommandTag.String()
}

// TestMergeDifferential runs SQLGATE_MERGE_STATEMENTS (default 300)
// generated MERGE statements with seed SQLGATE_DIFF_SEED on both systems.
func TestMergeDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	runOnBoth(t, ctx, r,
		"CREATE TABLE mgt (k int PRIMARY KEY, v int NOT NULL, w text)",
		"CREATE TABLE mgs (k int, v int, w text)",
		"INSERT INTO mgs SELECT CASE WHEN g % 9 = 0 THEN NULL ELSE g % 23 END, CASE WHEN g % 5 = 0 THEN NULL ELSE g % 7 END, 'm' || g FROM generate_series(1, 40) g")
	reset := func() {
		runOnBoth(t, ctx, r, "DELETE FROM mgt", "INSERT INTO mgt SELECT g, g * 3 % 7, 'r' || g FROM generate_series(1, 20) g")
	}
	reset()
	g := &mergeGen{r: rand.New(rand.NewSource(int64(diffSeed(t, 1))))}
	n := envInt(t, "SQLGATE_MERGE_STATEMENTS", 300)
	stats := map[string]int{}
	both := func(q string) { t.Helper(); runOnBoth(t, ctx, r, q) }
	for i := 0; i < n; i++ {
		if i%40 == 39 {
			reset() // the target refilled, before inserts crowd it
		}
		q, args := g.statement()
		block := i%7 == 3
		if block {
			both("BEGIN")
			both("SAVEPOINT s")
		}
		sg, sgTag := runMerge(ctx, r.SQLGate.(*Session), q, args)
		pg, pgTag := runMerge(ctx, r.Postgres.(*Session), q, args)
		if sg.Err != nil && sg.Err.Code == connErrorCode {
			t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
		}
		kind, why := verdict(sg, pg, tallyRule{})
		if kind == "same" && sgTag != pgTag {
			kind, why = "different", fmt.Sprintf("  tags: sqlgate %q, PostgreSQL %q", sgTag, pgTag)
		}
		stats[kind]++
		if kind == "refused alike" {
			stats["refused "+sg.Err.Code]++
		}
		if kind == "different" {
			t.Fatalf("%s %v\n%s", q, args, why)
		}
		if block {
			if sg.Err != nil {
				both("ROLLBACK")
			} else {
				// another statement, undone by ROLLBACK TO
				both("SAVEPOINT s2")
				q2, args2 := g.statement()
				runMerge(ctx, r.SQLGate.(*Session), q2, args2)
				runMerge(ctx, r.Postgres.(*Session), q2, args2)
				both("ROLLBACK TO SAVEPOINT s2")
				both("COMMIT")
			}
		}
		read := "SELECT k, v, w FROM mgt ORDER BY k"
		s, p := r.SQLGate.Run(ctx, read), r.Postgres.Run(ctx, read)
		if same, why := Compare(s, p, true, false); !same {
			t.Fatalf("after %s %v: mgt differs: %s", q, args, why)
		}
	}
	t.Logf("%d statements: %v", n, stats)
	if stats["same"] < n/2 || stats["refused alike"] == 0 {
		t.Errorf("too few statements of a kind: %v", stats)
	}
}
