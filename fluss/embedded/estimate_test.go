package embedded

import (
	"context"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
)

func TestEstimateRowsCountsCommittedRecords(t *testing.T) {
	s := openStore(t, t.TempDir())
	defer s.Close()
	ctx := context.Background()
	if _, err := s.CreateTable(ctx, path("lt"), fluss.TableDescriptor{Schema: fluss.Schema{Columns: intCols("x")}, BucketCount: 3}, false); err != nil {
		t.Fatal(err)
	}
	tb, err := s.Table(ctx, path("lt"))
	if err != nil {
		t.Fatal(err)
	}
	est := tb.(fluss.RowEstimator)
	if n := est.EstimateRows(); n != 0 {
		t.Fatalf("empty table: %d rows", n)
	}
	for _, n := range []int{5, 7} {
		rows := make([][]int32, n)
		for i := range rows {
			rows[i] = []int32{int32(i)}
		}
		rec := intRecord([]string{"x"}, rows...)
		if _, err := tb.Append(ctx, rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	if n := est.EstimateRows(); n != 12 {
		t.Fatalf("after 12 rows: %d", n)
	}
}
