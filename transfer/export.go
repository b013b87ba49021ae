package transfer

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/fileio"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/types"
)

// ExportOptions configure Export.
type ExportOptions struct {
	Conn string
	// Table or Query says what to export (Query wins).
	Table, Query string
	// Format is parquet, arrow, csv, text or binary; "" by the extension.
	Format   string
	Out      io.Writer
	Bar      bool
	Interval time.Duration
}

// Export writes a table's or a query's rows to a file: CSV, text and
// binary as COPY ... TO STDOUT sends them; Parquet and Arrow from the COPY
// binary rows, decoded by the server's own COPY decoder, in the types the
// columns have: a table's Fluss types as DESCRIBE prints them, a query's
// from the wire (MAP and ROW values, which it carries as json, as their
// JSON text; timestamps to the microsecond, as COPY binary carries them).
// The file appears only once complete.
func Export(ctx context.Context, opts ExportOptions, path string) (Summary, error) {
	start := time.Now()
	var sum Summary
	query := opts.Query
	if query == "" {
		if opts.Table == "" {
			return sum, errors.New("export needs --table or --query")
		}
		query = "SELECT * FROM " + tableName(opts.Table)
	}
	format := opts.Format
	if format == "" {
		if format = FormatOf(path); format == "" {
			return sum, fmt.Errorf("cannot tell the format of %s: use --format parquet, arrow, csv, text or binary", path)
		}
	}
	conn, err := pgconn.Connect(ctx, opts.Conn)
	if err != nil {
		return sum, err
	}
	defer conn.Close(context.Background())
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return sum, err
	}
	defer os.Remove(tmp.Name()) // a no-op after the rename
	defer tmp.Close()
	out := opts.Out
	if out == nil {
		out = io.Discard
	}
	prog := NewProgress(out, opts.Bar, opts.Interval, 0)
	prog.SetFile(filepath.Base(path))
	w := bufio.NewWriterSize(&countingWriter{w: tmp, prog: prog}, 1<<20)
	switch format {
	case "csv", "text", "binary":
		sql := "COPY (" + query + ") TO STDOUT (FORMAT " + format
		if format == "csv" {
			sql += ", HEADER true"
		}
		var tag pgconn.CommandTag
		tag, err = conn.CopyTo(ctx, &rowCounter{w: w, prog: prog}, sql+")")
		if err == nil {
			prog.AddRows(tag.RowsAffected() - prog.Rows())
		}
	case fileio.Parquet, fileio.Arrow:
		var exact map[string]types.T
		if opts.Query == "" {
			exact = describeTypes(ctx, conn, opts.Table)
		}
		err = exportColumnar(ctx, conn, query, format, exact, w, prog)
	default:
		err = fmt.Errorf("unknown format %q (use --format parquet, arrow, csv, text or binary)", format)
	}
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if err == nil {
		err = tmp.Close()
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	prog.Finish()
	sum.Rows, sum.Bytes, sum.Elapsed = prog.Rows(), prog.Bytes(), time.Since(start)
	if err != nil {
		sum.Failed = 1
		return sum, fmt.Errorf("%s: %w", path, err)
	}
	sum.Files = 1
	fmt.Fprintln(out, "export: "+sum.String())
	return sum, nil
}

// describeTypes are a table's column types as sqlgate's DESCRIBE prints
// them (nil when the server has no DESCRIBE, or prints what this does not
// read: the wire's types are used then).
func describeTypes(ctx context.Context, conn *pgconn.PgConn, table string) map[string]types.T {
	res, err := conn.Exec(ctx, "DESCRIBE "+tableName(table)).ReadAll()
	if err != nil || len(res) != 1 {
		return nil
	}
	out := map[string]types.T{}
	for _, row := range res[0].Rows {
		if len(row) < 2 {
			return nil
		}
		t, err := parseFlussType(string(row[1]))
		if err != nil {
			return nil
		}
		out[string(row[0])] = t.Nullable()
	}
	return out
}

