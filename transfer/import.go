package transfer

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/fileio"
	"github.com/sqlgate/sqlgate/internal/atomicfile"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/types"
)

// ImportOptions configure Import.
type ImportOptions struct {
	// Conn is the server's connection string (pgx's syntax: URL or DSN).
	Conn string
	// Table is the target table; "" names it after each file.
	Table string
	// Create creates the table from the file's columns when it is missing.
	Create bool
	// Format is parquet, arrow, csv or text; "" tells it by the extension.
	Format string
	// CopyOptions are more COPY options for CSV and text files (e.g.
	// "DELIMITER ';', NULL 'NA'"), which the server checks as COPY's.
	CopyOptions string
	// State is the file that records the files already imported, so that
	// a run started again skips them; "" keeps no record.
	State string
	// Out receives the progress and the summary; Bar draws a bar on it (a
	// terminal), else a line every Interval (none when 0).
	Out      io.Writer
	Bar      bool
	Interval time.Duration
}

// Summary is what a transfer did.
type Summary struct {
	Files, Skipped, Failed int
	Rows, Bytes            int64
	Elapsed                time.Duration
}

func (s Summary) String() string {
	secs := s.Elapsed.Seconds()
	if secs <= 0 {
		secs = 1e-9
	}
	return fmt.Sprintf("%d file(s) done, %d skipped (already imported), %d failed: %s rows, %s in %s (%s rows/s, %s/s)",
		s.Files, s.Skipped, s.Failed, Thousands(s.Rows), HumanBytes(s.Bytes), clock(s.Elapsed),
		Thousands(int64(float64(s.Rows)/secs)), HumanBytes(int64(float64(s.Bytes)/secs)))
}

// FormatOf tells a file's format by its extension ("" when unknown).
func FormatOf(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".parquet", ".pq":
		return fileio.Parquet
	case ".arrow", ".arrows", ".ipc", ".feather":
		return fileio.Arrow
	case ".csv":
		return "csv"
	case ".tsv", ".txt", ".tab":
		return "text"
	}
	return ""
}

// importState is the resume record: the files imported, by absolute path,
// with the size and time they had (a changed file is imported again).
type importState struct {
	Files map[string]doneFile `json:"files"`
}

type doneFile struct {
	Size  int64     `json:"size"`
	MTime time.Time `json:"mtime"`
	Table string    `json:"table"`
	Rows  int64     `json:"rows"`
}

func loadState(path string) (*importState, error) {
	st := &importState{Files: map[string]doneFile{}}
	if path == "" {
		return st, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, st); err != nil {
		return nil, fmt.Errorf("resume state %s: %w", path, err)
	}
	if st.Files == nil {
		st.Files = map[string]doneFile{}
	}
	return st, nil
}

func (st *importState) save(path string) error {
	if path == "" {
		return nil
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(b, '\n'), 0o644)
}

