package difftest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// Cell is one result value as text (both systems are read through the
// simple protocol, so every value arrives in its text format).
type Cell struct {
	Null bool
	Text string
}

func (c Cell) String() string {
	if c.Null {
		return "NULL"
	}
	return strconv.Quote(c.Text)
}

// QueryError is a failed query's SQLSTATE and message.
type QueryError struct {
	Code     string
	Message  string
	Detail   string
	Position int32
}

// Outcome is what one system answered to one query.
type Outcome struct {
	OIDs []uint32
	// Names are the columns' names (Compare does not compare them; the
	// generators whose class names columns do)
	Names []string
	Rows  [][]Cell
	Err   *QueryError
}

// connErrorCode marks a failure below SQL (connection lost, timeout): never
// a SQLSTATE either system would send.
const connErrorCode = "conn"

// Executor runs one query on one system.
type Executor interface {
	Run(ctx context.Context, sql string) Outcome
}

// Session is an Executor over one wire-protocol connection; it reconnects
// when a query kills the connection (a crash or a timeout), so one bad query
// does not end the run.
type Session struct {
	connString string
	timeout    time.Duration
	conn       *pgconn.PgConn
}

// Connect opens a session. timeout bounds each query.
func Connect(ctx context.Context, connString string, timeout time.Duration) (*Session, error) {
	s := &Session{connString: connString, timeout: timeout}
	if err := s.reconnect(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Session) reconnect(ctx context.Context) error {
	if s.conn != nil {
		_ = s.conn.Close(ctx)
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c, err := pgconn.Connect(cctx, s.connString)
	if err != nil {
		s.conn = nil
		return fmt.Errorf("connect %s: %w", s.connString, err)
	}
	s.conn = c
	return nil
}

// Close closes the connection.
func (s *Session) Close(ctx context.Context) {
	if s.conn != nil {
		_ = s.conn.Close(ctx)
	}
}

// Exec runs setup statements, failing on the first error.
func (s *Session) Exec(ctx context.Context, stmts []string) error {
	for _, st := range stmts {
		if o := s.Run(ctx, st); o.Err != nil {
			return fmt.Errorf("%s: %s (%s)", st, o.Err.Message, o.Err.Code)
		}
	}
	return nil
}

// Run executes sql and returns its outcome.
func (s *Session) Run(ctx context.Context, sql string) Outcome {
	var results []*pgconn.Result
	if qe := s.try(ctx, func(qctx context.Context) (err error) {
		results, err = s.conn.Exec(qctx, sql).ReadAll()
		return err
	}); qe != nil {
		return Outcome{Err: qe}
	}
	if len(results) == 0 {
		return Outcome{}
	}
	return outcomeOf(results[len(results)-1])
}

// try runs do on s's connection under the session's timeout, connecting
// again first when the connection is gone. It maps do's error: a server's
// refusal is its SQLSTATE, message, DETAIL and position; anything else
// lost the connection (connErrorCode), which is made again for the next
// statement.
func (s *Session) try(ctx context.Context, do func(qctx context.Context) error) *QueryError {
	if s.conn == nil || s.conn.IsClosed() {
		if err := s.reconnect(ctx); err != nil {
			return &QueryError{Code: connErrorCode, Message: err.Error()}
		}
	}
	qctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	err := do(qctx)
	if err == nil {
		return nil
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return &QueryError{Code: pgErr.Code, Message: pgErr.Message, Detail: pgErr.Detail, Position: pgErr.Position}
	}
	_ = s.reconnect(ctx)
	return &QueryError{Code: connErrorCode, Message: err.Error()}
}

// outcomeOf is the Outcome of a statement's result: its columns' types
// and names and its rows as text.
func outcomeOf(r *pgconn.Result) Outcome {
	var o Outcome
	for _, fd := range r.FieldDescriptions {
		o.OIDs = append(o.OIDs, fd.DataTypeOID)
		o.Names = append(o.Names, fd.Name)
	}
	for _, row := range r.Rows {
		cells := make([]Cell, len(row))
		for i, v := range row {
			if v == nil {
				cells[i] = Cell{Null: true}
			} else {
				cells[i] = Cell{Text: string(v)}
			}
		}
		o.Rows = append(o.Rows, cells)
	}
	return o
}

// PostgreSQL type OIDs of the floating types, whose values may differ in
// the last bits when aggregated in another order.
const (
	oidFloat4 = 700
	oidFloat8 = 701
)

// Compare reports whether two outcomes agree: the same SQLSTATE when both
// failed; else the same column types and the same rows, in order when
// ordered, as multisets otherwise. approxFloats lets floating values differ
// in their last bits (aggregates sum in an unspecified order); otherwise
// float text must match exactly, as a client would see it. why explains a
// disagreement.
func Compare(sg, pg Outcome, ordered, approxFloats bool) (same bool, why string) {
	return compareOutcomes(sg, pg, ordered, approxFloats, false)
}

// compareOutcomes is Compare; numericByValue also accepts numeric cells
// that differ only in display scale (1.00 vs 1).
func compareOutcomes(sg, pg Outcome, ordered, approxFloats, numericByValue bool) (same bool, why string) {
	same, why = compareRows(sg, pg, ordered, approxFloats, numericByValue, nil)
	if same || !ordered {
		return same, why
	}
	// -0 and 0 sort as equals, so rows tied on them may come in either
	// order: with the same multiset of rows, an order that agrees once the
	// zero's sign is ignored is the same order.
	if multiset, _ := compareRows(sg, pg, false, approxFloats, numericByValue, nil); !multiset {
		return same, why
	}
	if signless, _ := compareRows(sg, pg, true, approxFloats, numericByValue, allColumns); signless {
		return true, ""
	}
	return same, why
}

// allColumns makes compareRows ignore the sign of zero in every float column.
func allColumns(int) bool { return true }

// compareRows compares two outcomes; signlessZero, when set, says in which
// columns a float -0 counts as 0.
func compareRows(sg, pg Outcome, ordered, approxFloats, numericByValue bool, signlessZero func(col int) bool) (same bool, why string) {
	switch {
	case sg.Err != nil && pg.Err != nil:
		if sg.Err.Code == pg.Err.Code {
			return true, ""
		}
		return false, fmt.Sprintf("SQLSTATE %s vs %s", sg.Err.Code, pg.Err.Code)
	case sg.Err != nil:
		return false, fmt.Sprintf("only sqlgate failed (%s)", sg.Err.Code)
	case pg.Err != nil:
		return false, fmt.Sprintf("only PostgreSQL failed (%s)", pg.Err.Code)
	}
	if !slices.Equal(sg.OIDs, pg.OIDs) {
		return false, fmt.Sprintf("column types %v vs %v", sg.OIDs, pg.OIDs)
	}
	if len(sg.Rows) != len(pg.Rows) {
		return false, fmt.Sprintf("%d rows vs %d", len(sg.Rows), len(pg.Rows))
	}
	a, b := sg.Rows, pg.Rows
	if numericByValue {
		a, b = normaliseNumeric(a, pg.OIDs), normaliseNumeric(b, pg.OIDs)
	}
	if signlessZero != nil {
		a, b = normaliseZero(a, pg.OIDs, signlessZero), normaliseZero(b, pg.OIDs, signlessZero)
	}
	if !ordered {
		a, b = sortedRows(a), sortedRows(b)
	}
	for i := range a {
		for j := range a[i] {
			if !cellsEqual(a[i][j], b[i][j], pg.OIDs[j], approxFloats) {
				return false, fmt.Sprintf("row %d column %d: %s vs %s", i+1, j+1, a[i][j], b[i][j])
			}
		}
	}
	return true, ""
}

const (
	oidNumeric = 1700
	oidText    = 25
)

// normaliseNumeric rewrites numeric cells without trailing fractional
// zeros, so that equal values compare equal whatever their scale.
func normaliseNumeric(rows [][]Cell, oids []uint32) [][]Cell {
	out := make([][]Cell, len(rows))
	for i, r := range rows {
		out[i] = slices.Clone(r)
		for j, c := range r {
			if j < len(oids) && oids[j] == oidNumeric && !c.Null && strings.Contains(c.Text, ".") {
				t := strings.TrimRight(c.Text, "0")
				t = strings.TrimSuffix(t, ".")
				if t == "-0" {
					t = "0"
				}
				out[i][j].Text = t
			}
		}
	}
	return out
}

// normaliseZero rewrites a float -0 as 0 in the chosen columns.
func normaliseZero(rows [][]Cell, oids []uint32, cols func(int) bool) [][]Cell {
	out := make([][]Cell, len(rows))
	for i, r := range rows {
		out[i] = slices.Clone(r)
		for j, c := range r {
			if j < len(oids) && (oids[j] == oidFloat4 || oids[j] == oidFloat8) && cols(j) && c.Text == "-0" {
				out[i][j].Text = "0"
			}
		}
	}
	return out
}

func sortedRows(rows [][]Cell) [][]Cell {
	out := slices.Clone(rows)
	slices.SortFunc(out, func(x, y []Cell) int { return strings.Compare(rowKey(x), rowKey(y)) })
	return out
}

func rowKey(r []Cell) string {
	var b strings.Builder
	for _, c := range r {
		if c.Null {
			b.WriteString("\x00N")
		} else {
			b.WriteString("\x00V" + c.Text)
		}
	}
	return b.String()
}

func cellsEqual(a, b Cell, oid uint32, approxFloats bool) bool {
	if a.Null || b.Null {
		return a.Null == b.Null
	}
	if a.Text == b.Text {
		return true
	}
	if !approxFloats || (oid != oidFloat4 && oid != oidFloat8) {
		return false
	}
	x, errX := strconv.ParseFloat(a.Text, 64)
	y, errY := strconv.ParseFloat(b.Text, 64)
	if errX != nil || errY != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return false
	}
	tol := 1e-12
	if oid == oidFloat4 {
		tol = 1e-5
	}
	return math.Abs(x-y) <= tol*math.Max(math.Abs(x), math.Abs(y))
}

// Format renders an outcome for a report: the error, or up to max rows.
func (o Outcome) Format(max int) string {
	if o.Err != nil {
		return fmt.Sprintf("ERROR %s: %s", o.Err.Code, o.Err.Message)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d row(s), types %v", len(o.Rows), o.OIDs)
	for i, r := range o.Rows {
		if i == max {
			fmt.Fprintf(&b, "\n      ... %d more", len(o.Rows)-max)
			break
		}
		parts := make([]string, len(r))
		for j, c := range r {
			parts[j] = c.String()
		}
		b.WriteString("\n      " + strings.Join(parts, " | "))
	}
	return b.String()
}