// exportColumnar writes the query's rows as a Parquet or Arrow file; exact
// gives a table's columns their Fluss types (MAP and ROW nested, TINYINT,
// CHAR(n), BINARY(n)), else the wire's type OIDs decide.
func exportColumnar(ctx context.Context, conn *pgconn.PgConn, query, format string, exact map[string]types.T, w io.Writer, prog *Progress) error {
	sd, err := conn.Prepare(ctx, "", query, nil)
	if err != nil {
		return err
	}
	cols := make([]pgwire.ResultColumn, len(sd.Fields))
	fcols := make([]fileio.Column, len(sd.Fields))
	for i, f := range sd.Fields {
		t, ok := exact[f.Name]
		if !ok {
			t, ok = typeOfOID(f.DataTypeOID, f.TypeModifier)
		}
		if !ok {
			return fmt.Errorf("column %q has a type (OID %d) a %s file cannot hold: cast it to text in --query", f.Name, f.DataTypeOID, format)
		}
		cols[i] = pgwire.ResultColumn{Name: f.Name, Type: t}
		fcols[i] = fileio.Column{Name: f.Name, Type: t}
	}
	mem := memory.DefaultAllocator
	exp := fileio.NewExporter(fcols, time.UTC, mem)
	fw, err := fileio.NewWriter(w, format, exp.Schema(), mem)
	if err != nil {
		return err
	}
	pr, pw := io.Pipe()
	copied := make(chan error, 1)
	go func() {
		_, err := conn.CopyTo(ctx, pw, "COPY ("+query+") TO STDOUT (FORMAT binary)")
		pw.CloseWithError(err)
		copied <- err
	}()
	err = func() error {
		src, err := pgwire.NewCopyReader(pr, pgwire.CopyOptions{Format: "binary"}, cols, mem, time.UTC, types.Style{})
		if err != nil {
			return err
		}
		defer src.Release()
		for {
			b, err := src.Next(ctx)
			if err != nil {
				return err
			}
			if b == nil {
				return fw.Close()
			}
			rec := exp.Apply(b)
			b.Release()
			err = fw.Write(rec)
			prog.AddRows(rec.NumRows())
			rec.Release()
			if err != nil {
				return err
			}
		}
	}()
	pr.CloseWithError(errors.New("export stopped"))
	cerr := <-copied
	if err != nil {
		return err
	}
	return cerr
}

// typeOfOID is the sqlgate type of a result column of this OID and typmod.
func typeOfOID(oid uint32, typmod int32) (types.T, bool) {
	frac := func() int {
		if typmod < 0 {
			return 6
		}
		return int(typmod)
	}
	switch oid {
	case pgtypes.OIDBool:
		return types.T{Kind: types.Bool}, true
	case pgtypes.OIDInt2:
		return types.T{Kind: types.Int16}, true
	case pgtypes.OIDInt4:
		return types.T{Kind: types.Int32}, true
	case pgtypes.OIDInt8:
		return types.T{Kind: types.Int64}, true
	case pgtypes.OIDFloat4:
		return types.T{Kind: types.Float32}, true
	case pgtypes.OIDFloat8:
		return types.T{Kind: types.Float64}, true
	case pgtypes.OIDNumeric:
		if typmod < 4 {
			return types.T{Kind: types.Decimal}, true // written as text: no precision
		}
		m := typmod - 4
		return types.DecimalType(int(m>>16), int(m&0xffff)), true
	case pgtypes.OIDText, pgtypes.OIDVarchar, pgtypes.OIDName, pgtypes.OIDJSON, pgtypes.OIDJSONB:
		return types.T{Kind: types.String}, true
	case pgtypes.OIDBPChar:
		if typmod > 4 {
			return types.T{Kind: types.Char, Length: int(typmod - 4)}, true
		}
		return types.T{Kind: types.String}, true
	case pgtypes.OIDBytea:
		return types.T{Kind: types.Bytes}, true
	case pgtypes.OIDDate:
		return types.T{Kind: types.Date}, true
	case pgtypes.OIDTime:
		return types.T{Kind: types.Time, Precision: frac()}, true
	case pgtypes.OIDTimestamp:
		return types.TimestampType(frac()), true
	case pgtypes.OIDTimestampTZ:
		return types.TimestampTZType(frac()), true
	}
	if elem, ok := pgtypes.ElemOIDOf(oid); ok {
		if e, ok := typeOfOID(elem, typmod); ok {
			return types.ArrayOf(e), true
		}
	}
	return types.T{}, false
}

// countingWriter counts the bytes written into the progress.
type countingWriter struct {
	w    io.Writer
	prog *Progress
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.prog.AddBytes(int64(n))
	return n, err
}

// rowCounter counts COPY TO's rows as they stream: each CopyData message
// pgconn hands over is one row (the binary header and trailer ride with
// the first and last).
type rowCounter struct {
	w    io.Writer
	prog *Progress
}

func (r *rowCounter) Write(p []byte) (int, error) {
	r.prog.AddRows(1)
	return r.w.Write(p)
}
