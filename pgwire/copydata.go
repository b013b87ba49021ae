package pgwire

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// COPY FROM STDIN data decoding: the bytes of the client's CopyData messages
// (text, CSV or binary, split anywhere) become Arrow batches of the COPY's
// columns. Values go through the same input functions as literals and Bind
// parameters (types.ParseText for text, pgtypes.DecodeParam for binary), so
// a value COPY accepts is one INSERT accepts.

// copyBatchRows is how many rows a decoded batch holds at most.
const copyBatchRows = 8192

// binaryCopySignature starts every binary COPY stream.
var binaryCopySignature = []byte("PGCOPY\n\377\r\n\000")

const codeBadCopyFileFormat sqlerr.Code = "22P04"

// CopyDataError is a COPY data error with PostgreSQL's CONTEXT line
// ("COPY t, line 3, column b: \"x\""). The decoder fills Line, Column and
// Value; the engine, which knows the table's name, fills Table.
type CopyDataError struct {
	Err   *sqlerr.Error
	Table string
	// File is a server-side file's name (COPY ... FROM 'file'), shown
	// after the table so that the error says which file is wrong.
	File   string
	Line   int
	Column string // "" when the error concerns the whole line
	Value  string
	// HasValue says Value is shown (text formats; binary values are not).
	HasValue bool
}

func (e *CopyDataError) Error() string { return e.Err.Message }
func (e *CopyDataError) Unwrap() error { return e.Err }

// Where is the error's CONTEXT field.
func (e *CopyDataError) Where() string {
	s := "COPY " + e.Table
	if e.File != "" {
		s += fmt.Sprintf(", file \"%s\"", e.File)
	}
	s += fmt.Sprintf(", line %d", e.Line)
	if e.Column != "" {
		s += ", column " + e.Column
	}
	if e.HasValue {
		v := e.Value
		if len(v) > 100 { // PostgreSQL's limit_printout_length
			cut := 100
			for cut > 0 && !utf8.RuneStart(v[cut]) {
				cut--
			}
			v = v[:cut] + "..."
		}
		s += fmt.Sprintf(": \"%s\"", v)
	}
	return s
}

// copyColumn builds the Arrow array of one COPY column.
type copyColumn struct {
	name string
	t    types.T
	oid  uint32
	b    array.Builder
	// loc is the session's TimeZone: a timestamptz without offset is
	// local time there (nil = UTC).
	loc *time.Location
	// style is the session's DateStyle and IntervalStyle: a date in
	// numbers only (1/2/2020) is read in its order, an interval's leading
	// minus in sql_standard as every field's.
	style types.Style
	// dataHint is the value bytes the last batch held (variable-width
	// columns): what the next batch reserves.
	dataHint int
	// fast is which of appendBinaryFast's cases the column takes (its
	// builder's type and the column's, decided once: fastKindOf).
	fast fastKind
	// The run of 8- and 4-byte values appendBinaryFast decoded since the
	// builder last took them (the slice of the column's fastKind): the
	// builder takes a run in one AppendValues (a copy, validity set in
	// bulk) instead of value by value. flushRun hands it over before
	// anything else is appended and before the batch is built.
	runI64 []int64
	runI32 []int32
	runF64 []float64
	runTS  []arrow.Timestamp
}

// maxRun bounds a run: the builder takes it when it is this long, so that
// a run takes at most 8 KiB and its slice grows only this far.
const maxRun = 1024

// flushRun appends c's run of decoded values to its builder.
func (c *copyColumn) flushRun() {
	switch c.fast {
	case fastInt64:
		if len(c.runI64) > 0 {
			c.b.(*array.Int64Builder).AppendValues(c.runI64, nil)
			c.runI64 = c.runI64[:0]
		}
	case fastInt32:
		if len(c.runI32) > 0 {
			c.b.(*array.Int32Builder).AppendValues(c.runI32, nil)
			c.runI32 = c.runI32[:0]
		}
	case fastFloat64:
		if len(c.runF64) > 0 {
			c.b.(*array.Float64Builder).AppendValues(c.runF64, nil)
			c.runF64 = c.runF64[:0]
		}
	case fastTimestamp:
		if len(c.runTS) > 0 {
			c.b.(*array.TimestampBuilder).AppendValues(c.runTS, nil)
			c.runTS = c.runTS[:0]
		}
	}
}

