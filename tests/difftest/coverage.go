package difftest

import (
	"fmt"
	"slices"
	"strings"
)

// Coverage counts what the generator produced and how the runs ended.
type Coverage struct {
	Queries  int
	Ordered  int            // compared in order (complete ORDER BY)
	Kinds    map[string]int // node kind, with the operator where it matters
	Types    map[Type]int   // result type of every node
	Funcs    map[string]int // scalar functions and aggregates
	Shapes   map[string]int // query shapes and clauses
	Features []string       // optional families turned on by their probe
	// Outcomes: "both ok", "both failed", "mismatch", ...
	Outcomes map[string]int
	// Errors counts SQLSTATEs both systems agreed on.
	Errors map[string]int
}

// NewCoverage returns an empty coverage count.
func NewCoverage() *Coverage {
	return &Coverage{
		Kinds: map[string]int{}, Types: map[Type]int{}, Funcs: map[string]int{},
		Shapes: map[string]int{}, Outcomes: map[string]int{}, Errors: map[string]int{},
	}
}

// Add counts one generated query.
func (c *Coverage) Add(q *Query) {
	c.Queries++
	if q.CompletelyOrdered() {
		c.Ordered++
	}
	c.addShape(q)
	q.walkExprs(func(e *Expr) {
		key := string(e.Kind)
		switch e.Kind {
		case KArith, KCmp, KIsNull, KDistinct, KIn, KBetween, KInSub:
			key += " " + e.Op
		case KExists:
			key += " " + strings.TrimSpace(e.Op+"EXISTS")
		case KCast:
			key += " to " + string(e.Type)
		}
		c.Kinds[key]++
		c.Types[e.Type]++
		if e.Kind == KFunc || e.Kind == KAgg {
			name := e.Op
			if e.Kind == KAgg && len(e.Args) == 0 {
				name = "count(*)"
			}
			c.Funcs[name]++
		}
	})
}

func (c *Coverage) addShape(q *Query) {
	c.Shapes["shape "+q.Shape]++
	if q.Where != nil {
		c.Shapes["WHERE"]++
	}
	if len(q.GroupBy) > 0 {
		c.Shapes["GROUP BY"]++
	}
	if q.Having != nil {
		c.Shapes["HAVING"]++
	}
	if q.Distinct {
		c.Shapes["DISTINCT"]++
	}
	if q.Join != nil {
		c.Shapes["JOIN "+q.Join.Kind]++
	}
	if q.SetOp != "" {
		c.Shapes[q.SetOp]++
	}
	if len(q.OrderBy) > 0 {
		c.Shapes["ORDER BY"]++
	}
	for _, o := range q.OrderBy {
		if o.Nulls != "" {
			c.Shapes["NULLS "+o.Nulls]++
		}
		if o.Pos > 0 {
			c.Shapes["ORDER BY position"]++
		}
	}
	if q.Limit >= 0 {
		c.Shapes["LIMIT"]++
	}
	if q.Offset >= 0 {
		c.Shapes["OFFSET"]++
	}
}

// String is the summary printed at the end of a run.
func (c *Coverage) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "coverage: %d queries, %d compared in order\n", c.Queries, c.Ordered)
	fmt.Fprintf(&b, "  features on: %s\n", strings.Join(c.Features, ", "))
	section(&b, "outcomes", c.Outcomes)
	section(&b, "shapes", c.Shapes)
	section(&b, "node kinds", c.Kinds)
	types := map[string]int{}
	for t, n := range c.Types {
		types[string(t)] = n
	}
	section(&b, "types", types)
	section(&b, "functions", c.Funcs)
	section(&b, "agreed errors", c.Errors)
	return b.String()
}

func section(b *strings.Builder, title string, m map[string]int) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	fmt.Fprintf(b, "  %s (%d):", title, len(keys))
	for i, k := range keys {
		if i%6 == 0 {
			b.WriteString("\n   ")
		}
		fmt.Fprintf(b, " %s=%d", k, m[k])
	}
	b.WriteString("\n")
}
