package engine

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fileio"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The table functions over server-side files (binder.FileCatalog):
//
//	read_parquet('file'), read_arrow('file')
//	read_csv('file' [, option, value ...])
//
// Same rules as COPY ... FROM 'file': superusers only, names confined to
// --file-dir. A Parquet or Arrow file's columns are its own, typed by
// fileio.TypeOf; a CSV file's columns are named by its header line (or
// column1, column2, ... without one) and are text, which a query casts as
// it needs (SELECT id::int ...; COPY t FROM 'file' (FORMAT csv) reads a
// CSV file straight into a table's types). read_csv's options are COPY's
// (format csv|text, header, delimiter, null, quote, escape), given as
// name, value pairs, and checked as COPY checks them.

// FileTable implements binder.FileCatalog.
func (c *recordingCatalog) FileTable(ctx context.Context, fn string, args []string) (binder.FileRelation, error) {
	if c.files == nil {
		return nil, sqlerr.NotSupported(fn + " here")
	}
	return c.files.fileTable(fn, args)
}

func (s *session) fileTable(fn string, args []string) (binder.FileRelation, error) {
	if err := s.serverFilesAllowed(true, fn); err != nil {
		return nil, err
	}
	rel := &fileRelation{dir: s.eng.opts.FileDir, eng: s.eng, fn: fn, name: args[0], loc: s.location(), order: s.dateStyle().Order}
	switch fn {
	case "read_parquet", "read_arrow":
		if len(args) != 1 {
			return nil, sqlerr.New(sqlerr.UndefinedFunction, "function %s(%s) does not exist", fn, strings.TrimSuffix(strings.Repeat("text, ", len(args)), ", ")).
				WithHint("%s takes one argument, the file's name.", fn)
		}
		rel.format = fileio.Parquet
		if fn == "read_arrow" {
			rel.format = fileio.Arrow
		}
		r, cols, err := rel.openColumnar()
		if err != nil {
			return nil, err
		}
		r.Close()
		rel.cols = cols
	default:
		opts, err := s.csvOptions(args[1:])
		if err != nil {
			return nil, err
		}
		rel.opts = opts
		names, err := rel.csvHeader()
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			rel.cols = append(rel.cols, fileio.Column{Name: n, Type: types.T{Kind: types.String}})
		}
	}
	return rel, nil
}