// appendNull appends a NULL after c's run.
func (c *copyColumn) appendNull() {
	c.flushRun()
	c.b.AppendNull()
}

// fastKind names the builder (and column type) whose binary values
// appendBinaryFast appends in place.
type fastKind uint8

const (
	fastNone fastKind = iota
	fastInt64
	fastInt32
	fastInt16
	fastFloat64
	fastFloat32
	fastBool
	fastText      // unbounded text: its bytes, once valid UTF-8
	fastTimestamp // microseconds (precision 6 or more)
	fastDate
)

// fastKindOf is the fast path a column of type t built by b takes: the
// conditions appendBinaryFast would otherwise test on every value. The
// column's wire type oid decides too: a fast path reads the binary form
// of one type (int8's, text's ...), and a column stored alike whose
// type's binary form differs (a macaddr's six bytes, a tsvector's, an
// xid's unsigned four bytes in a STRING or integer column) takes the
// slow path, which decodes by oid as the type's receive function does.
func fastKindOf(t types.T, oid uint32, b array.Builder) fastKind {
	switch b.(type) {
	case *array.Int64Builder:
		if t.Kind == types.Int64 && (oid == pgtypes.OIDInt8 || oid == pgtypes.OIDMoney) {
			return fastInt64 // money's binary form is int8's: its cents
		}
	case *array.Int32Builder:
		if oid == pgtypes.OIDInt4 {
			return fastInt32
		}
	case *array.Int16Builder:
		if oid == pgtypes.OIDInt2 {
			return fastInt16
		}
	case *array.Float64Builder:
		if oid == pgtypes.OIDFloat8 {
			return fastFloat64
		}
	case *array.Float32Builder:
		if oid == pgtypes.OIDFloat4 {
			return fastFloat32
		}
	case *array.BooleanBuilder:
		if oid == pgtypes.OIDBool {
			return fastBool
		}
	case *array.StringBuilder:
		if t.Kind == types.String && t.Length == 0 && (oid == pgtypes.OIDText || oid == pgtypes.OIDJSON) {
			return fastText // json's binary form is its text, like text's
		}
	case *array.TimestampBuilder:
		if types.TimestampUnit(t.Precision) == arrow.Microsecond && t.Precision >= 6 &&
			(oid == pgtypes.OIDTimestamp || oid == pgtypes.OIDTimestampTZ) {
			return fastTimestamp
		}
	case *array.Date32Builder:
		if oid == pgtypes.OIDDate {
			return fastDate
		}
	}
	return fastNone
}

// variableData is c's builder of variable-width values, or nil.
func (c *copyColumn) variableData() *array.BinaryBuilder {
	switch b := c.b.(type) {
	case *array.StringBuilder:
		return b.BinaryBuilder
	case *array.BinaryBuilder:
		return b
	}
	return nil
}

// supportedCopyType reports whether COPY FROM can decode values of t.
func supportedCopyType(t types.T) bool {
	switch t.Kind {
	case types.Bool, types.Int8, types.Int16, types.Int32, types.Int64, types.Float32, types.Float64,
		types.Decimal, types.String, types.Char, types.Bytes, types.Binary, types.Date, types.Time,
		types.Timestamp, types.TimestampTZ,
		types.Map, types.Row: // their JSON text (types/nested.go)
		return true
	case types.Array:
		// PostgreSQL's array text ({1,2,NULL}); an array of MAP, ROW or
		// ARRAY values, which PostgreSQL has no array type for, as JSON
		return t.Elem.IsNested() || supportedCopyType(*t.Elem)
	}
	return false
}

func (c *copyColumn) appendText(s string) error {
	if c.t.Kind == types.Array {
		// an array of arrays in braces too: what COPY TO writes of it
		return c.appendArrayText(s)
	}
	// dates and timestamps as date_in reads them: infinity, BC, the
	// whole range, and DateStyle's order for 1/2/2020
	v, err := types.ParseTextStyle(s, c.t, c.loc, time.Now(), c.style)
	if err != nil {
		return err
	}
	return c.appendPhysical(v)
}

// appendArrayText appends an array given in PostgreSQL's array text form:
// what COPY's text and CSV formats carry, and what pgtypes turns a binary
// array into.
func (c *copyColumn) appendArrayText(s string) error {
	v, err := functions.ParseArrayTextStyle(s, c.t, c.loc, c.style)
	if err != nil {
		return err
	}
	return c.appendPhysical(v)
}

