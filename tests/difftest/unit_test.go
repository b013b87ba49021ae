package difftest

import (
	"context"
	"strings"
	"testing"
)

func allFeaturesOn() map[string]bool {
	on := map[string]bool{}
	for _, f := range Features() {
		on[f.Name] = true
	}
	return on
}

func TestGeneratorIsDeterministic(t *testing.T) {
	for _, features := range []map[string]bool{nil, allFeaturesOn()} {
		a := NewGenerator(7, DefaultSchema(), features)
		b := NewGenerator(7, DefaultSchema(), features)
		c := NewGenerator(8, DefaultSchema(), features)
		differs := false
		for i := 0; i < 300; i++ {
			qa, qb, qc := a.Query().SQL(), b.Query().SQL(), c.Query().SQL()
			if qa != qb {
				t.Fatalf("query %d differs for the same seed:\n%s\n%s", i, qa, qb)
			}
			differs = differs || qa != qc
		}
		if !differs {
			t.Fatal("seeds 7 and 8 produced the same 300 queries")
		}
	}
}

// TestGeneratorRespectsFeatures checks that families stay off until their
// probe turns them on, and that every family appears once on.
func TestGeneratorRespectsFeatures(t *testing.T) {
	markers := map[string]string{
		"GROUP BY": "agg", " JOIN ": "join", " UNION ": "setop", "EXISTS (": "subquery.exists",
		"lower(": "func.lower", "SELECT DISTINCT ": "distinct",
	}
	core := NewGenerator(1, DefaultSchema(), nil)
	for i := 0; i < 2000; i++ {
		sql := core.Query().SQL()
		for m := range markers {
			if strings.Contains(sql, m) {
				t.Fatalf("core generator produced %q: %s", m, sql)
			}
		}
	}
	full := NewGenerator(1, DefaultSchema(), allFeaturesOn())
	seen := map[string]bool{}
	for i := 0; i < 3000; i++ {
		sql := full.Query().SQL()
		for m := range markers {
			if strings.Contains(sql, m) {
				seen[m] = true
			}
		}
	}
	for m := range markers {
		if !seen[m] {
			t.Errorf("with every feature on, no query contains %q", m)
		}
	}
}

// TestLimitOnlyWithCompleteOrder: a LIMIT or OFFSET over a partial order
// would make both answers legitimately differ.
func TestLimitOnlyWithCompleteOrder(t *testing.T) {
	g := NewGenerator(3, DefaultSchema(), allFeaturesOn())
	limited := 0
	for i := 0; i < 3000; i++ {
		q := g.Query()
		if q.Limit >= 0 || q.Offset >= 0 {
			limited++
			if !q.CompletelyOrdered() {
				t.Fatalf("LIMIT/OFFSET without a complete order: %s", q.SQL())
			}
		}
	}
	if limited == 0 {
		t.Fatal("no query used LIMIT or OFFSET")
	}
}

