package sqllogictest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
)

// Defaults for Options fields left zero.
const (
	DefaultLabel         = "sqlgate"
	DefaultRecordTimeout = 30 * time.Second
	DefaultHashThreshold = 8
)

// maxIncludeDepth stops include cycles.
const maxIncludeDepth = 8

// cancelGrace is how long a timed-out statement may take to honour a
// CancelRequest before the connection is closed instead.
const cancelGrace = 2 * time.Second

// Options configures Run.
type Options struct {
	// Label is the engine name that skipif/onlyif compare against
	// (case-insensitively). Default "sqlgate".
	Label string
	// Connect returns a connection string for a fresh target for one
	// top-level file, and a cleanup run after the file (may be nil).
	Connect func(ctx context.Context, file string) (connString string, cleanup func(), err error)
	// Restart, when set, restarts a file's target after its records: it
	// stops the server of connString and starts it again on the same data
	// directory, returning the new connection string. The runner then
	// compares the target's catalogs before and after (restartcheck.go): a
	// directory that does not open again, or reads back other catalog
	// rows, fails the file.
	Restart func(ctx context.Context, connString string) (string, error)
	// Out receives failures ("file:line: ...") and per-file counts.
	// Default io.Discard.
	Out io.Writer
	// Parallel is how many files run concurrently. Default 1.
	Parallel int
	// RecordTimeout bounds each record. Default 30s.
	RecordTimeout time.Duration
	// HashThreshold is the hash threshold before a file's own
	// hash-threshold record: 0 means the SQLite default of 8, a negative
	// value means never hash.
	HashThreshold int
	// Complete rewrites each file's expected results (and statement
	// outcomes) with what the target answered, instead of comparing: run
	// against a reference engine (PostgreSQL) to write or refresh a suite.
	// Records in included files are run but not rewritten.
	Complete bool
	// Skips, when set, names records not to run on this target, each with
	// its reason (skiplist.go); they count as skipped.
	Skips *SkipList
}

// Failure is one failed record.
type Failure struct {
	File    string
	Line    int
	Message string // may span several lines
}

func (f Failure) String() string { return fmt.Sprintf("%s:%d: %s", f.File, f.Line, f.Message) }

// FileSummary counts the records of one top-level file (with its includes).
type FileSummary struct {
	File                    string
	Passed, Failed, Skipped int
	Failures                []Failure
	Duration                time.Duration
}

// Summary counts records over all files.
type Summary struct {
	Passed, Failed, Skipped int
	Files                   []FileSummary
}

// String is "N passed, N failed", plus ", N skipped" when N > 0.
func (s Summary) String() string {
	return countsString(s.Passed, s.Failed, s.Skipped)
}

func countsString(passed, failed, skipped int) string {
	out := fmt.Sprintf("%d passed, %d failed", passed, failed)
	if skipped > 0 {
		out += fmt.Sprintf(", %d skipped", skipped)
	}
	return out
}

// Run runs every file and returns the counts. Record failures are counted,
// not returned: the error is for unusable options or a cancelled context.
// A file that cannot be read or connected to counts as one failure.
func Run(ctx context.Context, files []string, opts Options) (Summary, error) {
	if opts.Connect == nil {
		return Summary{}, errors.New("sqllogic: Options.Connect is required")
	}
	if opts.Label == "" {
		opts.Label = DefaultLabel
	}
	if opts.Out == nil {
		opts.Out = io.Discard
	}
	if opts.Parallel <= 0 {
		opts.Parallel = 1
	}
	if opts.RecordTimeout <= 0 {
		opts.RecordTimeout = DefaultRecordTimeout
	}
	switch {
	case opts.HashThreshold == 0:
		opts.HashThreshold = DefaultHashThreshold
	case opts.HashThreshold < 0:
		opts.HashThreshold = 0
	}

	results := make([]FileSummary, len(files))
	var outMu sync.Mutex
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(opts.Parallel, max(len(files), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				var buf bytes.Buffer
				results[i] = runFile(ctx, files[i], opts, &buf)
				// Whole files at a time so parallel output does not interleave.
				outMu.Lock()
				_, _ = opts.Out.Write(buf.Bytes())
				outMu.Unlock()
			}
		}()
	}
feed:
	for i := range files {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()

	var sum Summary
	for i, fs := range results {
		if fs.File == "" { // never started: cancelled
			continue
		}
		sum.Files = append(sum.Files, results[i])
		sum.Passed += fs.Passed
		sum.Failed += fs.Failed
		sum.Skipped += fs.Skipped
	}
	return sum, ctx.Err()
}

