package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// Data-modifying statements in WITH, generated: random lists of INSERT,
// UPDATE, DELETE and INSERT ... ON CONFLICT WITH queries (random tables,
// keys, RETURNING lists, later ones reading earlier ones' rows or the
// tables the others write), under a random main statement (a SELECT of
// their rows and of the tables as the statement started, an INSERT ...
// SELECT, UPDATE ... FROM, DELETE ... USING), some with $n parameters
// through the extended protocol (the unnamed statement, or a named one
// executed twice), some in a transaction block rolled back to a
// savepoint. After each statement the three tables are read on both
// systems: the same rows, or the whole run stops.
//
// The generator keeps to what sqlgate runs as PostgreSQL does: a table
// is changed by one UPDATE, DELETE or ON CONFLICT part at most, besides
// plain INSERTs (sqlgate refuses two, engine/modifyingwith.go), and the
// keys INSERTs write are new (sqlgate's INSERT into a primary-key table
// replaces a row with the key, PostgreSQL's fails).

var dmlWithTables = []string{"dwa", "dwb", "dwc"}

// dmlWithPart is one generated WITH query.
type dmlWithPart struct {
	name, table, kind string // kind: insert, upsert, update, delete
	text              string
	ret               []string // the RETURNING list's columns ("" none)
	hasK              bool     // its RETURNING has k
}

// dmlWithGen generates the statements.
type dmlWithGen struct {
	r    *rand.Rand
	n    int // the statement's number: fresh keys are n*1000000 + ...
	args []string
}

// cond is a random condition on a table's rows (k and v).
func (g *dmlWithGen) cond(earlier []*dmlWithPart) string {
	switch g.r.Intn(5) {
	case 0:
		if g.args == nil && g.r.Intn(2) == 0 {
			g.args = []string{fmt.Sprint(2 + g.r.Intn(3)), fmt.Sprint(g.r.Intn(2))}
		}
		if g.args != nil {
			return "k % $1 = $2"
		}
		return fmt.Sprintf("k %% %d = %d", 2+g.r.Intn(3), g.r.Intn(2))
	case 1:
		a := 1 + g.r.Intn(20)
		return fmt.Sprintf("k BETWEEN %d AND %d", a, a+g.r.Intn(6))
	case 2:
		return fmt.Sprintf("v > (SELECT min(v) FROM %s) + %d", dmlWithTables[g.r.Intn(3)], g.r.Intn(4))
	case 3:
		for _, p := range earlier {
			if p.hasK {
				return fmt.Sprintf("k IN (SELECT k + %d FROM %s)", g.r.Intn(2), p.name)
			}
		}
		return fmt.Sprintf("k < %d", g.r.Intn(10))
	}
	return fmt.Sprintf("k IN (SELECT k FROM %s WHERE v < %d)", dmlWithTables[g.r.Intn(3)], g.r.Intn(8))
}

// returning picks a RETURNING list.
func (g *dmlWithGen) returning(p *dmlWithPart) string {
	lists := [][]string{nil, {"k", "v", "w"}, {"k"}, {"k", "v"}, {"v * 2 AS dv", "w"}}
	p.ret = lists[g.r.Intn(len(lists))]
	if p.ret == nil {
		return ""
	}
	p.hasK = p.ret[0] == "k"
	list := strings.Join(p.ret, ", ")
	if len(p.ret) == 3 && g.r.Intn(2) == 0 {
		list = "*"
	}
	return " RETURNING " + list
}

// part generates the WITH query j writing table (kind as allowed).
func (g *dmlWithGen) part(j int, table, kind string, earlier []*dmlWithPart) *dmlWithPart {
	p := &dmlWithPart{name: fmt.Sprintf("c%d", j), table: table, kind: kind}
	base := g.n*1000000 + j*100000
	switch kind {
	case "insert":
		if g.r.Intn(2) == 0 {
			p.text = fmt.Sprintf("INSERT INTO %s VALUES (%d, %d, 'i%d'), (%d, %d, 'j%d')", table, base+1, g.r.Intn(9), g.n, base+2, g.r.Intn(9), g.n)
		} else {
			p.text = fmt.Sprintf("INSERT INTO %s SELECT k + %d, v + 1, w || '+' FROM %s WHERE k < 100 AND %s", table, base, dmlWithTables[g.r.Intn(3)], g.cond(earlier))
		}
	case "upsert":
		p.text = fmt.Sprintf("INSERT INTO %s AS t VALUES (%d, %d, 'u%d') ON CONFLICT (k) DO UPDATE SET v = t.v + excluded.v", table, 1+g.r.Intn(25), g.r.Intn(9), g.n)
	case "update":
		p.text = fmt.Sprintf("UPDATE %s SET v = v + %d, w = w || 'u' WHERE %s", table, 1+g.r.Intn(5), g.cond(earlier))
	case "delete":
		p.text = fmt.Sprintf("DELETE FROM %s WHERE %s", table, g.cond(earlier))
	}
	p.text += g.returning(p)
	return p
}