// pgEpochMicros is 2000-01-01 (PostgreSQL's epoch) in Unix microseconds.
const pgEpochMicros = 946684800000000

// pgEpochDays is 2000-01-01 in days since 1970-01-01.
const pgEpochDays = 10957

// appendBinary appends a binary value appendBinaryFast declined.
func (c *copyColumn) appendBinary(index int, data []byte) error {
	v, err := pgtypes.DecodeParam(index, c.oid, pgtypes.FormatBinary, data)
	if err != nil {
		if sqlerr.CodeOf(err) == sqlerr.ProtocolViolation {
			// A Bind parameter's framing error; in COPY data it is the
			// value's, as PostgreSQL's CopyReadBinaryAttribute reports it.
			return sqlerr.New(sqlerr.InvalidBinaryRepresentation, "incorrect binary data format")
		}
		return err
	}
	switch x := v.(type) {
	case string: // numeric, text types, time, arrays: their text
		if c.t.Kind == types.Array {
			return c.appendArrayText(x)
		}
		if v, err = types.ParseText(x, c.t); err != nil {
			return err
		}
	case time.Time:
		if v, err = types.TimeToValue(x, c.t); err != nil {
			return err
		}
	case int64:
		if c.t.IsInteger() {
			if lo, hi := types.IntRange(c.t.Kind); x < lo || x > hi {
				return sqlerr.New(sqlerr.NumericValueOutOfRange, "value %d is out of range for type %s", x, c.t.PGName())
			}
		}
	}
	return c.appendPhysical(v)
}

// appendBinaryFast appends the fixed-width binary values of the common
// types straight into their builders (no boxing: this is the hot loop of
// pgx's CopyFrom), by the column's fastKind, decided once. It reports
// false when the slow path must decide, including for every malformed or
// special value (infinities).
func (c *copyColumn) appendBinaryFast(data []byte) bool {
	switch c.fast {
	case fastInt64:
		if len(data) == 8 {
			c.runI64 = append(c.runI64, int64(binary.BigEndian.Uint64(data)))
			if len(c.runI64) == maxRun {
				c.flushRun()
			}
			return true
		}
	case fastInt32:
		if len(data) == 4 {
			c.runI32 = append(c.runI32, int32(binary.BigEndian.Uint32(data)))
			if len(c.runI32) == maxRun {
				c.flushRun()
			}
			return true
		}
	case fastInt16:
		if len(data) == 2 {
			c.b.(*array.Int16Builder).Append(int16(binary.BigEndian.Uint16(data)))
			return true
		}
	case fastFloat64:
		if len(data) == 8 {
			c.runF64 = append(c.runF64, math.Float64frombits(binary.BigEndian.Uint64(data)))
			if len(c.runF64) == maxRun {
				c.flushRun()
			}
			return true
		}
	case fastFloat32:
		if len(data) == 4 {
			c.b.(*array.Float32Builder).Append(math.Float32frombits(binary.BigEndian.Uint32(data)))
			return true
		}
	case fastBool:
		if len(data) == 1 && data[0] <= 1 {
			c.b.(*array.BooleanBuilder).Append(data[0] == 1)
			return true
		}
	case fastText:
		if validUTF8(data) {
			// the bytes themselves: StringBuilder.Append would take a
			// string, one allocation and copy per value more; in place
			// while the batch's reserved rows and bytes last (reserve)
			vb := c.b.(*array.StringBuilder).BinaryBuilder
			if vb.Len() < vb.Cap() && vb.DataLen()+len(data) <= vb.DataCap() {
				vb.UnsafeAppend(data)
			} else {
				vb.Append(data)
			}
			return true
		}
	case fastTimestamp:
		if len(data) == 8 {
			us := int64(binary.BigEndian.Uint64(data))
			if us > math.MinInt64/2 && us < math.MaxInt64/2 { // not ±infinity, no overflow
				c.runTS = append(c.runTS, arrow.Timestamp(us+pgEpochMicros))
				if len(c.runTS) == maxRun {
					c.flushRun()
				}
				return true
			}
		}
	case fastDate:
		if len(data) == 4 {
			d := int32(binary.BigEndian.Uint32(data))
			if d > math.MinInt32/2 && d < math.MaxInt32/2 {
				c.b.(*array.Date32Builder).Append(arrow.Date32(d + pgEpochDays))
				return true
			}
		}
	}
	return false
}

