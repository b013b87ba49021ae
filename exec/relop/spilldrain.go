package relop

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/exec"
)

// partitionDrain returns, in turn, the output of one operator per spilled
// partition. Distinct and HashAggregate first finish what fit in memory;
// then each non-empty partition file is read back as the input of a fresh
// copy of the operator one recursion level deeper (which may spill again).
type partitionDrain struct {
	nextPart int
	sub      exec.Operator
}

// next returns the next batch of the current partition's operator, moving
// to the next partition when one is done; nil, nil when all are.
func (d *partitionDrain) next(ctx context.Context, parts *partitions, newSub func(src exec.Operator) exec.Operator) (arrow.RecordBatch, error) {
	for {
		if d.sub != nil {
			b, err := d.sub.Next(ctx)
			if err != nil || b != nil {
				return b, err
			}
			d.sub.Close()
			d.sub = nil
		}
		if parts == nil || d.nextPart >= len(parts.files) {
			return nil, nil
		}
		f := parts.files[d.nextPart]
		d.nextPart++
		if f.rows == 0 {
			continue
		}
		src, err := newSpillSource(f)
		if err != nil {
			return nil, err
		}
		d.sub = newSub(src)
	}
}

func (d *partitionDrain) close() {
	if d.sub != nil {
		d.sub.Close()
		d.sub = nil
	}
}

// spillSource reads a spill file back as an operator; it removes the file
// on Close.
type spillSource struct {
	readerOp
	f *spillFile
}

func newSpillSource(f *spillFile) (*spillSource, error) {
	r, err := f.open()
	if err != nil {
		return nil, err
	}
	return &spillSource{readerOp: readerOp{r: r, schema: f.schema}, f: f}, nil
}

func (s *spillSource) Close() {
	s.readerOp.Close()
	s.f.remove()
}