// statement generates one statement: its text and parameters.
func (g *dmlWithGen) statement() (string, []string) {
	g.n++
	g.args = nil
	writers := map[string][]string{} // table -> kinds writing it
	allowed := func(table, kind string) bool {
		for _, k := range writers[table] {
			if k != "insert" && kind != "insert" {
				return false
			}
		}
		return true
	}
	kinds := []string{"insert", "upsert", "update", "delete"}
	var parts []*dmlWithPart
	for j := 0; j < 1+g.r.Intn(3); j++ {
		table, kind := dmlWithTables[g.r.Intn(3)], kinds[g.r.Intn(4)]
		if !allowed(table, kind) {
			continue
		}
		writers[table] = append(writers[table], kind)
		parts = append(parts, g.part(j, table, kind, parts))
	}
	if len(parts) == 0 {
		return g.statement()
	}
	var with []string
	for _, p := range parts {
		with = append(with, p.name+" AS ("+p.text+")")
	}
	var readable []*dmlWithPart // the parts with RETURNING
	for _, p := range parts {
		if p.ret != nil {
			readable = append(readable, p)
		}
	}
	var main string
	target := dmlWithTables[g.r.Intn(3)]
	switch choice := g.r.Intn(6); {
	case choice == 0 && len(readable) > 0:
		p := readable[g.r.Intn(len(readable))]
		order := make([]string, len(p.ret))
		for i := range order {
			order[i] = fmt.Sprint(i + 1)
		}
		main = "SELECT * FROM " + p.name + " ORDER BY " + strings.Join(order, ", ")
		if g.r.Intn(3) == 0 {
			main += " LIMIT 1"
		}
	case choice == 1 && allowed(target, "insert"):
		src := fmt.Sprintf("VALUES (%d, 0, 'm')", g.n*1000000+900001)
		for _, p := range readable {
			if p.hasK && len(p.ret) >= 2 && !strings.Contains(p.ret[1], "AS") {
				src = fmt.Sprintf("SELECT k + %d, v, 'm' FROM %s WHERE k < 100", g.n*1000000+900000, p.name)
			}
		}
		main = "INSERT INTO " + target + " " + src
		if g.r.Intn(2) == 0 {
			main += " RETURNING k, v"
		}
	case choice == 2 && allowed(target, "update"):
		for _, p := range readable {
			if p.hasK {
				main = fmt.Sprintf("UPDATE %s SET v = %s.v + 1 FROM %s WHERE %s.k = %s.k", target, target, p.name, target, p.name)
			}
		}
	case choice == 3 && allowed(target, "delete"):
		for _, p := range readable {
			if p.hasK {
				main = fmt.Sprintf("DELETE FROM %s USING %s WHERE %s.k = %s.k + 1", target, p.name, target, p.name)
			}
		}
	case choice == 4 && len(parts) > 0 && parts[0].ret == nil:
		main = "SELECT count(*) FROM " + parts[0].name // refused alike
	}
	if main == "" {
		// the parts' rows counted and the tables as the statement
		// started
		var cols []string
		for _, p := range readable {
			cols = append(cols, "(SELECT count(*) FROM "+p.name+")")
			if p.hasK {
				cols = append(cols, "(SELECT coalesce(sum(k), 0) FROM "+p.name+")")
			}
		}
		for _, t := range dmlWithTables {
			cols = append(cols, "(SELECT count(*) FROM "+t+")", "(SELECT coalesce(sum(v), 0) FROM "+t+")")
		}
		main = "SELECT " + strings.Join(cols, ", ")
	}
	return "WITH " + strings.Join(with, ", ") + " " + main, g.args
}

// runTextParams runs q with text parameters of unspecified types through
// the extended protocol: the unnamed statement, or when name is set a
// statement of that name, prepared first unless it is.
func runTextParams(ctx context.Context, s *Session, q string, args []string) Outcome {
	return runNamed(ctx, s, "", q, args)
}

