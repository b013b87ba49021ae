package lower

import (
	"context"
	"fmt"
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/sql"
)

func dump(n binder.Node, ind string) {
	fmt.Printf("%s%T %v\n", ind, n, n.Columns())
	switch x := n.(type) {
	case *binder.Filter:
		fmt.Printf("%s  cond %v\n", ind, x.Cond)
	case *binder.Project:
		fmt.Printf("%s  exprs %v\n", ind, x.Exprs)
	}
	for _, c := range n.Children() {
		dump(c, ind+"  ")
	}
}

func TestZZShow(t *testing.T) {
	stmts, _ := sql.NewParser().Parse(benchQuery)
	st, err := binder.Bind(context.Background(), testCatalog(), stmts[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	dump(st.(*binder.Query).Plan, "")
	root, err := Plan(st.(*binder.Query).Plan)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range Explain(root, nil) {
		fmt.Println(l)
	}
}

func BenchmarkZZRules(b *testing.B) {
	stmts, _ := sql.NewParser().Parse(benchQuery)
	st, _ := binder.Bind(context.Background(), testCatalog(), stmts[0], nil)
	n := st.(*binder.Query).Plan
	e := newEstimator(Options{})
	for _, r := range rules {
		in := n
		f := r.apply
		if f == nil {
			g := estimatedRules[r.name]
			f = func(x binder.Node) binder.Node { return g(e, x) }
		}
		b.Run(r.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				f(in)
			}
		})
		n = f(n)
	}
	b.Run("lowerNode", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			lowerNode(n)
		}
	})
	root, _ := lowerNode(n)
	b.Run("setTableRows", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			setTableRows(root, newEstimator(Options{}))
		}
	})
	b.Run("newEstimator", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			newEstimator(Options{})
		}
	})
}
