package remote

import (
	"context"
	"fmt"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/fluss/remote/internal/pb"
)

// Table names a table for data requests: its path (to find bucket leaders)
// and id (what data requests carry).
type Table struct {
	Path fluss.TablePath
	ID   int64
	// Partition, for a partition of a partitioned table, is the
	// partition that requests carry (partitions.go); nil otherwise.
	Partition *PartitionRef
}

// TableOf is the Table of a TableInfo.
func TableOf(info fluss.TableInfo) Table { return Table{Path: info.Path, ID: info.TableID} }

// AcksAll waits for every in-sync replica, as Fluss's clients do by default.
const AcksAll = -1

const writeTimeoutMs = 30000

func bucketErr(api int16, code *int32, msg string) error {
	if code == nil || *code == 0 {
		return nil
	}
	return &Error{Code: *code, Message: firstLine(msg), API: apiNames[api]}
}

func (c *Client) callLeader(ctx context.Context, addr string, api int16, req, resp proto.Message) error {
	return c.attempt(ctx, addr, api, req, resp)
}

// ProduceLog appends one log record batch (fluss/format.EncodeBatch bytes)
// to a bucket and returns the offset the server gave its first record. A
// batch without a writer id is not retried once sent, since a retry could
// append it twice; Writer.Append sends idempotent batches, which are.
func (c *Client) ProduceLog(ctx context.Context, t Table, bucket int32, records []byte) (int64, error) {
	return c.produceLog(ctx, t, bucket, records, false)
}

func (c *Client) produceLog(ctx context.Context, t Table, bucket int32, records []byte, idempotent bool) (int64, error) {
	req := &pb.ProduceLogRequest{Acks: proto.Int32(AcksAll), TableId: proto.Int64(t.ID), TimeoutMs: proto.Int32(writeTimeoutMs),
		BucketsReq: []*pb.PbProduceLogReqForBucket{{PartitionId: t.partitionID(), BucketId: proto.Int32(bucket), Records: records}}}
	var base int64
	err := c.bucketCall(ctx, t, bucket, idempotent, func(addr string) error {
		var resp pb.ProduceLogResponse
		if err := c.callLeader(ctx, addr, apiProduceLog, req, &resp); err != nil {
			return err
		}
		b, err := oneBucket(resp.BucketsResp, bucket, apiProduceLog)
		if err != nil {
			return err
		}
		if err := bucketErr(apiProduceLog, b.ErrorCode, b.GetErrorMessage()); err != nil {
			return err
		}
		base = b.GetBaseOffset()
		return nil
	})
	return base, err
}

type bucketResp interface{ GetBucketId() int32 }

// oneBucket finds the answer for bucket among a response's buckets.
func oneBucket[T bucketResp](rs []T, bucket int32, api int16) (T, error) {
	for _, r := range rs {
		if r.GetBucketId() == bucket {
			return r, nil
		}
	}
	var zero T
	return zero, &ProtocolError{Msg: fmt.Sprintf("%s response has no answer for bucket %d", apiNames[api], bucket)}
}

// FetchResult is one bucket's answer to FetchLog.
type FetchResult struct {
	HighWatermark  int64
	LogStartOffset int64
	// Records are concatenated log record batches, possibly ending in a
	// partial batch (cut at max bytes) that the caller must drop.
	Records []byte
	// Remote is set when the range is tiered to remote storage and
	// Records were read from its segment files (remotelog.go): whole
	// batches with every column, whatever the projection asked.
	Remote bool
}

// FetchLog reads a bucket's log from offset, at most maxBytes. projection,
// if not nil, names the columns (0-based) the server keeps in ARROW batches.
func (c *Client) FetchLog(ctx context.Context, t Table, bucket int32, offset int64, maxBytes int32, projection []int32) (FetchResult, error) {
	return c.fetchLog(ctx, t, bucket, offset, maxBytes, projection, 0)
}

// FetchLogWait is FetchLog that the tablet server holds, up to maxWait,
// until the bucket has records past offset (its high watermark moved): a
// follower's long poll. It returns no records when maxWait passed first.
func (c *Client) FetchLogWait(ctx context.Context, t Table, bucket int32, offset int64, maxBytes int32, maxWait time.Duration) (FetchResult, error) {
	return c.fetchLog(ctx, t, bucket, offset, maxBytes, nil, maxWait)
}