// validUTF8 is utf8.Valid with a shortcut for ASCII, eight bytes at a
// time: COPY's text values are mostly short and ASCII, where utf8.Valid's
// setup costs more than the check.
func validUTF8(b []byte) bool {
	p := b
	for len(p) >= 8 {
		if binary.LittleEndian.Uint64(p)&0x8080808080808080 != 0 {
			return utf8.Valid(b)
		}
		p = p[8:]
	}
	for _, ch := range p {
		if ch >= utf8.RuneSelf {
			return utf8.Valid(b)
		}
	}
	return true
}

// appendPhysical appends a value in types/value.go's representation. A
// BINARY(n) value must have exactly n bytes (the Arrow builder would
// otherwise misalign the column).
func (c *copyColumn) appendPhysical(v any) error {
	c.flushRun()
	if x, ok := v.([]byte); ok {
		if err := types.CheckBinaryLength(x, c.t); err != nil {
			return err
		}
	}
	return types.AppendValue(c.b, v)
}

// valueSpan is where a binary tuple's value is in the buffer: b[at:end],
// or NULL when at is -1.
type valueSpan struct{ at, end int }

// copyDecoder turns COPY FROM data into batches.
type copyDecoder struct {
	opts   CopyOptions
	cols   []*copyColumn
	schema *arrow.Schema
	mem    memory.Allocator

	buf     []byte // received, not yet consumed bytes
	line    int    // lines (text, CSV) or tuples (binary) consumed, including a header
	rows    int    // rows in the builders
	header  bool   // the header (line or binary header) is still to be read
	ended   bool   // the end marker (\. or the binary trailer) was seen
	fields  [][]byte
	spans   []valueSpan // a binary tuple's values
	scratch []byte
	// rowsHint is how many rows the last batch held: the next batch's
	// builders reserve that many at its first row, so that a long COPY
	// fills each batch's buffers in place instead of growing them by
	// doubling (a copy and a clear of every buffer per doubling).
	rowsHint int
}

func newCopyDecoder(opts CopyOptions, cols []ResultColumn, mem memory.Allocator) (*copyDecoder, error) {
	switch opts.Format {
	case "text", "csv", "binary":
	default:
		return nil, sqlerr.New(sqlerr.FeatureNotSupported, "COPY format %q is not supported", opts.Format)
	}
	if opts.Format != "binary" && (len(opts.Delimiter) != 1 || (opts.Format == "csv" && (len(opts.Quote) != 1 || len(opts.Escape) != 1))) {
		return nil, sqlerr.New(sqlerr.InternalError, "COPY options are not resolved")
	}
	d := &copyDecoder{opts: opts, mem: mem, header: opts.Header || opts.Format == "binary"}
	fields := make([]arrow.Field, len(cols))
	for i, col := range cols {
		if !supportedCopyType(col.Type) {
			d.release()
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "COPY FROM into a column of type %s (column %q) is not supported", col.Type, col.Name)
		}
		at := col.Type.ArrowType()
		fields[i] = arrow.Field{Name: col.Name, Type: at, Nullable: true}
		c := &copyColumn{name: col.Name, t: col.Type, oid: pgtypes.ParamOIDOf(col.Type), b: array.NewBuilder(mem, at)}
		c.fast = fastKindOf(c.t, c.oid, c.b)
		d.cols = append(d.cols, c)
	}
	d.schema = arrow.NewSchema(fields, nil)
	return d, nil
}

// setLocation sets the zone text timestamptz values are read in and the
// DateStyle order text dates are read in.
func (d *copyDecoder) setLocation(loc *time.Location, st types.Style) {
	for _, c := range d.cols {
		c.loc, c.style = loc, st
	}
}

func (d *copyDecoder) release() {
	for _, c := range d.cols {
		c.b.Release()
	}
	d.cols = nil
}

// full reports whether a batch should be taken before decoding more.
func (d *copyDecoder) full() bool { return d.rows >= copyBatchRows }

// reserve sizes the builders of a batch about to start for as many rows
// and value bytes as the last batch held (nothing for the first batch,
// whose size is not known: a short COPY reserves nothing it does not use).
func (d *copyDecoder) reserve() {
	if d.rowsHint == 0 {
		return
	}
	for _, c := range d.cols {
		c.b.Reserve(d.rowsHint)
		if vb := c.variableData(); vb != nil && c.dataHint > 0 {
			vb.ReserveData(c.dataHint)
		}
	}
}

