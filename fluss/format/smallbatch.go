package format

import (
	"bytes"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/sqlgate/sqlgate/types"
)

// SmallBatchEncoder is EncodeTableBatch for one table's log batches, which
// writes a small batch of fixed-width columns without nulls (the before and
// after images of an UPDATE by key) without arrow-go's IPC writer: the IPC
// message before the body of such a batch (its RecordBatch metadata: the
// row count, and each column's node and buffers, the same for every batch
// of as many rows) is taken from the first batch of that many rows that the
// writer encoded, and the body is each column's values, every buffer
// padded to 8 bytes as the writer pads them. The writer's encoding of a
// two-row batch cost about as much as the rest of the commit's prepare.
//
// It is safe for concurrent use; the zero value is ready.
type SmallBatchEncoder struct {
	mu sync.Mutex
	// widths are the byte widths of the columns the prefixes were taken
	// for; prefixes[n-1] is the IPC message before the body of an n-row
	// batch (nil: not taken yet).
	widths   []int
	prefixes [SmallBatchRows][]byte
}

// SmallBatchRows is the most rows SmallBatchEncoder writes itself.
const SmallBatchRows = 16

// Encode is EncodeTableBatch(rec, ts, changes, schemaID); changes nil
// makes an append-only batch.
func (e *SmallBatchEncoder) Encode(rec arrow.RecordBatch, ts []types.T, changes []ChangeType, schemaID int16) ([]byte, error) {
	n := int(rec.NumRows())
	// changes nil: an append-only batch (a log table's rows), which has no
	// change-type vector but the same IPC message.
	if e == nil || n == 0 || n > SmallBatchRows || len(ts) != int(rec.NumCols()) || changes != nil && len(changes) != n {
		return EncodeTableBatch(rec, ts, changes, schemaID)
	}
	var widthBuf [16]int
	widths, ok := fixedWidths(rec, ts, widthBuf[:0])
	if !ok {
		return EncodeTableBatch(rec, ts, changes, schemaID)
	}
	prefix := e.prefix(widths, n)
	if prefix != nil {
		return finishBatch(appendBody(smallBatchStart(n, len(prefix), widths, changes, prefix), rec, widths), n, changes, schemaID), nil
	}
	b, err := EncodeTableBatch(rec, ts, changes, schemaID)
	if err != nil {
		return nil, err
	}
	if prefix, ok := takePrefix(b, rec, widths, changes); ok {
		e.mu.Lock()
		if !slicesEqual(e.widths, widths) {
			e.widths = append([]int(nil), widths...)
			e.prefixes = [SmallBatchRows][]byte{}
		}
		e.prefixes[n-1] = prefix
		e.mu.Unlock()
	}
	return b, nil
}

// fixedWidths appends to dst the byte width of each column of rec, when
// every column is of a fixed-width primitive type written as it is (no
// conversion to Fluss's units: needsConv) and has no nulls.
func fixedWidths(rec arrow.RecordBatch, ts []types.T, dst []int) ([]int, bool) {
	for i, col := range rec.Columns() {
		if needsConv(ts[i]) || col.NullN() != 0 {
			return nil, false
		}
		switch col.DataType().ID() {
		case arrow.INT8, arrow.UINT8, arrow.INT16, arrow.UINT16, arrow.INT32, arrow.UINT32, arrow.INT64, arrow.UINT64,
			arrow.FLOAT32, arrow.FLOAT64, arrow.DATE32, arrow.DATE64, arrow.DECIMAL128, arrow.DECIMAL256:
		default:
			return nil, false
		}
		fw, ok := col.DataType().(arrow.FixedWidthDataType)
		if !ok || fw.BitWidth()%8 != 0 || len(col.Data().Buffers()) != 2 || col.Data().Buffers()[1] == nil {
			return nil, false
		}
		dst = append(dst, fw.BitWidth()/8)
	}
	return dst, true
}

// bodySize is the IPC body of n rows of columns widths wide: each column's
// values padded to 8 bytes (no validity bitmaps: no nulls).
func bodySize(n int, widths []int) int {
	size := 0
	for _, w := range widths {
		size += int(bitutil.CeilByte64(int64(n * w)))
	}
	return size
}

// smallBatchStart allocates a batch of n rows and lays out its header
// (filled in by finishBatch), change types and IPC prefix.
func smallBatchStart(n, prefixLen int, widths []int, changes []ChangeType, prefix []byte) []byte {
	b := make([]byte, HeaderSize, HeaderSize+len(changes)+prefixLen+bodySize(n, widths))
	for _, c := range changes {
		b = append(b, byte(c))
	}
	return append(b, prefix...)
}

