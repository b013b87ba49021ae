//go:build !race

package exec

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// TestOneInt64KeyAllocations: the prepared `WHERE id = $1` builds its key
// record in two allocations (the record with its storage, and the Int64).
func TestOneInt64KeyAllocations(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	if n := testing.AllocsPerRun(100, func() { (&int64Key{}).init(schema, 42).Release() }); n > 2 {
		t.Errorf("%.1f allocations per key, want at most 2", n)
	}
}
