package format

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// A projected read of a stored batch reads only the projected columns'
// Arrow buffers instead of the whole batch: the header, the change-type
// vector and the Arrow metadata (a few hundred bytes at the batch's start)
// say where each buffer lies in the body. It cannot check the batch's
// CRC-32C, which covers every byte, so the store uses it only for batches
// whose CRC it has already checked (see fluss/embedded's log scan).
//
// The columns it builds itself are the flat ones (fixed-width values,
// booleans, strings and binaries); a projection of a nested column, a
// compressed body or a schema it cannot lay out is read whole instead.

// BatchLayout is where the parts of one stored batch lie.
type BatchLayout struct {
	Header BatchHeader
	// BodyOffset is where the Arrow body starts, from the batch's start.
	BodyOffset int64
	rows       int64
	nodes      []fieldNode
	bufs       []bufSpan
}

type fieldNode struct{ length, nulls int64 }

type bufSpan struct{ off, len int64 }

// Span is a byte range of a batch's body.
type Span struct{ Off, Len int64 }

// ProjectionPlan is, for one schema and projection, each top-level
// column's first field node and buffer in a batch's metadata, computed once
// per scan.
type ProjectionPlan struct {
	dec       *BatchDecoder
	schema    *arrow.Schema // projected
	proj      []int
	firstNode []int // per table column, then the total
	firstBuf  []int
}

// NewProjectionPlan returns the plan of reading columns proj (indexes into
// d's schema) by projected reads; ok is false when some column cannot be
// laid out or a projected column is not flat (the batch is then read whole).
func (d *BatchDecoder) NewProjectionPlan(proj []int, out *arrow.Schema) (*ProjectionPlan, bool) {
	p := &ProjectionPlan{dec: d, schema: out, proj: proj}
	var nodes, bufs int
	for _, f := range d.wire.Fields() {
		p.firstNode, p.firstBuf = append(p.firstNode, nodes), append(p.firstBuf, bufs)
		n, b, ok := countLayout(f.Type, 0)
		if !ok {
			return nil, false
		}
		nodes, bufs = nodes+n, bufs+b
	}
	p.firstNode, p.firstBuf = append(p.firstNode, nodes), append(p.firstBuf, bufs)
	for _, c := range proj {
		if c < 0 || c >= d.wire.NumFields() || !flat(d.wire.Field(c).Type) {
			return nil, false
		}
	}
	return p, true
}

// countLayout returns the field nodes and buffers a column of type dt
// takes in an IPC record batch (metadata version 5).
func countLayout(dt arrow.DataType, depth int) (int, int, bool) {
	if depth > 32 {
		return 0, 0, false
	}
	switch dt := dt.(type) {
	case *arrow.NullType:
		return 1, 0, true
	case *arrow.BinaryType, *arrow.StringType, *arrow.LargeStringType, *arrow.LargeBinaryType:
		return 1, 3, true
	case *arrow.ListType, *arrow.LargeListType, *arrow.MapType:
		n, b, ok := countLayout(dt.(arrow.ListLikeType).Elem(), depth+1)
		return n + 1, b + 2, ok
	case *arrow.FixedSizeListType:
		n, b, ok := countLayout(dt.Elem(), depth+1)
		return n + 1, b + 1, ok
	case *arrow.StructType:
		nodes, bufs := 1, 1
		for _, f := range dt.Fields() {
			n, b, ok := countLayout(f.Type, depth+1)
			if !ok {
				return 0, 0, false
			}
			nodes, bufs = nodes+n, bufs+b
		}
		return nodes, bufs, true
	case *arrow.BooleanType, *arrow.FixedSizeBinaryType:
		return 1, 2, true
	case arrow.FixedWidthDataType:
		return 1, 2, true
	}
	return 0, 0, false
}

// flat reports whether projected reads build columns of type dt.
func flat(dt arrow.DataType) bool {
	switch dt.(type) {
	case *arrow.BinaryType, *arrow.StringType, *arrow.BooleanType, *arrow.FixedSizeBinaryType:
		return true
	case *arrow.DictionaryType, arrow.ExtensionType:
		return false
	case arrow.FixedWidthDataType:
		return true
	}
	return false
}

