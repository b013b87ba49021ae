package relop

import (
	"context"
	"fmt"
	"github.com/sqlgate/sqlgate/types/numeric"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/internal/pgtest"
	"github.com/sqlgate/sqlgate/types"
)

// source emits prepared batches.
type source struct {
	schema  *arrow.Schema
	batches []arrow.RecordBatch
	pos     int
	closed  bool
}

func (s *source) Schema() *arrow.Schema { return s.schema }
func (s *source) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if s.pos >= len(s.batches) {
		return nil, nil
	}
	b := s.batches[s.pos]
	s.pos++
	b.Retain()
	return b, nil
}
func (s *source) Close() { s.closed = true }

// fields builds a schema from "name:type" pairs.
func schemaOf(ts ...types.T) *arrow.Schema {
	names := make([]string, len(ts))
	for i := range ts {
		names[i] = fmt.Sprintf("c%d", i)
	}
	return exec.SchemaOf(names, ts)
}

// rowsSource builds a source of rows (physical values, nil = NULL), cut
// into batches of batchRows rows.
func rowsSource(t testing.TB, schema *arrow.Schema, rows [][]any, batchRows int) *source {
	t.Helper()
	s := &source{schema: schema}
	for lo := 0; lo < len(rows) || (lo == 0 && len(rows) == 0 && false); lo += batchRows {
		hi := min(lo+batchRows, len(rows))
		s.batches = append(s.batches, buildBatch(t, schema, rows[lo:hi]))
	}
	return s
}

func buildBatch(t testing.TB, schema *arrow.Schema, rows [][]any) arrow.RecordBatch {
	bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer bld.Release()
	for _, r := range rows {
		for c, v := range r {
			appendAny(t, bld.Field(c), v)
		}
	}
	return bld.NewRecordBatch()
}

func appendAny(t testing.TB, b array.Builder, v any) {
	if v == nil {
		b.AppendNull()
		return
	}
	switch x := b.(type) {
	case *array.BooleanBuilder:
		x.Append(v.(bool))
	case *array.Int16Builder:
		x.Append(int16(v.(int)))
	case *array.Int32Builder:
		x.Append(int32(v.(int)))
	case *array.Int64Builder:
		x.Append(int64(v.(int)))
	case *array.Float32Builder:
		x.Append(float32(v.(float64)))
	case *array.Float64Builder:
		x.Append(v.(float64))
	case *array.Decimal128Builder:
		x.Append(v.(decimal128.Num))
	case *array.StringBuilder:
		x.Append(v.(string))
	case *array.BinaryBuilder:
		x.Append(v.([]byte))
	case *array.Date32Builder:
		x.Append(arrow.Date32(v.(int)))
	case *array.TimestampBuilder:
		x.Append(arrow.Timestamp(v.(int)))
	case *array.ExtensionBuilder:
		if err := types.AppendValue(x, numeric.MustParse(v.(string))); err != nil {
			t.Fatal(err)
		}
	case *array.ListBuilder:
		x.Append(true)
		for _, e := range v.([]any) {
			appendAny(t, x.ValueBuilder(), e)
		}
	default:
		t.Fatalf("appendAny: %T", b)
	}
}

