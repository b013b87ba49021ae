package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	afsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgx/v5"
	"github.com/sqlgate/sqlgate/flightsql"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// W2 through Arrow Flight SQL (issue 29, acceptance 4): SELECT * of events
// into Arrow, against the PostgreSQL protocol's decoded rows.
//
//   - "W2 SELECT * into Go": sqlgate through Flight SQL with arrow-go's
//     client into Arrow batches, each row's values read into the checksum;
//     PostgreSQL with pgx, decoded (the "W2 ... decoded" figure's cell).
//   - "W2 SELECT * into Python": sqlgate through the ADBC Flight SQL driver
//     into a pyarrow Table; PostgreSQL through psycopg2 into a pandas
//     DataFrame. "W2 SELECT * via psycopg2 into pandas" has both servers
//     through psycopg2, so that the Flight path compares with sqlgate's own
//     PostgreSQL-protocol path too.
//
// The Python figures need the virtualenv of bench/python/setup.sh (ADBC,
// pyarrow, pandas, psycopg2-binary from PyPI; make bench runs it) or an
// interpreter with the same packages in SQLGATE_BENCH_PYTHON.

const (
	figW2Go       = "W2 SELECT * into Go (sqlgate: Flight SQL to Arrow; PostgreSQL: pgx decoded)"
	figW2Python   = "W2 SELECT * into Python (sqlgate: ADBC Flight SQL to pyarrow; PostgreSQL: psycopg2 to pandas)"
	figW2Psycopg2 = "W2 SELECT * via psycopg2 into pandas"
)

func (h *harness) runFlightW2(ctx context.Context) {
	if h.sqlgate == nil || h.sqlgate.flightAddr == "" {
		return
	}
	f := h.addFigure(&figure{Workload: figW2Go, Metric: "rows/s", Unit: "rows/s", HigherBetter: true, Systems: map[string]*stat{}})
	for _, g := range h.figures {
		if g.Workload == "W2 SELECT * streamed, decoded" {
			f.Systems[sysPostgres] = g.Systems[sysPostgres]
		}
	}
	h.logf("W2 sqlgate Flight SQL into Arrow")
	// flightsql.DialOptions: arrow-go's client with buffers reused and
	// each message's body read into Arrow without a second copy.
	cl, err := afsql.NewClient(h.sqlgate.flightAddr, nil, nil, append(flightsql.DialOptions(), grpc.WithTransportCredentials(insecure.NewCredentials()))...)
	if err != nil {
		f.Systems[sysSqlgate] = errStat(err)
		return
	}
	defer cl.Close()
	checked := false
	f.Systems[sysSqlgate] = h.repeat(ctx, func(ctx context.Context, _ bool) (float64, error) {
		start := time.Now()
		sum, err := flightStreamAll(ctx, cl)
		elapsed := time.Since(start)
		if err != nil {
			return 0, err
		}
		if !checked {
			checked = true
			if !sum.equal(h.expectAll) {
				h.mismatch(f.Workload, sysSqlgate, fmt.Sprintf("checksum %+v, generator says %+v", sum, h.expectAll))
				f.Mismatch = "checksum differs"
			}
		}
		return float64(sum.Rows) / elapsed.Seconds(), nil
	})
	h.runPythonW2(ctx)
}

// flightStreamAll runs W2 through Flight SQL and folds every value of
// every row into the checksum, reading the Arrow columns as a columnar
// consumer does: each column's values in a loop of their own, timestamps
// as their microseconds (what UnixMicro of the decoded time gives).
func flightStreamAll(ctx context.Context, cl *afsql.Client) (streamSum, error) {
	var sum streamSum
	info, err := cl.Execute(ctx, queryW2)
	if err != nil {
		return sum, err
	}
	rdr, err := cl.DoGet(ctx, info.Endpoint[0].Ticket)
	if err != nil {
		return sum, err
	}
	defer rdr.Release()
	for rdr.Next() {
		if err := sumEvents(&sum, rdr.RecordBatch()); err != nil {
			return sum, err
		}
	}
	return sum, rdr.Err()
}