// ParseLayout parses the start of a stored batch (head holds at least its
// header; more of it as available). When head is too short to hold the
// Arrow metadata it returns need > 0, the bytes it wants; ok is false for a
// batch a projected read cannot serve (compressed, or metadata it does not
// understand), which is then read whole.
func ParseLayout(head []byte) (l BatchLayout, need int, ok bool) {
	defer func() {
		if recover() != nil {
			l, need, ok = BatchLayout{}, 0, false
		}
	}()
	h, err := ParseHeader(head)
	if err != nil {
		return BatchLayout{}, 0, false
	}
	if h.RecordCount == 0 {
		return BatchLayout{}, 0, false // no Arrow message: read whole
	}
	pos := int64(h.RecordsOffset)
	if !h.AppendOnly() {
		pos += int64(h.RecordCount)
	}
	if int64(len(head)) < pos+8 {
		return BatchLayout{}, int(min(pos+8+4096, h.Size())), pos+8 <= h.Size()
	}
	le := binary.LittleEndian
	metaLen := int64(int32(le.Uint32(head[pos:])))
	if uint32(metaLen) != 0xFFFFFFFF {
		return BatchLayout{}, 0, false // pre-0.15 framing: read whole
	}
	metaLen = int64(int32(le.Uint32(head[pos+4:])))
	pos += 8
	if metaLen < 4 || pos+metaLen > h.Size() {
		return BatchLayout{}, 0, false
	}
	if int64(len(head)) < pos+metaLen {
		return BatchLayout{}, int(pos + metaLen), true
	}
	l = BatchLayout{Header: h, BodyOffset: pos + metaLen}
	if !parseRecordBatchMeta(head[pos:pos+metaLen], &l) {
		return BatchLayout{}, 0, false
	}
	return l, 0, true
}

// parseRecordBatchMeta reads a Message flatbuffer holding a RecordBatch:
// its length, field nodes and buffers. A body compression makes it fail.
func parseRecordBatchMeta(b []byte, l *BatchLayout) bool {
	msg, ok := fbRoot(b)
	if !ok {
		return false
	}
	// Message: 0 version, 1 header_type, 2 header, 3 bodyLength.
	if typ, ok := msg.field(1); !ok || b[typ] != 3 { // MessageHeader.RecordBatch
		return false
	}
	hdr, ok := msg.table(2)
	if !ok {
		return false
	}
	// RecordBatch: 0 length, 1 nodes, 2 buffers, 3 compression.
	if _, compressed := hdr.field(3); compressed {
		return false
	}
	if f, ok := hdr.field(0); ok {
		l.rows = int64(binary.LittleEndian.Uint64(b[f:]))
	}
	nodes, n, ok := hdr.vector(1, 16)
	if !ok {
		return false
	}
	bufs, m, ok := hdr.vector(2, 16)
	if !ok {
		return false
	}
	le := binary.LittleEndian
	l.nodes = make([]fieldNode, n)
	for i := range l.nodes {
		l.nodes[i] = fieldNode{int64(le.Uint64(b[nodes+16*i:])), int64(le.Uint64(b[nodes+16*i+8:]))}
	}
	l.bufs = make([]bufSpan, m)
	for i := range l.bufs {
		l.bufs[i] = bufSpan{int64(le.Uint64(b[bufs+16*i:])), int64(le.Uint64(b[bufs+16*i+8:]))}
	}
	return true
}

// fbTable is a flatbuffer table: the buffer and the table's position.
type fbTable struct {
	b   []byte
	pos int
	vt  int // vtable position
	vtn int // vtable size in bytes
}

func fbRoot(b []byte) (fbTable, bool) {
	if len(b) < 4 {
		return fbTable{}, false
	}
	return fbAt(b, int(binary.LittleEndian.Uint32(b)))
}

