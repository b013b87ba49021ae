package sql

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	pt "github.com/sqlgate/sqlgate/sql/tree"
)

// TestInsertDirectTreeMatchesGeneral: an INSERT whose rows the fast path
// reads straight into sqlgate's tree (directRows) gets from DMLToTree the
// tree the general path gets (TiDB's AST of the same rewritten text, then
// the transformer): every node, value and offset but At.Src, which the
// fast path's literals and DEFAULTs do not have. Over the corpus's
// INSERTs, the package tests' strings and generated statements in and out
// of the fast path's subset.
func TestInsertDirectTreeMatchesGeneral(t *testing.T) {
	p := NewParser()
	var inputs []string
	for _, in := range corpusInputs(t) {
		if strings.Contains(strings.ToLower(in), "insert") {
			inputs = append(inputs, in)
		}
	}
	corpus := len(inputs)
	rng := rand.New(rand.NewPCG(33, 22))
	for i := range 3000 {
		inputs = append(inputs, genInsert(rng, i%3))
	}
	direct, directCorpus, failed := 0, 0, 0
	fail := func(format string, args ...any) {
		failed++
		if failed <= 20 {
			t.Errorf(format, args...)
		}
	}
	for i, in := range inputs {
		stmts, err := p.Parse(in)
		if err != nil {
			continue
		}
		for _, st := range stmts {
			if st.fastInsert.stmt == nil {
				continue
			}
			if st.AST != st.fastInsert.stmt || st.Kind != Insert {
				fail("%q: the fast path's rows are not the statement's", in)
				continue
			}
			direct++
			if i < corpus {
				directCorpus++
			}
			nodes, _, err := p.tidb.ParseSQL(st.Rewritten)
			if err != nil || len(nodes) != 1 {
				fail("%q: TiDB: %v, %d statements", st.Rewritten, err, len(nodes))
				continue
			}
			general := *st
			general.AST, general.fastInsert = nodes[0], fastInsert{}
			want, werr := DMLToTree(&general, nil)
			got, gerr := DMLToTree(st, nil)
			if fmt.Sprint(werr) != fmt.Sprint(gerr) {
				fail("%q: errors %v vs %v", st.Rewritten, gerr, werr)
				continue
			}
			if werr != nil {
				continue
			}
			if g, w := pt.FormatStatement(got, nil), pt.FormatStatement(want, nil); g != w {
				fail("%q: formats %s\n  vs %s", st.Rewritten, g, w)
			}
			if d := firstDiff("tree", reflect.ValueOf(got), reflect.ValueOf(want), 0); d != "" {
				fail("%q: %s", st.Rewritten, d)
			}
		}
	}
	t.Logf("%d INSERTs read into the tree directly, %d of them from the corpus (%d corpus inputs)", direct, directCorpus, corpus)
	if directCorpus < 200 || direct < 1200 {
		t.Errorf("the fast path read only %d statements into the tree (%d of the corpus)", direct, directCorpus)
	}
}

// TestInsertDirectRowsCases pins which rows the fast path reads into the
// tree and which it leaves to TiDB's AST (still on its fast parser).
func TestInsertDirectRowsCases(t *testing.T) {
	p := NewParser()
	for _, c := range []struct {
		in     string
		direct bool
	}{
		{"INSERT INTO t (a, b) VALUES (1, 'x'), (-2, NULL), (+3.5, DEFAULT), (1e3, true)", true},
		{"insert into t values (18446744073709551616, 9223372036854775808, 00012.50, 0.000)", true},
		{"insert into t values (1) on conflict do nothing", true},
		{"insert into t as x values (1)", true},
		{"insert into t values (1 + 2)", false},
		{"insert into t values (- -1)", false},
		{"insert into t values ($1)", false},
		{"insert into t values (now())", false},
		{"insert into t values ('a' || 'b')", false},
		{"insert into t values (1::int)", false},
	} {
		stmts, err := p.Parse(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if got := stmts[0].fastInsert.stmt != nil; got != c.direct {
			t.Errorf("%q: rows read into the tree: %v, want %v", c.in, got, c.direct)
		}
	}
}
