package flightsql_test

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	pb "github.com/apache/arrow-go/v18/arrow/flight/gen/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/server"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
)

func anyOf(t testing.TB, m proto.Message) []byte {
	a, err := anypb.New(m)
	if err != nil {
		t.Fatal(err)
	}
	b, err := proto.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fuzzTypes are the Arrow types a fuzzed DoPut schema picks from: the
// table's own, representation-only variants, and value-changing ones.
var fuzzTypes = []arrow.DataType{
	arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Int8, arrow.BinaryTypes.String,
	arrow.BinaryTypes.LargeString, arrow.BinaryTypes.StringView, arrow.BinaryTypes.Binary,
	&arrow.TimestampType{Unit: arrow.Nanosecond}, &arrow.Decimal128Type{Precision: 10, Scale: 3},
	arrow.ListOf(arrow.PrimitiveTypes.Int32), arrow.LargeListOf(arrow.BinaryTypes.String),
	arrow.StructOf(arrow.Field{Name: "x", Type: arrow.PrimitiveTypes.Int32, Nullable: true}),
	arrow.StructOf(arrow.Field{Name: "y", Type: arrow.PrimitiveTypes.Int64, Nullable: true}),
	arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32),
	&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String},
	arrow.Null,
}

var fuzzNames = []string{"id", "s", "r", "x", ""}

// fuzzBatch is a batch whose schema the bytes choose (names, types, row
// count), all values NULL or zero, for an ingest into fz.
func fuzzBatch(data []byte) arrow.RecordBatch {
	mem := memory.DefaultAllocator
	n := 0
	if len(data) > 0 {
		n = int(data[0] % 5)
	}
	rows := 1
	if len(data) > 1 {
		rows = int(data[1] % 3)
	}
	var fields []arrow.Field
	var cols []arrow.Array
	for i := 0; i < n && 2+2*i+1 < len(data); i++ {
		dt := fuzzTypes[int(data[2+2*i])%len(fuzzTypes)]
		name := fuzzNames[int(data[3+2*i])%len(fuzzNames)]
		fields = append(fields, arrow.Field{Name: name, Type: dt, Nullable: true})
		var col arrow.Array
		if d, ok := dt.(*arrow.DictionaryType); ok {
			b := array.NewDictionaryBuilder(mem, d)
			for r := 0; r < rows; r++ {
				b.AppendNull()
			}
			col = b.NewArray()
			b.Release()
		} else if data[3+2*i]&0x80 != 0 {
			b := array.NewBuilder(mem, dt)
			for r := 0; r < rows; r++ {
				b.AppendEmptyValue()
			}
			col = b.NewArray()
			b.Release()
		} else {
			col = array.MakeArrayOfNull(mem, dt, rows)
		}
		cols = append(cols, col)
	}
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(rows))
}

// checkStatus fails on the answers a malformed request must never get: a
// panic's XX000, an unknown error, or no answer in time.
func checkStatus(t *testing.T, what string, err error) {
	if err == nil || errors.Is(err, io.EOF) {
		return
	}
	st, _ := status.FromError(err)
	switch st.Code() {
	case codes.Internal, codes.Unknown, codes.DeadlineExceeded:
		t.Fatalf("%s: %v", what, err)
	}
}