// sumEvents adds a batch of events (SELECT * FROM events) to sum.
func sumEvents(sum *streamSum, rec arrow.RecordBatch) error {
	id, ok1 := rec.Column(0).(*array.Int64)
	uid, ok2 := rec.Column(1).(*array.Int32)
	amount, ok3 := rec.Column(2).(*array.Float64)
	qty, ok4 := rec.Column(3).(*array.Int32)
	name, ok5 := rec.Column(4).(*array.String)
	ts, ok6 := rec.Column(5).(*array.Timestamp)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 {
		return fmt.Errorf("W2 batch has schema %s", rec.Schema())
	}
	n := int(rec.NumRows())
	sum.Rows += int64(n)
	for _, v := range id.Int64Values() {
		sum.SumID += v
	}
	for _, v := range uid.Int32Values() {
		sum.SumUser += int64(v)
	}
	for _, v := range qty.Int32Values() {
		sum.SumQty += int64(v)
	}
	for i, v := range amount.Float64Values() {
		if amount.IsValid(i) {
			sum.SumFloat += v
		} else {
			sum.NullFloat++
		}
	}
	offs, data := name.ValueOffsets(), name.ValueBytes()
	base := offs[0]
	for i := 0; i < n; i++ {
		sum.NameHash += nameHashBytes(data[offs[i]-base : offs[i+1]-base])
	}
	unit := ts.DataType().(*arrow.TimestampType).Unit
	for i, v := range ts.TimestampValues() {
		if unit == arrow.Microsecond {
			sum.SumTSUsec += int64(v)
		} else {
			sum.SumTSUsec += ts.Value(i).ToTime(unit).UnixMicro()
		}
	}
	return nil
}

// flightOwnRatios are the lines that compare the Flight SQL figures with
// sqlgate's own PostgreSQL-protocol path (acceptance 4's second goal):
// into Go against pgx decoded, into Python against psycopg2 into pandas.
func flightOwnRatios(figs []*figure) []string {
	byName := map[string]*figure{}
	for _, f := range figs {
		byName[f.Workload] = f
	}
	var out []string
	for _, c := range []struct{ flight, own, what string }{
		{figW2Go, "W2 SELECT * streamed, decoded", "W2 into Go: sqlgate Flight SQL to Arrow vs sqlgate's PostgreSQL protocol (pgx decoded)"},
		{figW2Python, figW2Psycopg2, "W2 into Python: sqlgate ADBC to pyarrow vs sqlgate's PostgreSQL protocol (psycopg2 to pandas)"},
	} {
		fl, own := byName[c.flight], byName[c.own]
		if fl == nil || own == nil {
			continue
		}
		if r, ok := betterRatio(fl.Systems[sysSqlgate], own.Systems[sysSqlgate], true); ok {
			out = append(out, fmt.Sprintf("%s: %s.", c.what, formatRatio(r)))
		}
	}
	return out
}

