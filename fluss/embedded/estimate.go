package embedded

import "github.com/sqlgate/sqlgate/fluss"

var _ fluss.RowEstimator = (*tableHandle)(nil)

// EstimateRows implements fluss.RowEstimator: the records committed to the
// table's buckets. On a log table that is its row count; on a primary-key
// table every upsert and delete counts too, so it is an upper bound.
func (h *tableHandle) EstimateRows() int64 {
	t := h.t
	t.mu.RLock()
	defer t.mu.RUnlock()
	var n int64
	for _, b := range t.buckets {
		n += b.next
	}
	return n
}
