package pgtypes

import (
	"encoding/binary"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// RowEncoder turns the rows of Arrow record batches into complete DataRow
// messages ('D', length, column count, then per column a length or -1 and
// the value), appended to a caller-owned buffer. The per-column encoders are
// chosen once, when the encoder is built for a result; Reset only points them
// at the next batch's arrays. This is the hot path of every SELECT, so it
// allocates nothing per row.
type RowEncoder struct {
	cols     []valueEncoder
	arrs     []arrow.Array
	hasNulls []bool
	regs     []*regEncoder // reg* columns, which SetRegNamer reaches
}

// NewRowEncoder builds the encoder of a result whose columns have types cols,
// sent in the given format codes: none means all text, one applies to every
// column, otherwise one per column (as Bind's result format codes).
func NewRowEncoder(cols []types.T, formats []int16) (*RowEncoder, error) {
	return NewRowEncoderIn(cols, formats, nil)
}

// NewRowEncoderIn is NewRowEncoder for a session whose TimeZone is loc
// (nil: UTC): timestamptz text is the wall time there with its offset.
// Binary timestamptz stays UTC microseconds, as in PostgreSQL.
func NewRowEncoderIn(cols []types.T, formats []int16, loc *time.Location) (*RowEncoder, error) {
	return NewRowEncoderStyle(cols, formats, loc, types.Style{})
}

// NewRowEncoderStyle is NewRowEncoderIn for a session whose DateStyle,
// IntervalStyle and extra_float_digits are st: the text of dates,
// timestamps and intervals (in arrays and records too) is written in its
// styles, and reals and doubles (in arrays, records and json too) follow
// its extra_float_digits (PostgreSQL's float4out and float8out). Binary
// values are the same whatever st, and json documents write dates and
// intervals in ISO form, as in PostgreSQL.
func NewRowEncoderStyle(cols []types.T, formats []int16, loc *time.Location, st types.Style) (*RowEncoder, error) {
	if len(formats) > 1 && len(formats) != len(cols) {
		return nil, sqlerr.New(sqlerr.ProtocolViolation, "bind message has %d result formats but query has %d columns", len(formats), len(cols))
	}
	e := &RowEncoder{
		cols:     make([]valueEncoder, len(cols)),
		arrs:     make([]arrow.Array, len(cols)),
		hasNulls: make([]bool, len(cols)),
	}
	for i, t := range cols {
		f := FormatOf(formats, i)
		m := modeText
		switch f {
		case FormatText:
		case FormatBinary:
			m = modeBinary
		default:
			return nil, sqlerr.New(sqlerr.ProtocolViolation, "unsupported format code: %d", f)
		}
		enc, err := newEncoder(t, m, loc, st)
		if err != nil {
			return nil, err
		}
		e.cols[i] = enc
	}
	e.regs = regEncoders(e.cols)
	return e, nil
}

// FormatOf returns the format code of column or parameter i under the
// extended protocol's rule for a list of format codes.
func FormatOf(formats []int16, i int) int16 {
	switch len(formats) {
	case 0:
		return FormatText
	case 1:
		return formats[0]
	}
	if i < len(formats) {
		return formats[i]
	}
	return FormatText
}

// Reset points the encoder at batch, whose columns must match the result's
// types in number and Arrow type.
func (e *RowEncoder) Reset(batch arrow.RecordBatch) error {
	if int(batch.NumCols()) != len(e.cols) {
		return sqlerr.New(sqlerr.InternalError, "result batch has %d columns, expected %d", batch.NumCols(), len(e.cols))
	}
	for i, enc := range e.cols {
		arr := batch.Column(i)
		if err := enc.reset(arr); err != nil {
			return err
		}
		e.arrs[i] = arr
		e.hasNulls[i] = arr.NullN() > 0
	}
	return nil
}

// AppendDataRow appends the DataRow message of the batch's row to dst.
func (e *RowEncoder) AppendDataRow(dst []byte, row int) []byte {
	msgStart := len(dst)
	dst = append(dst, 'D', 0, 0, 0, 0)
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(e.cols)))
	for i, enc := range e.cols {
		if e.hasNulls[i] && e.arrs[i].IsNull(row) {
			dst = binary.BigEndian.AppendUint32(dst, math.MaxUint32) // -1: NULL
			continue
		}
		at := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		dst = enc.appendValue(dst, row)
		binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	}
	binary.BigEndian.PutUint32(dst[msgStart+1:], uint32(len(dst)-msgStart-1))
	return dst
}

// AppendValue appends the wire form of one value (without a length prefix)
// of arr[row] of type t in format f; it reports false for NULL. It is the
// slow, one-off form of RowEncoder, for tests and catalog code.
func AppendValue(dst []byte, t types.T, f int16, arr arrow.Array, row int) ([]byte, bool, error) {
	return AppendValueIn(dst, t, f, arr, row, nil)
}

// AppendValueIn is AppendValue in a session whose TimeZone is loc (nil: UTC).
func AppendValueIn(dst []byte, t types.T, f int16, arr arrow.Array, row int, loc *time.Location) ([]byte, bool, error) {
	return AppendValueStyle(dst, t, f, arr, row, loc, types.Style{})
}

// AppendValueStyle is AppendValueIn in a session whose DateStyle,
// IntervalStyle and extra_float_digits are st.
func AppendValueStyle(dst []byte, t types.T, f int16, arr arrow.Array, row int, loc *time.Location, st types.Style) ([]byte, bool, error) {
	m := modeText
	if f == FormatBinary {
		m = modeBinary
	}
	enc, err := newEncoder(t, m, loc, st)
	if err != nil {
		return dst, false, err
	}
	if err := enc.reset(arr); err != nil {
		return dst, false, err
	}
	if arr.IsNull(row) {
		return dst, false, nil
	}
	return enc.appendValue(dst, row), true, nil
}

// AppendField appends the wire form of column col at row of the batch the
// encoder was last Reset to (no length prefix); it reports false for NULL,
// appending nothing. COPY TO uses it to frame values its own way.
func (e *RowEncoder) AppendField(dst []byte, col, row int) ([]byte, bool) {
	if e.hasNulls[col] && e.arrs[col].IsNull(row) {
		return dst, false
	}
	return e.cols[col].appendValue(dst, row), true
}

// AppendRowFields appends a row's field count and its length-prefixed
// fields (-1 for NULL): a DataRow's body, which is also a binary COPY tuple.
func (e *RowEncoder) AppendRowFields(dst []byte, row int) []byte {
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(e.cols)))
	for i, enc := range e.cols {
		if e.hasNulls[i] && e.arrs[i].IsNull(row) {
			dst = binary.BigEndian.AppendUint32(dst, math.MaxUint32)
			continue
		}
		at := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		dst = enc.appendValue(dst, row)
		binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	}
	return dst
}
