package reliability

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// pipelineTables are the fixed catalog the pipeline fuzzer binds against:
// a primary-key table, a log table, and one column of every type family,
// declared through the real DDL path so that they are what a user gets.
var pipelineTables = []string{
	"CREATE TABLE t (id BIGINT PRIMARY KEY, name VARCHAR(20), score DOUBLE PRECISION, n INT)",
	"CREATE TABLE u (id INT, label TEXT)",
	`CREATE TABLE w (k INT NOT NULL, region TEXT NOT NULL, b BOOLEAN, ti TINYINT, si SMALLINT, f REAL,
		c CHAR(3), by BYTES, bn BINARY(4), d DECIMAL(10,2), dt DATE, tm TIME(3), ts TIMESTAMP(6), tz TIMESTAMP_LTZ(3),
		arr ARRAY<INT>, m MAP<STRING, INT>, r ROW<x INT NOT NULL, y STRING>,
		PRIMARY KEY (k, region) NOT ENFORCED) WITH ('bucket.num' = '4', 'bucket.key' = 'k')`,
}

// staticCatalog serves fixed tables, as the binder's own tests do.
type staticCatalog map[string]fluss.TableInfo

func (c staticCatalog) GetTable(_ context.Context, p fluss.TablePath) (fluss.TableInfo, error) {
	if t, ok := c[p.Table]; ok && p.Database == fluss.DefaultDatabase {
		return t, nil
	}
	return fluss.TableInfo{}, sqlerr.New(sqlerr.UndefinedTable, "relation %q does not exist", p.Table)
}

func newPipelineCatalog(tb testing.TB) staticCatalog {
	tb.Helper()
	p := sql.NewParser()
	cat := staticCatalog{}
	for i, ddl := range pipelineTables {
		stmts, err := p.Parse(ddl)
		if err != nil {
			tb.Fatalf("%s: %v", ddl, err)
		}
		bound, err := binder.Bind(context.Background(), cat, stmts[0], nil)
		if err != nil {
			tb.Fatalf("%s: %v", ddl, err)
		}
		ct, ok := bound.(*binder.CreateTable)
		if !ok {
			tb.Fatalf("%s: bound to %T", ddl, bound)
		}
		cat[ct.Path.Table] = fluss.TableInfo{Path: ct.Path, TableID: int64(i + 1), Descriptor: ct.Descriptor}
	}
	return cat
}

// pipelineSeeds are the committed starting points besides the corpus files
// in testdata/fuzz/FuzzPipeline: every statement family the binder knows.
var pipelineSeeds = []string{
	"SELECT 1",
	"SELECT id, name FROM t WHERE id = $1",
	"SELECT * FROM t WHERE id IN (1, 2, 3) ORDER BY score DESC NULLS LAST LIMIT 5 OFFSET 1",
	"SELECT n, count(*), sum(score), avg(n), string_agg(name, ',' ORDER BY name) FROM t GROUP BY n HAVING count(*) > 1",
	"SELECT t.id, u.label FROM t JOIN u ON t.n = u.id LEFT JOIN w ON w.k = u.id WHERE w.b IS NOT TRUE",
	"SELECT id FROM t WHERE n IN (SELECT id FROM u) AND EXISTS (SELECT 1 FROM w WHERE w.k = t.n)",
	"WITH x AS (SELECT id, n FROM t) SELECT * FROM x UNION ALL SELECT id, 0 FROM u EXCEPT SELECT 1, 1",
	"SELECT CASE WHEN n > 0 THEN 'pos' WHEN n < 0 THEN 'neg' END, COALESCE(name, 'x'), NULLIF(n, 0) FROM t",
	"SELECT d * 2, d / 3, ts + INTERVAL '1 day', EXTRACT(YEAR FROM dt), tz::date, tm FROM w",
	"SELECT arr[1], r, m, by || bn, c::text, f::numeric(5,1) FROM w WHERE region ~ '^eu' AND region ILIKE 'E%'",
	"SELECT lower(name), upper(name), length(name), substr(name, 2, 3), round(score::numeric, 2), abs(n) FROM t",
	"SELECT 9223372036854775807 + 1, 1/0, 2147483647::int * 2, 'abc'::int",
	"SELECT row_number() OVER (PARTITION BY n ORDER BY id), sum(score) OVER () FROM t",
	"SELECT DISTINCT n FROM t ORDER BY 1",
	"INSERT INTO t VALUES (1, 'a', 1.5, 2), (2, NULL, NULL, NULL)",
	"INSERT INTO t (id, name) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name",
	"INSERT INTO t SELECT id, label, 0, id FROM u ON CONFLICT DO NOTHING",
	"INSERT INTO u SELECT n, name FROM t",
	"UPDATE t SET score = score * 2, n = n + 1 WHERE id = 3",
	"UPDATE w SET b = NOT b WHERE k = 1 AND region = 'eu'",
	"DELETE FROM t WHERE name LIKE 'x%'",
	"DELETE FROM u",
	"EXPLAIN SELECT * FROM t WHERE id = 7",
	"EXPLAIN ANALYZE SELECT n, count(*) FROM t GROUP BY n",
	"EXPLAIN UPDATE t SET n = n * 2 WHERE id > 3 RETURNING id",
	"CREATE TABLE z (a INT PRIMARY KEY, b ARRAY<ROW<c INT>>)",
	"DROP TABLE IF EXISTS t, u",
	"SELECT $1::int + $2, $3 || 'x', $4 IS NULL",
	"SET search_path TO public; SHOW search_path; BEGIN; COMMIT",
	"SELECT * FROM missing",
	"SELECT nope FROM t",
	"UPDATE t SET name = u.label FROM u WHERE u.id = t.n RETURNING t.id, u.label",
	"DELETE FROM t USING u WHERE u.id = t.n AND t.n BETWEEN SYMMETRIC 5 AND 1 RETURNING *",
	"INSERT INTO t VALUES (3, 'c', 0, 1) ON CONFLICT (id) DO UPDATE SET n = t.n + 1 RETURNING *",
	"SELECT _change_type, before, after FROM t$binlog WHERE _log_offset > 0",
	"CREATE OR REPLACE VIEW v (a, b) AS SELECT * FROM t WHERE (a = 1 OR b IS NULL) AND a <> 'x' WITH LOCAL CHECK OPTION",
	"DROP VIEW IF EXISTS v, w",
}