// FuzzRequests sends malformed Flight SQL requests: arbitrary bytes as a
// FlightDescriptor command, a ticket and an action body, and DoPut
// ingests whose batch schemas the input picks. Every answer must be a
// clear error (or a result), never XX000 or a hang.
func FuzzRequests(f *testing.F) {
	dir := f.TempDir()
	srv, err := server.Start(context.Background(), server.Config{Listen: "127.0.0.1:0", FlightListen: "127.0.0.1:0", DataDir: filepath.Join(dir, "data")})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { srv.Stop(context.Background()) })
	conn, err := grpc.NewClient(srv.FlightAddr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { conn.Close() })
	cl := pb.NewFlightServiceClient(conn)
	ctx := context.Background()
	put, err := cl.DoPut(ctx)
	if err != nil {
		f.Fatal(err)
	}
	w := flight.NewRecordWriter(put, ipc.WithSchema(arrow.NewSchema(nil, nil)))
	w.SetFlightDescriptor(&flight.FlightDescriptor{Type: flight.DescriptorCMD,
		Cmd: anyOf(f, &pb.CommandStatementUpdate{Query: "CREATE TABLE fz (id INT NOT NULL, s STRING, r ROW<x INT NOT NULL>)"})})
	if err := w.Write(array.NewRecordBatch(arrow.NewSchema(nil, nil), nil, 0)); err != nil {
		f.Fatal(err)
	}
	w.Close()
	put.CloseSend()
	if _, err := put.Recv(); err != nil {
		f.Fatal(err)
	}

	for _, m := range []proto.Message{
		&pb.CommandStatementQuery{Query: "SELECT 1"},
		&pb.CommandStatementQuery{Query: "SELECT $1"},
		&pb.CommandStatementUpdate{Query: "INSERT INTO fz VALUES (1, 'a', ROW(1))"},
		&pb.CommandStatementIngest{Table: "fz"},
		&pb.CommandStatementIngest{Table: "fz", TableDefinitionOptions: &pb.CommandStatementIngest_TableDefinitionOptions{
			IfExists: pb.CommandStatementIngest_TableDefinitionOptions_TABLE_EXISTS_OPTION_APPEND}},
		&pb.CommandStatementIngest{Table: "fzr", TableDefinitionOptions: &pb.CommandStatementIngest_TableDefinitionOptions{
			IfNotExist: pb.CommandStatementIngest_TableDefinitionOptions_TABLE_NOT_EXIST_OPTION_CREATE,
			IfExists:   pb.CommandStatementIngest_TableDefinitionOptions_TABLE_EXISTS_OPTION_REPLACE}},
		&pb.CommandPreparedStatementQuery{PreparedStatementHandle: []byte("nope")},
		&pb.CommandGetTables{IncludeSchema: true},
		&pb.CommandGetPrimaryKeys{Table: "fz"},
		&pb.TicketStatementQuery{StatementHandle: []byte("x")},
		&pb.ActionCreatePreparedStatementRequest{Query: "SELECT * FROM fz WHERE id = $1"},
		&pb.ActionEndTransactionRequest{TransactionId: []byte("t")},
	} {
		f.Add(anyOf(f, m), []byte{2, 1, 0, 0, 3, 1})
	}
	f.Add([]byte{0x0a, 0xff, 0xff}, []byte{1, 1, 8, 0})
	f.Add([]byte("garbage"), []byte{3, 2, 0, 0, 4, 1, 11, 2})

	actions := []string{"CreatePreparedStatement", "ClosePreparedStatement", "BeginTransaction", "EndTransaction",
		"CancelFlightInfo", "CancelQuery", "BeginSavepoint", "nonsense"}
	f.Fuzz(func(t *testing.T, cmd []byte, shape []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		desc := &flight.FlightDescriptor{Type: flight.DescriptorCMD, Cmd: cmd}
		_, err := cl.GetFlightInfo(ctx, desc)
		checkStatus(t, "GetFlightInfo", err)
		_, err = cl.GetSchema(ctx, desc)
		checkStatus(t, "GetSchema", err)
		if get, err := cl.DoGet(ctx, &flight.Ticket{Ticket: cmd}); err == nil {
			for err == nil {
				_, err = get.Recv()
			}
			checkStatus(t, "DoGet", err)
		}
		action := actions[0]
		if len(shape) > 0 {
			action = actions[int(shape[0])%len(actions)]
		}
		if act, err := cl.DoAction(ctx, &flight.Action{Type: action, Body: cmd}); err == nil {
			for err == nil {
				_, err = act.Recv()
			}
			checkStatus(t, "DoAction "+action, err)
		}
		// DoPut: the fuzzed command with a batch whose schema the input
		// chooses, and the same batch as an ingest into fz
		for _, c := range [][]byte{cmd, anyOf(t, &pb.CommandStatementIngest{Table: "fz", TableDefinitionOptions: &pb.CommandStatementIngest_TableDefinitionOptions{
			IfExists: pb.CommandStatementIngest_TableDefinitionOptions_TABLE_EXISTS_OPTION_APPEND}})} {
			put, err := cl.DoPut(ctx)
			if err != nil {
				t.Fatal(err)
			}
			rec := fuzzBatch(shape)
			w := flight.NewRecordWriter(put, ipc.WithSchema(rec.Schema()))
			w.SetFlightDescriptor(&flight.FlightDescriptor{Type: flight.DescriptorCMD, Cmd: c})
			werr := w.Write(rec)
			rec.Release()
			w.Close()
			put.CloseSend()
			if werr == nil {
				for err == nil {
					_, err = put.Recv()
				}
				checkStatus(t, "DoPut", err)
			}
		}
	})
}
