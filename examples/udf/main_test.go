package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/server"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// testUDFs adds, to the example's registry, UDFs that misbehave on
// purpose. sawCancel is set when sleepy sees its context end.
func testUDFs(t *testing.T, sawCancel *atomic.Bool) *udf.Registry {
	t.Helper()
	reg, err := registry()
	if err != nil {
		t.Fatal(err)
	}
	int64s := func(vals ...int64) arrow.Array {
		b := array.NewInt64Builder(memory.DefaultAllocator)
		defer b.Release()
		b.AppendValues(vals, nil)
		return b.NewArray()
	}
	scalars := []udf.Scalar{
		{Name: "fail_if_negative", Args: []types.T{types.Int64Type}, Returns: types.Int64Type,
			Fn: func(_ context.Context, args []arrow.Array) (arrow.Array, error) {
				a := args[0].(*array.Int64)
				for i := 0; i < a.Len(); i++ {
					if a.Value(i) < 0 {
						return nil, fmt.Errorf("negative input %d", a.Value(i))
					}
				}
				a.Retain()
				return a, nil
			}},
		{Name: "boom", Args: []types.T{types.Int64Type}, Returns: types.Int64Type,
			Fn: func(context.Context, []arrow.Array) (arrow.Array, error) { panic("kaboom in a UDF") }},
		{Name: "bad_length", Args: []types.T{types.Int64Type}, Returns: types.Int64Type,
			Fn: func(_ context.Context, args []arrow.Array) (arrow.Array, error) {
				return int64s(make([]int64, args[0].Len()+1)...), nil
			}},
		{Name: "bad_type", Args: []types.T{types.Int64Type}, Returns: types.StringType,
			Fn: func(_ context.Context, args []arrow.Array) (arrow.Array, error) {
				return int64s(make([]int64, args[0].Len())...), nil
			}},
		{Name: "sleepy", Args: []types.T{types.Int64Type}, Returns: types.Int64Type,
			Fn: func(ctx context.Context, args []arrow.Array) (arrow.Array, error) {
				select {
				case <-ctx.Done():
					sawCancel.Store(true)
					return nil, ctx.Err()
				case <-time.After(30 * time.Second):
					return nil, errors.New("the context never ended")
				}
			}},
		// overloads: resolution picks by argument type, as for built-ins
		{Name: "kind_of", Args: []types.T{types.Int64Type}, Returns: types.StringType, Fn: constString("bigint")},
		{Name: "kind_of", Args: []types.T{types.StringType}, Returns: types.StringType, Fn: constString("text")},
	}
	for _, s := range scalars {
		if err := reg.AddScalar(s); err != nil {
			t.Fatal(err)
		}
	}
	one := []udf.Column{{Name: "x", Type: types.Int64Type}}
	tables := []udf.Table{
		{Name: "table_sleepy", Columns: one, Fn: func(ctx context.Context, _ []arrow.Array, _ func(arrow.RecordBatch) error) error {
			select {
			case <-ctx.Done():
				sawCancel.Store(true)
				return errors.New("interrupted")
			case <-time.After(30 * time.Second):
				return errors.New("the context never ended")
			}
		}},
		{Name: "table_fails", Columns: one, Fn: func(context.Context, []arrow.Array, func(arrow.RecordBatch) error) error {
			return errors.New("no rows today")
		}},
		{Name: "table_panics", Columns: one, Fn: func(context.Context, []arrow.Array, func(arrow.RecordBatch) error) error {
			panic(fmt.Sprintf("table %s", "kaboom"))
		}},
		{Name: "table_bad_schema", Columns: one, Fn: func(_ context.Context, _ []arrow.Array, emit func(arrow.RecordBatch) error) error {
			b := array.NewStringBuilder(memory.DefaultAllocator)
			defer b.Release()
			b.Append("not a bigint")
			col := b.NewArray()
			defer col.Release()
			rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.BinaryTypes.String}}, nil), []arrow.Array{col}, 1)
			defer rec.Release()
			return emit(rec)
		}},
	}
	for _, tb := range tables {
		if err := reg.AddTable(tb); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

func constString(s string) udf.ScalarFunc {
	return func(_ context.Context, args []arrow.Array) (arrow.Array, error) {
		b := array.NewStringBuilder(memory.DefaultAllocator)
		defer b.Release()
		for i := 0; i < args[0].Len(); i++ {
			b.Append(s)
		}
		return b.NewArray(), nil
	}
}

func startTest(t *testing.T, reg *udf.Registry) *pgx.Conn {
	t.Helper()
	conn, _ := startServer(t, reg)
	return conn
}

// startServer starts a server with reg's UDFs and connects to it; it
// returns the connection and the server's connection string.
func startServer(t *testing.T, reg *udf.Registry) (*pgx.Conn, string) {
	t.Helper()
	srv, err := server.Start(context.Background(), server.Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(), UDFs: reg})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Stop(ctx)
	})
	conn, err := pgx.Connect(context.Background(), srv.ConnString())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn, srv.ConnString()
}

