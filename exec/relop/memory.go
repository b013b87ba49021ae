package relop

import (
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// MemoryAccount counts the bytes a query's operators hold. It is shared by
// every operator of one query (safe for concurrent use); a nil account is
// unlimited and counts nothing.
type MemoryAccount struct {
	limit int64 // <= 0: unlimited
	used  atomic.Int64
	peak  atomic.Int64
}

// NewMemoryAccount returns an account that refuses to grow beyond limit
// bytes (limit <= 0: unlimited).
func NewMemoryAccount(limit int64) *MemoryAccount { return &MemoryAccount{limit: limit} }

// Init makes m, a zero account its caller holds inside its own state, an
// account like NewMemoryAccount(limit)'s: the engine keeps one in each
// execution's state rather than allocating one per Execute.
func (m *MemoryAccount) Init(limit int64) { m.limit = limit }

// Grow charges n bytes. Over the limit it charges nothing and returns a
// 53200 *sqlerr.Error; operators with a SpillDir react by spilling.
func (m *MemoryAccount) Grow(n int64) error {
	if m == nil || n <= 0 {
		return nil
	}
	now := m.used.Add(n)
	if m.limit > 0 && now > m.limit {
		m.used.Add(-n)
		return sqlerr.New(sqlerr.OutOfMemory, "out of memory").WithDetail(
			"Failed on request of size %d bytes: the query's memory limit is %d bytes and %d are in use.", n, m.limit, now-n)
	}
	for {
		p := m.peak.Load()
		if now <= p || m.peak.CompareAndSwap(p, now) {
			break
		}
	}
	return nil
}

// Shrink returns n bytes to the account.
func (m *MemoryAccount) Shrink(n int64) {
	if m == nil || n <= 0 {
		return
	}
	m.used.Add(-n)
}

// Used is the number of bytes currently charged.
func (m *MemoryAccount) Used() int64 {
	if m == nil {
		return 0
	}
	return m.used.Load()
}

// Peak is the largest number of bytes charged at once.
func (m *MemoryAccount) Peak() int64 {
	if m == nil {
		return 0
	}
	return m.peak.Load()
}

// Limit is the account's limit in bytes (<= 0: unlimited).
func (m *MemoryAccount) Limit() int64 {
	if m == nil {
		return 0
	}
	return m.limit
}

// holding tracks what one operator has charged, so that it can give it all
// back on Close whatever path it took.
type holding struct {
	acct *MemoryAccount
	n    int64
}

func (h *holding) grow(n int64) error {
	if err := h.acct.Grow(n); err != nil {
		return err
	}
	h.n += n
	return nil
}

// force charges n bytes even over the limit: used for the small, bounded
// working sets (one batch per merged run) that spilling cannot avoid.
func (h *holding) force(n int64) {
	if h.acct != nil && n > 0 {
		h.acct.used.Add(n)
		h.n += n
	}
}

func (h *holding) shrink(n int64) {
	if n > h.n {
		n = h.n
	}
	h.acct.Shrink(n)
	h.n -= n
}

func (h *holding) releaseAll() { h.shrink(h.n) }

// batchBytes is the size of the buffers a batch references.
func batchBytes(b arrow.RecordBatch) int64 {
	var n int64
	for _, c := range b.Columns() {
		n += dataBytes(c.Data())
	}
	return n
}

func dataBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, buf := range d.Buffers() {
		if buf != nil {
			n += int64(buf.Len())
		}
	}
	for _, c := range d.Children() {
		n += dataBytes(c)
	}
	return n
}

// arrayBytes is the size of the buffers an array references.
func arrayBytes(a arrow.Array) int64 { return dataBytes(a.Data()) }

// arrowWithSchema rewraps a batch's columns under another schema with the
// same types.
func arrowWithSchema(s *arrow.Schema, b arrow.RecordBatch) arrow.RecordBatch {
	return array.NewRecordBatch(s, b.Columns(), b.NumRows())
}
