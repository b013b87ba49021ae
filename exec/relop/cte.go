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
// As in PostgreSQL, the rows last as long as the execution: a scan opened
// after every other one closed (a second scalar subquery, a correlated
// subquery's next row) reads the same rows rather than running the query
// again. Its owner (lower.Runtime) Closes it when the execution ends; the
// scans never free it.
type SharedRows struct {
	body  exec.Operator
	store *rowStore

	mu     sync.Mutex // the first scans may ask from several goroutines
	filled bool
	closed bool
	err    error
}

// NewSharedRows returns the shared rows of body, whose batches have schema
// out. The caller Closes it once no scan reads it any more.
func NewSharedRows(body exec.Operator, out *arrow.Schema, mem *MemoryAccount, spillDir string, alloc memory.Allocator) *SharedRows {
	return &SharedRows{body: body, store: &rowStore{schema: out, mem: allocOr(alloc), spillDir: spillDir, hold: holding{acct: mem}}}
}

// Close closes the query (when it has not run to its end) and frees the
// rows. Every scan of them must be closed before.
func (s *SharedRows) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.closed = true
	s.closeBody()
	s.store.release()
}

// closeBody closes the query once it is no longer needed: at the end of
// its rows (its operators' memory is given back then, not at the end of
// the execution), on its error, or at Close.
func (s *SharedRows) closeBody() {
	if s.body != nil {
		s.body.Close()
		s.body = nil
	}
}

// fill runs the query to its end into the store, once.
func (s *SharedRows) fill(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.filled {
		return s.err
	}
	s.filled = true
	s.err = s.run(ctx)
	s.closeBody()
	return s.err
}

func (s *SharedRows) run(ctx context.Context) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := s.body.Next(ctx)
		if err != nil {
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
			return err
		}
	}
}

// CTEScan reads the rows of a SharedRows from the start. Closing it
// leaves the rows to their owner.
type CTEScan struct {
	Rows *SharedRows
	Out  *arrow.Schema

	r      *storeReader
	opened bool
}

func (o *CTEScan) Schema() *arrow.Schema { return o.Out }

func (o *CTEScan) Close() {
	if o.r != nil {
		o.r.close()
		o.r = nil
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