// Import streams files into tables of a running server over the
// PostgreSQL protocol: Parquet and Arrow files as COPY ... FROM STDIN
// (FORMAT binary), encoded from the file's Arrow batches by the server's
// own COPY encoder; CSV and text files as they are. Each file is one COPY,
// so one atomic write: a file that fails leaves nothing behind, and is
// imported again by the next run, while the files recorded in State are
// skipped. It returns an error when a file failed (after trying them all).
func Import(ctx context.Context, opts ImportOptions, files []string) (Summary, error) {
	start := time.Now()
	var sum Summary
	st, err := loadState(opts.State)
	if err != nil {
		return sum, err
	}
	var total int64
	type job struct {
		path, abs string
		info      os.FileInfo
	}
	var jobs []job
	for _, f := range files {
		info, err := os.Stat(f)
		if err != nil {
			return sum, err
		}
		abs, err := filepath.Abs(f)
		if err != nil {
			return sum, err
		}
		if d, ok := st.Files[abs]; ok && d.Size == info.Size() && d.MTime.Equal(info.ModTime()) {
			sum.Skipped++
			continue
		}
		total += info.Size()
		jobs = append(jobs, job{f, abs, info})
	}
	conn, err := pgconn.Connect(ctx, opts.Conn)
	if err != nil {
		return sum, err
	}
	defer conn.Close(context.Background())
	out := opts.Out
	if out == nil {
		out = io.Discard
	}
	prog := NewProgress(out, opts.Bar, opts.Interval, total)
	var failures []error
	for _, j := range jobs {
		prog.SetFile(filepath.Base(j.path))
		table, rows, err := importFile(ctx, conn, opts, j.path, prog)
		if err != nil {
			sum.Failed++
			failures = append(failures, fmt.Errorf("%s: %w", j.path, err))
			prog.Printf("%s: failed: %v", j.path, err)
			if ctx.Err() != nil {
				break
			}
			continue
		}
		sum.Files++
		st.Files[j.abs] = doneFile{Size: j.info.Size(), MTime: j.info.ModTime(), Table: table, Rows: rows}
		if err := st.save(opts.State); err != nil {
			failures = append(failures, err)
		}
		prog.Printf("%s -> %s: %s rows", j.path, table, Thousands(rows))
	}
	prog.Finish()
	sum.Rows, sum.Bytes, sum.Elapsed = prog.Rows(), prog.Bytes(), time.Since(start)
	fmt.Fprintln(out, "import: "+sum.String())
	return sum, errors.Join(failures...)
}

// quoteIdent quotes a SQL identifier.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func tableOf(opts ImportOptions, path string) string {
	if opts.Table != "" {
		return opts.Table
	}
	base := filepath.Base(path)
	return strings.ToLower(strings.TrimSuffix(base, filepath.Ext(base)))
}

// tableName renders a table name: schema.table parts quoted.
func tableName(t string) string {
	parts := strings.Split(t, ".")
	for i, p := range parts {
		parts[i] = quoteIdent(p)
	}
	return strings.Join(parts, ".")
}

func importFile(ctx context.Context, conn *pgconn.PgConn, opts ImportOptions, path string, prog *Progress) (string, int64, error) {
	format := opts.Format
	if format == "" {
		format = FormatOf(path)
	}
	table := tableOf(opts, path)
	f, err := os.Open(path)
	if err != nil {
		return table, 0, err
	}
	defer f.Close()
	cf := &countingFile{f: f, prog: prog}
	switch format {
	case fileio.Parquet, fileio.Arrow:
		rows, err := importColumnar(ctx, conn, opts, cf, path, format, table, prog)
		return table, rows, err
	case "csv", "text":
		rows, err := importText(ctx, conn, opts, cf, path, format, table, prog)
		return table, rows, err
	}
	return table, 0, fmt.Errorf("unknown format %q (use --format parquet, arrow, csv or text)", format)
}

func importColumnar(ctx context.Context, conn *pgconn.PgConn, opts ImportOptions, cf *countingFile, path, format, table string, prog *Progress) (int64, error) {
	mem := memory.DefaultAllocator
	r, err := fileio.OpenReader(cf, path, format, mem)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	conf, cols, err := fileio.ReadAs(path, r.Schema(), mem)
	if err != nil {
		return 0, err
	}
	if opts.Create {
		if err := createTable(ctx, conn, table, cols); err != nil {
			return 0, err
		}
	}
	if err := checkColumns(ctx, conn, path, table, cols); err != nil {
		return 0, err
	}
	rcols := make([]pgwire.ResultColumn, len(cols))
	names := make([]string, len(cols))
	for i, c := range cols {
		rcols[i] = pgwire.ResultColumn{Name: c.Name, Type: c.Type}
		names[i] = quoteIdent(c.Name)
	}
	pr, pw := io.Pipe()
	encoded := make(chan error, 1)
	go func() {
		encoded <- encodeBinary(ctx, pw, r, conf, rcols, prog)
	}()
	tag, err := conn.CopyFrom(ctx, pr, "COPY "+tableName(table)+" ("+strings.Join(names, ", ")+") FROM STDIN (FORMAT binary)")
	pr.CloseWithError(errors.New("the server ended the COPY"))
	encErr := <-encoded
	if err != nil {
		return 0, err
	}
	return tag.RowsAffected(), encErr
}

