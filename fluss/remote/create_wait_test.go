package remote

import (
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/remote/internal/pb"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// TestFakeCreateTableLeaderless: a coordinator that never takes up a table
// just created (its bucket never gets a leader) has the table dropped and
// created again, once, when this call created it; the second creation gets
// its leader and CreateTable succeeds. A table created with IF NOT EXISTS
// that existed before the call (it may be someone's, with data) is never
// dropped: the wait ends in a clear 08006 instead; one that was absent is
// this call's and is created again.
func TestFakeCreateTableLeaderless(t *testing.T) {
	noLeak(t)
	for _, tc := range []struct {
		name            string
		ignoreIfExists  bool
		existedBefore   bool
		leaderFromGen   int // the first creation whose bucket gets a leader
		wantCreates     int
		wantDrops       int
		wantErrContains string
	}{
		{"created, coordinator misses it once", false, false, 2, 2, 1, ""},
		{"created, coordinator misses it twice", false, false, 3, 2, 1, "assigned no leader"},
		{"if not exists, existed before: never dropped", true, true, 2, 0, 0, "assigned no leader"},
		{"if not exists, absent before: created again", true, false, 2, 2, 1, ""},
		{"if not exists, absent before, missed twice", true, false, 3, 2, 1, "assigned no leader"},
		{"leader at once", false, false, 1, 1, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			gen, creates, drops, exists := 0, 0, 0, tc.existedBefore
			if exists {
				gen = 1 // created before the call, never taken up
			}
			js, err := fluss.MarshalTableJSON(fluss.TableDescriptor{Schema: fluss.Schema{Columns: []fluss.Column{
				{Name: "id", Type: types.T{Kind: types.Int32, NotNull: true}}}, PrimaryKey: []string{"id"}}, BucketCount: 1})
			if err != nil {
				t.Fatal(err)
			}
			var s *fakeServer
			s = newFake(t, func(fc *fakeConn, r request) bool {
				mu.Lock()
				defer mu.Unlock()
				switch r.api {
				case apiCreateTable:
					if !exists {
						exists, gen, creates = true, gen+1, creates+1
					}
					fc.reply(r.id, &pb.CreateTableResponse{})
				case apiDropTable:
					exists, drops = false, drops+1
					fc.reply(r.id, &pb.DropTableResponse{})
				case apiTableExists:
					fc.reply(r.id, &pb.TableExistsResponse{Exists: proto.Bool(exists)})
				case apiGetTableInfo:
					fc.reply(r.id, &pb.GetTableInfoResponse{TableId: proto.Int64(int64(gen)), SchemaId: proto.Int32(1), TableJson: js})
				case apiGetMetadata:
					if gen >= tc.leaderFromGen {
						return false // the standard answer: bucket 0 led by server 1
					}
					var req pb.MetadataRequest
					_ = proto.Unmarshal(r.body, &req)
					host, port, _ := net.SplitHostPort(s.addr())
					p, _ := strconv.Atoi(port)
					node := &pb.PbServerNode{NodeId: proto.Int32(1), Host: proto.String(host), Port: proto.Int32(int32(p))}
					resp := &pb.MetadataResponse{CoordinatorServer: node, TabletServers: []*pb.PbServerNode{node}}
					for _, tp := range req.TablePath {
						resp.TableMetadata = append(resp.TableMetadata, &pb.PbTableMetadata{TablePath: tp, TableId: proto.Int64(int64(gen)),
							SchemaId: proto.Int32(1), BucketMetadata: []*pb.PbBucketMetadata{{BucketId: proto.Int32(0)}}})
					}
					fc.reply(r.id, resp)
				default:
					return false
				}
				return true
			})
			c := fakeClient(t, s, nil)
			st := &Store{c: c, db: fluss.DefaultDatabase, leaderWait: 100 * time.Millisecond}
			path := fluss.TablePath{Database: "public", Table: "t"}
			err = st.createTable(testCtx(t), path, fluss.TableDescriptor{}, tc.ignoreIfExists)
			mu.Lock()
			defer mu.Unlock()
			if tc.wantErrContains == "" && err != nil {
				t.Fatalf("createTable: %v", err)
			}
			if tc.wantErrContains != "" && (sqlerr.CodeOf(err) != sqlerr.ConnectionFailure || !strings.Contains(err.Error(), tc.wantErrContains)) {
				t.Fatalf("createTable: %v, want 08006 %q", err, tc.wantErrContains)
			}
			if creates != tc.wantCreates || drops != tc.wantDrops {
				t.Fatalf("%d creations and %d drops, want %d and %d", creates, drops, tc.wantCreates, tc.wantDrops)
			}
		})
	}
}