// batch returns the rows decoded so far as one batch, or nil when none.
func (d *copyDecoder) batch() arrow.RecordBatch {
	if d.rows == 0 {
		return nil
	}
	arrs := make([]arrow.Array, len(d.cols))
	for i, c := range d.cols {
		if vb := c.variableData(); vb != nil {
			c.dataHint = vb.DataLen()
		}
		c.flushRun()
		arrs[i] = c.b.NewArray()
	}
	d.rowsHint = d.rows
	rec := array.NewRecordBatch(d.schema, arrs, int64(d.rows))
	for _, a := range arrs {
		a.Release()
	}
	d.rows = 0
	return rec
}

func (d *copyDecoder) lineError(err *sqlerr.Error, raw []byte) error {
	return &CopyDataError{Err: err, Line: d.line, Value: string(raw), HasValue: true}
}

func (d *copyDecoder) valueError(err error, col int, raw []byte, showValue bool) error {
	e := sqlerr.As(err)
	if e == nil {
		e = sqlerr.New(sqlerr.InternalError, "internal error")
	}
	return &CopyDataError{Err: e, Line: d.line, Column: d.cols[col].name, Value: string(raw), HasValue: showValue}
}

// decode decodes the complete rows buffered in d.buf (at EOF, a last line
// without newline too). It stops early, keeping the rest buffered, when a
// batch is full. After an error the decoder must not be used again: the
// failed row may be half-appended to the builders.
func (d *copyDecoder) decode(atEOF bool) error {
	consumed := 0
	defer func() {
		// Keep the unconsumed tail at the start of buf.
		n := copy(d.buf, d.buf[consumed:])
		d.buf = d.buf[:n]
	}()
	for !d.full() {
		rest := d.buf[consumed:]
		if d.ended {
			// PostgreSQL ignores whatever follows the end marker in text
			// formats; after the binary trailer it is an error.
			if d.opts.Format == "binary" && len(rest) > 0 {
				return &CopyDataError{Err: sqlerr.New(codeBadCopyFileFormat, "received copy data after EOF marker"), Line: d.line}
			}
			consumed = len(d.buf)
			return nil
		}
		if len(rest) == 0 {
			return nil
		}
		if d.rows == 0 {
			d.reserve()
		}
		var n int
		var err error
		if d.opts.Format == "binary" {
			n, err = d.binaryRecord(rest, atEOF)
		} else {
			n, err = d.textRecord(rest, atEOF)
		}
		if err != nil {
			return err
		}
		if n == 0 {
			return nil // need more data
		}
		consumed += n
	}
	return nil
}

// --- text and CSV ---

// textRecord decodes one line (one CSV record) from b; it returns 0 when b
// holds no complete record and more data may come.
func (d *copyDecoder) textRecord(b []byte, atEOF bool) (int, error) {
	csv := d.opts.Format == "csv"
	end, next := -1, 0
	if csv {
		end, next = d.csvRecordEnd(b)
	} else if i := bytes.IndexByte(b, '\n'); i >= 0 {
		end, next = i, i+1
	}
	if end < 0 {
		if !atEOF {
			return 0, nil
		}
		end, next = len(b), len(b) // a last line without newline
	}
	line := b[:end]
	if len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	d.line++
	if string(line) == `\.` {
		d.ended = true
		return next, nil
	}
	if d.header {
		d.header = false
		return next, nil
	}
	if !utf8.Valid(line) {
		return 0, d.lineError(sqlerr.InvalidUTF8(line), nil)
	}
	var err error
	if csv {
		err = d.csvFields(line)
	} else {
		err = d.textFields(line)
	}
	if err != nil {
		return 0, err
	}
	return next, nil
}

// textFields splits a text-format line and appends its values.
func (d *copyDecoder) textFields(line []byte) error {
	delim := d.opts.Delimiter[0]
	d.fields = d.fields[:0]
	start := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++ // the escaped byte is data, even a delimiter
		case delim:
			d.fields = append(d.fields, line[start:i])
			start = i + 1
		}
	}
	d.fields = append(d.fields, line[start:])
	if err := d.checkFieldCount(line); err != nil {
		return err
	}
	for i, raw := range d.fields {
		c := d.cols[i]
		if string(raw) == d.opts.Null { // compared before de-escaping, as PostgreSQL does
			c.appendNull()
			continue
		}
		v := unescapeCopyText(d.scratch[:0], raw)
		d.scratch = v
		if !utf8.Valid(v) {
			return d.valueError(sqlerr.InvalidUTF8(v), i, raw, false)
		}
		if err := c.appendText(string(v)); err != nil {
			return d.valueError(err, i, v, true)
		}
	}
	d.rows++
	return nil
}

