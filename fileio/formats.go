package fileio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// The formats of server-side COPY besides PostgreSQL's own (text, csv,
// binary, which pgwire's COPY decoder and encoder handle).
const (
	Parquet = "parquet"
	Arrow   = "arrow"
)

// batchRows is how many rows a Parquet read hands over at a time: the COPY
// decoder's batch size order, so that a file streams in bounded memory.
const batchRows = 64 << 10

// Reader yields the record batches of a file in its own schema.
type Reader interface {
	Schema() *arrow.Schema
	// Next returns the next batch (the caller releases it), nil at the end.
	Next(ctx context.Context) (arrow.RecordBatch, error)
	Close() error
}

// badFile is the error of a file that is not what its format says.
func badFile(name, format string, err error) *sqlerr.Error {
	return sqlerr.Wrap(err, BadCopyFileFormat, "file \"%s\" is not a valid %s file: %s", name, formatTitle(format), cleanCause(err))
}

func formatTitle(f string) string {
	switch f {
	case Parquet:
		return "Parquet"
	case Arrow:
		return "Arrow IPC"
	}
	return strings.ToUpper(f)
}

// cleanCause drops the library's package prefixes from a message.
func cleanCause(err error) string {
	msg := err.Error()
	for _, p := range []string{"parquet: ", "arrow/ipc: ", "arrow: "} {
		msg = strings.ReplaceAll(msg, p, "")
	}
	return msg
}

// File is what a reader reads: an *os.File, or one that counts the bytes
// read (sqlgate import's progress).
type File interface {
	io.Reader
	io.ReaderAt
	io.Seeker
}

// OpenReader reads f (named name in messages) as a Parquet or Arrow IPC file.
func OpenReader(f File, name, format string, mem memory.Allocator) (Reader, error) {
	switch format {
	case Parquet:
		return openParquet(f, name, mem)
	case Arrow:
		return openArrow(f, name, mem)
	}
	return nil, sqlerr.New(sqlerr.InternalError, "fileio: no reader for format %q", format)
}

type parquetReader struct {
	name string
	pf   *file.Reader
	rr   pqarrow.RecordReader
}

func openParquet(f File, name string, mem memory.Allocator) (r Reader, err error) {
	defer func() {
		// The reader panics on some malformed footers: a bad file is an
		// error, never a dropped connection.
		if p := recover(); p != nil {
			r, err = nil, badFile(name, Parquet, errors.New(fmt.Sprint(p)))
		}
	}()
	// Column chunks stream through a buffer instead of being read whole:
	// a row group of a large file may be hundreds of megabytes.
	props := parquet.NewReaderProperties(mem)
	props.BufferedStreamEnabled = true
	pf, err := file.NewParquetReader(f, file.WithReadProps(props))
	if err != nil {
		return nil, badFile(name, Parquet, err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: batchRows}, mem)
	if err != nil {
		pf.Close()
		return nil, badFile(name, Parquet, err)
	}
	rr, err := fr.GetRecordReader(context.Background(), nil, nil)
	if err != nil {
		pf.Close()
		return nil, badFile(name, Parquet, err)
	}
	return &parquetReader{name: name, pf: pf, rr: rr}, nil
}

func (r *parquetReader) Schema() *arrow.Schema { return r.rr.Schema() }

func (r *parquetReader) Next(ctx context.Context) (rec arrow.RecordBatch, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	defer func() {
		if p := recover(); p != nil {
			rec, err = nil, badFile(r.name, Parquet, errors.New(fmt.Sprint(p)))
		}
	}()
	if !r.rr.Next() {
		if err := r.rr.Err(); err != nil && !errors.Is(err, io.EOF) {
			return nil, badFile(r.name, Parquet, err)
		}
		return nil, nil
	}
	rec = r.rr.RecordBatch()
	rec.Retain()
	return rec, nil
}

func (r *parquetReader) Close() error {
	r.rr.Release()
	return r.pf.Close()
}

// arrowReader reads the Arrow IPC file format ("ARROW1" magic) or, when
// the file lacks the magic, the IPC stream format (what `.arrows` files
// and pyarrow's RecordBatchStreamWriter hold).
type arrowReader struct {
	name string
	file *ipc.FileReader
	next int
	strm *ipc.Reader
}

