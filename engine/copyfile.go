package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/fileio"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
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
// as COPY FROM STDIN decodes it. close releases it.
func (s *session) openFileSource(name string, opts pgwire.CopyOptions, cols []pgwire.ResultColumn) (src pgwire.BatchSource, close func(), err error) {
	var rows *columnarRows
	switch opts.Format {
	case fileio.Parquet, fileio.Arrow:
		rows, err = openColumnarFile(s.eng.opts.FileDir, name, opts.Format, s.eng.mem, func(got *arrow.Schema) (*fileio.Conformer, error) {
			return fileio.NewConformer(name, got, fileColumns(cols), s.eng.mem)
		})
	default:
		rows, err = openCopyFile(s.eng.opts.FileDir, name, opts, cols, s.eng.mem, s.location(), "")
	}
	if err != nil {
		return nil, nil, err
	}
	return rows.src, rows.close, nil
}

// openColumnarFile opens a Parquet or Arrow file under dir as batches
// conformed by the Conformer conform makes of the file's schema (COPY's:
// to the table's columns; read_parquet's: to the file's own).
func openColumnarFile(dir *fileio.Dir, name, format string, mem memory.Allocator, conform func(got *arrow.Schema) (*fileio.Conformer, error)) (*columnarRows, error) {
	f, err := dir.Open(name)
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
func openCopyFile(dir *fileio.Dir, name string, opts pgwire.CopyOptions, cols []pgwire.ResultColumn, mem memory.Allocator, loc *time.Location, table string) (*columnarRows, error) {
	f, err := dir.Open(name)
	if err != nil {
		return nil, err
	}
	cr, err := pgwire.NewCopyReader(f, opts, cols, mem, loc)
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
	src, closeSrc, err := s.openFileSource(c.File, inner.CopyOptions(), inner.cols)
	if err != nil {
		return 0, err
	}
	defer closeSrc()
	tag, err := inner.copyFrom(ctx, src)
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
	buf := bufio.NewWriterSize(out, 1<<20)
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
		w, err := pgwire.NewCopyWriter(buf, opts, inner.cols, s.location())
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
		rows += b.NumRows()
		err = write(b)
		b.Release()
		if err != nil {
			return 0, err
		}
	}
	if err := finish(); err != nil {
		return 0, sqlerr.Wrap(err, sqlerr.IOError, "could not write file \"%s\": %v", c.File, err)
	}
	if err := buf.Flush(); err != nil {
		return 0, sqlerr.Wrap(err, sqlerr.IOError, "could not write file \"%s\": %v", c.File, err)
	}
	return rows, out.Commit()
}
