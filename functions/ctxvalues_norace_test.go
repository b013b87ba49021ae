//go:build !race

package functions

import (
	"context"
	"testing"
)

// TestWithStatementAllocations: setting a statement's values costs one
// allocation (engine runs it per prepared Execute).
func TestWithStatementAllocations(t *testing.T) {
	ctx := context.Background()
	if n := testing.AllocsPerRun(100, func() {
		_ = WithStatement(ctx, Clock{}, nil, Session{User: "u"})
	}); n > 1 {
		t.Errorf("%.1f allocations, want 1", n)
	}
}

// TestStatementContextAllocations: a StatementContext in the caller's
// storage sets a statement's values without allocating.
func TestStatementContextAllocations(t *testing.T) {
	ctx := context.Background()
	var sc StatementContext
	if n := testing.AllocsPerRun(100, func() {
		_ = sc.Init(ctx, Clock{}, nil, Session{User: "u"})
	}); n > 0 {
		t.Errorf("%.1f allocations, want 0", n)
	}
}
