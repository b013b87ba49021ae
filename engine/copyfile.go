package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fileio"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// COPY to and from server-side files: COPY t [(cols)] FROM 'file' and
// COPY t|(query) TO 'file', in PostgreSQL's formats (text, csv, binary:
// pgwire's COPY decoder and encoder) or as Parquet and Arrow IPC files
// (package fileio). As in PostgreSQL only superusers may (42501 with
// PostgreSQL's message for everyone else), and only under the directory of
// sqlgate serve --file-dir (fileio.Dir: no "..", no symbolic link out of
// it; without the flag server-side files are off).
//
// The statement is an ordinary one for the wire (no COPY sub-protocol, a
// "COPY n" tag): its copyFile holds the COPY FROM STDIN / TO STDOUT
// statement that does the work, so that a file is written into the table
// by the very path a client's COPY takes (copyFrom: one atomic write, the
// log table's rows staged on disk) and read out by the query's plan.

// copyFile is what a server-side file's COPY adds to its statement.
type copyFile struct {
	// inner is the statement of the same COPY from STDIN / to STDOUT.
	inner *statement
}

// fileCopy wraps the STDIN / STDOUT statement of a server-side file's COPY.
func fileCopy(inner *statement) *statement {
	return &statement{sess: inner.sess, parsed: inner.parsed, file: &copyFile{inner: inner}}
}

// serverFilesAllowed applies PostgreSQL's rule for server-side files: a
// superuser (sqlgate has no pg_read_server_files / pg_write_server_files
// roles to grant).
func (s *session) serverFilesAllowed(read bool, what string) error {
	if s.superuser {
		return nil
	}
	role, verb := "pg_read_server_files", "from"
	if !read {
		role, verb = "pg_write_server_files", "to"
	}
	if what == "" {
		return sqlerr.New(sqlerr.InsufficientPrivilege, "must be superuser or have privileges of the %s role to COPY %s a file", role, verb).
			WithHint("Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone.")
	}
	return sqlerr.New(sqlerr.InsufficientPrivilege, "must be superuser or have privileges of the %s role to use %s", role, what).
		WithHint("Anyone can COPY from stdin; psql's \\copy and sqlgate import load a client's files.")
}

func (s *session) execCopyFile(ctx context.Context, ps *statement, params []any) (pgwire.Result, error) {
	c := ps.parsed.Copy
	if err := s.serverFilesAllowed(c.From, ""); err != nil {
		return nil, err
	}
	var rows int64
	var err error
	if c.From {
		rows, err = s.copyFromFile(ctx, ps.file.inner, c)
	} else {
		rows, err = s.copyToFile(ctx, ps.file.inner, c, params)
	}
	if err != nil {
		return nil, err
	}
	return tagOnly(fmt.Sprintf("COPY %d", rows)), nil
}

// fileColumns are COPY's columns as fileio sees them.
func fileColumns(cols []pgwire.ResultColumn) []fileio.Column {
	out := make([]fileio.Column, len(cols))
	for i, c := range cols {
		out[i] = fileio.Column{Name: c.Name, Type: c.Type}
	}
	return out
}

// openFileSource opens a server-side file as batches of cols: a Parquet or
// Arrow file conformed to them, or text, CSV or binary COPY data decoded
// as COPY FROM STDIN decodes it. close releases it. watch, when set, is
// told the file's size once it is open and counts the bytes read.
func (s *session) openFileSource(name string, opts pgwire.CopyOptions, cols []pgwire.ResultColumn, watch fileWatch) (src pgwire.BatchSource, close func(), err error) {
	var rows *columnarRows
	switch opts.Format {
	case fileio.Parquet, fileio.Arrow:
		rows, err = openColumnarFile(s.eng.opts.FileDir, name, opts.Format, s.eng.mem, watch, func(got *arrow.Schema) (*fileio.Conformer, error) {
			return fileio.NewConformer(name, got, fileColumns(cols), s.eng.mem)
		})
	default:
		rows, err = openCopyFile(s.eng.opts.FileDir, name, opts, cols, s.eng.mem, s.location(), s.style(), "", watch)
	}
	if err != nil {
		return nil, nil, err
	}
	return rows.src, rows.close, nil
}