func (d *copyDecoder) checkFieldCount(line []byte) error {
	if len(d.cols) == 0 && len(d.fields) == 1 && len(d.fields[0]) == 0 {
		d.fields = d.fields[:0] // COPY t () FROM: empty lines
	}
	if len(d.fields) > len(d.cols) {
		return d.lineError(sqlerr.New(codeBadCopyFileFormat, "extra data after last expected column"), line)
	}
	if len(d.fields) < len(d.cols) {
		return d.lineError(sqlerr.New(codeBadCopyFileFormat, "missing data for column \"%s\"", d.cols[len(d.fields)].name), line)
	}
	return nil
}

// unescapeCopyText appends the de-escaped form of a text-format field.
func unescapeCopyText(dst, raw []byte) []byte {
	if bytes.IndexByte(raw, '\\') < 0 {
		return append(dst, raw...)
	}
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' || i+1 >= len(raw) {
			dst = append(dst, c)
			continue
		}
		i++
		c = raw[i]
		switch c {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'v':
			dst = append(dst, '\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := int(c - '0')
			for k := 0; k < 2 && i+1 < len(raw) && raw[i+1] >= '0' && raw[i+1] <= '7'; k++ {
				i++
				v = v*8 + int(raw[i]-'0')
			}
			dst = append(dst, byte(v))
		case 'x':
			if i+1 < len(raw) && isHexDigit(raw[i+1]) {
				i++
				v := hexDigit(raw[i])
				if i+1 < len(raw) && isHexDigit(raw[i+1]) {
					i++
					v = v*16 + hexDigit(raw[i])
				}
				dst = append(dst, byte(v))
			} else {
				dst = append(dst, 'x')
			}
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// csvRecordEnd finds the newline ending the CSV record at the start of b,
// skipping newlines inside quotes: it returns the record's end and the
// offset after the newline, or -1 when b holds no complete record.
func (d *copyDecoder) csvRecordEnd(b []byte) (int, int) {
	quote, escape := d.opts.Quote[0], d.opts.Escape[0]
	inQuote := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inQuote && c == escape && escape != quote && i+1 < len(b) && (b[i+1] == quote || b[i+1] == escape):
			i++
		case inQuote && c == escape && escape != quote && i+1 == len(b):
			return -1, 0 // the escaped byte has not arrived yet
		case c == quote:
			inQuote = !inQuote // a doubled quote toggles twice
		case !inQuote && c == '\n':
			return i, i + 1
		}
	}
	return -1, 0
}

// csvFields splits a CSV record and appends its values.
func (d *copyDecoder) csvFields(line []byte) error {
	delim, quote, escape := d.opts.Delimiter[0], d.opts.Quote[0], d.opts.Escape[0]
	type field struct {
		v      []byte
		quoted bool
	}
	var fs []field
	buf := d.scratch[:0]
	i := 0
	for {
		start := len(buf)
		quoted := false
		inQuote := false
		for i < len(line) {
			c := line[i]
			if inQuote {
				switch {
				case c == escape && i+1 < len(line) && (line[i+1] == quote || line[i+1] == escape) && (escape != quote || line[i+1] == quote):
					buf = append(buf, line[i+1])
					i += 2
					continue
				case c == quote:
					inQuote = false
				default:
					buf = append(buf, c)
				}
				i++
				continue
			}
			if c == delim {
				break
			}
			if c == quote {
				inQuote, quoted = true, true
			} else {
				buf = append(buf, c)
			}
			i++
		}
		if inQuote {
			return d.lineError(sqlerr.New(codeBadCopyFileFormat, "unterminated CSV quoted field"), line)
		}
		fs = append(fs, field{v: buf[start:len(buf):len(buf)], quoted: quoted})
		if i >= len(line) {
			break
		}
		i++ // the delimiter
	}
	d.scratch = buf
	d.fields = d.fields[:0]
	for _, f := range fs {
		d.fields = append(d.fields, f.v)
	}
	if err := d.checkFieldCount(line); err != nil {
		return err
	}
	for k, f := range fs {
		c := d.cols[k]
		if !f.quoted && string(f.v) == d.opts.Null {
			c.appendNull()
			continue
		}
		if err := c.appendText(string(f.v)); err != nil {
			return d.valueError(err, k, f.v, true)
		}
	}
	d.rows++
	return nil
}