// fileRun is the state of one top-level file.
type fileRun struct {
	opts       Options
	out        io.Writer
	summary    FileSummary
	connString string
	conn       *pgx.Conn
	connErr    error // set when the connection was lost and could not be restored

	threshold int
	sortMode  sortMode
	layout    layout
	labels    map[string]string // label key -> hash
	halted    bool
	// completions are the rewritten records (Complete mode), by the
	// 0-based index of their header line.
	completions map[int]completion
}

func runFile(ctx context.Context, file string, opts Options, out io.Writer) FileSummary {
	start := time.Now()
	r := &fileRun{
		opts:        opts,
		out:         out,
		summary:     FileSummary{File: file},
		threshold:   opts.HashThreshold,
		labels:      map[string]string{},
		completions: map[int]completion{},
	}
	defer func() {
		r.summary.Duration = time.Since(start)
		status := "ok  "
		if r.summary.Failed > 0 {
			status = "FAIL"
		}
		// Not "file: N passed, N failed" alone on a line: that shape is
		// reserved for the caller's closing total.
		fmt.Fprintf(out, "%s %s (%s) %s\n", status, file,
			countsString(r.summary.Passed, r.summary.Failed, r.summary.Skipped),
			r.summary.Duration.Round(time.Millisecond))
	}()

	text, err := os.ReadFile(file)
	if err != nil {
		r.fail(file, 0, fmt.Sprintf("cannot read file: %v", err))
		return r.summary
	}
	connString, cleanup, err := opts.Connect(ctx, file)
	if err != nil {
		r.fail(file, 0, fmt.Sprintf("cannot set up a target: %v", err))
		return r.summary
	}
	if cleanup != nil {
		defer cleanup()
	}
	r.connString = connString
	if err := r.connect(ctx); err != nil {
		r.fail(file, 0, fmt.Sprintf("cannot connect: %v", err))
		return r.summary
	}
	defer func() {
		if r.conn != nil {
			closeCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			_ = r.conn.Close(closeCtx)
			cancel()
		}
	}()
	r.runRecords(ctx, parseScript(file, string(text)), 0)
	if opts.Restart != nil && !r.halted && ctx.Err() == nil && r.connErr == nil {
		r.checkRestart(ctx, file)
	}
	if !r.halted && ctx.Err() == nil {
		for _, f := range opts.Skips.unused([]string{file}) {
			r.fail(f.File, f.Line, f.Message)
		}
	}
	if opts.Complete && r.connErr == nil && ctx.Err() == nil {
		if err := r.rewrite(file, string(text)); err != nil {
			r.fail(file, 0, fmt.Sprintf("cannot rewrite: %v", err))
		}
	}
	return r.summary
}

func (r *fileRun) connect(ctx context.Context) error {
	cfg, err := pgx.ParseConfig(r.connString)
	if err != nil {
		return err
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	// On a record timeout ask the server to cancel the statement, so the
	// session (and its temporary state) survives; close the socket only if
	// the cancel is ignored.
	cfg.BuildContextWatcherHandler = func(pc *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: pc, DeadlineDelay: cancelGrace}
	}
	connectCtx, cancel := context.WithTimeout(ctx, r.opts.RecordTimeout)
	defer cancel()
	conn, err := pgx.ConnectConfig(connectCtx, cfg)
	if err != nil {
		return err
	}
	r.conn = conn
	return nil
}

func (r *fileRun) fail(file string, line int, msg string) {
	f := Failure{File: file, Line: line, Message: msg}
	r.summary.Failed++
	r.summary.Failures = append(r.summary.Failures, f)
	fmt.Fprintln(r.out, f.String())
}

func (r *fileRun) skipped(rec record) bool {
	for _, c := range rec.conds {
		same := strings.EqualFold(c.engine, r.opts.Label)
		if same != c.onlyIf {
			return true
		}
	}
	return false
}

func (r *fileRun) runRecords(ctx context.Context, recs []record, depth int) {
	for i := range recs {
		if r.halted || ctx.Err() != nil {
			return
		}
		rec := &recs[i]
		skip := r.skipped(*rec)
		switch rec.kind {
		case kindHalt:
			r.halted = !skip
		case kindHashThreshold:
			if !skip {
				r.threshold = rec.threshold
			}
		case kindSortMode:
			if !skip {
				r.sortMode = rec.sortArg
			}
		case kindResultMode:
			if !skip {
				r.layout = rec.layoutArg
			}
		case kindInclude:
			if !skip {
				r.include(ctx, rec, depth)
			}
		case kindInvalid:
			if skip {
				r.summary.Skipped++
			} else {
				r.fail(rec.file, rec.line, rec.problem)
			}
		case kindStatement, kindQuery:
			if !skip {
				_, skip = r.opts.Skips.reason(rec.file, rec.line)
			}
			if skip {
				r.summary.Skipped++
				if rec.kind == kindQuery && rec.label != "" && rec.expectErr == nil {
					r.rememberSkippedLabel(rec)
				}
				continue
			}
			var msg string
			switch {
			case r.opts.Complete && depth == 0:
				msg = r.complete(ctx, rec)
			case rec.kind == kindStatement:
				msg = r.runStatement(ctx, rec)
			default:
				msg = r.runQuery(ctx, rec)
			}
			if msg == "" {
				r.summary.Passed++
			} else {
				r.fail(rec.file, rec.line, msg)
			}
		}
	}
}

