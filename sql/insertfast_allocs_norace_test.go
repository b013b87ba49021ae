//go:build !race

package sql

import (
	"fmt"
	"strings"
	"testing"
)

// TestInsertParseAllocations: parsing bench's W8 INSERT of 1000 literal
// rows and taking its tree (what the binder reads) stays within a budget
// of allocations: the fast path reads the rows into the tree directly
// (insertfast.go directRows), from a few arrays, so the count does not
// grow with the rows. (Without -race: instrumented code escapes more.)
func TestInsertParseAllocations(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("INSERT INTO ins (id, user_id, amount, qty, name, ts) VALUES ")
	for id := range 1000 {
		if id > 0 {
			sb.WriteString(", ")
		}
		amount := "NULL"
		if id%10 != 0 {
			amount = fmt.Sprintf("%d.25", id%5000)
		}
		fmt.Fprintf(&sb, "(%d, %d, %s, %d, 'n%x', '2024-%02d-%02d %02d:%02d:%02d.%06d')", id, id%100000, amount, id%17,
			id*7919, 1+id%12, 1+id%28, id%24, id%60, (id/60)%60, id%1000000)
	}
	q := sb.String()
	p := NewParser()
	parse := func() {
		stmts, err := p.Parse(q)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DMLToTree(stmts[0], nil); err != nil {
			t.Fatal(err)
		}
	}
	const budget = 45
	n := testing.AllocsPerRun(20, parse)
	t.Logf("%.0f allocations per 1000-row INSERT", n)
	if n > budget {
		t.Errorf("%.0f allocations per 1000-row INSERT parsed, want at most %d", n, budget)
	}
}
