package remote

import (
	"context"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/protobuf/proto"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/remote/internal/pb"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TestFakeTableInfoCache: the table info is asked of the coordinator once,
// then served from the cache until something says the table changed: this
// server's DDL, another server's (ForgetTables, as package meta calls it),
// the age limit, or a data request whose table id the cluster no longer
// has, which fails at once (no retries of an id that cannot come back)
// and makes the next statement read the new table.
func TestFakeTableInfoCache(t *testing.T) {
	noLeak(t)
	var mu sync.Mutex
	infos, tableID := 0, int64(1)
	js, err := fluss.MarshalTableJSON(fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
		{Name: "id", Type: types.T{Kind: types.Int32, NotNull: true}}}, PrimaryKey: []string{"id"}}, BucketCount: 1})
	if err != nil {
		t.Fatal(err)
	}
	lookups := 0
	var s *fakeServer
	s = newFake(t, func(fc *fakeConn, r request) bool {
		mu.Lock()
		defer mu.Unlock()
		switch r.api {
		case apiGetTableInfo:
			infos++
			fc.reply(r.id, &pb.GetTableInfoResponse{TableId: proto.Int64(tableID), SchemaId: proto.Int32(1), TableJson: js})
		case apiGetMetadata:
			var req pb.MetadataRequest
			_ = proto.Unmarshal(r.body, &req)
			host, port, _ := net.SplitHostPort(s.addr())
			p, _ := strconv.Atoi(port)
			node := &pb.PbServerNode{NodeId: proto.Int32(1), Host: proto.String(host), Port: proto.Int32(int32(p))}
			resp := &pb.MetadataResponse{CoordinatorServer: node, TabletServers: []*pb.PbServerNode{node}}
			for _, tp := range req.TablePath {
				resp.TableMetadata = append(resp.TableMetadata, &pb.PbTableMetadata{TablePath: tp, TableId: proto.Int64(tableID),
					SchemaId: proto.Int32(1), BucketMetadata: []*pb.PbBucketMetadata{{BucketId: proto.Int32(0), LeaderId: proto.Int32(1)}}})
			}
			fc.reply(r.id, resp)
		case apiLookup:
			lookups++
			fc.reply(r.id, &pb.LookupResponse{BucketsResp: []*pb.PbLookupRespForBucket{{BucketId: proto.Int32(0),
				ErrorCode: proto.Int32(CodeUnknownTableOrBucket), ErrorMessage: proto.String("unknown table")}}})
		default:
			return false
		}
		return true
	})
	c := fakeClient(t, s, func(cfg *Config) { cfg.Retries = 8 })
	st := &Store{c: c, db: fluss.DefaultDatabase, maxAge: time.Hour}
	ctx := testCtx(t)
	path := fluss.TablePath{Database: fluss.DefaultDatabase, Table: "t"}
	asked := func(want int, what string) {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		if infos != want {
			t.Fatalf("%s: %d GetTableInfo, want %d", what, infos, want)
		}
	}
	get := func() fluss.TableInfo {
		t.Helper()
		info, err := st.GetTable(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		return info
	}
	for i := 0; i < 3; i++ {
		get()
		if _, err := st.Table(ctx, path); err != nil {
			t.Fatal(err)
		}
	}
	asked(1, "three statements")
	st.ForgetTables()
	get()
	asked(2, "after another server's DDL")
	st.catalogChanged(ctx, path)
	get()
	asked(3, "after this server's DDL")
	st.maxAge = time.Nanosecond
	time.Sleep(time.Millisecond)
	get()
	asked(4, "after the age limit")
	st.maxAge = time.Hour
	get()
	asked(4, "within the age limit")

	// Dropped and created again by another client: the lookup with the old
	// id fails once the routing names the new id, without using up its
	// retries, and the entry is gone.
	tb, err := st.Table(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	tableID = 2
	mu.Unlock()
	kb := array.NewInt32Builder(memory.DefaultAllocator)
	kb.Append(1)
	col := kb.NewArray()
	kb.Release()
	keys := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}}, nil), []arrow.Array{col}, 1)
	col.Release()
	defer keys.Release()
	start := time.Now()
	_, err = tb.Lookup(context.Background(), keys, nil)
	if sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
		t.Fatalf("lookup of a replaced table: %v, want 42P01", err)
	}
	mu.Lock()
	n := lookups
	mu.Unlock()
	if n != 1 {
		t.Fatalf("%d lookups sent for a replaced table, want 1 (no retries)", n)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("the failure took %v", d)
	}
	if info := get(); info.TableID != 2 {
		t.Fatalf("after the failure: table id %d, want 2", info.TableID)
	}
}
