//go:build !race

package embedded

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// TestSketchOneRowAllocations: a one-row write of W10's table (two BIGINT
// columns) is sketched into one allocation (sketchSmall; five before).
func TestSketchOneRowAllocations(t *testing.T) {
	sch := ledgerDesc(true).Schema
	fs := make([]arrow.Field, len(sch.Columns))
	for i, c := range sch.Columns {
		fs[i] = arrow.Field{Name: c.Name, Type: arrow.PrimitiveTypes.Int64}
	}
	rec := ledgerRows(arrow.NewSchema(fs, nil), 7, 1, 100)
	defer rec.Release()
	if allocs := testing.AllocsPerRun(100, func() { sketchRecord(rec, nil) }); allocs != 1 {
		t.Errorf("sketching a one-row write: %v allocations, want 1", allocs)
	}
}