// openColumnarFile opens a Parquet or Arrow file under dir as batches
// conformed by the Conformer conform makes of the file's schema (COPY's:
// to the table's columns; read_parquet's: to the file's own).
func openColumnarFile(dir *fileio.Dir, name, format string, mem memory.Allocator, watch fileWatch, conform func(got *arrow.Schema) (*fileio.Conformer, error)) (*columnarRows, error) {
	f, err := openWatched(dir, name, watch)
	if err != nil {
		return nil, err
	}
	r, err := fileio.OpenReader(f, name, format, mem)
	if err != nil {
		f.Close()
		return nil, err
	}
	conf, err := conform(r.Schema())
	if err != nil {
		r.Close()
		f.Close()
		return nil, err
	}
	return &columnarRows{src: &conformedSource{r: r, conf: conf}, close: func() { r.Close(); f.Close() }}, nil
}

// openCopyFile opens a text, CSV or binary COPY file under dir as batches
// of cols, decoded as COPY FROM STDIN decodes them; its data errors name
// the file (and table, where given).
func openCopyFile(dir *fileio.Dir, name string, opts pgwire.CopyOptions, cols []pgwire.ResultColumn, mem memory.Allocator, loc *time.Location, st types.Style, table string, watch fileWatch) (*columnarRows, error) {
	f, err := openWatched(dir, name, watch)
	if err != nil {
		return nil, err
	}
	cr, err := pgwire.NewCopyReader(f, opts, cols, mem, loc, st)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &columnarRows{src: &namedCopySource{src: cr, file: name, table: table}, close: func() { cr.Release(); f.Close() }}, nil
}

// conformedSource reads a columnar file's batches in the table's types.
type conformedSource struct {
	r    fileio.Reader
	conf *fileio.Conformer
}

func (c *conformedSource) Next(ctx context.Context) (arrow.RecordBatch, error) {
	rec, err := c.r.Next(ctx)
	if err != nil || rec == nil {
		return nil, err
	}
	defer rec.Release()
	return c.conf.Apply(ctx, rec)
}

// namedCopySource names the file (and for read_csv the function, where
// COPY names its table) in a text format's data errors.
type namedCopySource struct {
	src         pgwire.BatchSource
	file, table string
}

func (n *namedCopySource) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := n.src.Next(ctx)
	var cd *pgwire.CopyDataError
	if errors.As(err, &cd) {
		cd.File = n.file
		if n.table != "" {
			cd.Table = n.table
		}
	}
	return b, err
}

func (s *session) copyFromFile(ctx context.Context, inner *statement, c *sql.CopyStmt) (int64, error) {
	var prog pgwire.CopyProgress = pgwire.NoProgress{}
	defer func() { prog.Done() }()
	watch := func(size int64) pgwire.CopyProgress {
		prog = s.startCopyProgress(copyRelation(inner, c), true, "FILE", size)
		return prog
	}
	src, closeSrc, err := s.openFileSource(c.File, inner.CopyOptions(), inner.cols, watch)
	if err != nil {
		return 0, err
	}
	defer closeSrc()
	tag, err := inner.copyFrom(ctx, countedSource{src: src, prog: prog})
	if err != nil {
		var cd *pgwire.CopyDataError
		if errors.As(err, &cd) && cd.Table == "" {
			cd.Table = c.Table
		}
		return 0, err
	}
	var rows int64
	_, _ = fmt.Sscanf(tag, "COPY %d", &rows)
	return rows, nil
}

