package remote

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/protobuf/proto"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/fluss/remote/internal/pb"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// testBatch is a log batch of n int rows starting at offset base.
func testBatch(t *testing.T, base int64, n int) []byte {
	t.Helper()
	b := array.NewInt32Builder(memory.DefaultAllocator)
	defer b.Release()
	for i := 0; i < n; i++ {
		b.Append(int32(base) + int32(i))
	}
	col := b.NewArray()
	defer col.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}}, nil), []arrow.Array{col}, int64(n))
	defer rec.Release()
	raw, err := format.EncodeBatch(rec, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	format.SetBaseOffset(raw, base)
	return raw
}

// offsetsOf is the base offsets of FetchLog records.
func offsetsOf(t *testing.T, recs []byte) []int64 {
	t.Helper()
	batches, _, err := cutBatches(recs)
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for _, b := range batches {
		h, err := format.ParseHeader(b)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, h.BaseOffset)
	}
	return out
}

func TestReadRemoteLog(t *testing.T) {
	dir := t.TempDir()
	tab := Table{Path: fluss.TablePath{Database: "db", Table: "t"}, ID: 7}
	// Two segments of three 10-row batches each: offsets 0..29 and 30..59.
	var segs []*pb.PbRemoteLogSegment
	var sizes []int
	for s := 0; s < 2; s++ {
		id := fmt.Sprintf("seg-%d", s)
		var file []byte
		for i := 0; i < 3; i++ {
			b := testBatch(t, int64(s*30+i*10), 10)
			sizes = append(sizes, len(b))
			file = append(file, b...)
		}
		if err := os.MkdirAll(filepath.Join(dir, id), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, id, fmt.Sprintf("%020d.log", s*30)), file, 0o644); err != nil {
			t.Fatal(err)
		}
		segs = append(segs, &pb.PbRemoteLogSegment{RemoteLogSegmentId: proto.String(id), RemoteLogStartOffset: proto.Int64(int64(s * 30)),
			RemoteLogEndOffset: proto.Int64(int64(s*30 + 30)), SegmentSizeInBytes: proto.Int32(int32(len(file)))})
	}
	info := func(tabletDir string, startPos int) *pb.PbRemoteLogFetchInfo {
		return &pb.PbRemoteLogFetchInfo{RemoteLogTabletDir: proto.String(tabletDir), RemoteLogSegments: segs, FirstStartPos: proto.Int32(int32(startPos))}
	}
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		dir      string
		startPos int
		offset   int64
		maxBytes int32
		want     []int64
	}{
		{"everything, bare path", dir, 0, 0, 1 << 20, []int64{0, 10, 20, 30, 40, 50}},
		{"file: URI", "file:" + dir, 0, 0, 1 << 20, []int64{0, 10, 20, 30, 40, 50}},
		{"file:/// URI", "file://" + dir, 0, 0, 1 << 20, []int64{0, 10, 20, 30, 40, 50}},
		// The start position points at the batch holding the offset;
		// batches wholly before the offset are dropped, the one holding it
		// kept, as the server's local FetchLog does.
		{"start position", dir, sizes[0], 15, 1 << 20, []int64{10, 20, 30, 40, 50}},
		{"offset past the start position", dir, 0, 25, 1 << 20, []int64{20, 30, 40, 50}},
		{"byte limit", dir, 0, 0, int32(sizes[0] + sizes[1]), []int64{0, 10}},
		{"at least one batch", dir, 0, 0, 1, []int64{0}},
		{"byte limit across segments", dir, sizes[0] + sizes[1], 20, int32(sizes[2] + sizes[3]), []int64{20, 30}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs, err := readRemoteLog(ctx, tab, 0, info(tc.dir, tc.startPos), tc.offset, tc.maxBytes)
			if err != nil {
				t.Fatal(err)
			}
			if got := offsetsOf(t, recs); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("batches at %v, want %v", got, tc.want)
			}
		})
	}

	// Remote file systems sqlgate cannot reach as a path: 0A000 naming the
	// scheme, not a partial read.
	for _, d := range []string{"s3://bucket/fluss/log/db/t-7/0", "oss://b/x", "hdfs://nn:9000/fluss/log", "file://otherhost/x"} {
		_, err := readRemoteLog(ctx, tab, 0, info(d, 0), 0, 1<<20)
		var se *sqlerr.Error
		if !errors.As(err, &se) || se.Code != sqlerr.FeatureNotSupported || !strings.Contains(se.Error(), d) ||
			!strings.Contains(se.Error(), "local path") {
			t.Errorf("%s: got %v, want 0A000 naming it", d, err)
		}
	}

	// A missing segment or a batch longer than its file: DataCorrupted
	// naming the file, never a panic or a huge allocation.
	if _, err := readRemoteLog(ctx, tab, 0, info(filepath.Join(dir, "nowhere"), 0), 0, 1<<20); err == nil || !strings.Contains(err.Error(), "nowhere") {
		t.Errorf("missing segment: got %v", err)
	}
	bad := testBatch(t, 0, 10)
	bad = bad[:len(bad)-5]
	if err := os.MkdirAll(filepath.Join(dir, "bad", "seg-0"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad", "seg-0", fmt.Sprintf("%020d.log", 0)), bad, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readRemoteLog(ctx, tab, 0, info(filepath.Join(dir, "bad"), 0), 0, 1<<20); err == nil || !strings.Contains(err.Error(), "byte 0") {
		t.Errorf("truncated batch: got %v", err)
	}
}