func TestCompletelyOrdered(t *testing.T) {
	id := keyOf("a")
	item := &Expr{Kind: KCol, Type: Int4, Text: "a.i"}
	tests := []struct {
		name string
		q    Query
		want bool
	}{
		{"no order", Query{Items: []*Expr{item}, From: []FromItem{{"t1", "a"}}, Keys: []*Expr{id}}, false},
		{"order by key", Query{Items: []*Expr{item}, From: []FromItem{{"t1", "a"}}, Keys: []*Expr{id}, OrderBy: []OrderItem{{Expr: item}, {Expr: id}}}, true},
		{"order by non-key", Query{Items: []*Expr{item}, From: []FromItem{{"t1", "a"}}, Keys: []*Expr{id}, OrderBy: []OrderItem{{Expr: item}}}, false},
		{"key by position", Query{Items: []*Expr{id}, From: []FromItem{{"t1", "a"}}, Keys: []*Expr{id}, OrderBy: []OrderItem{{Pos: 1}}}, true},
		{"no from", Query{Items: []*Expr{item}, OrderBy: []OrderItem{{Pos: 1}}}, true},
		{"set op, all positions", Query{Items: []*Expr{item, id}, SetOp: "UNION", OrderBy: []OrderItem{{Pos: 2}, {Pos: 1}}}, true},
		{"set op, one position", Query{Items: []*Expr{item, id}, SetOp: "UNION", OrderBy: []OrderItem{{Pos: 2}}}, false},
	}
	for _, tc := range tests {
		if got := tc.q.CompletelyOrdered(); got != tc.want {
			t.Errorf("%s: CompletelyOrdered = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func rows(texts ...string) [][]Cell {
	var out [][]Cell
	for _, s := range texts {
		if s == "NULL" {
			out = append(out, []Cell{{Null: true}})
		} else {
			out = append(out, []Cell{{Text: s}})
		}
	}
	return out
}

func TestCompare(t *testing.T) {
	i4 := []uint32{23}
	f8 := []uint32{oidFloat8}
	num := []uint32{oidNumeric}
	errOut := func(code string) Outcome { return Outcome{Err: &QueryError{Code: code}} }
	tests := []struct {
		name               string
		sg, pg             Outcome
		ordered, approx    bool
		want, wantNumValue bool
	}{
		{"same rows, other order, multiset", Outcome{OIDs: i4, Rows: rows("1", "2")}, Outcome{OIDs: i4, Rows: rows("2", "1")}, false, false, true, true},
		{"same rows, other order, ordered", Outcome{OIDs: i4, Rows: rows("1", "2")}, Outcome{OIDs: i4, Rows: rows("2", "1")}, true, false, false, false},
		{"duplicates count", Outcome{OIDs: i4, Rows: rows("1", "1", "2")}, Outcome{OIDs: i4, Rows: rows("1", "2", "2")}, false, false, false, false},
		{"NULL is not empty", Outcome{OIDs: i4, Rows: rows("NULL")}, Outcome{OIDs: i4, Rows: rows("")}, false, false, false, false},
		{"types differ", Outcome{OIDs: []uint32{25}, Rows: rows("a")}, Outcome{OIDs: []uint32{1043}, Rows: rows("a")}, false, false, false, false},
		{"same SQLSTATE", errOut("22012"), errOut("22012"), false, false, true, true},
		{"other SQLSTATE", errOut("22012"), errOut("22003"), false, false, false, false},
		{"one fails", errOut("22012"), Outcome{OIDs: i4, Rows: rows("1")}, false, false, false, false},
		{"float text must match exactly", Outcome{OIDs: f8, Rows: rows("0.30000000000000004")}, Outcome{OIDs: f8, Rows: rows("0.3")}, false, false, false, false},
		{"aggregated floats may differ in last bits", Outcome{OIDs: f8, Rows: rows("0.30000000000000004")}, Outcome{OIDs: f8, Rows: rows("0.3")}, false, true, true, true},
		{"NaN is not close to anything", Outcome{OIDs: f8, Rows: rows("NaN")}, Outcome{OIDs: f8, Rows: rows("1")}, false, true, false, false},
		{"-0 and 0 tie in an order", Outcome{OIDs: f8, Rows: rows("-0", "0")}, Outcome{OIDs: f8, Rows: rows("0", "-0")}, true, false, true, true},
		{"-0 is not 0", Outcome{OIDs: f8, Rows: rows("0", "0")}, Outcome{OIDs: f8, Rows: rows("-0", "0")}, true, false, false, false},
		{"numeric scale", Outcome{OIDs: num, Rows: rows("1.00")}, Outcome{OIDs: num, Rows: rows("1")}, false, false, false, true},
		{"numeric value", Outcome{OIDs: num, Rows: rows("1.10")}, Outcome{OIDs: num, Rows: rows("1.01")}, false, false, false, false},
	}
	for _, tc := range tests {
		if got, why := Compare(tc.sg, tc.pg, tc.ordered, tc.approx); got != tc.want {
			t.Errorf("%s: Compare = %v (%s), want %v", tc.name, got, why, tc.want)
		}
		if got, _ := compareOutcomes(tc.sg, tc.pg, tc.ordered, tc.approx, true); got != tc.wantNumValue {
			t.Errorf("%s: compare by numeric value = %v, want %v", tc.name, got, tc.wantNumValue)
		}
	}
}

// TestMinimise shrinks a query against a fake oracle whose "bug" is any
// division: the result must keep a division and lose everything else.
func TestMinimise(t *testing.T) {
	g := NewGenerator(11, DefaultSchema(), nil)
	var q *Query
	for i := 0; i < 5000 && q == nil; i++ {
		c := g.Query()
		if strings.Count(c.SQL(), " / ") >= 1 && len(c.SQL()) > 300 && c.Where != nil {
			q = c
		}
	}
	if q == nil {
		t.Fatal("no large query with a division generated")
	}
	hasDiv := func(c *Query) bool {
		return c.anyExpr(func(e *Expr) bool { return e.Kind == KArith && e.Op == "/" })
	}
	small := Minimise(q, hasDiv, 2000)
	if !hasDiv(small) {
		t.Fatalf("minimised query lost the mismatch: %s", small.SQL())
	}
	if len(small.SQL()) >= len(q.SQL()) || small.Where != nil || len(small.Items) != 1 {
		t.Fatalf("not minimised:\n from %s\n to   %s", q.SQL(), small.SQL())
	}
	if n := strings.Count(small.SQL(), "("); n > 4 {
		t.Errorf("minimised query still has %d parentheses: %s", n, small.SQL())
	}
}

func TestSemanticRules(t *testing.T) {
	col := &Expr{Kind: KCol, Type: Int4, Text: "a.i"}
	div := &Expr{Kind: KArith, Op: "/", Type: Int4, Args: []*Expr{intLit(Int4, 1), col}}
	bare := &Query{Items: []*Expr{div}, From: []FromItem{{"t1", "a"}}, Limit: -1, Offset: -1}
	guarded := bare.clone()
	guarded.Where = &Expr{Kind: KCmp, Op: ">", Type: Bool, Args: []*Expr{col, intLit(Int4, 0)}}
	twoErrors := bare.clone()
	twoErrors.Items = append(twoErrors.Items, &Expr{Kind: KArith, Op: "*", Type: Int4, Args: []*Expr{col, col}})
	limited := bare.clone()
	limited.OrderBy = []OrderItem{{Expr: col}}
	limited.Limit = 1
	fail := func(code string) Outcome { return Outcome{Err: &QueryError{Code: code}} }
	ok := Outcome{OIDs: []uint32{23}, Rows: rows("1")}
	tests := []struct {
		name   string
		q      *Query
		sg, pg Outcome
		want   string
	}{
		{"unguarded one-sided error is a bug", bare, fail("22012"), ok, ""},
		// PostgreSQL computes the select list only for the rows WHERE keeps:
		// sqlgate must too.
		{"guarded one-sided error is a bug", guarded, fail("22012"), ok, ""},
		{"two failing expressions may report either error", twoErrors, fail("22012"), fail("22003"), "evaluation-order-two-errors"},
		{"one expression failing on two rows may report either", bare, fail("22012"), fail("22003"), "evaluation-order-two-errors"},
		{"an internal error on one side is never excused", twoErrors, fail("XX000"), fail("22003"), ""},
		{"an error past an ordered LIMIT", limited, fail("22012"), ok, "limit-early-stop"},
		{"an error without a LIMIT", guarded, fail("22012"), ok, ""},
		{"internal error is never excused", guarded, fail("XX000"), ok, ""},
		{"syntax error is never excused", guarded, fail("42601"), ok, ""},
		{"0A000 is a gap", bare, fail("0A000"), ok, "not-yet-implemented"},
	}
	for _, tc := range tests {
		got := ""
		if d := explainedBy(tc.q, tc.sg, tc.pg, false); d != nil {
			got = d.Name
		} else if d := explainedBy(tc.q, tc.sg, tc.pg, true); d != nil {
			got = d.Name
		}
		if got != tc.want {
			t.Errorf("%s: explained by %q, want %q", tc.name, got, tc.want)
		}
	}
}

// fakeExec answers from a function of the SQL text.
type fakeExec func(sql string) Outcome

func (f fakeExec) Run(_ context.Context, sql string) Outcome { return f(sql) }

// TestRunReportsMismatch drives Run with a fake sqlgate that fails every
// query with a modulo, and checks the mismatch is found and minimised.
func TestRunReportsMismatch(t *testing.T) {
	ok := func(string) Outcome { return Outcome{OIDs: []uint32{23}, Rows: rows("1")} }
	sg := func(sql string) Outcome {
		if strings.Contains(sql, " % ") {
			return Outcome{Err: &QueryError{Code: "XX000", Message: "boom"}}
		}
		return ok(sql)
	}
	r := &Runner{SQLGate: fakeExec(sg), Postgres: fakeExec(ok)}
	rep, err := r.Run(context.Background(), Config{Seed: 5, Queries: 300, MaxMinimise: 1000, MinimiseBudget: 400}, DefaultSchema(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Mismatches) == 0 {
		t.Fatal("no mismatch reported")
	}
	for _, m := range rep.Mismatches {
		if !strings.Contains(m.Query, " % ") || len(m.Query) > len(m.Original) {
			t.Errorf("bad minimisation: %s (from %s)", m.Query, m.Original)
		}
	}
	if rep.Coverage.Queries != 300 || rep.Coverage.Kinds["arith %"] == 0 {
		t.Errorf("coverage not counted: %+v", rep.Coverage.Kinds)
	}
}

func TestKnownBugsAndDifferencesAreDocumented(t *testing.T) {
	names := map[string]bool{}
	for _, kb := range KnownBugs() {
		if kb.Name == "" || kb.Repro == "" || kb.Matches == nil || names[kb.Name] {
			t.Errorf("known bug %q: needs a unique name, a reproduction and a matcher", kb.Name)
		}
		names[kb.Name] = true
	}
	for _, d := range SemanticDifferences() {
		if d.Name == "" || len(d.Why) < 40 || d.Applies == nil || names[d.Name] {
			t.Errorf("difference %q: needs a unique name, a reason and a rule", d.Name)
		}
		names[d.Name] = true
	}
}
