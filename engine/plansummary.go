package engine

import (
	"strings"

	"github.com/sqlgate/sqlgate/lower"
)

// maxPlanSummary bounds the plan summary of a logged statement.
const maxPlanSummary = 512

// PlanSummary is the statement's plan in one line, outermost node first
// ("project -> filter: ... -> lookup: table=t ..."), for the slow-query
// log (server/stmtlog); "" for a statement without a plan (DDL, SET ...).
func (ps *statement) PlanSummary() string {
	if ps.plan == nil {
		return ""
	}
	var b strings.Builder
	stack := []lower.Node{ps.plan}
	for len(stack) > 0 && b.Len() < maxPlanSummary {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		kind, details := n.Explain()
		if b.Len() > 0 {
			b.WriteString(" -> ")
		}
		b.WriteString(kind)
		if details != "" {
			b.WriteString(": " + details)
		}
		in := n.Inputs()
		for i := len(in) - 1; i >= 0; i-- {
			stack = append(stack, in[i])
		}
	}
	s := b.String()
	if len(s) > maxPlanSummary {
		s = s[:maxPlanSummary] + "..."
	}
	return s
}

// PlanSummary is the plan summary of a statement of a multi-statement
// string (bound when it ran).
func (l *lazyStatement) PlanSummary() string {
	if ps, err := l.bind(); err == nil {
		return ps.PlanSummary()
	}
	return ""
}
