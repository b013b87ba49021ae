package pgwire

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// fakeBackend is a tiny SQL engine for wire tests. Its "statements" are
// keywords, separated by ';':
//
//	SELECT types        one row with one column of each common type
//	SELECT series N     one int8 column, N rows, in batches of 3
//	ECHO t1,t2,...      parameters of the named types; one text row "%T=%v" per parameter
//	INSERT              no rows, tag "INSERT 0 1"
//	BEGIN / COMMIT      transaction status T / I
//	SET APP name        reports application_name=name as a status change
//	SETTING name value  sets a setting Session.Status reports (timeouts)
//	FAIL                Execute fails with 42P01
//	BADPREP             Prepare fails with 42601 at position 1
//	INTERNAL            Execute fails with a non-SQL error
//	PANIC / PANICNEXT   Execute / Next panics
//	SLEEP               Next blocks until its context ends
//	COPYIN / COPYOUT f  COPY of (a int4, b text) in format f (copy_test.go)
//
// Empty statements and "-- comments" are dropped, as a real parser does.
type fakeBackend struct {
	mu       sync.Mutex
	started  chan string   // receives the SQL of each SLEEP when it starts waiting
	canceled chan string   // receives the SQL of each SLEEP whose context ended
	closed   int           // results closed
	sessions int           // sessions closed
	copied   chan []string // the rows each fake COPY IN received
}

func newFakeBackend() *fakeBackend {
	return &fakeBackend{started: make(chan string, 16), canceled: make(chan string, 16), copied: make(chan []string, 16)}
}

func (b *fakeBackend) NewSession(ctx context.Context, info SessionInfo) (Session, error) {
	if info.User == "reject" {
		return nil, sqlerr.New(sqlerr.InvalidAuthorizationSpec, "role \"reject\" does not exist")
	}
	return &fakeSession{b: b, tx: 'I'}, nil
}

type fakeSession struct {
	b        *fakeBackend
	tx       byte
	changes  map[string]string
	settings map[string]string
}

func (s *fakeSession) Prepare(ctx context.Context, sql string, paramOIDs []uint32) ([]Statement, error) {
	var out []Statement
	for _, part := range strings.Split(sql, ";") {
		part = strings.TrimSpace(part)
		if part == "" || strings.HasPrefix(part, "--") {
			continue
		}
		if part == "BADPREP" {
			return nil, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near \"BADPREP\"").WithPosition(1)
		}
		if strings.HasPrefix(part, "COPYIN ") || strings.HasPrefix(part, "COPYOUT ") {
			out = append(out, newFakeCopy(s, part))
			continue
		}
		st := &fakeStmt{s: s, sql: part}
		if rest, ok := strings.CutPrefix(part, "ECHO "); ok {
			for _, name := range strings.Split(rest, ",") {
				st.params = append(st.params, typeByName(strings.TrimSpace(name)))
			}
		}
		out = append(out, st)
	}
	return out, nil
}

func typeByName(name string) types.T {
	switch name {
	case "int4":
		return types.Int32Type
	case "int8":
		return types.Int64Type
	case "float8":
		return types.Float64Type
	case "bool":
		return types.BoolType
	case "text":
		return types.StringType
	case "bytea":
		return types.BytesType
	case "numeric":
		return types.NumericType
	case "date":
		return types.DateType
	case "timestamp":
		return types.TimestampType(6)
	case "timestamptz":
		return types.TimestampTZType(6)
	}
	return types.UnknownType
}

func (s *fakeSession) TxStatus() byte { return s.tx }

func (s *fakeSession) FailTransaction() {
	if s.tx == 'T' {
		s.tx = 'E'
	}
}

func (s *fakeSession) StatusChanges() map[string]string {
	c := s.changes
	s.changes = nil
	return c
}

func (s *fakeSession) Status(name string) (string, bool) {
	if name == "TimeZone" {
		return "Etc/UTC", true
	}
	v, ok := s.settings[name]
	return v, ok
}

func (s *fakeSession) Close() {
	s.b.mu.Lock()
	s.b.sessions++
	s.b.mu.Unlock()
}

