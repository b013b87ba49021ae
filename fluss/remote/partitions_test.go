package remote

import (
	"net"
	"slices"
	"strconv"
	"sync"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/remote/internal/pb"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestFakePartitionRequests: a partition's data requests carry its id
// beside the table's, its buckets' leaders are asked by partition id, and
// the partition RPCs send and read Fluss's partition specs; a partition
// the server does not know is 42704. (The cluster tests check the same
// against Fluss itself: partitions_cluster_test.go.)
func TestFakePartitionRequests(t *testing.T) {
	noLeak(t)
	const partID = 42
	var mu sync.Mutex
	seen := map[int16]*int64{} // api -> partition id of its bucket request
	var created, dropped []*pb.PbKeyValue
	s := newFake(t, func(fc *fakeConn, r request) bool {
		note := func(id *int64) {
			mu.Lock()
			seen[r.api] = id
			mu.Unlock()
		}
		switch r.api {
		case apiGetMetadata:
			var req pb.MetadataRequest
			_ = proto.Unmarshal(r.body, &req)
			if len(req.PartitionsId) == 0 {
				return false
			}
			if req.PartitionsId[0] != partID {
				fc.replyError(r.id, CodePartitionNotExists, "no such partition")
				return true
			}
			host, port, _ := net.SplitHostPort(fc.nc.LocalAddr().String())
			p, _ := strconv.Atoi(port)
			node := &pb.PbServerNode{NodeId: proto.Int32(1), Host: proto.String(host), Port: proto.Int32(int32(p))}
			fc.reply(r.id, &pb.MetadataResponse{CoordinatorServer: node, TabletServers: []*pb.PbServerNode{node},
				PartitionMetadata: []*pb.PbPartitionMetadata{{TableId: proto.Int64(7), PartitionId: proto.Int64(partID),
					PartitionName: proto.String("eu"), BucketMetadata: []*pb.PbBucketMetadata{{BucketId: proto.Int32(0), LeaderId: proto.Int32(1)}}}}})
		case apiLookup:
			var req pb.LookupRequest
			_ = proto.Unmarshal(r.body, &req)
			note(req.BucketsReq[0].PartitionId)
			fc.reply(r.id, &pb.LookupResponse{BucketsResp: []*pb.PbLookupRespForBucket{{BucketId: proto.Int32(0),
				PartitionId: req.BucketsReq[0].PartitionId, Values: []*pb.PbValue{{}}}}})
		case apiPutKv:
			var req pb.PutKvRequest
			_ = proto.Unmarshal(r.body, &req)
			note(req.BucketsReq[0].PartitionId)
			fc.reply(r.id, &pb.PutKvResponse{BucketsResp: []*pb.PbPutKvRespForBucket{{BucketId: proto.Int32(0), LogEndOffset: proto.Int64(1)}}})
		case apiProduceLog:
			var req pb.ProduceLogRequest
			_ = proto.Unmarshal(r.body, &req)
			note(req.BucketsReq[0].PartitionId)
			fc.reply(r.id, &pb.ProduceLogResponse{BucketsResp: []*pb.PbProduceLogRespForBucket{{BucketId: proto.Int32(0), BaseOffset: proto.Int64(0)}}})
		case apiListOffsets:
			var req pb.ListOffsetsRequest
			_ = proto.Unmarshal(r.body, &req)
			note(req.PartitionId)
			fc.reply(r.id, &pb.ListOffsetsResponse{BucketsResp: []*pb.PbListOffsetsRespForBucket{{BucketId: proto.Int32(0), Offset: proto.Int64(3)}}})
		case apiLimitScan:
			var req pb.LimitScanRequest
			_ = proto.Unmarshal(r.body, &req)
			note(req.PartitionId)
			fc.reply(r.id, &pb.LimitScanResponse{IsLogTable: proto.Bool(false)})
		case apiListPartitions:
			fc.reply(r.id, &pb.ListPartitionInfosResponse{PartitionsInfo: []*pb.PbPartitionInfo{
				{PartitionId: proto.Int64(9), PartitionSpec: &pb.PbPartitionSpec{PartitionKeyValues: []*pb.PbKeyValue{
					{Key: proto.String("d"), Value: proto.String("x")}, {Key: proto.String("region"), Value: proto.String("us")}}}},
				{PartitionId: proto.Int64(partID), PartitionSpec: &pb.PbPartitionSpec{PartitionKeyValues: []*pb.PbKeyValue{
					{Key: proto.String("region"), Value: proto.String("eu")}, {Key: proto.String("d"), Value: proto.String("y")}}}}}})
		case apiCreatePartition:
			var req pb.CreatePartitionRequest
			_ = proto.Unmarshal(r.body, &req)
			mu.Lock()
			created = req.GetPartitionSpec().GetPartitionKeyValues()
			mu.Unlock()
			if !req.GetIgnoreIfNotExists() {
				fc.replyError(r.id, CodePartitionAlreadyExists, "partition exists")
				return true
			}
			fc.reply(r.id, &pb.CreatePartitionResponse{})
		case apiDropPartition:
			var req pb.DropPartitionRequest
			_ = proto.Unmarshal(r.body, &req)
			mu.Lock()
			dropped = req.GetPartitionSpec().GetPartitionKeyValues()
			mu.Unlock()
			fc.reply(r.id, &pb.DropPartitionResponse{})
		default:
			return false
		}
		return true
	})
	c := fakeClient(t, s, nil)
	ctx := testCtx(t)
	part := Table{Path: kvTable.Path, ID: 7, Partition: &PartitionRef{ID: partID, Name: "eu"}}
	if _, err := c.Lookup(ctx, part, 0, [][]byte{{1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.PutKv(ctx, part, 0, []byte{0}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ProduceLog(ctx, part, 0, []byte{0}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ListOffsets(ctx, part, []int32{0}, OffsetLatest, 0); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.LimitScan(ctx, part, 0, 10); err != nil {
		t.Fatal(err)
	}
	// a table that is not a partition sends none
	if _, err := c.Lookup(ctx, kvTable, 0, [][]byte{{1}}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	for _, api := range []int16{apiPutKv, apiProduceLog, apiListOffsets, apiLimitScan} {
		if id := seen[api]; id == nil || *id != partID {
			t.Errorf("%s carried partition id %v, want %d", apiNames[api], id, partID)
		}
	}
	if id := seen[apiLookup]; id != nil {
		t.Errorf("a table's Lookup carried partition id %d", *id)
	}
	mu.Unlock()

	ps, err := c.ListPartitionInfos(ctx, kvTable.Path, []string{"region", "d"})
	want := []fluss.PartitionInfo{{ID: partID, Name: "eu$y", Values: []string{"eu", "y"}}, {ID: 9, Name: "us$x", Values: []string{"us", "x"}}}
	if err != nil || len(ps) != 2 || ps[0].Name != want[0].Name || ps[1].ID != 9 || !slices.Equal(ps[1].Values, want[1].Values) {
		t.Fatalf("ListPartitionInfos = %+v, %v; want %+v", ps, err, want)
	}
	if err := c.CreatePartition(ctx, kvTable.Path, []string{"region", "d"}, []string{"apac", "z"}, true); err != nil {
		t.Fatal(err)
	}
	err = c.CreatePartition(ctx, kvTable.Path, []string{"region", "d"}, []string{"apac", "z"}, false)
	if se := sqlerr.As(partitionErr(err, kvTable.Path, []string{"apac", "z"})); se == nil || se.Code != sqlerr.DuplicateObject {
		t.Errorf("creating an existing partition: %v", se)
	}
	if err := c.DropPartition(ctx, kvTable.Path, []string{"region", "d"}, []string{"eu", "y"}, false); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if len(created) != 2 || created[0].GetKey() != "region" || created[1].GetValue() != "z" || len(dropped) != 2 || dropped[0].GetValue() != "eu" {
		t.Errorf("specs sent: create %v, drop %v", created, dropped)
	}
	mu.Unlock()

	// a partition the server does not know: its routing fails, as 42704
	gone := Table{Path: kvTable.Path, ID: 7, Partition: &PartitionRef{ID: 5, Name: "gone"}}
	_, err = c.Lookup(ctx, gone, 0, [][]byte{{1}})
	if se := sqlerr.As(partitionErr(err, kvTable.Path, []string{"gone"})); se == nil || se.Code != sqlerr.UndefinedObject {
		t.Errorf("Lookup of an unknown partition: %v (%v)", err, se)
	}
}
