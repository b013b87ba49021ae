package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"

	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/fluss/remote/internal/pb"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Log segments tiered to remote storage.
//
// Once a tablet server has copied a closed log segment to remote.data.dir
// and dropped it locally (table.log.tiered.local-segments keeps the newest
// few), a FetchLog below the local log's start answers with no records and
// a RemoteLogFetchInfo instead: the bucket's remote log tablet dir, the
// segments that hold the offset and after (id, start and end offset,
// size), and the byte position in the first segment of the batch holding
// the offset. The client reads the segment files itself, as Fluss's Java
// client does (RemoteLogDownloader, then LogFetcher reading the file from
// that position and dropping batches before the fetch offset). Each file
// is FlussPaths.remoteLogSegmentFile(remoteLogSegmentDir(tabletDir, id),
// startOffset): {tabletDir}/{segment uuid}/{start offset, 20 digits}.log,
// holding the same record batches as the local segment it was.
//
// sqlgate reads them only from a file system it can reach as a local path
// (a file: URI or a bare path: a cluster on this machine, or a shared
// mount); Fluss's object stores (s3, oss, hdfs, ...) would need their SDKs,
// so those fail with 0A000 naming the scheme, never with part of the log.

// remoteLogDir turns the tablet dir the server sent into a local path.
func remoteLogDir(t Table, bucket int32, dir string) (string, error) {
	u, err := url.Parse(dir)
	if err != nil || u.Scheme == "" {
		return dir, nil // a bare path
	}
	if u.Scheme == "file" && (u.Host == "" || u.Host == "localhost") {
		return u.Path, nil
	}
	return "", sqlerr.New(sqlerr.FeatureNotSupported,
		"reading log segments of %s bucket %d tiered to remote storage %q (scheme %q) is not supported: sqlgate reads tiered segments only from a file system it can reach as a local path (file:)",
		t.Path, bucket, dir, u.Scheme).
		WithHint("Set the cluster's remote.data.dir to a file: path sqlgate can read, or raise table.log.tiered.local-segments so the rows stay in the tablet servers' local log.")
}

// readRemoteLog reads the batches of ri's segments from offset on, whole
// batches of at most maxBytes in all (but at least one batch), in the
// format of FetchLog's records.
func readRemoteLog(ctx context.Context, t Table, bucket int32, ri *pb.PbRemoteLogFetchInfo, offset int64, maxBytes int32) ([]byte, error) {
	dir, err := remoteLogDir(t, bucket, ri.GetRemoteLogTabletDir())
	if err != nil {
		return nil, err
	}
	var out []byte
	for i, seg := range ri.RemoteLogSegments {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pos := int64(0)
		if i == 0 {
			pos = int64(ri.GetFirstStartPos())
		}
		name := filepath.Join(dir, seg.GetRemoteLogSegmentId(), fmt.Sprintf("%020d.log", seg.GetRemoteLogStartOffset()))
		var full bool
		out, full, err = readSegment(name, pos, offset, int64(maxBytes), out)
		if err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.DataCorrupted, "reading remote log segment %s of %s bucket %d: %v", name, t.Path, bucket, err)
		}
		if full {
			break
		}
	}
	if len(out) == 0 {
		return nil, sqlerr.New(sqlerr.DataCorrupted, "the remote log segments of %s bucket %d hold no batch at or after offset %d", t.Path, bucket, offset)
	}
	return out, nil
}

// readSegment appends to out the batches of one segment file from byte
// pos on that end at or after offset, stopping (full) before a batch that
// would take out past maxBytes once it holds one.
func readSegment(name string, pos, offset, maxBytes int64, out []byte) ([]byte, bool, error) {
	f, err := os.Open(name)
	if err != nil {
		return out, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return out, false, err
	}
	if _, err := f.Seek(pos, io.SeekStart); err != nil {
		return out, false, err
	}
	hdr := make([]byte, format.HeaderSize)
	for {
		if _, err := io.ReadFull(f, hdr); err != nil {
			if errors.Is(err, io.EOF) {
				return out, false, nil // the segment's end
			}
			return out, false, err
		}
		h, err := format.ParseHeader(hdr)
		if err != nil {
			return out, false, err
		}
		n := h.Size()
		if n < int64(format.HeaderSize) || pos+n > st.Size() {
			return out, false, fmt.Errorf("batch at offset %d has length %d at byte %d of a %d-byte file", h.BaseOffset, n, pos, st.Size())
		}
		pos += n
		if h.BaseOffset+int64(h.LastOffsetDelta) < offset {
			if _, err := f.Seek(n-int64(format.HeaderSize), io.SeekCurrent); err != nil {
				return out, false, err
			}
			continue
		}
		if len(out) > 0 && int64(len(out))+n > maxBytes {
			return out, true, nil
		}
		start := len(out)
		out = append(out, hdr...)
		out = append(out, make([]byte, n-int64(format.HeaderSize))...)
		if _, err := io.ReadFull(f, out[start+format.HeaderSize:]); err != nil {
			return out, false, fmt.Errorf("batch at offset %d: %w", h.BaseOffset, err)
		}
	}
}

// wholeBatches turns off a scan's projection pushdown (scan_projection.go)
// when FetchLog served it from remote segments: those are the batches as
// written, every column, which Fluss's server does not cut. The scan reads
// whole batches from then on and picks its columns itself.
func (r *logReader) wholeBatches() {
	if r.fields == nil {
		return
	}
	for i, p := range r.proj {
		r.proj[i] = int(r.fields[p])
	}
	r.fields = nil
	r.dec = format.NewTableBatchDecoder(r.t.info.ArrowSchema(), r.t.ts)
}