// encodeBinary writes the file's batches to w as COPY binary data.
func encodeBinary(ctx context.Context, w *io.PipeWriter, r fileio.Reader, conf *fileio.Conformer, cols []pgwire.ResultColumn, prog *Progress) (err error) {
	defer func() { w.CloseWithError(err) }()
	buf := bufio.NewWriterSize(w, 1<<20)
	cw, err := pgwire.NewCopyWriter(buf, pgwire.CopyOptions{Format: "binary"}, cols, time.UTC, types.Style{})
	if err != nil {
		return err
	}
	for {
		rec, err := r.Next(ctx)
		if err != nil {
			return err
		}
		if rec == nil {
			break
		}
		b, err := conf.Apply(ctx, rec)
		rec.Release()
		if err != nil {
			return err
		}
		err = cw.Write(b)
		n := b.NumRows()
		b.Release()
		if err != nil {
			return err
		}
		prog.AddRows(n)
	}
	if err := cw.Close(); err != nil {
		return err
	}
	return buf.Flush()
}

func importText(ctx context.Context, conn *pgconn.PgConn, opts ImportOptions, cf *countingFile, path, format, table string, prog *Progress) (int64, error) {
	header := format == "csv"
	if opts.Create {
		names, err := headerNames(path, format)
		if err != nil {
			return 0, err
		}
		cols := make([]fileio.Column, len(names))
		for i, n := range names {
			cols[i] = fileio.Column{Name: n, Type: types.T{Kind: types.String}}
		}
		if err := createTable(ctx, conn, table, cols); err != nil {
			return 0, err
		}
	}
	sql := "COPY " + tableName(table) + " FROM STDIN (FORMAT " + format
	if header {
		sql += ", HEADER true"
	}
	if opts.CopyOptions != "" {
		sql += ", " + opts.CopyOptions
	}
	lines := &lineCounter{r: cf, prog: prog}
	tag, err := conn.CopyFrom(ctx, lines, sql+")")
	if err != nil {
		return 0, err
	}
	// the tag is exact where the line count is not (quoted newlines)
	prog.AddRows(tag.RowsAffected() - lines.counted)
	return tag.RowsAffected(), nil
}

// headerNames are a CSV file's header fields (column names), or a text
// file's first line's fields named column1 ...
func headerNames(path, format string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && err != io.EOF {
		return nil, err
	}
	line = strings.TrimRight(line, "\r\n")
	if format == "text" {
		fields := strings.Split(line, "\t")
		for i := range fields {
			fields[i] = fmt.Sprintf("column%d", i+1)
		}
		return fields, nil
	}
	return csv.NewReader(strings.NewReader(line)).Read()
}

// createTable creates the table of the file's columns unless it exists.
func createTable(ctx context.Context, conn *pgconn.PgConn, table string, cols []fileio.Column) error {
	defs := make([]string, len(cols))
	for i, c := range cols {
		t, err := ddlType(c.Type)
		if err != nil {
			return fmt.Errorf("column %q: %w", c.Name, err)
		}
		defs[i] = quoteIdent(c.Name) + " " + t
	}
	_, err := conn.Exec(ctx, "CREATE TABLE IF NOT EXISTS "+tableName(table)+" ("+strings.Join(defs, ", ")+")").ReadAll()
	return err
}