// FuzzPipeline: parse, bind and plan must never panic or hang on any input,
// and every error they return must be a *sqlerr.Error with a SQLSTATE. A
// panic here would, in the server, be a session's crash.
func FuzzPipeline(f *testing.F) {
	for _, s := range pipelineSeeds {
		f.Add(s)
	}
	cat := newPipelineCatalog(f)
	parser := sql.NewParser()
	f.Fuzz(func(t *testing.T, in string) {
		if err := runPipeline(parser, cat, in); err != nil {
			t.Fatal(err)
		}
	})
}

// runPipeline runs in through parse, bind, plan and EXPLAIN rendering and
// reports a panic, a hang or an error without SQLSTATE.
func runPipeline(parser *sql.Parser, cat staticCatalog, in string) (failure error) {
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			panic(fmt.Sprintf("pipeline hangs on %q", in))
		}
	}()
	stage := "parse"
	defer func() {
		if r := recover(); r != nil {
			failure = fmt.Errorf("%s panics on %q: %v\n%s", stage, in, r, debug.Stack())
		}
	}()
	check := func(err error) error {
		if e := sqlerr.As(err); e == nil || e.Code == "" {
			return fmt.Errorf("%s of %q: error %T %v carries no SQLSTATE", stage, in, err, err)
		}
		return nil
	}
	stmts, err := parser.Parse(in)
	if err != nil {
		return check(err)
	}
	ctx := context.Background()
	for _, st := range stmts {
		if st.AST == nil {
			continue // session statements (SET, SHOW, BEGIN...) never reach the binder
		}
		stage = "bind"
		bound, err := binder.Bind(ctx, cat, st, nil)
		if err != nil {
			if e := check(err); e != nil {
				return e
			}
			continue
		}
		stage = "plan"
		var plans []binder.Node
		var merge []binder.Expr
		if e, ok := bound.(*binder.Explain); ok {
			if _, isQuery := e.Statement.(*binder.Query); !isQuery {
				bound = e.Statement // EXPLAIN of a write plans the write
			}
		}
		switch b := bound.(type) {
		case *binder.Query:
			plans = append(plans, b.Plan)
		case *binder.Insert:
			plans, merge = append(plans, b.Source), b.OnConflictUpdate
		case *binder.Update:
			plans = append(plans, b.Source)
		case *binder.Delete:
			plans = append(plans, b.Keys)
		case *binder.Explain:
			if q, ok := b.Statement.(*binder.Query); ok {
				plans = append(plans, q.Plan)
			}
		}
		for _, p := range plans {
			ln, err := lower.Plan(p)
			if err != nil {
				if e := check(err); e != nil {
					return e
				}
				continue
			}
			stage = "explain"
			if lines := lower.Explain(ln, nil); len(lines) == 0 || strings.TrimSpace(lines[0]) == "" {
				return fmt.Errorf("EXPLAIN of %q renders nothing", in)
			}
			stage = "plan"
		}
		if merge != nil {
			if _, err := lower.LowerExprs(merge); err != nil {
				if e := check(err); e != nil {
					return e
				}
			}
		}
	}
	return nil
}

// TestPipelineSeedsPlan checks that the fuzzer's starting points reach the
// planner: a catalog or seed mistake would otherwise leave the fuzzer
// exploring parse errors only.
func TestPipelineSeedsPlan(t *testing.T) {
	cat := newPipelineCatalog(t)
	parser := sql.NewParser()
	bound := 0
	for _, s := range pipelineSeeds {
		if err := runPipeline(parser, cat, s); err != nil {
			t.Error(err)
		}
		stmts, err := parser.Parse(s)
		if err != nil || len(stmts) == 0 || stmts[0].AST == nil {
			continue
		}
		if _, err := binder.Bind(context.Background(), cat, stmts[0], nil); err == nil {
			bound++
		}
	}
	if bound < len(pipelineSeeds)*2/3 {
		t.Errorf("only %d of %d seeds bind: the fuzz catalog no longer matches them", bound, len(pipelineSeeds))
	}
}