var arrowMagic = []byte("ARROW1")

func openArrow(f File, name string, mem memory.Allocator) (Reader, error) {
	head := make([]byte, len(arrowMagic))
	n, _ := io.ReadFull(f, head)
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.IOError, "could not read file \"%s\": %v", name, err)
	}
	if n == len(head) && bytes.Equal(head, arrowMagic) {
		fr, err := ipc.NewFileReader(f, ipc.WithAllocator(mem))
		if err != nil {
			return nil, badFile(name, Arrow, err)
		}
		return &arrowReader{name: name, file: fr}, nil
	}
	sr, err := ipc.NewReader(f, ipc.WithAllocator(mem))
	if err != nil {
		return nil, badFile(name, Arrow, err)
	}
	return &arrowReader{name: name, strm: sr}, nil
}

func (r *arrowReader) Schema() *arrow.Schema {
	if r.file != nil {
		return r.file.Schema()
	}
	return r.strm.Schema()
}

func (r *arrowReader) Next(ctx context.Context) (rec arrow.RecordBatch, err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	defer func() {
		if p := recover(); p != nil {
			rec, err = nil, badFile(r.name, Arrow, errors.New(fmt.Sprint(p)))
		}
	}()
	if r.file != nil {
		if r.next >= r.file.NumRecords() {
			return nil, nil
		}
		rec, err := r.file.RecordBatch(r.next)
		if err != nil {
			return nil, badFile(r.name, Arrow, err)
		}
		r.next++
		rec.Retain()
		return rec, nil
	}
	if !r.strm.Next() {
		if err := r.strm.Err(); err != nil && !errors.Is(err, io.EOF) {
			return nil, badFile(r.name, Arrow, err)
		}
		return nil, nil
	}
	rec = r.strm.RecordBatch()
	rec.Retain()
	return rec, nil
}

func (r *arrowReader) Close() error {
	if r.file != nil {
		return r.file.Close()
	}
	r.strm.Release()
	return nil
}

// Writer writes record batches of one schema to a file.
type Writer interface {
	Write(rec arrow.RecordBatch) error
	// Close finishes the file (footer); the caller still commits it.
	Close() error
}

// NewWriter writes a Parquet or Arrow IPC file of schema to w.
func NewWriter(w io.Writer, format string, schema *arrow.Schema, mem memory.Allocator) (Writer, error) {
	switch format {
	case Parquet:
		props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy),
			parquet.WithAllocator(mem), parquet.WithVersion(parquet.V2_LATEST))
		// The Arrow schema rides along in the footer (ARROW:schema), so
		// that a reader gets back the exact types (a TIMESTAMP's zone, a
		// BINARY(n)'s width) and not only Parquet's logical types.
		fw, err := pqarrow.NewFileWriter(schema, w, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema(), pqarrow.WithAllocator(mem)))
		if err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.InternalError, "cannot write Parquet: %s", cleanCause(err))
		}
		return parquetWriter{fw}, nil
	case Arrow:
		fw, err := ipc.NewFileWriter(w, ipc.WithSchema(schema), ipc.WithAllocator(mem))
		if err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.InternalError, "cannot write Arrow IPC: %s", cleanCause(err))
		}
		return fw, nil
	}
	return nil, sqlerr.New(sqlerr.InternalError, "fileio: no writer for format %q", format)
}

type parquetWriter struct{ fw *pqarrow.FileWriter }

// Write buffers the batch into the current row group (one row group per
// batch would make a file of many tiny groups from small batches).
func (w parquetWriter) Write(rec arrow.RecordBatch) error {
	if err := w.fw.WriteBuffered(rec); err != nil {
		return sqlerr.Wrap(err, sqlerr.IOError, "cannot write Parquet: %s", cleanCause(err))
	}
	if w.fw.RowGroupTotalBytesWritten() >= 128<<20 {
		w.fw.NewBufferedRowGroup()
	}
	return nil
}

func (w parquetWriter) Close() error { return w.fw.Close() }