func (c *Client) fetchLog(ctx context.Context, t Table, bucket int32, offset int64, maxBytes int32, projection []int32, maxWait time.Duration) (FetchResult, error) {
	tr := &pb.PbFetchLogReqForTable{TableId: proto.Int64(t.ID), ProjectionPushdownEnabled: proto.Bool(projection != nil),
		ProjectedFields: projection,
		BucketsReq: []*pb.PbFetchLogReqForBucket{{PartitionId: t.partitionID(), BucketId: proto.Int32(bucket), FetchOffset: proto.Int64(offset),
			MaxFetchBytes: proto.Int32(maxBytes)}}}
	req := &pb.FetchLogRequest{FollowerServerId: proto.Int32(-1), MaxBytes: proto.Int32(maxBytes),
		TablesReq: []*pb.PbFetchLogReqForTable{tr}, MaxWaitMs: proto.Int32(int32(maxWait.Milliseconds())), MinBytes: proto.Int32(1)}
	var out FetchResult
	var ri *pb.PbRemoteLogFetchInfo
	err := c.bucketCall(ctx, t, bucket, true, func(addr string) error {
		var resp pb.FetchLogResponse
		if err := c.callLeader(ctx, addr, apiFetchLog, req, &resp); err != nil {
			return err
		}
		var tresp *pb.PbFetchLogRespForTable
		for _, x := range resp.TablesResp {
			if x.GetTableId() == t.ID {
				tresp = x
			}
		}
		if tresp == nil {
			return &ProtocolError{Msg: fmt.Sprintf("FetchLog response has no answer for table %d", t.ID)}
		}
		b, err := oneBucket(tresp.BucketsResp, bucket, apiFetchLog)
		if err != nil {
			return err
		}
		if err := bucketErr(apiFetchLog, b.ErrorCode, b.GetErrorMessage()); err != nil {
			return err
		}
		out = FetchResult{HighWatermark: b.GetHighWatermark(), LogStartOffset: b.GetLogStartOffset(), Records: b.Records}
		ri = b.RemoteLogFetchInfo
		return nil
	})
	if err != nil || ri == nil || len(ri.RemoteLogSegments) == 0 {
		return out, err
	}
	out.Records, err = readRemoteLog(ctx, t, bucket, ri, offset, maxBytes)
	out.Remote = err == nil
	return out, err
}

// OffsetType selects what ListOffsets returns.
type OffsetType int32

const (
	OffsetEarliest  OffsetType = 0
	OffsetLatest    OffsetType = 1 // the high watermark: one past the last committed record
	OffsetTimestamp OffsetType = 2
)