// ddlType is a type's Fluss DDL name.
func ddlType(t types.T) (string, error) {
	var s string
	switch t.Kind {
	case types.Bool:
		s = "BOOLEAN"
	case types.Int8:
		s = "TINYINT"
	case types.Int16:
		s = "SMALLINT"
	case types.Int32:
		s = "INT"
	case types.Int64:
		s = "BIGINT"
	case types.Float32:
		s = "FLOAT"
	case types.Float64:
		s = "DOUBLE"
	case types.Decimal:
		s = fmt.Sprintf("DECIMAL(%d, %d)", t.Precision, t.Scale)
	case types.String:
		s = "STRING"
	case types.Char:
		s = fmt.Sprintf("CHAR(%d)", t.Length)
	case types.Bytes:
		s = "BYTES"
	case types.Binary:
		s = fmt.Sprintf("BINARY(%d)", t.Length)
	case types.Date:
		s = "DATE"
	case types.Time:
		s = fmt.Sprintf("TIME(%d)", t.Precision)
	case types.Timestamp:
		s = fmt.Sprintf("TIMESTAMP(%d)", t.Precision)
	case types.TimestampTZ:
		s = fmt.Sprintf("TIMESTAMP_LTZ(%d)", t.Precision)
	case types.Array:
		e, err := ddlType(*t.Elem)
		if err != nil {
			return "", err
		}
		s = "ARRAY<" + e + ">"
	case types.Map:
		k, err := ddlType(*t.Key)
		if err != nil {
			return "", err
		}
		v, err := ddlType(*t.Elem)
		if err != nil {
			return "", err
		}
		s = "MAP<" + strings.TrimSuffix(k, " NOT NULL") + ", " + v + ">"
	case types.Row:
		fs := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			ft, err := ddlType(f.Type)
			if err != nil {
				return "", err
			}
			fs[i] = quoteIdent(f.Name) + " " + ft
		}
		s = "ROW<" + strings.Join(fs, ", ") + ">"
	default:
		return "", fmt.Errorf("no Fluss type for %s", t)
	}
	if t.NotNull {
		s += " NOT NULL"
	}
	return s, nil
}

// stringOIDs hold the same binary form (the text's bytes).
var stringOIDs = map[uint32]bool{pgtypes.OIDText: true, pgtypes.OIDVarchar: true, pgtypes.OIDBPChar: true, pgtypes.OIDName: true}

// checkColumns checks that the table has the file's columns, each of a
// type whose binary form the file's values take (seed 000: the table's
// names, the table's types), so that a mismatch is an error naming the
// file and the column before anything is sent.
func checkColumns(ctx context.Context, conn *pgconn.PgConn, path, table string, cols []fileio.Column) error {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = quoteIdent(c.Name)
	}
	sd, err := conn.Prepare(ctx, "", "SELECT "+strings.Join(names, ", ")+" FROM "+tableName(table), nil)
	if err != nil {
		return err
	}
	fds := sd.Fields
	for i, c := range cols {
		have, _, _ := pgtypes.OIDOf(c.Type)
		want := fds[i].DataTypeOID
		if have == want || stringOIDs[have] && stringOIDs[want] {
			continue
		}
		return fmt.Errorf("column %q of file %q is %s, which does not fit column %q of table %q (type OID %d); "+
			"load it with a cast instead: COPY it to the server's file directory and INSERT INTO %s SELECT ... FROM read_parquet(...)",
			c.Name, path, c.Type, c.Name, table, want, table)
	}
	return nil
}

// countingFile counts the bytes read from a file into the progress.
type countingFile struct {
	f    *os.File
	prog *Progress
}

func (c *countingFile) Read(p []byte) (int, error) {
	n, err := c.f.Read(p)
	c.prog.AddBytes(int64(n))
	return n, err
}

func (c *countingFile) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.f.ReadAt(p, off)
	c.prog.AddBytes(int64(n))
	return n, err
}

func (c *countingFile) Seek(off int64, whence int) (int64, error) { return c.f.Seek(off, whence) }

// lineCounter counts the lines of a text file as rows while it streams.
type lineCounter struct {
	r       io.Reader
	prog    *Progress
	counted int64
}

func (l *lineCounter) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	var k int64
	for _, b := range p[:n] {
		if b == '\n' {
			k++
		}
	}
	l.counted += k
	l.prog.AddRows(k)
	return n, err
}