type fakeStmt struct {
	s      *fakeSession
	sql    string
	params []types.T
}

func (st *fakeStmt) SQL() string           { return st.sql }
func (st *fakeStmt) ParamTypes() []types.T { return st.params }

// typesColumns are the columns of "SELECT types".
var typesColumns = []ResultColumn{
	{Name: "i2", Type: types.Int16Type},
	{Name: "i4", Type: types.Int32Type},
	{Name: "i8", Type: types.Int64Type},
	{Name: "f4", Type: types.Float32Type},
	{Name: "f8", Type: types.Float64Type},
	{Name: "b", Type: types.BoolType},
	{Name: "ts", Type: types.TimestampType(6)},
	{Name: "tstz", Type: types.TimestampTZType(6)},
	{Name: "d", Type: types.DateType},
	{Name: "n", Type: types.DecimalType(10, 2)},
	{Name: "t", Type: types.StringType, TableOID: 16384, ColumnNumber: 2},
	{Name: "by", Type: types.BytesType},
	{Name: "arr", Type: types.ArrayOf(types.Int32Type)},
	{Name: "nul", Type: types.Int32Type},
}

func (st *fakeStmt) Columns() []ResultColumn {
	switch {
	case st.sql == "SELECT types":
		return typesColumns
	case strings.HasPrefix(st.sql, "SELECT series"), st.sql == "SLEEP", st.sql == "PANICNEXT":
		return []ResultColumn{{Name: "n", Type: types.Int64Type}}
	case strings.HasPrefix(st.sql, "ECHO"):
		return []ResultColumn{{Name: "echo", Type: types.StringType}}
	}
	return nil
}

func (st *fakeStmt) Execute(ctx context.Context, params []any) (Result, error) {
	if len(params) != len(st.params) {
		return nil, fmt.Errorf("fake: %d params for %d", len(params), len(st.params))
	}
	r := &fakeResult{b: st.s.b, sql: st.sql}
	switch {
	case st.sql == "SELECT types":
		r.batches = []arrow.RecordBatch{typesBatch()}
		r.tag = "SELECT 1"
	case strings.HasPrefix(st.sql, "SELECT series"):
		n, _ := strconv.Atoi(strings.TrimPrefix(st.sql, "SELECT series "))
		for start := 0; start < n; start += 3 {
			end := min(start+3, n)
			r.batches = append(r.batches, int64Batch(start, end))
		}
		r.tag = "SELECT " + strconv.Itoa(n)
	case strings.HasPrefix(st.sql, "ECHO"):
		vals := make([]string, len(params))
		for i, p := range params {
			if tm, ok := p.(time.Time); ok {
				vals[i] = "time.Time=" + tm.UTC().Format(time.RFC3339Nano)
				continue
			}
			vals[i] = fmt.Sprintf("%T=%v", p, p)
		}
		r.batches = []arrow.RecordBatch{stringBatch(vals)}
		r.tag = "SELECT " + strconv.Itoa(len(vals))
	case st.sql == "INSERT":
		r.tag = "INSERT 0 1"
	case st.sql == "BEGIN":
		st.s.tx = 'T'
		r.tag = "BEGIN"
	case st.sql == "COMMIT":
		if st.s.tx == 'E' {
			r.tag = "ROLLBACK"
		} else {
			r.tag = "COMMIT"
		}
		st.s.tx = 'I'

	case strings.HasPrefix(st.sql, "SET APP "):
		st.s.changes = map[string]string{"application_name": strings.TrimPrefix(st.sql, "SET APP ")}
		r.tag = "SET"
	case strings.HasPrefix(st.sql, "SETTING "):
		f := strings.Fields(st.sql)
		if len(f) != 3 {
			return nil, sqlerr.New(sqlerr.SyntaxError, "fake: SETTING name value")
		}
		if st.s.settings == nil {
			st.s.settings = map[string]string{}
		}
		st.s.settings[f[1]] = f[2]
		r.tag = "SET"
	case st.sql == "FAIL":
		return nil, sqlerr.New(sqlerr.UndefinedTable, "relation \"nope\" does not exist").WithHint("check the name")
	case st.sql == "INTERNAL":
		return nil, errors.New("secret internal detail /etc/passwd")
	case st.sql == "PANIC":
		panic("boom in Execute")
	case st.sql == "PANICNEXT":
		r.panicNext = true
	case st.sql == "SLEEP":
		r.sleep = true
	default:
		return nil, sqlerr.New(sqlerr.SyntaxError, "fake: unknown statement %q", st.sql)
	}
	return r, nil
}

