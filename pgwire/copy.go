package pgwire

import (
	"context"
	"encoding/binary"
	"errors"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// COPY sub-protocol: CopyInResponse / CopyData / CopyDone / CopyFail for
// COPY FROM STDIN, CopyOutResponse / CopyData / CopyDone for COPY TO STDOUT.

// asCopy returns st as a COPY statement. A Statement type may implement
// CopyStatement for every statement it prepares (the engine's does); only
// those with a format are COPY statements.
func asCopy(st Statement) (CopyStatement, bool) {
	cs, ok := st.(CopyStatement)
	if !ok || cs.CopyOptions().Format == "" {
		return nil, false
	}
	return cs, true
}

func copyFormatCode(opts CopyOptions) byte {
	if opts.Format == "binary" {
		return 1
	}
	return 0
}

func copyColumnFormats(opts CopyOptions, n int) []uint16 {
	f := make([]uint16, n)
	for i := range f {
		f[i] = uint16(copyFormatCode(opts))
	}
	return f
}

// runCopy runs a COPY statement under the simple or the extended protocol.
func (c *conn) runCopy(ctx context.Context, cs CopyStatement, params []any) error {
	if cs.CopyIn() {
		return c.runCopyIn(ctx, cs)
	}
	return c.runCopyOut(ctx, cs, params)
}

const codeConnectionFailure sqlerr.Code = "08006"

// errCopyConnLost ends the connection after a FATAL error met during COPY.
var errCopyConnLost = errors.New("pgwire: connection ended during COPY")

// runCopyIn receives the client's data and hands the decoded batches to the
// statement, which writes all of them or nothing.
func (c *conn) runCopyIn(ctx context.Context, cs CopyStatement) error {
	opts := cs.CopyOptions()
	cols := cs.CopyColumns()
	dec, err := newCopyDecoder(opts, cols, memory.DefaultAllocator)
	if err != nil {
		return err
	}
	defer dec.release()
	dec.setLocation(c.location(), c.style())
	c.send(&pgproto3.CopyInResponse{OverallFormat: copyFormatCode(opts), ColumnFormatCodes: copyColumnFormats(opts, len(cols))})
	if err := c.flush(); err != nil {
		return err
	}
	if c.rd == nil {
		// The data is read ahead by a reader goroutine while the
		// statement decodes and writes; it hands the socket back after
		// CopyDone or CopyFail.
		c.startReader(true)
	}
	src := &copyInSource{c: c, dec: dec, prog: c.copyProgress(cs, true)}
	defer src.prog.Done()
	defer c.dropSpareBodies()
	tag, err := cs.CopyFrom(ctx, src)
	if src.fatal != nil {
		c.fatal(src.fatal)
		c.writeErr = errCopyConnLost
		return nil
	}
	if src.lost {
		c.writeErr = errCopyConnLost
		return nil
	}
	if err != nil {
		return err
	}
	c.lastTag = tag
	c.send(&pgproto3.CommandComplete{CommandTag: []byte(tag)})
	return nil
}

// copyInSource is the BatchSource of COPY FROM STDIN: it reads the client's
// CopyData messages from the connection's frames and decodes them.
type copyInSource struct {
	c       *conn
	dec     *copyDecoder
	gotDone bool  // CopyDone received
	err     error // the error that ended the data, returned again
	fatal   *sqlerr.Error
	lost    bool
	prog    CopyProgress // pg_stat_progress_copy
}

// counted reports a decoded batch's rows as processed.
func (s *copyInSource) counted(b arrow.RecordBatch) arrow.RecordBatch {
	if b != nil {
		s.prog.Add(0, b.NumRows())
	}
	return b
}

func (s *copyInSource) fail(err error) (arrow.RecordBatch, error) {
	s.err = err
	return nil, err
}

func (s *copyInSource) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if s.err != nil {
		return nil, s.err
	}
	for {
		if s.dec.full() {
			return s.counted(s.dec.batch()), nil
		}
		// Decode what is buffered (a full batch may have stopped it).
		if err := s.dec.decode(s.gotDone); err != nil {
			return s.fail(err)
		}
		if s.dec.full() {
			continue
		}
		if s.gotDone {
			return s.counted(s.dec.batch()), nil // nil once everything was handed over
		}
		var f frame
		var ok bool
		select {
		case f, ok = <-s.c.frames:
		case <-ctx.Done():
			return s.fail(ctx.Err())
		}
		if !ok {
			s.lost = true
			return s.fail(sqlerr.New(codeConnectionFailure, "unexpected EOF on client connection during COPY"))
		}
		if f.err != nil {
			s.fatal = f.err
			s.fatal.Severity = "FATAL"
			return s.fail(f.err)
		}
		switch f.typ {
		case 'd':
			s.dec.buf = append(s.dec.buf, f.body...)
			s.prog.Add(int64(len(f.body)), 0)
			s.c.returnBody(f.body)
		case 'c':
			s.gotDone = true
		case 'f':
			msg, _ := cString(f.body)
			// PostgreSQL's CONTEXT names the line it was reading: the one
			// after the last complete line.
			return s.fail(&CopyDataError{Err: sqlerr.New(sqlerr.QueryCanceled, "COPY from stdin failed: %s", msg), Line: s.dec.line + 1})
		case 'H', 'S':
			// Flush and Sync are ignored during COPY IN, as PostgreSQL does.
		case 'X':
			s.lost = true
			return s.fail(sqlerr.New(codeConnectionFailure, "terminating connection during COPY"))
		default:
			return s.fail(sqlerr.New(sqlerr.ProtocolViolation, "unexpected message type 0x%02X during COPY from stdin", f.typ))
		}
	}
}