// benchPython is the interpreter the Python figures use: SQLGATE_BENCH_PYTHON,
// else the virtualenv bench/python/setup.sh makes (make bench runs it).
func benchPython() string {
	if p := os.Getenv("SQLGATE_BENCH_PYTHON"); p != "" {
		return p
	}
	if v := os.Getenv("SQLGATE_BENCH_VENV"); v != "" {
		return filepath.Join(v, "bin", "python")
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Join(cache, "sqlgate", "bench-python-1", "bin", "python")
}

// pythonReady reports whether the Python figures can run.
func pythonReady(ctx context.Context) bool {
	return exec.CommandContext(ctx, benchPython(), "-c", "import adbc_driver_flightsql.dbapi, pyarrow, pandas, psycopg2").Run() == nil
}

// runPythonW2 runs bench/python/w2.py per system and method; the script
// times its own runs (after a warm-up) and prints their rows per second.
func (h *harness) runPythonW2(ctx context.Context) {
	if !pythonReady(ctx) {
		h.logf("W2 into Python skipped: %s lacks adbc_driver_flightsql, pyarrow, pandas or psycopg2 (run bench/python/setup.sh)", benchPython())
		return
	}
	py := h.addFigure(&figure{Workload: figW2Python, Metric: "rows/s", Unit: "rows/s", HigherBetter: true, Systems: map[string]*stat{}})
	pg := h.addFigure(&figure{Workload: figW2Psycopg2, Metric: "rows/s", Unit: "rows/s", HigherBetter: true, Systems: map[string]*stat{}})
	var pgConn, sgConn string
	for _, t := range h.targets {
		switch t.name {
		case sysPostgres:
			pgConn = t.connString
		case sysSqlgate:
			sgConn = t.connString
		}
	}
	run := func(method, target string) *stat {
		h.logf("W2 python %s %s", method, target)
		args := []string{filepath.Join("python", "w2.py"), method, target, strconv.FormatInt(h.expectAll.Rows, 10),
			strconv.Itoa(h.cfg.Warmups), strconv.Itoa(h.cfg.Runs)}
		out, err := exec.CommandContext(ctx, benchPython(), args...).Output()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				return errStat(fmt.Errorf("w2.py %s: %v: %s", method, err, strings.TrimSpace(string(ee.Stderr))))
			}
			return errStat(err)
		}
		var samples []float64
		if err := json.Unmarshal(out, &samples); err != nil {
			return errStat(fmt.Errorf("w2.py %s said %q", method, out))
		}
		return newStat(samples)
	}
	py.Systems[sysSqlgate] = run("adbc", "grpc://"+h.sqlgate.flightAddr)
	psycopg2PG := run("psycopg2", pgConn)
	py.Systems[sysPostgres] = psycopg2PG
	pg.Systems[sysPostgres] = psycopg2PG
	pg.Systems[sysSqlgate] = run("psycopg2", sgConn)
}

// createEventLog is the events table without its primary key: a Fluss
// log table on sqlgate, a heap without an index on PostgreSQL.
const createEventLog = `CREATE TABLE %s (id BIGINT, user_id INT, amount DOUBLE PRECISION, qty INT, name VARCHAR, ts TIMESTAMP(6))`

// runFlightIngest is W8's bulk load through Flight SQL ingest: copyRows
// events as Arrow batches of 65536 rows (built before the clock starts:
// the loader already holds Arrow data) into a fresh table per run, into the
// primary-key table (against the "W8 COPY" figure's COPY FROM STDIN
// binary) and into a log table (against a COPY binary into the same table,
// both servers, measured here), so that one run has Flight ingest, sqlgate's
// COPY binary and PostgreSQL's COPY binary of each kind side by side.
func (h *harness) runFlightIngest(ctx context.Context) {
	if h.sqlgate == nil || h.sqlgate.flightAddr == "" {
		return
	}
	recs := eventBatches(h.cfg.CopyRows, 65536)
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	cl, err := afsql.NewClient(h.sqlgate.flightAddr, nil, nil, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		h.addFigure(&figure{Workload: "W8 Flight SQL ingest", Metric: "rows/s", Systems: map[string]*stat{sysSqlgate: errStat(err)}})
		return
	}
	defer cl.Close()
	var pkCopy *figure
	for _, g := range h.figures {
		if strings.HasPrefix(g.Workload, "W8 COPY FROM STDIN binary, ") {
			pkCopy = g
		}
	}
	h.flightIngest(ctx, cl, recs, "a primary-key table", createEvents, pkCopy)
	logCopy := h.addFigure(&figure{Workload: fmt.Sprintf("W8 COPY FROM STDIN binary into a log table, %d rows", h.cfg.CopyRows),
		Metric: "rows/s", Unit: "rows/s", HigherBetter: true, Systems: map[string]*stat{}})
	for _, t := range h.targets {
		h.logf("W8 COPY into a log table %s", t.name)
		logCopy.Systems[t.name] = h.copyLog(ctx, t)
	}
	h.flightIngest(ctx, cl, recs, "a log table", createEventLog, logCopy)
}