func dec(t testing.TB, s string, scale int) decimal128.Num {
	n, err := types.ParseDecimal(s, types.DecimalType(38, scale))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// formatCell renders row i of a as PostgreSQL's text output does.
func formatCell(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "NULL"
	}
	switch x := a.(type) {
	case *array.Boolean:
		if x.Value(i) {
			return "t"
		}
		return "f"
	case *array.Int8:
		return strconv.Itoa(int(x.Value(i)))
	case *array.Int16:
		return strconv.Itoa(int(x.Value(i)))
	case *array.Int32:
		return strconv.Itoa(int(x.Value(i)))
	case *array.Int64:
		return strconv.FormatInt(x.Value(i), 10)
	case *array.Float32:
		return types.FormatFloat(float64(x.Value(i)), 32)
	case *array.Float64:
		return types.FormatFloat(x.Value(i), 64)
	case *array.Decimal128:
		return types.FormatDecimal(x.Value(i), int(x.DataType().(*arrow.Decimal128Type).Scale))
	case *types.NumericArray:
		return numeric.String(x.Value(i))
	case *array.String:
		return x.Value(i)
	case *array.Binary:
		return fmt.Sprintf("\\x%x", x.Value(i))
	case *array.Date32:
		return types.FormatText(int32(x.Value(i)), types.DateType)
	case *array.List:
		s, e := x.ValueOffsets(i)
		var parts []string
		for j := s; j < e; j++ {
			parts = append(parts, formatCell(x.ListValues(), int(j)))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return fmt.Sprintf("<%s>", a.DataType())
}

// drain runs op to the end and returns its rows as "a|b|c" lines.
func drain(t testing.TB, op exec.Operator) []string {
	t.Helper()
	rows, err := drainErr(op)
	if err != nil {
		t.Fatalf("drain: %v", err)
	}
	return rows
}

func drainErr(op exec.Operator) ([]string, error) {
	defer op.Close()
	var rows []string
	for {
		b, err := op.Next(context.Background())
		if err != nil {
			return rows, err
		}
		if b == nil {
			return rows, nil
		}
		rows = append(rows, batchRows(b)...)
		b.Release()
	}
}

// batchRows formats a batch's rows as drain does.
func batchRows(b arrow.RecordBatch) []string {
	rows := make([]string, b.NumRows())
	for i := range rows {
		cells := make([]string, b.NumCols())
		for c := range cells {
			cells[c] = formatCell(b.Column(c), i)
		}
		rows[i] = strings.Join(cells, "|")
	}
	return rows
}

func sorted(rows []string) []string {
	out := slices.Clone(rows)
	slices.Sort(out)
	return out
}

func equalRows(t testing.TB, what string, got, want []string) {
	t.Helper()
	compareRows(t, what, got, want, func(a, b string) bool { return a == b })
}

func compareRows(t testing.TB, what string, got, want []string, eq func(a, b string) bool) {
	t.Helper()
	for i := 0; i < min(len(got), len(want)); i++ {
		if !eq(got[i], want[i]) {
			t.Fatalf("%s: row %d differs (%d rows vs %d)\n got: %.600s\nwant: %.600s", what, i, len(got), len(want), got[i], want[i])
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%s: got %d rows, want %d", what, len(got), len(want))
	}
}

// pgEqual compares rows cell by cell, treating two decimal numbers printed
// with different scales as equal when they agree at the smaller scale: an
// Arrow decimal column has one scale where PostgreSQL picks one per value
// for quotients (see NumericAvgScale).
func pgEqual(a, b string) bool {
	if a == b {
		return true
	}
	ca, cb := strings.Split(a, "|"), strings.Split(b, "|")
	if len(ca) != len(cb) {
		return false
	}
	for i := range ca {
		if ca[i] != cb[i] && !sameDecimal(ca[i], cb[i]) {
			return false
		}
	}
	return true
}

func sameDecimal(a, b string) bool {
	sa, sb := decScale(a), decScale(b)
	if sa < 0 || sb < 0 {
		return false
	}
	s := min(sa, sb)
	ra, err1 := types.ParseDecimal(a, types.DecimalType(38, s))
	rb, err2 := types.ParseDecimal(b, types.DecimalType(38, s))
	return err1 == nil && err2 == nil && ra == rb
}

func decScale(s string) int {
	s = strings.TrimPrefix(s, "-")
	ip, fp, _ := strings.Cut(s, ".")
	if ip == "" {
		return -1
	}
	for _, c := range ip + fp {
		if c < '0' || c > '9' {
			return -1
		}
	}
	return len(fp)
}

// pgOracle is one PostgreSQL per test binary run, started lazily.
type pgOracle struct {
	conn *pgconn.PgConn
}

func startPG(t *testing.T) *pgOracle {
	t.Helper()
	pg := &pgOracle{conn: pgtest.Conn(t).PgConn()}
	pg.exec(t, "SET extra_float_digits = 1")
	return pg
}

func (p *pgOracle) exec(t testing.TB, sql string) {
	t.Helper()
	if _, err := p.conn.Exec(context.Background(), sql).ReadAll(); err != nil {
		t.Fatalf("pg: %s: %v", sql, err)
	}
}

// query returns the rows of sql as "a|b|c" lines (NULL as NULL).
func (p *pgOracle) query(t testing.TB, sql string) []string {
	t.Helper()
	res := p.conn.ExecParams(context.Background(), sql, nil, nil, nil, nil).Read()
	if res.Err != nil {
		t.Fatalf("pg: %s: %v", sql, res.Err)
	}
	var rows []string
	for _, r := range res.Rows {
		cells := make([]string, len(r))
		for i, c := range r {
			if c == nil {
				cells[i] = "NULL"
			} else {
				cells[i] = string(c)
			}
		}
		rows = append(rows, strings.Join(cells, "|"))
	}
	return rows
}

// load creates table name with the given column definitions and inserts rows.
func (p *pgOracle) load(t testing.TB, name string, colDefs []string, rows [][]any) {
	t.Helper()
	p.exec(t, fmt.Sprintf("DROP TABLE IF EXISTS %s; CREATE TABLE %s (%s)", name, name, strings.Join(colDefs, ", ")))
	for lo := 0; lo < len(rows); lo += 500 {
		hi := min(lo+500, len(rows))
		var vals []string
		for _, r := range rows[lo:hi] {
			cells := make([]string, len(r))
			for i, v := range r {
				cells[i] = sqlLiteral(v)
			}
			vals = append(vals, "("+strings.Join(cells, ",")+")")
		}
		p.exec(t, fmt.Sprintf("INSERT INTO %s VALUES %s", name, strings.Join(vals, ",")))
	}
}

func sqlLiteral(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	case float64:
		switch {
		case math.IsNaN(x):
			return "'NaN'"
		case math.IsInf(x, 1):
			return "'Infinity'"
		case math.IsInf(x, -1):
			return "'-Infinity'"
		case x == 0 && math.Signbit(x):
			return "'-0'"
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	case decimal128.Num:
		return x.BigInt().String() // callers use scale 0 or cast
	}
	return fmt.Sprint(v)
}

func tempDir(t testing.TB) string {
	d := t.TempDir()
	if _, err := os.Stat(d); err != nil {
		t.Fatal(err)
	}
	return d
}

// spillFiles counts files left in dir (operators must remove theirs).
func spillFiles(t testing.TB, dir string) int {
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}

// moduloResidual is a join condition on the row numbers of two (key, row
// number) sides: (left row + right row) % n == want. It keeps a known
// share of the candidate pairs, so residual paths are exercised.
func moduloResidual(n, want int64) Residual {
	return ResidualFunc(func(b arrow.RecordBatch) (arrow.Array, error) {
		l, r := b.Column(1).(*array.Int64), b.Column(3).(*array.Int64)
		bb := array.NewBooleanBuilder(memory.DefaultAllocator)
		defer bb.Release()
		for i := 0; i < int(b.NumRows()); i++ {
			bb.Append((l.Value(i)+r.Value(i))%n == want)
		}
		return bb.NewArray(), nil
	})
}

// skewKey replaces a row's key with key with probability in/of.
type skewKey struct {
	in, of int
	key    any
}

// skewedRows makes n (key, row number) rows whose keys are uniform in
// [0, keys) unless one of skews (tried in order, each a fresh draw)
// replaces it: hot keys, NULLs and extremes for the join tests.
func skewedRows(rng *rand.Rand, n, keys int, skews ...skewKey) [][]any {
	rows := make([][]any, n)
	for i := range rows {
		var k any = rng.IntN(keys)
		for _, s := range skews {
			if rng.IntN(s.of) < s.in {
				k = s.key
				break
			}
		}
		rows[i] = []any{k, i}
	}
	return rows
}