type fakeResult struct {
	b         *fakeBackend
	sql       string
	batches   []arrow.RecordBatch
	tag       string
	sleep     bool
	panicNext bool
	closed    bool
}

func (r *fakeResult) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if r.panicNext {
		panic("boom in Next")
	}
	if r.sleep {
		r.b.started <- r.sql
		<-ctx.Done()
		r.b.canceled <- r.sql
		return nil, sqlerr.New(sqlerr.QueryCanceled, "canceling statement due to user request")
	}
	if len(r.batches) == 0 {
		return nil, nil
	}
	b := r.batches[0]
	r.batches = r.batches[1:]
	return b, nil
}

func (r *fakeResult) Tag() string { return r.tag }

func (r *fakeResult) Close() {
	if r.closed {
		return
	}
	r.closed = true
	for _, b := range r.batches {
		b.Release()
	}
	r.batches = nil
	r.b.mu.Lock()
	r.b.closed++
	r.b.mu.Unlock()
}

func int64Batch(start, end int) arrow.RecordBatch {
	bld := array.NewInt64Builder(memory.DefaultAllocator)
	defer bld.Release()
	for i := start; i < end; i++ {
		bld.Append(int64(i + 1))
	}
	arr := bld.NewArray()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "n", Type: arrow.PrimitiveTypes.Int64}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{arr}, int64(end-start))
}

func stringBatch(vals []string) arrow.RecordBatch {
	bld := array.NewStringBuilder(memory.DefaultAllocator)
	defer bld.Release()
	bld.AppendValues(vals, nil)
	arr := bld.NewArray()
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "echo", Type: arrow.BinaryTypes.String}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{arr}, int64(len(vals)))
}

// Values of the "SELECT types" row.
var (
	typesTS   = time.Date(2024, 1, 2, 3, 4, 5, 123456000, time.UTC)
	typesDate = time.Date(2023, 12, 31, 0, 0, 0, 0, time.UTC)
)

func typesBatch() arrow.RecordBatch {
	fields := make([]arrow.Field, len(typesColumns))
	for i, c := range typesColumns {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type.ArrowType(), Nullable: true}
	}
	schema := arrow.NewSchema(fields, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Int16Builder).Append(-2)
	b.Field(1).(*array.Int32Builder).Append(123456)
	b.Field(2).(*array.Int64Builder).Append(1 << 40)
	b.Field(3).(*array.Float32Builder).Append(1.5)
	b.Field(4).(*array.Float64Builder).Append(0.1)
	b.Field(5).(*array.BooleanBuilder).Append(true)
	b.Field(6).(*array.TimestampBuilder).Append(arrow.Timestamp(typesTS.UnixMicro()))
	b.Field(7).(*array.TimestampBuilder).Append(arrow.Timestamp(typesTS.UnixMicro()))
	b.Field(8).(*array.Date32Builder).Append(arrow.Date32FromTime(typesDate))
	b.Field(9).(*array.Decimal128Builder).Append(decimal128.FromI64(-1250))
	b.Field(10).(*array.StringBuilder).Append("héllo")
	b.Field(11).(*array.BinaryBuilder).Append([]byte{0, 1, 0xff})
	lb := b.Field(12).(*array.ListBuilder)
	lb.Append(true)
	lb.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{1, 2}, nil)
	lb.ValueBuilder().(*array.Int32Builder).AppendNull()
	b.Field(13).(*array.Int32Builder).AppendNull()
	return b.NewRecordBatch()
}