// --- binary ---

// binaryRecord decodes the binary header or one tuple (or the trailer) from
// b; it returns 0 when b does not hold all of it yet.
func (d *copyDecoder) binaryRecord(b []byte, atEOF bool) (int, error) {
	incomplete := func() (int, error) {
		if atEOF {
			msg := "unexpected EOF in COPY data"
			if d.header {
				msg = "COPY file signature not recognized"
			}
			return 0, &CopyDataError{Err: sqlerr.New(codeBadCopyFileFormat, "%s", msg), Line: d.line}
		}
		return 0, nil
	}
	if d.header {
		if len(b) < len(binaryCopySignature) {
			if !bytes.HasPrefix(binaryCopySignature, b) {
				return 0, &CopyDataError{Err: sqlerr.New(codeBadCopyFileFormat, "COPY file signature not recognized"), Line: d.line}
			}
			return incomplete()
		}
		if !bytes.Equal(b[:len(binaryCopySignature)], binaryCopySignature) {
			return 0, &CopyDataError{Err: sqlerr.New(codeBadCopyFileFormat, "COPY file signature not recognized"), Line: d.line}
		}
		n := len(binaryCopySignature)
		if len(b) < n+8 {
			return incomplete()
		}
		flags := binary.BigEndian.Uint32(b[n:])
		if flags&(1<<16) != 0 {
			return 0, &CopyDataError{Err: sqlerr.New(codeBadCopyFileFormat, "invalid COPY file header (WITH OIDS)"), Line: d.line}
		}
		if flags&^(1<<16)>>16 != 0 {
			return 0, &CopyDataError{Err: sqlerr.New(codeBadCopyFileFormat, "unrecognized critical flags in COPY file header"), Line: d.line}
		}
		ext := int64(binary.BigEndian.Uint32(b[n+4:]))
		if ext > int64(len(b)-n-8) {
			if ext > 1<<20 {
				return 0, &CopyDataError{Err: sqlerr.New(codeBadCopyFileFormat, "invalid COPY file header (wrong length)"), Line: d.line}
			}
			return incomplete()
		}
		d.header = false
		return n + 8 + int(ext), nil
	}
	if len(b) < 2 {
		return incomplete()
	}
	count := int16(binary.BigEndian.Uint16(b))
	if count == -1 {
		d.line++
		d.ended = true
		return 2, nil
	}
	if int(count) != len(d.cols) {
		d.line++
		return 0, &CopyDataError{Err: sqlerr.New(codeBadCopyFileFormat, "row field count is %d, expected %d", count, len(d.cols)), Line: d.line}
	}
	// Check that the whole tuple is here before decoding any of it, and
	// note where its values are in d.spans (offsets, not slices: no
	// pointer stored, no write barrier).
	d.spans = d.spans[:0]
	p := 2
	for range int(count) {
		if len(b)-p < 4 {
			return incomplete()
		}
		n := int32(binary.BigEndian.Uint32(b[p : p+4]))
		p += 4
		if n < -1 {
			d.line++
			return 0, &CopyDataError{Err: sqlerr.New(codeBadCopyFileFormat, "invalid field size"), Line: d.line}
		}
		if n < 0 {
			d.spans = append(d.spans, valueSpan{at: -1})
			continue
		}
		if len(b)-p < int(n) {
			return incomplete()
		}
		d.spans = append(d.spans, valueSpan{at: p, end: p + int(n)})
		p += int(n)
	}
	d.line++
	for k, sp := range d.spans[:len(d.cols)] {
		c := d.cols[k]
		if sp.at < 0 {
			c.appendNull()
			continue
		}
		v := b[sp.at:sp.end:sp.end]
		if c.appendBinaryFast(v) {
			continue
		}
		if err := c.appendBinary(k+1, v); err != nil {
			return 0, d.valueError(err, k, nil, false)
		}
	}
	d.rows++
	return p, nil
}
