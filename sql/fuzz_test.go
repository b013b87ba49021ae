package sql

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// FuzzParse: Parse must never panic, must return *sqlerr.Error on failure
// with a position inside the input, and every statement's Text must be the
// input slice at its Offset.
func FuzzParse(f *testing.F) {
	seeds := []string{
		"SELECT 1", "", ";", "-- ping", "/* x */",
		"SELECT $1::int, $2 FROM t WHERE a IS DISTINCT FROM b AND c !~ '^pg_'",
		"SELECT E'a\\'b\\x41', $$x$$, $t$y$t$, CAST(a AS numeric(10,2)[])",
		"SELECT c.relname OPERATOR(pg_catalog.~) '^(t)$' COLLATE pg_catalog.default",
		"CREATE TABLE t (a INT NOT NULL, m MAP<INT, ARRAY<ROW<x INT NOT NULL>>>, PRIMARY KEY (a) NOT ENFORCED) WITH ('bucket.num' = '4')",
		"INSERT INTO t VALUES (1) ON CONFLICT (a) DO UPDATE SET b = EXCLUDED.b",
		"SET search_path TO public; SHOW ALL; BEGIN READ ONLY; COMMIT",
		"SELECT a = 'x\\' AND b = ' OR 1=1 -- '",
		"SELECT 2 ^ -x::int ^ 2, ARRAY[1,2][1], (a)[2], ~1, a ~* b",
		"SELECT CASE WHEN a THEN 1 END::text IS NOT DISTINCT FROM NULL",
		"SELECT /* /* nested */ */ 1",
		"SELECT a FROM t WHERE a = ANY('{1}'::int[]) ORDER BY a DESC NULLS LAST, $1 NULLS FIRST",
		"EXPLAIN (ANALYZE, COSTS OFF) SELECT ARRAY(SELECT 1), row_number() OVER (ORDER BY a)::int",
		"SELECT INTERVAL '1' DAY TO SECOND, x::timestamp(3) with time zone",
		"UPDATE t AS x SET a = o.b FROM o, (SELECT 1) s WHERE o.k = x.k RETURNING x.*, $1",
		"WITH w AS (SELECT 1) DELETE FROM t USING w WHERE a BETWEEN SYMMETRIC $2 AND (CASE WHEN b AND c THEN 1 END) RETURNING *",
		"INSERT INTO t AS x VALUES (1) ON CONFLICT DO NOTHING RETURNING x.a NOT BETWEEN ASYMMETRIC 1 AND 2",
		"SELECT * FROM (VALUES (1, 'a'), ($1, NULL)) AS t(x, \"Y\") WHERE x IN (VALUES (1)) UNION VALUES (2, 'b') ORDER BY 1",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	p := NewParser()
	f.Fuzz(func(t *testing.T, in string) {
		// A hang is a failure too: report the input instead of stalling
		// the fuzzer.
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				panic(fmt.Sprintf("Parse(%q) hangs", in))
			}
		}()
		stmts, err := p.Parse(in)
		if err != nil {
			e := sqlerr.As(err)
			if e == nil {
				t.Fatalf("Parse(%q): error %T %v is not *sqlerr.Error", in, err, err)
			}
			if e.Position < 0 || e.Position > len([]rune(in))+1 {
				t.Fatalf("Parse(%q): position %d out of range", in, e.Position)
			}
			return
		}
		for _, st := range stmts {
			if st.Offset < 0 || st.Offset+len(st.Text) > len(in) || in[st.Offset:st.Offset+len(st.Text)] != st.Text {
				t.Fatalf("Parse(%q): Text %q not at Offset %d", in, st.Text, st.Offset)
			}
			if strings.TrimSpace(st.Text) == "" {
				t.Fatalf("Parse(%q): empty statement returned", in)
			}
			for off := 0; off <= len(st.Rewritten); off += 1 + len(st.Rewritten)/64 {
				if pos := st.Position(off); pos < 1 || pos > len([]rune(in))+1 {
					t.Fatalf("Parse(%q): Position(%d) = %d out of range", in, off, pos)
				}
			}
			if (st.AST == nil) != (st.Kind >= Set && st.Kind <= Copy) {
				t.Fatalf("Parse(%q): kind %v with AST %v", in, st.Kind, st.AST)
			}
		}
		// the type parser sees arbitrary text too
		_, _ = ParseTypeName(in)
	})
}

const benchQuery = "SELECT o.id, o.amount::numeric(10,2), c.name FROM orders o JOIN customers c ON c.id = o.customer_id " +
	"WHERE o.status IN ('new', 'paid') AND o.created_at > $1 AND c.name !~ '^test' ORDER BY o.id DESC LIMIT 10"

// rewrittenBenchQuery is benchQuery as the rewrite hands it to the parsers
// (parsed once with p): the input of the parser-only benchmarks.
func rewrittenBenchQuery(b *testing.B, p *Parser) string {
	b.Helper()
	stmts, err := p.Parse(benchQuery)
	if err != nil {
		b.Fatal(err)
	}
	return stmts[0].Rewritten
}

// BenchmarkTiDBOnly is the TiDB parser alone on the rewritten text of
// benchQuery: the baseline that shows what the rewrite costs on top.
func BenchmarkTiDBOnly(b *testing.B) {
	p := NewParser()
	text := rewrittenBenchQuery(b, p)
	b.SetBytes(int64(len(benchQuery)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := p.tidb.ParseSQL(text); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParse: parse + rewrite of a ~200-character SELECT, reused Parser
// (pg-clients.md §6 measures ~14.6 µs for TiDB alone on a similar query).
func BenchmarkParse(b *testing.B) {
	q := benchQuery
	if len(q) < 190 || len(q) > 230 {
		b.Fatalf("query is %d chars", len(q))
	}
	p := NewParser()
	b.SetBytes(int64(len(q)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Parse(q); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParsePlain is Parse of lower.BenchmarkParseBindPlan's statement
// (fastBenchQuery), which has nothing for the rewrite to change but case.
func BenchmarkParsePlain(b *testing.B) {
	p := NewParser()
	b.SetBytes(int64(len(fastBenchQuery)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Parse(fastBenchQuery); err != nil {
			b.Fatal(err)
		}
	}
}
