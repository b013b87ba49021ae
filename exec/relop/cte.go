package relop

import (
	"context"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/exec"
)

// SharedRows is the one evaluation of a WITH query that several CTEScans
// read (PostgreSQL's CTE tuplestore): the first scan to ask for a row runs
// the query to its end into a store (charged to Mem, spilling to SpillDir
// past its limit), and every scan then reads the store from its start.
// The scans hold it (Retain, and their Close); the last one frees it.
type SharedRows struct {
	body  exec.Operator
	store *rowStore

	mu     sync.Mutex // the first scans may ask from several goroutines
	filled bool
	err    error
	refs   int
}

// NewSharedRows returns the shared rows of body, whose batches have schema
// out. It holds no reference: each scan takes one.
func NewSharedRows(body exec.Operator, out *arrow.Schema, mem *MemoryAccount, spillDir string, alloc memory.Allocator) *SharedRows {
	return &SharedRows{body: body, store: &rowStore{schema: out, mem: allocOr(alloc), spillDir: spillDir, hold: holding{acct: mem}}}
}

// Retain takes a reference for a scan.
func (s *SharedRows) Retain() {
	s.mu.Lock()
	s.refs++
	s.mu.Unlock()
}

// Release drops a scan's reference: the last one closes the query and
// frees the rows. It reports whether it was the last.
func (s *SharedRows) Release() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refs--
	if s.refs > 0 {
		return false
	}
	if s.body != nil {
		s.body.Close()
		s.body = nil
	}
	s.store.release()
	return true
}

// fill runs the query to its end into the store, once.
func (s *SharedRows) fill(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.filled {
		return s.err
	}
	s.filled = true
	for {
		if err := ctx.Err(); err != nil {
			s.err = err
			return err
		}
		b, err := s.body.Next(ctx)
		if err != nil {
			s.err = err
			return err
		}
		if b == nil {
			return nil
		}
		if b.NumRows() > 0 {
			err = s.store.add(b)
		}
		b.Release()
		if err != nil {
			s.err = err
			return err
		}
	}
}

// CTEScan reads the rows of a SharedRows from the start.
type CTEScan struct {
	Rows *SharedRows
	Out  *arrow.Schema
	// OnLast, when set, runs when this scan's Close frees the rows.
	OnLast func()

	r              *storeReader
	opened, closed bool
}

func (o *CTEScan) Schema() *arrow.Schema { return o.Out }

func (o *CTEScan) Close() {
	if o.closed {
		return
	}
	o.closed = true
	if o.r != nil {
		o.r.close()
		o.r = nil
	}
	if o.Rows.Release() && o.OnLast != nil {
		o.OnLast()
	}
}

func (o *CTEScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !o.opened {
		o.opened = true
		if err := o.Rows.fill(ctx); err != nil {
			return nil, err
		}
		r, err := o.Rows.store.reader()
		if err != nil {
			return nil, err
		}
		o.r = r
	}
	return o.r.nextAs(o.Out)
}