func fbAt(b []byte, pos int) (fbTable, bool) {
	if pos < 0 || pos+4 > len(b) {
		return fbTable{}, false
	}
	vt := pos - int(int32(binary.LittleEndian.Uint32(b[pos:])))
	if vt < 0 || vt+4 > len(b) {
		return fbTable{}, false
	}
	vtn := int(binary.LittleEndian.Uint16(b[vt:]))
	if vtn < 4 || vt+vtn > len(b) {
		return fbTable{}, false
	}
	return fbTable{b: b, pos: pos, vt: vt, vtn: vtn}, true
}

// field returns the position of field i, false when absent.
func (t fbTable) field(i int) (int, bool) {
	o := 4 + 2*i
	if o+2 > t.vtn {
		return 0, false
	}
	off := int(binary.LittleEndian.Uint16(t.b[t.vt+o:]))
	if off == 0 || t.pos+off >= len(t.b) {
		return 0, false
	}
	return t.pos + off, true
}

func (t fbTable) indirect(i int) (int, bool) {
	f, ok := t.field(i)
	if !ok || f+4 > len(t.b) {
		return 0, false
	}
	return f + int(binary.LittleEndian.Uint32(t.b[f:])), true
}

func (t fbTable) table(i int) (fbTable, bool) {
	p, ok := t.indirect(i)
	if !ok {
		return fbTable{}, false
	}
	return fbAt(t.b, p)
}

// vector returns the position and length of field i, a vector of
// elements of size bytes, checked to lie within the buffer.
func (t fbTable) vector(i, size int) (int, int, bool) {
	p, ok := t.indirect(i)
	if !ok || p+4 > len(t.b) {
		return 0, 0, false
	}
	n := int(binary.LittleEndian.Uint32(t.b[p:]))
	if n < 0 || n > (len(t.b)-p-4)/size {
		return 0, 0, false
	}
	return p + 4, n, true
}

// Spans returns the body ranges holding the projected columns' buffers,
// merged where they are at most gap bytes apart, in body order; ok is
// false when the layout does not match the plan's schema.
func (p *ProjectionPlan) Spans(l *BatchLayout, gap int64) ([]Span, bool) {
	if len(l.nodes) != p.firstNode[len(p.firstNode)-1] || len(l.bufs) != p.firstBuf[len(p.firstBuf)-1] {
		return nil, false
	}
	var spans []Span
	for _, c := range p.proj {
		for _, b := range l.bufs[p.firstBuf[c]:p.firstBuf[c+1]] {
			if b.len == 0 {
				continue
			}
			if b.off < 0 || b.len < 0 || b.off%8 != 0 || b.off+b.len > l.bodyLen() {
				return nil, false
			}
			spans = append(spans, Span{b.off, b.len})
		}
	}
	slices.SortFunc(spans, func(a, b Span) int { return int(a.Off - b.Off) })
	out := spans[:0]
	for _, s := range spans {
		if n := len(out); n > 0 && s.Off <= out[n-1].Off+out[n-1].Len+gap {
			out[n-1].Len = max(out[n-1].Off+out[n-1].Len, s.Off+s.Len) - out[n-1].Off
			continue
		}
		out = append(out, s)
	}
	return out, true
}

func (l *BatchLayout) bodyLen() int64 { return l.Header.Size() - l.BodyOffset }

// BodyBytes returns the size of the batch's Arrow body.
func (l *BatchLayout) BodyBytes() int64 { return l.bodyLen() }