func (s *session) copyToFile(ctx context.Context, inner *statement, c *sql.CopyStmt, params []any) (int64, error) {
	res, err := inner.execute(ctx, params)
	if err != nil {
		return 0, err
	}
	defer res.Close()
	out, err := s.eng.opts.FileDir.Create(c.File)
	if err != nil {
		return 0, err
	}
	defer out.Discard() // a no-op once committed
	// PostgreSQL reports a COPY TO file's bytes written, with no total
	prog := s.startCopyProgress(copyRelation(inner, c), false, "FILE", 0)
	defer prog.Done()
	buf := bufio.NewWriterSize(countedWriter{w: out, prog: prog}, 1<<20)
	var write func(arrow.RecordBatch) error
	var finish func() error
	switch opts := inner.CopyOptions(); opts.Format {
	case fileio.Parquet, fileio.Arrow:
		exp := fileio.NewExporter(fileColumns(inner.cols), s.location(), s.eng.mem)
		w, err := fileio.NewWriter(buf, opts.Format, exp.Schema(), s.eng.mem)
		if err != nil {
			return 0, err
		}
		write = func(b arrow.RecordBatch) error {
			rec := exp.Apply(b)
			defer rec.Release()
			return w.Write(rec)
		}
		finish = w.Close
	default:
		w, err := pgwire.NewCopyWriter(buf, opts, inner.cols, s.location(), s.style())
		if err != nil {
			return 0, err
		}
		write, finish = w.Write, w.Close
	}
	var rows int64
	for {
		b, err := res.Next(ctx)
		if err != nil {
			return 0, err
		}
		if b == nil {
			break
		}
		n := b.NumRows()
		rows += n
		err = write(b)
		b.Release()
		if err != nil {
			return 0, err
		}
		prog.Add(0, n)
	}
	if err := finish(); err != nil {
		return 0, sqlerr.Wrap(err, sqlerr.IOError, "could not write file \"%s\": %v", c.File, err)
	}
	if err := buf.Flush(); err != nil {
		return 0, sqlerr.Wrap(err, sqlerr.IOError, "could not write file \"%s\": %v", c.File, err)
	}
	return rows, out.Commit()
}

// fileWatch starts the progress report of a file COPY once its file is
// open and its size known; nil: nobody watches (read_parquet ...).
type fileWatch func(size int64) pgwire.CopyProgress

// openWatched opens name under dir; with a watch, the file's reads count
// as the COPY's bytes_processed and its size is bytes_total, as
// PostgreSQL reports a COPY FROM file.
func openWatched(dir *fileio.Dir, name string, watch fileWatch) (openFile, error) {
	f, err := dir.Open(name)
	if err != nil {
		return nil, err
	}
	if watch == nil {
		return f, nil
	}
	var size int64
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	return countedFile{f: f, prog: watch(size)}, nil
}

// openFile is a file a COPY or a file table reads.
type openFile interface {
	fileio.File
	io.Closer
}

// countedFile counts the bytes read from a file (Read for the text
// formats, ReadAt for Parquet and Arrow). It forwards only these methods,
// so that no reader bypasses the count (as *os.File's WriteTo would).
type countedFile struct {
	f    *os.File
	prog pgwire.CopyProgress
}

func (c countedFile) Read(p []byte) (int, error) {
	n, err := c.f.Read(p)
	c.prog.Add(int64(n), 0)
	return n, err
}

func (c countedFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.f.ReadAt(p, off)
	c.prog.Add(int64(n), 0)
	return n, err
}

func (c countedFile) Seek(off int64, whence int) (int64, error) { return c.f.Seek(off, whence) }
func (c countedFile) Close() error                              { return c.f.Close() }

// countedWriter counts the bytes a COPY TO writes to its file.
type countedWriter struct {
	w    io.Writer
	prog pgwire.CopyProgress
}

func (w countedWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	w.prog.Add(int64(n), 0)
	return n, err
}

// countedSource counts the rows a COPY FROM file reads (tuples_processed).
type countedSource struct {
	src  pgwire.BatchSource
	prog pgwire.CopyProgress
}

func (c countedSource) Next(ctx context.Context) (arrow.RecordBatch, error) {
	b, err := c.src.Next(ctx)
	if b != nil {
		c.prog.Add(0, b.NumRows())
	}
	return b, err
}

// copyRelation is pg_stat_progress_copy.relid of a COPY: its table's OID,
// 0 for COPY (query) TO as in PostgreSQL.
func copyRelation(inner *statement, c *sql.CopyStmt) uint32 {
	if c.Table == "" || len(inner.cols) == 0 {
		return 0
	}
	return inner.cols[0].TableOID
}