func (r *fileRun) include(ctx context.Context, rec *record, depth int) {
	if depth >= maxIncludeDepth {
		r.fail(rec.file, rec.line, fmt.Sprintf("include nested deeper than %d (a cycle?)", maxIncludeDepth))
		return
	}
	pattern := rec.glob
	if !filepath.IsAbs(pattern) {
		pattern = filepath.Join(filepath.Dir(rec.file), pattern)
	}
	matches, err := filepath.Glob(pattern)
	if err != nil || len(matches) == 0 {
		r.fail(rec.file, rec.line, fmt.Sprintf("include %s matches no file", rec.glob))
		return
	}
	sort.Strings(matches)
	for _, m := range matches {
		text, err := os.ReadFile(m)
		if err != nil {
			r.fail(rec.file, rec.line, fmt.Sprintf("include: %v", err))
			continue
		}
		r.runRecords(ctx, parseScript(m, string(text)), depth+1)
	}
}

// execResult is the outcome of running one record's SQL.
type execResult struct {
	results []*pgconn.Result
	err     error // a server error (*pgconn.PgError) or a transport error
}

// exec runs sql with the simple protocol (several statements allowed) under
// the per-record timeout. The returned string is non-empty when the record
// cannot be judged at all: timeout, lost connection.
func (r *fileRun) exec(ctx context.Context, sql string) (execResult, string) {
	if r.conn == nil {
		return execResult{}, fmt.Sprintf("no connection to the target: %v", r.connErr)
	}
	rctx, cancel := context.WithTimeout(ctx, r.opts.RecordTimeout)
	defer cancel()
	results, err := readAll(r.conn.PgConn().Exec(rctx, sql))
	timedOut := rctx.Err() != nil && ctx.Err() == nil
	if r.conn.IsClosed() {
		r.reconnect(ctx)
	}
	if timedOut {
		// A cancelled statement reports SQLSTATE 57014, which must not
		// satisfy a `statement error` expectation.
		return execResult{}, fmt.Sprintf("timed out after %s\n  sql: %s", r.opts.RecordTimeout, firstLine(sql))
	}
	var pgErr *pgconn.PgError
	if err != nil && !errors.As(err, &pgErr) {
		return execResult{}, fmt.Sprintf("connection error: %v\n  sql: %s", err, firstLine(sql))
	}
	return execResult{results: results, err: err}, ""
}

// readAll is MultiResultReader.ReadAll, except that it keeps the row
// description of results without rows, so an empty SELECT still reports
// its columns.
func readAll(mrr *pgconn.MultiResultReader) ([]*pgconn.Result, error) {
	var results []*pgconn.Result
	for mrr.NextResult() {
		rr := mrr.ResultReader()
		res := &pgconn.Result{FieldDescriptions: append([]pgconn.FieldDescription(nil), rr.FieldDescriptions()...)}
		for rr.NextRow() {
			values := rr.Values()
			row := make([][]byte, len(values))
			for i, v := range values {
				if v != nil {
					// Values are only valid until the next row; keep a copy
					// that distinguishes the empty string from NULL.
					row[i] = append(make([]byte, 0, len(v)), v...)
				}
			}
			res.Rows = append(res.Rows, row)
		}
		res.CommandTag, res.Err = rr.Close()
		results = append(results, res)
	}
	return results, mrr.Close()
}

// reconnect replaces a closed connection so one crash or timeout does not
// fail every later record for a different reason.
func (r *fileRun) reconnect(ctx context.Context) {
	r.conn = nil
	if err := r.connect(ctx); err != nil {
		r.connErr = err
	}
}

func firstLine(sql string) string {
	line, _, more := strings.Cut(strings.TrimSpace(sql), "\n")
	if more {
		line += " ..."
	}
	return line
}

// checkError judges a server error (or its absence) against expectations.
func checkError(exp *errorExpectation, err error, sql string) string {
	if err == nil {
		return fmt.Sprintf("expected %s, but it succeeded\n  sql: %s", exp, firstLine(sql))
	}
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return fmt.Sprintf("expected %s, got a non-SQL error: %v", exp, err)
	}
	ok := true
	switch {
	case exp.sqlstate != "":
		ok = pgErr.Code == exp.sqlstate
	case exp.pattern != nil:
		ok = exp.pattern.MatchString(pgErr.Error())
	case exp.hasMsg:
		ok = strings.TrimSpace(pgErr.Message) == exp.message || strings.TrimSpace(pgErr.Error()) == exp.message
	}
	if ok {
		return ""
	}
	return fmt.Sprintf("expected %s\n  got:      %s\n  sql: %s", exp, pgErr.Error(), firstLine(sql))
}