// csvOptions checks read_csv's options as COPY's (sql/copy.go's rules and
// defaults): FORMAT csv unless given.
func (s *session) csvOptions(pairs []string) (pgwire.CopyOptions, error) {
	if len(pairs)%2 != 0 {
		return pgwire.CopyOptions{}, sqlerr.New(sqlerr.InvalidParameterValue, "read_csv option \"%s\" has no value", pairs[len(pairs)-1]).
			WithHint("Give options as name, value pairs: read_csv('file', 'header', 'true', 'delimiter', ';').")
	}
	var b strings.Builder
	b.WriteString("COPY read_csv FROM STDIN (")
	format := false
	for i := 0; i < len(pairs); i += 2 {
		name := strings.ToLower(pairs[i])
		if !map[string]bool{"format": true, "header": true, "delimiter": true, "null": true, "quote": true, "escape": true}[name] {
			return pgwire.CopyOptions{}, sqlerr.New(sqlerr.InvalidParameterValue, "read_csv option \"%s\" not recognized", pairs[i]).
				WithHint("read_csv takes COPY's options: format (csv or text), header, delimiter, null, quote, escape.")
		}
		if name == "format" {
			format = true
			if v := strings.ToLower(pairs[i+1]); v != "csv" && v != "text" {
				return pgwire.CopyOptions{}, sqlerr.New(sqlerr.InvalidParameterValue, "read_csv format \"%s\" not recognized", pairs[i+1]).
					WithHint("read_csv reads csv or text; read_parquet and read_arrow read the columnar formats.")
			}
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s '%s'", name, strings.ReplaceAll(pairs[i+1], "'", "''"))
	}
	if !format {
		if len(pairs) > 0 {
			b.WriteString(", ")
		}
		b.WriteString("format 'csv'")
	}
	b.WriteString(")")
	stmts, err := sql.NewParser().Parse(b.String())
	if err != nil {
		return pgwire.CopyOptions{}, err
	}
	c := stmts[0].Copy
	return pgwire.CopyOptions{Format: c.Format, Delimiter: c.Delimiter, Null: c.Null, Quote: c.Quote, Escape: c.Escape, Header: c.Header}, nil
}

// fileRelation is a file a statement reads (binder.FileRelation).
type fileRelation struct {
	dir    *fileio.Dir
	eng    *Engine
	fn     string
	name   string
	format string             // parquet or arrow; "" for read_csv
	opts   pgwire.CopyOptions // read_csv
	loc    *time.Location
	order  types.DateOrder // DateStyle's, which reads read_csv's dates
	cols   []fileio.Column
}

func (r *fileRelation) Columns() []binder.FileColumn {
	out := make([]binder.FileColumn, len(r.cols))
	for i, c := range r.cols {
		out[i] = binder.FileColumn{Name: c.Name, Type: c.Type}
	}
	return out
}

func (r *fileRelation) String() string {
	return fmt.Sprintf("%s('%s')", r.fn, strings.ReplaceAll(r.name, "'", "''"))
}

// openColumnar opens a Parquet or Arrow file as its own columns.
func (r *fileRelation) openColumnar() (*columnarRows, []fileio.Column, error) {
	var cols []fileio.Column
	rows, err := openColumnarFile(r.dir, r.name, r.format, r.eng.mem, nil, func(got *arrow.Schema) (conf *fileio.Conformer, err error) {
		conf, cols, err = fileio.ReadAs(r.name, got, r.eng.mem)
		return conf, err
	})
	if err != nil {
		return nil, nil, err
	}
	return rows, cols, nil
}

// csvHeader reads the names of a CSV file's columns: its header line's
// fields, or column1 ... columnN after the first line's N fields.
func (r *fileRelation) csvHeader() ([]string, error) {
	f, err := r.dir.Open(r.name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && err != io.EOF {
		return nil, sqlerr.Wrap(err, sqlerr.IOError, "could not read file \"%s\": %v", r.name, err)
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if line == "" {
		return nil, sqlerr.New(fileio.BadCopyFileFormat, "file \"%s\" is empty: read_csv needs a first line to find the columns", r.name)
	}
	var fields []string
	if r.opts.Format == "csv" && r.opts.Quote == `"` && r.opts.Escape == `"` {
		cr := csv.NewReader(strings.NewReader(line))
		cr.Comma, cr.LazyQuotes = rune(r.opts.Delimiter[0]), true
		if fields, err = cr.Read(); err != nil {
			return nil, sqlerr.Wrap(err, fileio.BadCopyFileFormat, "file \"%s\": cannot read its first line: %v", r.name, err)
		}
	} else {
		fields = strings.Split(line, r.opts.Delimiter)
	}
	if !r.opts.Header {
		for i := range fields {
			fields[i] = fmt.Sprintf("column%d", i+1)
		}
	}
	return fields, nil
}

func (r *fileRelation) Open(ctx context.Context) (binder.FileRows, error) {
	if r.format != "" {
		rows, cols, err := r.openColumnar()
		if err != nil {
			return nil, err
		}
		if !sameFileColumns(cols, r.cols) {
			rows.Close()
			return nil, sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "file \"%s\" changed its columns since the statement was prepared", r.name)
		}
		return rows, nil
	}
	rows, err := openCopyFile(r.dir, r.name, r.opts, resultColumns(r.cols), r.eng.mem, r.loc, types.Style{Date: types.DateStyle{Order: r.order}}, r.fn, nil)
	if err != nil {
		return nil, err
	}
	return rows, nil
}

func sameFileColumns(a, b []fileio.Column) bool {
	return sameColumns(resultColumns(a), resultColumns(b)) // session.go
}

func resultColumns(cols []fileio.Column) []pgwire.ResultColumn {
	out := make([]pgwire.ResultColumn, len(cols))
	for i, c := range cols {
		out[i] = pgwire.ResultColumn{Name: c.Name, Type: c.Type}
	}
	return out
}

// columnarRows are an opened file's batches (binder.FileRows).
type columnarRows struct {
	src   pgwire.BatchSource
	close func()
}

func (c *columnarRows) Next(ctx context.Context) (arrow.RecordBatch, error) { return c.src.Next(ctx) }
func (c *columnarRows) Close() {
	if c.close != nil {
		c.close()
		c.close = nil
	}
}