// copyLog is COPY FROM STDIN binary of copyRows events into a fresh log
// table per run on t.
func (h *harness) copyLog(ctx context.Context, t target) *stat {
	conn, err := pgx.Connect(ctx, t.connString)
	if err != nil {
		return errStat(err)
	}
	defer conn.Close(context.Background())
	run := 0
	return h.repeat(ctx, func(ctx context.Context, _ bool) (float64, error) {
		run++
		table := "events_log_" + strconv.Itoa(run)
		if _, err := conn.Exec(ctx, fmt.Sprintf(createEventLog, table)); err != nil {
			return 0, err
		}
		start := time.Now()
		if err := copyEvents(ctx, conn, table, 1, h.cfg.CopyRows); err != nil {
			return 0, err
		}
		elapsed := time.Since(start)
		var n int64
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			return 0, err
		}
		if n != h.cfg.CopyRows {
			h.mismatch("W8 COPY into a log table", t.name, fmt.Sprintf("%d rows after load, want %d", n, h.cfg.CopyRows))
		}
		_, _ = conn.Exec(ctx, "DROP TABLE "+table)
		return float64(h.cfg.CopyRows) / elapsed.Seconds(), nil
	})
}

// flightIngest measures Flight SQL ingest of recs into a fresh table per
// run made by ddl, with PostgreSQL's cell taken from copyF (its COPY binary
// into the same kind of table).
func (h *harness) flightIngest(ctx context.Context, cl *afsql.Client, recs []arrow.RecordBatch, kind, ddl string, copyF *figure) {
	f := h.addFigure(&figure{Workload: fmt.Sprintf("W8 bulk load into %s, %d rows (sqlgate: Flight SQL ingest of Arrow; PostgreSQL: COPY binary)", kind, h.cfg.CopyRows),
		Metric: "rows/s", Unit: "rows/s", HigherBetter: true, Systems: map[string]*stat{}})
	if copyF != nil {
		f.Systems[sysPostgres] = copyF.Systems[sysPostgres]
	}
	h.logf("W8 sqlgate Flight SQL ingest into %s", kind)
	run := 0
	f.Systems[sysSqlgate] = h.repeat(ctx, func(ctx context.Context, _ bool) (float64, error) {
		run++
		table := "events_ingest_" + strconv.Itoa(run)
		if _, err := cl.ExecuteUpdate(ctx, fmt.Sprintf(ddl, table)); err != nil {
			return 0, err
		}
		rdr, err := array.NewRecordReader(recs[0].Schema(), recs)
		if err != nil {
			return 0, err
		}
		defer rdr.Release()
		start := time.Now()
		n, err := cl.ExecuteIngest(ctx, rdr, &afsql.ExecuteIngestOpts{Table: table, TableDefinitionOptions: &afsql.TableDefinitionOptions{
			IfNotExist: afsql.TableDefinitionOptionsTableNotExistOptionFail, IfExists: afsql.TableDefinitionOptionsTableExistsOptionAppend}})
		elapsed := time.Since(start)
		if err != nil {
			return 0, err
		}
		if n != h.cfg.CopyRows {
			h.mismatch(f.Workload, sysSqlgate, fmt.Sprintf("%d rows ingested, want %d", n, h.cfg.CopyRows))
		}
		_, _ = cl.ExecuteUpdate(ctx, "DROP TABLE "+table)
		return float64(n) / elapsed.Seconds(), nil
	})
}

// eventBatches are events 1..rows as Arrow batches of the events table's
// schema.
func eventBatches(rows int64, per int) []arrow.RecordBatch {
	schema := eventsSchema() // importw.go
	var recs []arrow.RecordBatch
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for lo := int64(1); lo <= rows; lo += int64(per) {
		appendEvents(b, lo, min(lo+int64(per)-1, rows))
		recs = append(recs, b.NewRecordBatch())
	}
	return recs
}
