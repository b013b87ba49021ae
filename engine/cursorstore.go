package engine

import (
	"bytes"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/engine/txnstore"
	"github.com/sqlgate/sqlgate/exec/relop"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// cursorStore keeps the rows a cursor has read and may return to, as
// batches in order. It holds at most limit bytes of them in memory: past
// that the oldest batches in memory are written to a temporary file (each
// an Arrow IPC stream of its own at a known position) and read back one at
// a time when FETCH returns to them, so a scrollable cursor over millions
// of rows is bounded like a forward-only one. The file is unlinked as soon
// as it is created: it vanishes with the cursor, or with the process.
type cursorStore struct {
	parts []storedPart
	// inMem is the bytes of the parts held in memory; the parts before
	// oldest are all on disk (or dropped).
	inMem  int64
	oldest int
	limit  int64
	dir    string
	mem    memory.Allocator
	f      *os.File
	size   int64
	// back is the spilled part read back last (index backAt), kept while
	// FETCH steps through its rows.
	back   arrow.RecordBatch
	backAt int
}

// storedPart is one batch of the store: in memory (rec) or in the file
// (bytes off..off+n).
type storedPart struct {
	rows   int64
	rec    arrow.RecordBatch
	schema *arrow.Schema
	bytes  int64
	off, n int64
}

// cursorStoreMemory is the bytes a cursor keeps in memory before it
// writes the older rows it keeps to disk.
const cursorStoreMemory = 32 << 20

func newCursorStore(dir string, mem memory.Allocator) *cursorStore {
	return &cursorStore{limit: cursorStoreMemory, dir: dir, mem: mem, backAt: -1}
}

func cursorSpillErr(err error) error {
	return sqlerr.Wrap(err, sqlerr.DiskFull, "could not write to temporary file: %v", err)
}

// add appends b to the store, which owns it from then on, and writes the
// oldest batches in memory to disk while the store holds more than its
// limit.
func (s *cursorStore) add(b arrow.RecordBatch) error {
	p := storedPart{rows: b.NumRows(), rec: b, schema: b.Schema(), bytes: txnstore.RecordBytes(b)}
	s.parts = append(s.parts, p)
	s.inMem += p.bytes
	// The newest part stays: FETCH is about to return it.
	for ; s.inMem > s.limit && s.oldest < len(s.parts)-1; s.oldest++ {
		if s.parts[s.oldest].rec == nil {
			continue
		}
		if err := s.spill(s.oldest); err != nil {
			return err
		}
	}
	return nil
}

// spill writes part i to the file and drops it from memory.
func (s *cursorStore) spill(i int) error {
	p := &s.parts[i]
	if s.f == nil {
		f, err := os.CreateTemp(s.dir, "cursor-*.arrow")
		if err != nil {
			return cursorSpillErr(err)
		}
		_ = os.Remove(f.Name())
		s.f = f
	}
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(p.schema), ipc.WithAllocator(s.mem))
	if err := w.Write(p.rec); err != nil {
		return cursorSpillErr(err)
	}
	if err := w.Close(); err != nil {
		return cursorSpillErr(err)
	}
	if _, err := s.f.WriteAt(buf.Bytes(), s.size); err != nil {
		return cursorSpillErr(err)
	}
	p.off, p.n = s.size, int64(buf.Len())
	s.size += p.n
	p.rec.Release()
	p.rec = nil
	s.inMem -= p.bytes
	return nil
}

// part returns part i's rows, reading them back from disk when they were
// written there; the store keeps the batch (callers slice it).
func (s *cursorStore) part(i int) (arrow.RecordBatch, error) {
	p := s.parts[i]
	if p.rec != nil {
		return p.rec, nil
	}
	if s.backAt == i {
		return s.back, nil
	}
	r, err := ipc.NewReader(io.NewSectionReader(s.f, p.off, p.n), ipc.WithAllocator(s.mem))
	if err != nil {
		return nil, cursorSpillErr(err)
	}
	defer r.Release()
	if !r.Next() {
		err := r.Err()
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return nil, cursorSpillErr(err)
	}
	b := r.RecordBatch()
	b.Retain()
	b = relop.RestoreExtensions(p.schema, b)
	s.dropBack()
	s.back, s.backAt = b, i
	return b, nil
}

func (s *cursorStore) dropBack() {
	if s.back != nil {
		s.back.Release()
		s.back = nil
	}
	s.backAt = -1
}

// dropFirst drops the oldest part (a cursor that cannot scroll has passed
// its rows). The file's space is not reused: only a scrollable cursor,
// which drops nothing, writes to it.
func (s *cursorStore) dropFirst() {
	p := s.parts[0]
	if p.rec != nil {
		p.rec.Release()
		s.inMem -= p.bytes
	}
	s.parts[0] = storedPart{}
	s.parts = s.parts[1:]
	s.oldest = max(s.oldest-1, 0)
	if s.backAt == 0 {
		s.dropBack()
	} else if s.backAt > 0 {
		s.backAt--
	}
}

func (s *cursorStore) close() {
	for _, p := range s.parts {
		if p.rec != nil {
			p.rec.Release()
		}
	}
	s.parts, s.inMem = nil, 0
	s.dropBack()
	if s.f != nil {
		_ = s.f.Close()
		s.f = nil
	}
}