// Build returns the projected record of a batch whose spans (Spans's, in
// order) have been read into data (data[i] holds spans[i]). The arrays
// point into data.
func (p *ProjectionPlan) Build(l *BatchLayout, spans []Span, data [][]byte) (arrow.RecordBatch, error) {
	rows := l.rows
	if rows != int64(l.Header.RecordCount) {
		return nil, fmt.Errorf("batch header says %d records, arrow data has %d", l.Header.RecordCount, rows)
	}
	slice := func(b bufSpan) ([]byte, error) {
		if b.len == 0 {
			return nil, nil
		}
		i, _ := slices.BinarySearchFunc(spans, b.off, func(s Span, off int64) int {
			switch {
			case s.Off+s.Len <= off:
				return -1
			case s.Off > off:
				return 1
			}
			return 0
		})
		if i >= len(spans) || b.off < spans[i].Off || b.off+b.len > spans[i].Off+spans[i].Len {
			return nil, fmt.Errorf("buffer at body offset %d was not read", b.off)
		}
		s := b.off - spans[i].Off
		return data[i][s : s+b.len : s+b.len], nil
	}
	cols := make([]arrow.Array, len(p.proj))
	release := func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}
	for o, c := range p.proj {
		node := l.nodes[p.firstNode[c]]
		if node.length != rows || node.nulls < 0 || node.nulls > rows {
			release()
			return nil, fmt.Errorf("column %d has %d values (%d nulls) for %d records", c, node.length, node.nulls, rows)
		}
		raw := make([][]byte, p.firstBuf[c+1]-p.firstBuf[c])
		for i, b := range l.bufs[p.firstBuf[c]:p.firstBuf[c+1]] {
			var err error
			if raw[i], err = slice(b); err != nil {
				release()
				return nil, err
			}
		}
		a, err := buildFlat(p.dec.wire.Field(c).Type, int(rows), int(node.nulls), raw)
		if err != nil {
			release()
			return nil, fmt.Errorf("column %d: %w", c, err)
		}
		if p.dec.conv[c] {
			w := a
			a = fromWire(w, p.dec.ts[c])
			w.Release()
		}
		cols[o] = a
	}
	rec := array.NewRecordBatch(p.schema, cols, rows)
	release()
	return rec, nil
}

// buildFlat makes an array of a flat type from its buffers, checking that
// they are long enough and (for strings) that the offsets stay inside the
// data, so that no later access can index out of range.
func buildFlat(dt arrow.DataType, rows, nulls int, raw [][]byte) (arrow.Array, error) {
	bitmap := (rows + 7) / 8
	var validity *memory.Buffer
	if nulls > 0 {
		if len(raw[0]) < bitmap {
			return nil, fmt.Errorf("validity bitmap of %d bytes for %d rows", len(raw[0]), rows)
		}
		validity = memory.NewBufferBytes(raw[0])
	}
	var bufs []*memory.Buffer
	switch dt := dt.(type) {
	case *arrow.BooleanType:
		if len(raw[1]) < bitmap {
			return nil, fmt.Errorf("boolean values of %d bytes for %d rows", len(raw[1]), rows)
		}
		bufs = []*memory.Buffer{validity, memory.NewBufferBytes(raw[1])}
	case *arrow.BinaryType, *arrow.StringType:
		offs, data := raw[1], raw[2]
		if len(offs) < 4*(rows+1) {
			return nil, fmt.Errorf("offsets of %d bytes for %d rows", len(offs), rows)
		}
		prev := int32(binary.LittleEndian.Uint32(offs))
		if prev < 0 {
			return nil, fmt.Errorf("negative first offset")
		}
		for i := 1; i <= rows; i++ {
			o := int32(binary.LittleEndian.Uint32(offs[4*i:]))
			if o < prev {
				return nil, fmt.Errorf("offsets decrease at row %d", i)
			}
			prev = o
		}
		if int(prev) > len(data) {
			return nil, fmt.Errorf("offsets reach byte %d of %d", prev, len(data))
		}
		bufs = []*memory.Buffer{validity, memory.NewBufferBytes(offs), memory.NewBufferBytes(data)}
	case arrow.FixedWidthDataType:
		width := dt.BitWidth() / 8
		if width <= 0 || len(raw[1]) < width*rows {
			return nil, fmt.Errorf("values of %d bytes for %d rows of %v", len(raw[1]), rows, dt)
		}
		bufs = []*memory.Buffer{validity, memory.NewBufferBytes(raw[1])}
	default:
		return nil, fmt.Errorf("type %v is not read by projected reads", dt)
	}
	data := array.NewData(dt, rows, bufs, nil, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}