func (r *fileRun) runStatement(ctx context.Context, rec *record) string {
	res, problem := r.exec(ctx, rec.sql)
	if problem != "" {
		return problem
	}
	if rec.expectErr != nil {
		return checkError(rec.expectErr, res.err, rec.sql)
	}
	if res.err != nil {
		return fmt.Sprintf("statement failed: %v\n  sql: %s", res.err, firstLine(rec.sql))
	}
	if rec.hasCount {
		var got int64
		var tag string
		if n := len(res.results); n > 0 {
			got = res.results[n-1].CommandTag.RowsAffected()
			tag = res.results[n-1].CommandTag.String()
		}
		if got != rec.expectCount {
			return fmt.Sprintf("expected %d rows affected\n  got:      %d (%s)\n  sql: %s", rec.expectCount, got, tag, firstLine(rec.sql))
		}
	}
	return ""
}

func (r *fileRun) runQuery(ctx context.Context, rec *record) string {
	res, problem := r.exec(ctx, rec.sql)
	if problem != "" {
		return problem
	}
	if rec.expectErr != nil {
		return checkError(rec.expectErr, res.err, rec.sql)
	}
	if res.err != nil {
		return fmt.Sprintf("query failed: %v\n  sql: %s", res.err, firstLine(rec.sql))
	}
	// With several statements, the rows are those of the last one that
	// returned a row description.
	var result *pgconn.Result
	for _, rs := range res.results {
		if len(rs.FieldDescriptions) > 0 {
			result = rs
		}
	}
	if result == nil {
		return fmt.Sprintf("query returned no result set (expected %d columns)\n  sql: %s", len(rec.types), firstLine(rec.sql))
	}
	ncols := len(rec.types)
	if len(result.FieldDescriptions) != ncols {
		return fmt.Sprintf("query has %d type letters (%s) but returned %d columns\n  sql: %s",
			ncols, rec.types, len(result.FieldDescriptions), firstLine(rec.sql))
	}
	rows := make([][]string, len(result.Rows))
	for i, raw := range result.Rows {
		row := make([]string, ncols)
		for j := range row {
			row[j] = renderValue(rec.types[j], raw[j], result.FieldDescriptions[j].DataTypeOID == boolOID)
		}
		rows[i] = row
	}
	check := r.resultCheck(rec)
	arranged := arrange(rows, check.mode, ncols)
	var msgs []string
	if msg := check.compare(arranged); msg != "" {
		msgs = append(msgs, fmt.Sprintf("query result mismatch (%s)\n%s\n  sql: %s", check.mode, msg, firstLine(rec.sql)))
	}
	if rec.label != "" {
		if msg := r.checkLabel(rec.label, hashValues(flatten(arranged))); msg != "" {
			msgs = append(msgs, msg)
		}
	}
	return strings.Join(msgs, "\n")
}

func (r *fileRun) resultCheck(rec *record) resultCheck {
	mode := r.sortMode
	if rec.sortExplicit {
		mode = rec.sort
	}
	return resultCheck{
		expected:      rec.expected,
		expectedLines: rec.expectedLines,
		mode:          mode,
		layout:        r.layout,
		ncols:         len(rec.types),
		threshold:     r.threshold,
	}
}

// checkLabel records the first hash seen for a label and compares later
// ones against it.
func (r *fileRun) checkLabel(label, hash string) string {
	key := labelKey(label)
	prev, seen := r.labels[key]
	if !seen {
		r.labels[key] = hash
		return ""
	}
	if prev == hash {
		return ""
	}
	return fmt.Sprintf("label %s: result hashes to %s, but an earlier query with this label hashed to %s", label, hash, prev)
}

// rememberSkippedLabel lets a skipped labelled query (typically the other
// engine's variant) still define the label's hash from its stored results.
func (r *fileRun) rememberSkippedLabel(rec *record) {
	key := labelKey(rec.label)
	if _, seen := r.labels[key]; seen {
		return
	}
	if h, ok := r.resultCheck(rec).expectedHash(); ok {
		r.labels[key] = h
	}
}

// SameTarget is an Options.Connect for a target that every file shares
// (e.g. `sqlgate slt --url ...`): files then see each other's tables, so
// they should create uniquely named ones or drop what they create.
func SameTarget(connString string) func(ctx context.Context, file string) (string, func(), error) {
	return func(context.Context, string) (string, func(), error) { return connString, nil, nil }
}