func runNamed(ctx context.Context, s *Session, name, q string, args []string) Outcome {
	vals := make([][]byte, len(args))
	for i, a := range args {
		vals[i] = []byte(a)
	}
	var res *pgconn.Result
	if qe := s.try(ctx, func(qctx context.Context) error { // run.go
		if name == "" {
			res = s.conn.ExecParams(qctx, q, vals, nil, nil, nil).Read()
			return res.Err
		}
		if q != "" {
			if _, err := s.conn.Prepare(qctx, name, q, nil); err != nil {
				return err
			}
		}
		res = s.conn.ExecPrepared(qctx, name, vals, nil, nil).Read()
		return res.Err
	}); qe != nil {
		return Outcome{Err: qe}
	}
	return outcomeOf(res) // run.go
}

// TestDMLWithDifferential runs SQLGATE_DMLWITH_STATEMENTS (default 200)
// generated statements with seed SQLGATE_DIFF_SEED on both systems.
func TestDMLWithDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	var setup []string
	for _, tb := range dmlWithTables {
		setup = append(setup, "CREATE TABLE "+tb+" (k int PRIMARY KEY, v int NOT NULL, w text)",
			"INSERT INTO "+tb+" SELECT g, g * 3 % 7, 'r' || g FROM generate_series(1, 20) g")
	}
	runOnBoth(t, ctx, r, setup...)
	g := &dmlWithGen{r: rand.New(rand.NewSource(int64(diffSeed(t, 1))))}
	n := envInt(t, "SQLGATE_DMLWITH_STATEMENTS", 200)
	stats := map[string]int{}
	both := func(q string) { t.Helper(); runOnBoth(t, ctx, r, q) }
	for i := 0; i < n; i++ {
		q, args := g.statement()
		block := i%7 == 3 // in a block, then rolled back to a savepoint
		if block {
			both("BEGIN")
			both("SAVEPOINT s")
		}
		var sg, pg Outcome
		// a statement with parameters that writes no new keys is
		// prepared by name and executed twice, compared each time
		again := args != nil && !block && !strings.Contains(q, "INSERT")
		if again {
			stats["prepared, run twice"]++
			name := fmt.Sprintf("dw%d", i)
			sg, pg = runNamed(ctx, r.SQLGate.(*Session), name, q, args), runNamed(ctx, r.Postgres.(*Session), name, q, args)
			if kind, why := verdict(sg, pg, tallyRule{placed: everyCode}); kind == "different" {
				t.Fatalf("%s %v (first run)\n%s", q, args, why)
			}
			sg, pg = runNamed(ctx, r.SQLGate.(*Session), name, "", args), runNamed(ctx, r.Postgres.(*Session), name, "", args)
			// (a statement refused when prepared has nothing to
			// deallocate)
			r.SQLGate.Run(ctx, "DEALLOCATE "+name)
			r.Postgres.Run(ctx, "DEALLOCATE "+name)
		} else if args != nil {
			stats["with parameters"]++
			sg, pg = runTextParams(ctx, r.SQLGate.(*Session), q, args), runTextParams(ctx, r.Postgres.(*Session), q, args)
		} else {
			sg, pg = r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q)
		}
		if sg.Err != nil && sg.Err.Code == connErrorCode {
			t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
		}
		kind, why := verdict(sg, pg, tallyRule{placed: everyCode})
		stats[kind]++
		if kind == "different" {
			t.Fatalf("%s %v\n%s", q, args, why)
		}
		if block {
			if sg.Err != nil {
				both("ROLLBACK")
			} else {
				// the statement again, undone by ROLLBACK TO: the
				// tables are read after COMMIT
				both("SAVEPOINT s2")
				g2 := *g
				q2, args2 := g2.statement()
				if args2 == nil {
					r.SQLGate.Run(ctx, q2)
					r.Postgres.Run(ctx, q2)
				} else {
					runTextParams(ctx, r.SQLGate.(*Session), q2, args2)
					runTextParams(ctx, r.Postgres.(*Session), q2, args2)
				}
				both("ROLLBACK TO SAVEPOINT s2")
				both("COMMIT")
			}
		}
		for _, tb := range dmlWithTables {
			read := "SELECT k, v, w FROM " + tb + " ORDER BY k"
			s, p := r.SQLGate.Run(ctx, read), r.Postgres.Run(ctx, read)
			if same, why := Compare(s, p, true, false); !same {
				t.Fatalf("after %s %v: %s differs: %s", q, args, tb, why)
			}
		}
	}
	t.Logf("%d statements: %v", n, stats)
	if stats["same"] < n/2 {
		t.Errorf("too few statements ran alike: %v", stats)
	}
}
