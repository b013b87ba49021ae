package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgx/v5"
	"github.com/sqlgate/sqlgate/fileio"
	"github.com/sqlgate/sqlgate/transfer"
)

// ---- W11: loading a Parquet file (issue 31, acceptance 4) ----
//
// One Parquet file of --import-rows rows of the events columns, written
// beforehand (not measured), then loaded three ways into a fresh log
// table: `sqlgate import` (transfer.Import, this process as the client)
// into sqlgate; COPY FROM STDIN binary of the same rows (pgx's CopyFrom,
// the rows generated in this process as W8 does) into sqlgate and into
// PostgreSQL; and DuckDB's read_parquet into a DuckDB table. Runs only
// when named (--workloads W11), twice per system: the 10M-row case is a
// ledger figure, not a test.

const createEventsLog = `CREATE TABLE %s (id BIGINT, user_id INT, amount DOUBLE PRECISION, qty INT, name VARCHAR, ts TIMESTAMP(6))`

// statOrErr is the samples' stat, or the error that stopped them.
func statOrErr(samples []float64, err error) *stat {
	if err != nil {
		return errStat(err)
	}
	return newStat(samples)
}

func (h *harness) runW11(ctx context.Context) {
	n := h.cfg.ImportRows
	load := h.addFigure(&figure{Workload: fmt.Sprintf("W11 load a Parquet file of %d rows (sqlgate import; DuckDB read_parquet)", n),
		Metric: "rows/s", Unit: "rows/s", HigherBetter: true, Systems: map[string]*stat{}})
	copyF := h.addFigure(&figure{Workload: fmt.Sprintf("W11 COPY FROM STDIN binary of the same %d rows", n),
		Metric: "rows/s", Unit: "rows/s", HigherBetter: true, Systems: map[string]*stat{}})
	dir, err := os.MkdirTemp("", "sqlgate-w11-")
	if err != nil {
		load.Systems[sysSqlgate] = errStat(err)
		return
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "events.parquet")
	h.logf("W11 writing %d rows to %s", n, file)
	if err := writeEventsParquet(file, n); err != nil {
		load.Systems[sysSqlgate] = errStat(err)
		return
	}
	if st, err := os.Stat(file); err == nil {
		h.logf("W11 file: %d bytes", st.Size())
	}
	rate := func(start time.Time) float64 { return float64(n) / time.Since(start).Seconds() }
	// Two runs of each, COPY and import interleaved on sqlgate, so that
	// neither always runs first (after the harness's load the server is
	// still flushing and compacting).
	const runs = 2
	for _, t := range h.targets {
		conn, err := pgx.Connect(ctx, t.connString)
		if err != nil {
			copyF.Systems[t.name] = errStat(err)
			continue
		}
		count := func(table string) error {
			var got int64
			if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&got); err != nil {
				return err
			}
			if got != n {
				h.mismatch("W11", t.name, fmt.Sprintf("%s has %d rows after the load, want %d", table, got, n))
			}
			_, err := conn.Exec(ctx, "DROP TABLE "+table)
			return err
		}
		measure := func(table string, load func() error) (float64, error) {
			if _, err := conn.Exec(ctx, fmt.Sprintf(createEventsLog, table)); err != nil {
				return 0, err
			}
			start := time.Now()
			if err := load(); err != nil {
				return 0, err
			}
			r := rate(start)
			return r, count(table)
		}
		var copies, imports []float64
		var copyErr, importErr error
		for range runs {
			h.logf("W11 COPY binary %s", t.name)
			if r, err := measure("events_w11_copy", func() error { return copyEvents(ctx, conn, "events_w11_copy", 1, n) }); err != nil {
				copyErr = err
			} else {
				copies = append(copies, r)
			}
			if t.name != sysSqlgate {
				continue
			}
			h.logf("W11 sqlgate import")
			if r, err := measure("events_w11_import", func() error {
				_, err := transfer.Import(ctx, transfer.ImportOptions{Conn: t.connString, Table: "events_w11_import"}, []string{file})
				return err
			}); err != nil {
				importErr = err
			} else {
				imports = append(imports, r)
			}
		}
		copyF.Systems[t.name] = statOrErr(copies, copyErr)
		if t.name == sysSqlgate {
			load.Systems[t.name] = statOrErr(imports, importErr)
		}
		conn.Close(context.Background())
	}
	if h.duck != nil {
		h.logf("W11 DuckDB read_parquet")
		load.Systems[sysDuckDB] = func() *stat {
			if _, err := h.duck.db.ExecContext(ctx, fmt.Sprintf(createEventsLog, "events_w11")); err != nil {
				return errStat(err)
			}
			defer h.duck.db.ExecContext(context.Background(), "DROP TABLE events_w11")
			start := time.Now()
			if _, err := h.duck.db.ExecContext(ctx, "INSERT INTO events_w11 SELECT * FROM read_parquet('"+file+"')"); err != nil {
				return errStat(err)
			}
			r := rate(start)
			var got int64
			if err := h.duck.db.QueryRowContext(ctx, "SELECT count(*) FROM events_w11").Scan(&got); err == nil && got != n {
				h.mismatch("W11", sysDuckDB, fmt.Sprintf("%d rows after the load, want %d", got, n))
			}
			return newStat([]float64{r})
		}()
	}
}

// writeEventsParquet writes rows 1..n of the events data set.
func writeEventsParquet(path string, n int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	mem := memory.DefaultAllocator
	schema := eventsSchema()
	buf := bufio.NewWriterSize(f, 1<<20) // pqarrow closes a sink that is an io.Closer
	w, err := fileio.NewWriter(buf, fileio.Parquet, schema, mem)
	if err != nil {
		return err
	}
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for lo := int64(1); lo <= n; lo += 64 << 10 {
		appendEvents(b, lo, min(lo+64<<10-1, n))
		rec := b.NewRecordBatch()
		err := w.Write(rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	if err := buf.Flush(); err != nil {
		return err
	}
	return f.Sync()
}

// appendEvents appends events lo..hi to a builder of the events schema.
func appendEvents(b *array.RecordBuilder, lo, hi int64) {
	for id := lo; id <= hi; id++ {
		e := makeEvent(id)
		b.Field(0).(*array.Int64Builder).Append(e.ID)
		b.Field(1).(*array.Int32Builder).Append(e.UserID)
		if e.AmountValid {
			b.Field(2).(*array.Float64Builder).Append(e.Amount)
		} else {
			b.Field(2).AppendNull()
		}
		b.Field(3).(*array.Int32Builder).Append(e.Qty)
		b.Field(4).(*array.StringBuilder).Append(e.Name)
		b.Field(5).(*array.TimestampBuilder).Append(arrow.Timestamp(e.TS.UnixMicro()))
	}
}

// eventsSchema is the Arrow schema of the events columns.
func eventsSchema() *arrow.Schema {
	return arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "user_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "amount", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "qty", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond}, Nullable: true},
	}, nil)
}