// execAll runs statements that must succeed.
func execAll(t *testing.T, conn *pgx.Conn, qs ...string) {
	t.Helper()
	for _, q := range qs {
		if _, err := conn.Exec(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// rowCase is a query and its rows as rows returns them.
type rowCase struct {
	q    string
	want []string
}

func checkRows(t *testing.T, conn *pgx.Conn, cases []rowCase) {
	t.Helper()
	for _, c := range cases {
		got := rows(t, conn, c.q)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.q, got, c.want)
		}
	}
}

// rows runs q and returns its rows as text, cells joined by "|".
func rows(t *testing.T, conn *pgx.Conn, q string, args ...any) []string {
	t.Helper()
	r, err := conn.Query(context.Background(), q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer r.Close()
	var out []string
	for r.Next() {
		vals, err := r.Values()
		if err != nil {
			t.Fatal(err)
		}
		cells := make([]string, len(vals))
		for i, v := range vals {
			cells[i] = fmt.Sprint(v)
		}
		out = append(out, strings.Join(cells, "|"))
	}
	if err := r.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

// checkError runs q, which must fail with code and a message holding
// each of contains, and returns the error.
func checkError(t *testing.T, conn *pgx.Conn, q, code string, contains []string) *pgconn.PgError {
	t.Helper()
	pe := queryError(t, conn, q)
	if pe.Code != code {
		t.Errorf("%s: code %s (%s), want %s", q, pe.Code, pe.Message, code)
	}
	for _, s := range contains {
		if !strings.Contains(pe.Message, s) {
			t.Errorf("%s: message %q lacks %q", q, pe.Message, s)
		}
	}
	return pe
}

func queryError(t *testing.T, conn *pgx.Conn, q string) *pgconn.PgError {
	t.Helper()
	_, err := conn.Exec(context.Background(), q)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		t.Fatalf("%s: want a server error, got %v", q, err)
	}
	return pe
}

func TestExampleUDFs(t *testing.T) {
	var sawCancel atomic.Bool
	conn := startTest(t, testUDFs(t, &sawCancel))
	ctx := context.Background()
	execAll(t, conn,
		"CREATE TABLE docs (id INT PRIMARY KEY, body TEXT)",
		"INSERT INTO docs VALUES (1, 'to be or not to be'), (2, 'hello'), (3, NULL), (4, '  spaced   out  ')",
	)
	checkRows(t, conn, []rowCase{
		{"SELECT id, word_count(body) FROM docs ORDER BY id", []string{"1|6", "2|1", "3|<nil>", "4|2"}},
		{"SELECT word_count('a b c') + 1", []string{"4"}},
		{"SELECT word_count(body::varchar) AS w FROM docs WHERE id = 2", []string{"1"}},
		{"SELECT id FROM docs WHERE word_count(body) > 1 ORDER BY id", []string{"1", "4"}},
		{"SELECT id, word_count(body) * word_count(body) FROM docs WHERE word_count(body) = 1", []string{"2|1"}},
		{"SELECT kind_of(1), kind_of('x'), kind_of(2::smallint)", []string{"bigint|text|bigint"}},
		{"SELECT * FROM fizzbuzz(5)", []string{"1|1", "2|2", "3|fizz", "4|4", "5|buzz"}},
		{"SELECT f.word FROM fizzbuzz(15) f WHERE f.n = 15", []string{"fizzbuzz"}},
		{"SELECT count(*), max(n) FROM fizzbuzz(2500)", []string{"2500|2500"}},
		{"SELECT n FROM fizzbuzz(100000) LIMIT 2", []string{"1", "2"}},
		{"SELECT * FROM fizzbuzz(0)", nil},
		{"SELECT * FROM fizzbuzz(NULL)", nil},
		{"SELECT a, b FROM fizzbuzz(3) AS z(a, b) WHERE b = 'fizz'", []string{"3|fizz"}},
		{"SELECT d.id, f.word FROM docs d JOIN fizzbuzz(3) f ON f.n = d.id ORDER BY d.id", []string{"1|1", "2|2", "3|fizz"}},
		{"SELECT word_count(word) FROM fizzbuzz(3)", []string{"1", "1", "1"}},
		// in correlated subqueries, over the inner and the outer row
		{"SELECT d.id, (SELECT count(*) FROM fizzbuzz(3) f WHERE word_count(f.word) = d.id) FROM docs d ORDER BY d.id", []string{"1|3", "2|0", "3|0", "4|0"}},
		{"SELECT d.id, (SELECT max(n + word_count(d.body)) FROM fizzbuzz(2)) FROM docs d ORDER BY d.id", []string{"1|8", "2|3", "3|<nil>", "4|4"}},
		{"SELECT sum(word_count(body))::bigint, count(*) FILTER (WHERE word_count(body) = 1) FROM docs", []string{"9|1"}},
		{"SELECT word_count(body) AS w, count(*) FROM docs GROUP BY word_count(body) ORDER BY w", []string{"1|1", "2|1", "6|1", "<nil>|1"}},
		{"SELECT id FROM docs ORDER BY word_count(body) DESC NULLS LAST, id", []string{"1", "4", "2", "3"}},
	})
	if _, err := conn.Exec(ctx, "INSERT INTO docs SELECT n + 10, word FROM fizzbuzz(3) WHERE word_count(word) = 1"); err != nil {
		t.Fatal(err)
	}
	if got := rows(t, conn, "SELECT id, body FROM docs WHERE id > 10 ORDER BY id"); strings.Join(got, ",") != "11|1,12|2,13|fizz" {
		t.Errorf("INSERT ... SELECT FROM a UDF: %q", got)
	}
	execAll(t, conn,
		"UPDATE docs SET body = body || ' x' WHERE word_count(body) = 1 AND id > 10",
		"DELETE FROM docs WHERE id > 10 AND word_count(body) = 2 AND body <> '2 x'",
	)
	if got := rows(t, conn, "SELECT id, body FROM docs WHERE id > 10 ORDER BY id"); strings.Join(got, ",") != "12|2 x" {
		t.Errorf("UPDATE and DELETE with a UDF: %q", got)
	}
	if got := rows(t, conn, "SELECT word_count(body) AS w FROM docs GROUP BY 1 HAVING word_count(min(body)) >= 2 ORDER BY 1"); strings.Join(got, ",") != "2,6" {
		t.Errorf("HAVING with a UDF: %q", got)
	}
	if got := rows(t, conn, "SELECT word_count($1)", "one two"); len(got) != 1 || got[0] != "2" {
		t.Errorf("with a parameter: %q", got)
	}

	errs := []struct {
		q, code  string
		contains []string
	}{
		{"SELECT word_count(42)", "42883", []string{"function word_count(integer) does not exist"}},
		{"SELECT word_count('a', 'b')", "42883", []string{"word_count(unknown, unknown)"}},
		{"SELECT * FROM fizzbuzz('x')", "22P02", nil},
		{"SELECT * FROM fizzbuzz(1.5::float8)", "42883", []string{"fizzbuzz(double precision)"}},
		{"SELECT * FROM no_such_fn(1)", "42883", []string{"no_such_fn(integer)"}},
		{"SELECT * FROM fizzbuzz(3) WITH ORDINALITY", "0A000", nil},
		{"SELECT d.id FROM docs d JOIN fizzbuzz(3) f ON word_count(f.word) + 1 = d.id", "0A000", []string{"word_count"}},
		{"INSERT INTO docs VALUES (100, 'x'), (word_count('a b c'), 'y')", "0A000", []string{"word_count"}},
		{"SELECT fail_if_negative(id - 3) FROM docs", "38000", []string{"fail_if_negative", "negative input -2"}},
		{"SELECT * FROM fizzbuzz(-1)", "38000", []string{"fizzbuzz", "at least 0"}},
		{"SELECT * FROM table_fails()", "38000", []string{"table_fails", "no rows today"}},
		{"SELECT bad_length(id) FROM docs", "39000", []string{"bad_length", "returned 6 values for a batch of 5 rows"}},
		{"SELECT bad_type(id) FROM docs", "39000", []string{"bad_type", "int64", "utf8"}},
		{"SELECT * FROM table_bad_schema()", "39000", []string{"table_bad_schema", "column 1 (x)", "utf8", "int64"}},
	}
	for _, e := range errs {
		checkError(t, conn, e.q, e.code, e.contains)
	}

	// A panic is 39000 with the panic value and the stack, and the session
	// goes on.
	for _, c := range []struct{ q, value, frame string }{
		{"SELECT boom(id) FROM docs", "kaboom in a UDF", "examples/udf.testUDFs"},
		{"SELECT * FROM table_panics()", "table kaboom", "examples/udf.testUDFs"},
	} {
		pe := queryError(t, conn, c.q)
		if pe.Code != "39000" || !strings.Contains(pe.Message, c.value) {
			t.Errorf("%s: %s %q", c.q, pe.Code, pe.Message)
		}
		if !strings.Contains(pe.Detail, "goroutine") || !strings.Contains(pe.Detail, c.frame) {
			t.Errorf("%s: detail has no stack with %s:\n%s", c.q, c.frame, pe.Detail)
		}
		if got := rows(t, conn, "SELECT word_count('still here')"); len(got) != 1 || got[0] != "2" {
			t.Errorf("after a panic: %q", got)
		}
	}

	// statement_timeout reaches the UDF through its context.
	if _, err := conn.Exec(ctx, "SET statement_timeout = '200ms'"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	pe := queryError(t, conn, "SELECT sleepy(1)")
	if pe.Code != "57014" || time.Since(start) > 10*time.Second {
		t.Errorf("timeout: %s %q after %v", pe.Code, pe.Message, time.Since(start))
	}
	if !sawCancel.Load() {
		t.Error("the UDF did not see its context end")
	}
	sawCancel.Store(false)
	pe = queryError(t, conn, "SELECT * FROM table_sleepy()")
	if pe.Code != "57014" || !sawCancel.Load() {
		t.Errorf("timeout in a record-batch UDF: %s %q, saw cancel %v", pe.Code, pe.Message, sawCancel.Load())
	}
	if _, err := conn.Exec(ctx, "RESET statement_timeout"); err != nil {
		t.Fatal(err)
	}
}

func TestExampleExplain(t *testing.T) {
	conn := startTest(t, testUDFs(t, new(atomic.Bool)))
	ctx := context.Background()
	if _, err := conn.Exec(ctx, "CREATE TABLE docs (id INT PRIMARY KEY, body TEXT)"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "INSERT INTO docs VALUES (1, 'a b'), (2, 'c')"); err != nil {
		t.Fatal(err)
	}
	plan := strings.Join(rows(t, conn, "EXPLAIN SELECT id, word_count(body) FROM docs"), "\n")
	udfLine := lineWith(plan, "opaque_udf")
	for _, want := range []string{"opaque_udf: word_count(body) AS", "lowerable=false", "executor_tier=go_udf", "word_count_3 int64"} {
		if !strings.Contains(udfLine, want) {
			t.Errorf("EXPLAIN's UDF line lacks %q:\n%s", want, plan)
		}
	}
	if strings.Contains(udfLine, "backend") {
		t.Errorf("an opaque node has no kernel backend:\n%s", plan)
	}
	if scan := lineWith(plan, "scan"); !strings.Contains(scan, "lowerable=true") {
		t.Errorf("the scan stays lowerable:\n%s", plan)
	}

	plan = strings.Join(rows(t, conn, "EXPLAIN SELECT * FROM fizzbuzz(3)"), "\n")
	if l := lineWith(plan, "opaque_udf"); !strings.Contains(l, "fizzbuzz(3)") || !strings.Contains(l, "executor_tier=go_udf") ||
		!strings.Contains(l, "lowerable=false") {
		t.Errorf("EXPLAIN of a record-batch UDF:\n%s", plan)
	}

	plan = strings.Join(rows(t, conn, "EXPLAIN ANALYZE SELECT n FROM fizzbuzz(2500)"), "\n")
	if l := lineWith(plan, "opaque_udf"); !strings.Contains(l, "batches_out=3") || !strings.Contains(l, "rows_out=2500") {
		t.Errorf("EXPLAIN ANALYZE of a record-batch UDF:\n%s", plan)
	}
	plan = strings.Join(rows(t, conn, "EXPLAIN ANALYZE SELECT word_count(body) FROM docs"), "\n")
	if l := lineWith(plan, "opaque_udf"); !strings.Contains(l, "rows_in=2") || !strings.Contains(l, "rows_out=2") || !strings.Contains(l, "processing_time_ns=") {
		t.Errorf("EXPLAIN ANALYZE of a scalar UDF:\n%s", plan)
	}

	js := strings.Join(rows(t, conn, "EXPLAIN (FORMAT JSON) SELECT word_count(body) FROM docs"), "\n")
	for _, want := range []string{`"Node Type": "opaque_udf"`, `"Lowerable": false`, `"Executor Tier": "go_udf"`} {
		if !strings.Contains(js, want) {
			t.Errorf("EXPLAIN JSON lacks %s:\n%s", want, js)
		}
	}
}

func lineWith(text, s string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// TestRunServes runs the example's own entry point: it serves until its
// context ends.
func TestRunServes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, "127.0.0.1:0", t.TempDir()) }()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("run did not stop")
	}
}