// spareBodies is how many CopyData bodies a connection keeps for reuse:
// as many as the reader may have read ahead (its channel's frames and the
// one it holds), so that a COPY allocates about that many, not one per
// message (a 64 KiB allocation, cleared, per message was a tenth of the
// server's CPU over a COPY into a log table).
const spareBodies = 6

// maxSpareBody bounds the bodies kept: a client's CopyData messages may be
// as long as MaxMessageSize, which six spares must not pin.
const maxSpareBody = 1 << 20

// returnBody gives the reader a CopyData body back once its bytes were
// copied out (they are in the decoder's buffer): nothing else holds it.
// Bodies of less than 1 KiB (psql's, a line each) are not worth keeping.
func (c *conn) returnBody(b []byte) {
	if c.spareBodies == nil || cap(b) < 1<<10 || cap(b) > maxSpareBody {
		return
	}
	select {
	case c.spareBodies <- b[:0]:
	default: // enough spares: this one goes to the GC
	}
}

// spareBody is a returned body of n bytes for the reader's next message,
// or nil (none spare, or too small: the caller allocates). Its old bytes
// are overwritten by the message's before anyone reads them.
func (c *conn) spareBody(n int) []byte {
	if c.spareBodies == nil {
		return nil
	}
	select {
	case b := <-c.spareBodies:
		if cap(b) >= n {
			return b[:n]
		}
	default:
	}
	return nil
}

// dropSpareBodies lets the GC have the spare bodies once a COPY ended, so
// that an idle connection holds none.
func (c *conn) dropSpareBodies() {
	for c.spareBodies != nil {
		select {
		case <-c.spareBodies:
		default:
			return
		}
	}
}