// appendBody appends rec's values, column by column, each padded with
// zeros to 8 bytes.
func appendBody(b []byte, rec arrow.RecordBatch, widths []int) []byte {
	n := int(rec.NumRows())
	for i, col := range rec.Columns() {
		w := widths[i]
		d := col.Data()
		off := d.Offset() * w
		b = append(b, d.Buffers()[1].Bytes()[off:off+n*w]...)
		for pad := int(bitutil.CeilByte64(int64(n*w))) - n*w; pad > 0; pad-- {
			b = append(b, 0)
		}
	}
	return b
}

// takePrefix returns the IPC message before the body of b, the writer's
// encoding of rec, when the body is where and as long as appendBody lays it
// out (each column's values in its 8-byte padded slot), so that the prefix
// stands for every batch of as many rows of these widths.
func takePrefix(b []byte, rec arrow.RecordBatch, widths []int, changes []ChangeType) ([]byte, bool) {
	n := int(rec.NumRows())
	start := HeaderSize + len(changes)
	bodyAt := len(b) - bodySize(n, widths)
	if bodyAt <= start {
		return nil, false
	}
	pos := bodyAt
	for i, col := range rec.Columns() {
		w := widths[i]
		d := col.Data()
		off := d.Offset() * w
		if !bytes.Equal(b[pos:pos+n*w], d.Buffers()[1].Bytes()[off:off+n*w]) {
			return nil, false
		}
		pos += int(bitutil.CeilByte64(int64(n * w)))
	}
	return bytes.Clone(b[start:bodyAt]), true
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// prefix is the IPC prefix kept for n rows of these column widths, nil
// when the encoder holds none for them.
func (e *SmallBatchEncoder) prefix(widths []int, n int) []byte {
	e.mu.Lock()
	defer e.mu.Unlock()
	if slicesEqual(e.widths, widths) {
		return e.prefixes[n-1]
	}
	return nil
}

// EncodeRows is Encode of the rows of a batch given as compacted rows of
// types ts (a changelog's before and after images, as the state holds
// them) rather than as an Arrow record: the values are decoded straight
// into the body, with no Arrow builders or record in between. ok is false,
// and nothing is encoded, unless Encode would write such a batch itself
// and has the prefix for as many rows already (from an earlier batch it
// had the writer encode): a row count or width it has not met, a column of
// another type (text, decimal, converted units) or a null; the caller then
// encodes a record as before. The bytes are Encode's for the same rows.
func (e *SmallBatchEncoder) EncodeRows(rows [][]byte, ts []types.T, changes []ChangeType, schemaID int16) (b []byte, ok bool) {
	n := len(rows)
	if e == nil || n == 0 || n > SmallBatchRows || len(changes) != n || len(ts) > maxRowColumns {
		return nil, false
	}
	var widthBuf, atBuf [maxRowColumns]int
	widths := widthBuf[:len(ts)]
	for i, t := range ts {
		if widths[i] = rowWidth(t); widths[i] == 0 {
			return nil, false
		}
	}
	prefix := e.prefix(widths, n)
	if prefix == nil {
		return nil, false
	}
	b = smallBatchStart(n, len(prefix), widths, changes, prefix)
	// Column c's values start at at[c]; make zeroed the padding.
	at := atBuf[:len(ts)]
	pos := len(b)
	for c, w := range widths {
		at[c] = pos
		pos += int(bitutil.CeilByte64(int64(n * w)))
	}
	b = b[:pos]
	for r, row := range rows {
		if !putRow(b, at, r, row, ts, widths) {
			return nil, false
		}
	}
	return finishBatch(b, n, changes, schemaID), true
}

// maxRowColumns is the most columns EncodeRows encodes.
const maxRowColumns = 16

// rowWidth is the byte width in a log batch's body of a column of type t
// that EncodeRows decodes from compacted rows (putFixed), or 0: the types
// whose Arrow type fixedWidths accepts (fixed-width, no unit conversion),
// but decimals; not booleans, whose Arrow values are bits.
func rowWidth(t types.T) int {
	switch t.Kind {
	case types.Bool, types.Timestamp, types.TimestampTZ:
		return 0
	}
	return fixedWidth(t.Kind)
}

// putRow decodes compacted row r of rows and writes its values into b, at
// row r of each column (column c's values starting at at[c]): false for a
// null or a truncated row.
func putRow(b []byte, at []int, r int, row []byte, ts []types.T, widths []int) bool {
	nb := (len(ts) + 7) / 8
	if len(row) < nb {
		return false
	}
	pos := nb
	for f, t := range ts {
		if row[f>>3]&(1<<(f&7)) != 0 {
			return false // a null: the writer's batch has a validity bitmap
		}
		m, ok := putFixed(t.Kind, false, false, b[at[f]+r*widths[f]:], row[pos:])
		if !ok {
			return false
		}
		pos += m
	}
	return true
}
