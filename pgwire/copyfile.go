package pgwire

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// COPY's text, CSV and binary formats over an io.Reader / io.Writer instead
// of the connection: server-side COPY FROM 'file' / TO 'file' and the
// read_csv table function use the decoder and encoder of COPY FROM STDIN /
// TO STDOUT, so a file and a client's stream mean the same.

// copyReadChunk is how much of a file is read at a time.
const copyReadChunk = 256 << 10

// CopyReader is a BatchSource decoding COPY data read from an io.Reader.
type CopyReader struct {
	r   io.Reader
	dec *copyDecoder
	eof bool
	err error
}

// NewCopyReader decodes r in opts' format (text, csv or binary) into
// batches of cols; loc is the zone text timestamptz values are read in,
// st the DateStyle (its order reads text dates) and IntervalStyle.
// Release it when done.
func NewCopyReader(r io.Reader, opts CopyOptions, cols []ResultColumn, mem memory.Allocator, loc *time.Location, st types.Style) (*CopyReader, error) {
	dec, err := newCopyDecoder(opts, cols, mem)
	if err != nil {
		return nil, err
	}
	dec.setLocation(loc, st)
	return &CopyReader{r: r, dec: dec}, nil
}

// Release frees the decoder's builders.
func (s *CopyReader) Release() { s.dec.release() }

// Next implements BatchSource.
func (s *CopyReader) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if s.err != nil {
		return nil, s.err
	}
	for {
		if s.dec.full() {
			return s.dec.batch(), nil
		}
		if err := s.dec.decode(s.eof); err != nil {
			s.err = err
			return nil, err
		}
		if s.dec.full() {
			continue
		}
		if s.eof {
			return s.dec.batch(), nil
		}
		if err := ctx.Err(); err != nil {
			s.err = err
			return nil, err
		}
		n := len(s.dec.buf)
		if cap(s.dec.buf)-n < copyReadChunk {
			grown := make([]byte, n, n+copyReadChunk)
			copy(grown, s.dec.buf)
			s.dec.buf = grown
		}
		m, err := s.r.Read(s.dec.buf[n : n+copyReadChunk])
		s.dec.buf = s.dec.buf[:n+m]
		if errors.Is(err, io.EOF) {
			s.eof = true
		} else if err != nil {
			s.err = sqlerr.Wrap(err, sqlerr.IOError, "could not read COPY file: %v", err)
			return nil, s.err
		}
	}
}

// CopyWriter encodes batches as COPY TO does, in text, CSV or binary, to an
// io.Writer.
type CopyWriter struct {
	w       io.Writer
	fmt     copyWriter
	enc     *pgtypes.RowEncoder
	cols    []ResultColumn
	out     []byte
	scratch []byte
	started bool
	rows    int64
}

// NewCopyWriter writes rows of cols in opts' format to w; loc renders
// zoned values, st the text of dates, timestamps, intervals and floats.
func NewCopyWriter(w io.Writer, opts CopyOptions, cols []ResultColumn, loc *time.Location, st types.Style) (*CopyWriter, error) {
	var formats []int16
	if opts.Format == "binary" {
		formats = []int16{pgtypes.FormatBinary}
	}
	enc, err := pgtypes.NewRowEncoderStyle(columnTypes(cols), formats, loc, st)
	if err != nil {
		return nil, err
	}
	return &CopyWriter{w: w, fmt: copyWriter{opts: opts}, enc: enc, cols: cols}, nil
}

func (cw *CopyWriter) start() {
	if cw.started {
		return
	}
	cw.started = true
	switch {
	case cw.fmt.opts.Format == "binary":
		cw.out = append(cw.out, binaryCopySignature...)
		cw.out = append(cw.out, 0, 0, 0, 0, 0, 0, 0, 0) // flags, header extension length
	case cw.fmt.opts.Header:
		cw.out = cw.fmt.appendHeader(cw.out, cw.cols)
	}
}

func (cw *CopyWriter) flush(min int) error {
	if len(cw.out) < min {
		return nil
	}
	if _, err := cw.w.Write(cw.out); err != nil {
		return sqlerr.Wrap(err, sqlerr.IOError, "could not write COPY file: %v", err)
	}
	cw.out = cw.out[:0]
	return nil
}

// Write encodes the batch's rows.
func (cw *CopyWriter) Write(b arrow.RecordBatch) error {
	cw.start()
	if err := cw.enc.Reset(b); err != nil {
		return err
	}
	n := int(b.NumRows())
	for r := 0; r < n; r++ {
		if cw.fmt.opts.Format == "binary" {
			cw.out = cw.enc.AppendRowFields(cw.out, r)
		} else {
			cw.out, cw.scratch = cw.fmt.appendRow(cw.out, cw.scratch, cw.enc, len(cw.cols), r)
		}
		if err := cw.flush(copyReadChunk); err != nil {
			return err
		}
	}
	cw.rows += int64(n)
	return nil
}

// Close writes the end of the data (the binary trailer) and flushes.
func (cw *CopyWriter) Close() error {
	cw.start()
	if cw.fmt.opts.Format == "binary" {
		cw.out = append(cw.out, 0xff, 0xff)
	}
	return cw.flush(0)
}

// Rows is how many rows were written.
func (cw *CopyWriter) Rows() int64 { return cw.rows }