// runCopyOut executes the statement and sends its rows as CopyData.
func (c *conn) runCopyOut(ctx context.Context, cs CopyStatement, params []any) error {
	opts := cs.CopyOptions()
	cols := cs.Columns()
	var formats []int16
	if opts.Format == "binary" {
		formats = []int16{pgtypes.FormatBinary}
	}
	enc, err := pgtypes.NewRowEncoderStyle(columnTypes(cols), formats, c.location(), c.style())
	if err != nil {
		return err
	}
	c.nameRegs(ctx, enc)
	res, err := cs.Execute(ctx, params)
	if err != nil {
		return err
	}
	defer res.Close()
	defer c.endStream() // stream.go
	c.send(&pgproto3.CopyOutResponse{OverallFormat: copyFormatCode(opts), ColumnFormatCodes: copyColumnFormats(opts, len(cols))})
	w := copyWriter{opts: opts}
	// PostgreSQL sends the binary header in the same CopyData as the first
	// tuple (or the trailer when there is none), not on its own.
	binaryHeader := opts.Format == "binary"
	beginMessage := func() int {
		msg := c.beginCopyData()
		if binaryHeader {
			c.out = append(c.out, binaryCopySignature...)
			c.out = append(c.out, 0, 0, 0, 0, 0, 0, 0, 0) // flags, header extension length
			binaryHeader = false
		}
		return msg
	}
	switch {
	case opts.Header && opts.Format != "binary":
		msg := c.beginCopyData()
		c.out = w.appendHeader(c.out, cols)
		c.endCopyData(msg)
	}
	rows := 0
	var scratch []byte
	prog := c.copyProgress(cs, false)
	defer prog.Done()
	for {
		if err := c.beforeStreamWait(res); err != nil { // stream.go
			return err
		}
		sent := len(c.out) + int(c.bytesOut)
		b, err := res.Next(ctx)
		if err != nil {
			return err
		}
		c.sendRuntimeNotices() // what the batch's functions raised, before its rows
		if b == nil {
			break
		}
		if err := enc.Reset(b); err != nil {
			b.Release()
			return err
		}
		n := int(b.NumRows())
		for r := 0; r < n; r++ {
			msg := beginMessage()
			if opts.Format == "binary" {
				c.out = enc.AppendRowFields(c.out, r)
			} else {
				c.out, scratch = w.appendRow(c.out, scratch, enc, len(cols), r)
			}
			if err := c.checkRowSize(len(c.out) - msg); err != nil {
				c.out = c.out[:msg]
				b.Release()
				return err
			}
			c.endCopyData(msg)
			if len(c.out) >= c.srv.cfg.FlushThreshold {
				if err := c.flush(); err != nil {
					b.Release()
					return err
				}
			}
		}
		rows += n
		prog.Add(int64(len(c.out)+int(c.bytesOut)-sent), int64(n))
		b.Release()
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if opts.Format == "binary" {
		msg := beginMessage()
		c.out = append(c.out, 0xff, 0xff)
		c.endCopyData(msg)
	}
	c.send(&pgproto3.CopyDone{})
	c.lastTag = "COPY " + strconv.Itoa(rows)
	c.send(&pgproto3.CommandComplete{CommandTag: []byte(c.lastTag)})
	return nil
}

// beginCopyData starts a CopyData message in the output buffer and returns
// its start; endCopyData fills in its length.
func (c *conn) beginCopyData() int {
	at := len(c.out)
	c.out = append(c.out, 'd', 0, 0, 0, 0)
	return at
}

func (c *conn) endCopyData(at int) {
	binary.BigEndian.PutUint32(c.out[at+1:], uint32(len(c.out)-at-1))
}

// copyWriter renders one text value the way COPY TO does in text or CSV.
type copyWriter struct{ opts CopyOptions }

// appendHeader appends the CSV header line naming cols.
func (w copyWriter) appendHeader(dst []byte, cols []ResultColumn) []byte {
	for i, col := range cols {
		if i > 0 {
			dst = append(dst, w.opts.Delimiter...)
		}
		dst = w.appendValue(dst, []byte(col.Name), len(cols) == 1)
	}
	return append(dst, '\n')
}

// appendRow appends row r of enc's batch as a text or CSV line (scratch
// is reused between calls and returned).
func (w copyWriter) appendRow(dst, scratch []byte, enc *pgtypes.RowEncoder, ncols, r int) ([]byte, []byte) {
	for i := 0; i < ncols; i++ {
		if i > 0 {
			dst = append(dst, w.opts.Delimiter...)
		}
		var ok bool
		scratch, ok = enc.AppendField(scratch[:0], i, r)
		if !ok {
			dst = append(dst, w.opts.Null...)
			continue
		}
		dst = w.appendValue(dst, scratch, ncols == 1)
	}
	return append(dst, '\n'), scratch
}

func (w copyWriter) appendValue(dst, v []byte, singleColumn bool) []byte {
	if w.opts.Format == "csv" {
		return w.appendCSV(dst, v, singleColumn)
	}
	delim := w.opts.Delimiter[0]
	for _, ch := range v {
		switch ch {
		case '\\':
			dst = append(dst, '\\', '\\')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\v':
			dst = append(dst, '\\', 'v')
		default:
			if ch == delim {
				dst = append(dst, '\\')
			}
			dst = append(dst, ch)
		}
	}
	return dst
}

// appendCSV quotes a value when PostgreSQL's CopyAttributeOutCSV would: it
// contains the delimiter, the quote, CR or LF, equals the NULL string, or is
// \. alone in a one-column row.
func (w copyWriter) appendCSV(dst, v []byte, singleColumn bool) []byte {
	delim, quote, escape := w.opts.Delimiter[0], w.opts.Quote[0], w.opts.Escape[0]
	needQuote := string(v) == w.opts.Null || (singleColumn && string(v) == `\.`)
	if !needQuote {
		for _, ch := range v {
			if ch == delim || ch == quote || ch == '\n' || ch == '\r' {
				needQuote = true
				break
			}
		}
	}
	if !needQuote {
		return append(dst, v...)
	}
	dst = append(dst, quote)
	for _, ch := range v {
		if ch == quote || ch == escape {
			dst = append(dst, escape)
		}
		dst = append(dst, ch)
	}
	return append(dst, quote)
}
