package relop

import (
	"hash/maphash"
	"io"
	"os"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// spillFile is a temporary Arrow IPC stream of batches of one schema: a
// sorted run, or one hash partition of an input. It is deleted on remove.
type spillFile struct {
	schema *arrow.Schema
	mem    memory.Allocator
	f      *os.File
	w      *ipc.Writer
	rows   int64
	clock  *spillClock // the owning operator's; nil: not timed
}

// spillClock adds up the time an operator spent blocked on its spill
// files' I/O, which EXPLAIN ANALYZE reports as its stall time
// (exec.Staller): batches wait there while the disk writes or reads them.
// An operator that re-runs itself over its spilled partitions shares its
// clock with the operators it makes.
type spillClock struct{ ns int64 }

func (c *spillClock) since(t time.Time) {
	if c != nil {
		c.ns += time.Since(t).Nanoseconds()
	}
}

// stallNs is the time so far (0 for a nil clock).
func (c *spillClock) stallNs() int64 {
	if c == nil {
		return 0
	}
	return c.ns
}

func spillErr(err error) error {
	return sqlerr.Wrap(err, sqlerr.DiskFull, "could not write to temporary file: %v", err)
}

func newSpillFile(dir string, schema *arrow.Schema, mem memory.Allocator, clock *spillClock) (*spillFile, error) {
	f, err := os.CreateTemp(dir, "relop-*.arrow")
	if err != nil {
		return nil, spillErr(err)
	}
	return &spillFile{schema: schema, mem: mem, f: f, clock: clock,
		w: ipc.NewWriter(f, ipc.WithSchema(schema), ipc.WithAllocator(mem))}, nil
}

func (s *spillFile) write(b arrow.RecordBatch) error {
	if b.NumRows() == 0 {
		return nil
	}
	s.rows += b.NumRows()
	defer s.clock.since(time.Now())
	if err := s.w.Write(b); err != nil {
		return spillErr(err)
	}
	return nil
}

// finish ends writing; the file can then be read any number of times.
func (s *spillFile) finish() error {
	if s.w == nil {
		return nil
	}
	err := s.w.Close()
	s.w = nil
	if err != nil {
		return spillErr(err)
	}
	return nil
}

// open returns a reader over the file from its start.
func (s *spillFile) open() (*spillReader, error) {
	if err := s.finish(); err != nil {
		return nil, err
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return nil, spillErr(err)
	}
	r, err := ipc.NewReader(s.f, ipc.WithAllocator(s.mem))
	if err != nil {
		return nil, spillErr(err)
	}
	return &spillReader{r: r, schema: s.schema, clock: s.clock}, nil
}

func (s *spillFile) remove() {
	if s.f == nil {
		return
	}
	if s.w != nil {
		_ = s.w.Close()
		s.w = nil
	}
	name := s.f.Name()
	_ = s.f.Close()
	_ = os.Remove(name)
	s.f = nil
}

// spillReader returns the batches of a spill file in order.
type spillReader struct {
	r      *ipc.Reader
	schema *arrow.Schema
	clock  *spillClock
}

// next returns the next batch (the caller releases it) or nil at the end.
func (r *spillReader) next() (arrow.RecordBatch, error) {
	t := time.Now()
	more := r.r.Next()
	r.clock.since(t)
	if more {
		b := r.r.RecordBatch()
		b.Retain()
		return RestoreExtensions(r.schema, b), nil
	}
	if err := r.r.Err(); err != nil && err != io.EOF {
		return nil, spillErr(err)
	}
	return nil, nil
}

func (r *spillReader) close() { r.r.Release() }

// RestoreExtensions gives back their extension types (sqlgate's numeric)
// to columns an IPC stream read as their storage: the extension types are
// not registered with arrow-go (a process-wide registry), so the reader
// cannot know them, but the spill file's own schema does.
func RestoreExtensions(schema *arrow.Schema, b arrow.RecordBatch) arrow.RecordBatch {
	var cols []arrow.Array
	for i, f := range schema.Fields() {
		et, ok := f.Type.(arrow.ExtensionType)
		if !ok || i >= int(b.NumCols()) || arrow.TypeEqual(b.Column(i).DataType(), f.Type) {
			continue
		}
		if cols == nil {
			cols = append([]arrow.Array(nil), b.Columns()...)
		}
		cols[i] = array.NewExtensionArrayWithStorage(et, b.Column(i))
		defer cols[i].Release()
	}
	if cols == nil {
		return b
	}
	out := array.NewRecordBatch(schema, cols, b.NumRows())
	b.Release()
	return out
}

// partitions spreads rows over spill files by the hash of their encoded keys.
type partitions struct {
	files []*spillFile
	seed  maphash.Seed
}

const spillFanout = 16

func newPartitions(dir string, schema *arrow.Schema, mem memory.Allocator, seed maphash.Seed, clock *spillClock) (*partitions, error) {
	p := &partitions{seed: seed}
	for i := 0; i < spillFanout; i++ {
		f, err := newSpillFile(dir, schema, mem, clock)
		if err != nil {
			p.remove()
			return nil, err
		}
		p.files = append(p.files, f)
	}
	return p, nil
}

func (p *partitions) of(key []byte) int {
	return int(maphash.Bytes(p.seed, key) % spillFanout)
}

// write appends the rows of b (all when rows is nil) to their partitions.
func (p *partitions) write(mem memory.Allocator, b arrow.RecordBatch, keys [][]byte, rows []int32) error {
	var refs [spillFanout][]rowRef
	add := func(i int) {
		k := p.of(keys[i])
		refs[k] = append(refs[k], rowRef{0, uint32(i)})
	}
	if rows == nil {
		for i := range keys {
			add(i)
		}
	} else {
		for _, i := range rows {
			add(int(i))
		}
	}
	srcs := []arrow.RecordBatch{b}
	for k, rs := range refs {
		if len(rs) == 0 {
			continue
		}
		out, err := gatherBatch(mem, b.Schema(), srcs, rs)
		if err != nil {
			return err
		}
		err = p.files[k].write(out)
		out.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

func (p *partitions) remove() {
	if p == nil {
		return
	}
	for _, f := range p.files {
		f.remove()
	}
}

// clockOf returns *c, created on first use.
func clockOf(c **spillClock) *spillClock {
	if *c == nil {
		*c = &spillClock{}
	}
	return *c
}

func (o *HashAggregate) clockOf() *spillClock { return clockOf(&o.clock) }
func (o *Distinct) clockOf() *spillClock      { return clockOf(&o.clock) }
func (o *HashJoin) clockOf() *spillClock      { return clockOf(&o.clock) }

// StallNs implements exec.Staller: the time batches waited on the disk
// while the operator spilled them and read them back (0 if it did not).
func (o *Sort) StallNs() int64          { return o.clock.stallNs() }
func (o *Window) StallNs() int64        { return o.clock.stallNs() }
func (o *HashAggregate) StallNs() int64 { return o.clock.stallNs() }
func (o *Distinct) StallNs() int64      { return o.clock.stallNs() }
func (o *HashJoin) StallNs() int64      { return o.clock.stallNs() }