// ListOffsets returns one offset per bucket, in buckets' order, asking each
// bucket's leader.
func (c *Client) ListOffsets(ctx context.Context, t Table, buckets []int32, typ OffsetType, timestamp int64) ([]int64, error) {
	out := make([]int64, len(buckets))
	for i, bucket := range buckets {
		req := &pb.ListOffsetsRequest{FollowerServerId: proto.Int32(-1), OffsetType: proto.Int32(int32(typ)),
			TableId: proto.Int64(t.ID), PartitionId: t.partitionID(), BucketId: []int32{bucket}}
		if typ == OffsetTimestamp {
			req.StartTimestamp = proto.Int64(timestamp)
		}
		err := c.bucketCall(ctx, t, bucket, true, func(addr string) error {
			var resp pb.ListOffsetsResponse
			if err := c.callLeader(ctx, addr, apiListOffsets, req, &resp); err != nil {
				return err
			}
			b, err := oneBucket(resp.BucketsResp, bucket, apiListOffsets)
			if err != nil {
				return err
			}
			if err := bucketErr(apiListOffsets, b.ErrorCode, b.GetErrorMessage()); err != nil {
				return err
			}
			if b.Offset == nil {
				return &ProtocolError{Msg: fmt.Sprintf("ListOffsets answer for bucket %d has no offset", bucket)}
			}
			out[i] = b.GetOffset()
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// PutKv writes a KvRecordBatch (format.KvBatchEncoder) to a bucket of a primary-key
// table and returns the changelog's end offset after it. targetColumns,
// if not empty, makes it a partial update of those columns (0-based). As
// with ProduceLog, only a Writer's idempotent batches are retried once sent.
func (c *Client) PutKv(ctx context.Context, t Table, bucket int32, records []byte, targetColumns []int32) (int64, error) {
	return c.putKv(ctx, t, bucket, records, targetColumns, false)
}

func (c *Client) putKv(ctx context.Context, t Table, bucket int32, records []byte, targetColumns []int32, idempotent bool) (int64, error) {
	req := &pb.PutKvRequest{Acks: proto.Int32(AcksAll), TableId: proto.Int64(t.ID), TimeoutMs: proto.Int32(writeTimeoutMs),
		TargetColumns: targetColumns, BucketsReq: []*pb.PbPutKvReqForBucket{{PartitionId: t.partitionID(), BucketId: proto.Int32(bucket), Records: records}}}
	var end int64
	err := c.bucketCall(ctx, t, bucket, idempotent, func(addr string) error {
		var resp pb.PutKvResponse
		if err := c.callLeader(ctx, addr, apiPutKv, req, &resp); err != nil {
			return err
		}
		b, err := oneBucket(resp.BucketsResp, bucket, apiPutKv)
		if err != nil {
			return err
		}
		if err := bucketErr(apiPutKv, b.ErrorCode, b.GetErrorMessage()); err != nil {
			return err
		}
		end = b.GetLogEndOffset()
		return nil
	})
	return end, err
}

// Lookup returns, per key (CompactedKeyEncoder bytes of the primary key),
// the value stored in the bucket, or nil when there is none.
func (c *Client) Lookup(ctx context.Context, t Table, bucket int32, keys [][]byte) ([][]byte, error) {
	req := &pb.LookupRequest{TableId: proto.Int64(t.ID), BucketsReq: []*pb.PbLookupReqForBucket{{PartitionId: t.partitionID(), BucketId: proto.Int32(bucket), Keys: keys}}}
	var out [][]byte
	err := c.bucketCall(ctx, t, bucket, true, func(addr string) error {
		var resp pb.LookupResponse
		if err := c.callLeader(ctx, addr, apiLookup, req, &resp); err != nil {
			return err
		}
		b, err := oneBucket(resp.BucketsResp, bucket, apiLookup)
		if err != nil {
			return err
		}
		if err := bucketErr(apiLookup, b.ErrorCode, b.GetErrorMessage()); err != nil {
			return err
		}
		if len(b.Values) != len(keys) {
			return &ProtocolError{Msg: fmt.Sprintf("Lookup of %d keys answered %d values", len(keys), len(b.Values))}
		}
		out = make([][]byte, len(keys))
		for i, v := range b.Values {
			if len(v.Values) > 0 {
				out[i] = v.Values
			}
		}
		return nil
	})
	return out, err
}

// PrefixLookup returns, per prefix key (CompactedKeyEncoder bytes of the
// bucket key, a proper prefix of the primary key), every value whose key
// starts with it.
func (c *Client) PrefixLookup(ctx context.Context, t Table, bucket int32, keys [][]byte) ([][][]byte, error) {
	req := &pb.PrefixLookupRequest{TableId: proto.Int64(t.ID),
		BucketsReq: []*pb.PbPrefixLookupReqForBucket{{PartitionId: t.partitionID(), BucketId: proto.Int32(bucket), Keys: keys}}}
	var out [][][]byte
	err := c.bucketCall(ctx, t, bucket, true, func(addr string) error {
		var resp pb.PrefixLookupResponse
		if err := c.callLeader(ctx, addr, apiPrefixLookup, req, &resp); err != nil {
			return err
		}
		b, err := oneBucket(resp.BucketsResp, bucket, apiPrefixLookup)
		if err != nil {
			return err
		}
		if err := bucketErr(apiPrefixLookup, b.ErrorCode, b.GetErrorMessage()); err != nil {
			return err
		}
		if len(b.ValueLists) != len(keys) {
			return &ProtocolError{Msg: fmt.Sprintf("PrefixLookup of %d keys answered %d lists", len(keys), len(b.ValueLists))}
		}
		out = make([][][]byte, len(keys))
		for i, l := range b.ValueLists {
			out[i] = l.Values
		}
		return nil
	})
	return out, err
}

// LimitScan returns up to limit records of a bucket: the log's tail as log
// record batches (log table) or the first values of the KV store as a
// ValueRecordBatch (primary-key table), with isLog saying which.
func (c *Client) LimitScan(ctx context.Context, t Table, bucket int32, limit int32) (isLog bool, records []byte, err error) {
	req := &pb.LimitScanRequest{TableId: proto.Int64(t.ID), PartitionId: t.partitionID(), BucketId: proto.Int32(bucket), Limit: proto.Int32(limit)}
	err = c.bucketCall(ctx, t, bucket, true, func(addr string) error {
		var resp pb.LimitScanResponse
		if err := c.callLeader(ctx, addr, apiLimitScan, req, &resp); err != nil {
			return err
		}
		if err := bucketErr(apiLimitScan, resp.ErrorCode, resp.GetErrorMessage()); err != nil {
			return err
		}
		isLog, records = resp.GetIsLogTable(), resp.Records
		return nil
	})
	return isLog, records, err
}

// Writer writes idempotently: each batch carries the writer id from
// InitWriter and a per-bucket sequence number, so that a retry after an
// unknown outcome (a lost answer, a timeout) is dropped by the server as a
// duplicate instead of applied twice. Calls are serialised: sequences must
// reach each bucket in order.
type Writer struct {
	c     *Client
	paths []fluss.TablePath

	mu  sync.Mutex
	id  int64 // 0 until InitWriter answers
	seq map[bucketKey]int32
}

type bucketKey struct {
	table     int64
	partition int64 // -1: not a partition
	bucket    int32
}

// NewWriter returns a writer for the tables (InitWriter runs on first use).
func (c *Client) NewWriter(paths ...fluss.TablePath) *Writer {
	return &Writer{c: c, paths: paths, seq: make(map[bucketKey]int32)}
}

func (w *Writer) begin(ctx context.Context) error {
	if w.id != 0 {
		return nil
	}
	id, err := w.c.InitWriter(ctx, w.paths...)
	if err != nil {
		return err
	}
	w.id = id
	clear(w.seq)
	return nil
}

// Append sends a V0 log record batch idempotently; the batch's bytes are
// stamped with the writer id and sequence.
func (w *Writer) Append(ctx context.Context, t Table, bucket int32, batch []byte) (int64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.begin(ctx); err != nil {
		return 0, err
	}
	k := bucketKey{t.ID, t.partitionKey(), bucket}
	return w.send(ctx, k, func(id int64, seq int32) (int64, error) {
		if err := format.SetWriter(batch, id, seq); err != nil {
			return 0, err
		}
		return w.c.produceLog(ctx, t, bucket, batch, true)
	})
}

// Put sends records (upserts, or deletes where Row is nil) of rows of
// schema schemaID to a bucket as one idempotent KvRecordBatch.
func (w *Writer) Put(ctx context.Context, t Table, bucket int32, schemaID int16, recs []format.KvRecord, targetColumns []int32) (int64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.begin(ctx); err != nil {
		return 0, err
	}
	k := bucketKey{t.ID, t.partitionKey(), bucket}
	return w.send(ctx, k, func(id int64, seq int32) (int64, error) {
		e := format.NewKvBatchEncoder(nil, schemaID, id, seq)
		for _, r := range recs {
			e.Append(r.Key, r.Row)
		}
		return w.c.putKv(ctx, t, bucket, e.Finish(), targetColumns, true)
	})
}

// send makes one idempotent request for bucket k, stamped by the request
// function with the writer id and the bucket's sequence, and advances or
// resets the sequences by its outcome. A refusal that shows the server lost
// the writer's state is sent once more under a new writer id.
func (w *Writer) send(ctx context.Context, k bucketKey, request func(id int64, seq int32) (int64, error)) (int64, error) {
	off, err := request(w.id, w.seq[k])
	w.after(k, err)
	if !writerStateLost(err) {
		return off, err
	}
	if err := w.begin(ctx); err != nil {
		return 0, err
	}
	off, err = request(w.id, w.seq[k])
	w.after(k, err)
	return off, err
}

// writerStateLost reports a refusal that proves the batch was not applied
// and that the server no longer knows this writer's sequences (a tablet
// server restarted, or expired the writer): the batch is sent once more
// under a new writer id.
func writerStateLost(err error) bool {
	switch CodeOf(err) {
	case CodeOutOfOrderSequence, CodeUnknownWriterID:
		return true
	}
	return false
}

// after advances the bucket's sequence on success. After a failure the
// server may or may not hold the batch, so the next sequence number is
// unknowable: the writer starts over with a new id.
func (w *Writer) after(k bucketKey, err error) {
	if err == nil {
		w.seq[k]++
		return
	}
	w.id = 0
}