func TestBuiltinNameRefused(t *testing.T) {
	reg := udf.NewRegistry()
	if err := reg.AddScalar(udf.Scalar{Name: "upper", Args: []types.T{types.StringType}, Returns: types.StringType, Fn: constString("x")}); err != nil {
		t.Fatal(err)
	}
	_, err := server.Start(context.Background(), server.Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(), UDFs: reg})
	if err == nil || !strings.Contains(err.Error(), "upper") {
		t.Fatalf("a UDF named like a built-in: %v", err)
	}
}

// batchUDFs adds, to the example's registry, batch UDFs: a windowed sum
// written in Go, and ones that break their declaration on purpose.
func batchUDFs(t *testing.T) *udf.Registry {
	t.Helper()
	reg := testUDFs(t, new(atomic.Bool))
	in := []udf.Column{{Name: "v", Type: types.Int64Type}}
	out := []udf.Column{{Name: "v", Type: types.Int64Type}, {Name: "total", Type: types.T{Kind: types.Int64, NotNull: true}}}
	schema := func(names ...string) *arrow.Schema {
		fs := make([]arrow.Field, len(names))
		for i, n := range names {
			fs[i] = arrow.Field{Name: n, Type: arrow.PrimitiveTypes.Int64, Nullable: true}
		}
		return arrow.NewSchema(fs, nil)
	}
	// emitPairs emits one batch (v, total) of the given columns.
	emitPairs := func(emit func(arrow.RecordBatch) error, s *arrow.Schema, v, total []int64, valid []bool) error {
		b := array.NewRecordBuilder(memory.DefaultAllocator, s)
		defer b.Release()
		b.Field(0).(*array.Int64Builder).AppendValues(v, nil)
		b.Field(1).(*array.Int64Builder).AppendValues(total, valid)
		rec := b.NewRecordBatch()
		defer rec.Release()
		return emit(rec)
	}
	batches := []udf.Batch{
		// moving_sum(rel, width): each v with the sum of the last width
		// values, across batch boundaries (state kept between batches).
		{Name: "moving_sum", Input: in, Args: []types.T{types.Int32Type}, Columns: out,
			Fn: func(ctx context.Context, args []arrow.Array, rel udf.BatchInput, emit func(arrow.RecordBatch) error) error {
				width := int(args[0].(*array.Int32).Value(0))
				if width < 1 {
					return udf.Errorf("moving_sum needs a width of at least 1, got %d", width)
				}
				var window []int64
				for {
					b, err := rel.Next(ctx)
					if err != nil || b == nil {
						return err
					}
					col := b.Column(0).(*array.Int64)
					vs, totals := make([]int64, col.Len()), make([]int64, col.Len())
					for i := range vs {
						vs[i] = col.Value(i) // NULL reads as 0 here
						window = append(window, vs[i])
						if len(window) > width {
							window = window[1:]
						}
						for _, x := range window {
							totals[i] += x
						}
					}
					if err := emitPairs(emit, schema("v", "total"), vs, totals, nil); err != nil {
						return err
					}
				}
			}},
		{Name: "batch_bad_name", Input: in, Columns: out,
			Fn: func(ctx context.Context, _ []arrow.Array, _ udf.BatchInput, emit func(arrow.RecordBatch) error) error {
				return emitPairs(emit, schema("v", "sum"), []int64{1}, []int64{1}, nil)
			}},
		{Name: "batch_null", Input: in, Columns: out,
			Fn: func(ctx context.Context, _ []arrow.Array, _ udf.BatchInput, emit func(arrow.RecordBatch) error) error {
				return emitPairs(emit, schema("v", "total"), []int64{1, 2}, []int64{1, 0}, []bool{true, false})
			}},
		{Name: "batch_fails", Input: in, Columns: out,
			Fn: func(context.Context, []arrow.Array, udf.BatchInput, func(arrow.RecordBatch) error) error {
				return udf.Errorf("no batches today")
			}},
		{Name: "batch_panics", Input: in, Columns: out,
			Fn: func(context.Context, []arrow.Array, udf.BatchInput, func(arrow.RecordBatch) error) error {
				panic("batch kaboom")
			}},
		// batch_swallows reads its input until it fails and drops the
		// error: the statement still fails with the input's own SQLSTATE
		// (the rows before a failing row come first, as PostgreSQL
		// evaluates row by row: exec/roworder.go)
		{Name: "batch_swallows", Input: in, Columns: out,
			Fn: func(ctx context.Context, _ []arrow.Array, rel udf.BatchInput, _ func(arrow.RecordBatch) error) error {
				for {
					b, err := rel.Next(ctx)
					if err != nil || b == nil {
						return nil
					}
				}
			}},
	}
	for _, b := range batches {
		if err := reg.AddBatch(b); err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

func TestExampleBatchUDFs(t *testing.T) {
	conn := startTest(t, batchUDFs(t))
	execAll(t, conn,
		"CREATE TABLE docs (id INT PRIMARY KEY, body TEXT)",
		"INSERT INTO docs VALUES (1, 'to be or not'), (2, 'hello'), (3, NULL), (4, '  spaced   out  ')",
		"CREATE TABLE nums (v BIGINT)",
		"INSERT INTO nums SELECT g FROM generate_series(1, 5000) g",
	)
	checkRows(t, conn, []rowCase{
		// the unnest: another schema, another row count
		{"SELECT * FROM explode_words(TABLE docs) ORDER BY id, pos", []string{"1|1|to", "1|2|be", "1|3|or", "1|4|not", "2|1|hello", "4|1|spaced", "4|2|out"}},
		{"SELECT e.word FROM explode_words((SELECT id, body FROM docs WHERE id = 4)) AS e", []string{"spaced", "out"}},
		{"SELECT w, count(*) FROM explode_words((SELECT id::int, upper(body) FROM docs)) AS x(i, p, w) GROUP BY w HAVING count(*) > 0 ORDER BY w LIMIT 2",
			[]string{"BE|1", "HELLO|1"}},
		{"SELECT d.id, count(e.word) FROM docs d LEFT JOIN explode_words(TABLE docs) e ON e.id = d.id GROUP BY d.id ORDER BY d.id", []string{"1|4", "2|1", "3|0", "4|2"}},
		{"SELECT count(*) FROM explode_words((SELECT n, word FROM fizzbuzz(3000)))", []string{"3000"}},
		{"SELECT * FROM explode_words((SELECT 7, 'a b'))", []string{"7|1|a", "7|2|b"}},
		{"SELECT * FROM explode_words((SELECT id, body FROM docs WHERE false))", nil},
		// the windowed sum keeps its window across the input's batches
		{"SELECT v, total FROM moving_sum(TABLE nums, 3) WHERE v IN (1, 2, 3, 4097, 5000) ORDER BY v", []string{"1|1", "2|3", "3|6", "4097|12288", "5000|14997"}},
		{"SELECT count(*), sum(total)::bigint FROM moving_sum((SELECT v FROM nums WHERE v <= 10), 2)", []string{"10|100"}},
	})
	errs := []struct {
		q, code  string
		contains []string
		frame    string // "" = no stack asked for
	}{
		{"SELECT * FROM explode_words(TABLE nums)", "42804", []string{"explode_words takes a relation of 2 columns", "got 1"}, ""},
		{"SELECT * FROM explode_words((SELECT body, id FROM docs))", "42804", []string{"input column 1 (body) is of type text, declared bigint (id)"}, ""},
		{"SELECT * FROM explode_words(3)", "42804", []string{"takes a relation as its first argument"}, ""},
		{"SELECT * FROM moving_sum(TABLE nums)", "42883", []string{"moving_sum()"}, ""},
		{"SELECT * FROM explode_words(TABLE no_such)", "42P01", nil, ""},
		{"SELECT * FROM moving_sum(TABLE nums, 0)", "38000", []string{"moving_sum", "width of at least 1"}, "examples/udf.batchUDFs"},
		{"SELECT * FROM batch_fails(TABLE nums)", "38000", []string{"batch_fails", "no batches today"}, "examples/udf.batchUDFs"},
		{"SELECT * FROM batch_panics(TABLE nums)", "39000", []string{"batch_panics panicked", "batch kaboom"}, "examples/udf.batchUDFs"},
		{"SELECT * FROM batch_bad_name(TABLE nums)", "39000", []string{"batch_bad_name", `column 2 (total) named "sum"`}, "examples/udf.batchUDFs"},
		{"SELECT * FROM batch_null(TABLE nums)", "39000", []string{"batch_null", "column 2 (total) with 1 NULLs, declared NOT NULL"}, "examples/udf.batchUDFs"},
		{"SELECT * FROM batch_swallows((SELECT v / (v - 3) FROM nums))", "22012", nil, ""},
		{"SELECT * FROM moving_sum((SELECT v / (v - 3) FROM nums), 2)", "22012", nil, ""},
	}
	for _, e := range errs {
		pe := checkError(t, conn, e.q, e.code, e.contains)
		if e.frame != "" && !strings.Contains(pe.Detail, e.frame) {
			t.Errorf("%s: DETAIL has no stack with %s:\n%s", e.q, e.frame, pe.Detail)
		}
	}
	if got := rows(t, conn, "SELECT count(*) FROM explode_words(TABLE docs)"); len(got) != 1 || got[0] != "7" {
		t.Errorf("after the failures: %q", got)
	}
	plan := strings.Join(rows(t, conn, "EXPLAIN SELECT * FROM explode_words(TABLE docs)"), "\n")
	if l := lineWith(plan, "opaque_udf"); !strings.Contains(l, "explode_words(input) batch") || !strings.Contains(l, "executor_tier=go_udf") {
		t.Errorf("EXPLAIN of a batch UDF:\n%s", plan)
	}
}

// TestExamplePsql uses the example's UDFs through psql: the batch UDF from
// a query, and \df and pg_proc listing all three with their signatures.
func TestExamplePsql(t *testing.T) {
	reg, err := registry()
	if err != nil {
		t.Fatal(err)
	}
	conn, url := startServer(t, reg)
	execAll(t, conn,
		"CREATE TABLE docs (id BIGINT PRIMARY KEY, body TEXT)",
		"INSERT INTO docs VALUES (1, 'to be'), (2, NULL), (3, 'hello')",
	)
	psql := func(cmd string) string {
		t.Helper()
		c := exec.Command("psql", "-X", "-A", "-F", "|", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", cmd)
		c.Env = append(os.Environ(), "PGCONNECT_TIMEOUT=10", "PAGER=", "LC_ALL=C.UTF-8")
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("psql -c %q: %v\n%s", cmd, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	got := psql("SELECT id, pos, word FROM explode_words(TABLE docs) ORDER BY id, pos")
	want := "id|pos|word\n1|1|to\n1|2|be\n3|1|hello\n(3 rows)"
	if got != want {
		t.Errorf("batch UDF through psql:\n%s\nwant\n%s", got, want)
	}
	got = psql(`\df`)
	want = strings.Join([]string{
		"List of functions",
		"Schema|Name|Result data type|Argument data types|Type",
		"public|explode_words|TABLE(id bigint, pos integer, word text)|TABLE(id bigint, body text)|func",
		"public|fizzbuzz|TABLE(n bigint, word text)|integer|func",
		"public|word_count|bigint|text|func",
		"(3 rows)",
	}, "\n")
	if got != want {
		t.Errorf("\\df:\n%s\nwant\n%s", got, want)
	}
	got = strings.Join(rows(t, conn, `SELECT proname, l.lanname, proretset, proisstrict, proparallel::text, pronargs,
		prorettype::regtype::text, proargtypes::text, coalesce(proargmodes::text, ''), coalesce(proargnames::text, '')
		FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE pronamespace = 'public'::regnamespace ORDER BY proname`), "\n")
	want = strings.Join([]string{
		"explode_words|c|true|false|s|1|record|2249|{i,t,t,t}|{\"\",id,pos,word}",
		"fizzbuzz|c|true|false|u|1|record|23|{i,t,t}|{\"\",n,word}",
		"word_count|c|false|false|u|1|bigint|25||",
	}, "\n")
	if got != want {
		t.Errorf("pg_proc:\n%s\nwant\n%s", got, want)
	}
}
