package embedded

import (
	"context"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/sqlerr"
)

var _ fluss.SplitScanner = (*tableHandle)(nil)

// SplitScan implements fluss.SplitScanner for primary-key tables: parts
// of the columnar image (whole chunks each) when it holds the scan's
// snapshot, else of the buckets, all read from one pebble snapshot.
func (h *tableHandle) SplitScan(ctx context.Context, opts fluss.ScanOptions, parts int) ([]fluss.RecordReader, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := h.checkLive(); err != nil {
		return nil, err
	}
	t := h.t
	if !t.info.HasPrimaryKey() || parts < 2 {
		return nil, nil
	}
	if opts.Limit != 0 {
		return nil, sqlerr.New(sqlerr.InternalError, "a split scan has no limit")
	}
	plan, err := projectionFor(t, opts.Projection)
	if err != nil {
		return nil, err
	}
	batchRows := opts.BatchRows
	if batchRows <= 0 {
		batchRows = h.s.opts.BatchRows
	}
	snap := h.s.iters.view()
	if img := h.columnarRead(ctx, opts, plan, snap, batchRows); img != nil {
		n := len(img.img.man.Chunks)
		if n < parts {
			snap.Close()
			return nil, nil
		}
		// Parts that merge writes since the image share the snapshot,
		// closed with the last of them.
		var shared *sharedSnap
		if img.delta == nil {
			snap.Close()
		} else {
			shared = &sharedSnap{snap: snap}
			shared.refs.Store(int32(parts))
		}
		out := make([]fluss.RecordReader, parts)
		for i := range out {
			part := &imageScan{s: img.s, t: img.t, img: img.img, schema: img.schema, pos: img.pos, rowPos: img.rowPos, batchRows: batchRows,
				chunk: i * n / parts, end: (i + 1) * n / parts, split: parts, ranges: img.ranges}
			if shared != nil {
				part.delta, part.snap, part.release = img.delta, snap, shared.release
				part.empties = img.img.emptyBuckets(img.delta, part.chunk, part.end)
			}
			out[i] = part
		}
		return out, nil
	}
	nb := len(t.buckets)
	if nb < parts {
		snap.Close()
		return nil, nil
	}
	shared := &sharedSnap{snap: snap, unshrink: h.s.bulkRead(h, opts)}
	shared.refs.Store(int32(parts))
	out := make([]fluss.RecordReader, 0, parts)
	for i := range parts {
		lo := bucketKey(prefixData, t.info.TableID, i*nb/parts)
		hi := prefixEnd(tablePrefix(prefixData, t.info.TableID))
		if i+1 < parts {
			hi = bucketKey(prefixData, t.info.TableID, (i+1)*nb/parts)
		}
		it, err := snap.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: hi})
		if err != nil {
			for _, r := range out {
				r.Close()
			}
			for range parts - len(out) {
				shared.release()
			}
			return nil, ioErr(err, "scanning %s", t.info.Path)
		}
		it.First()
		out = append(out, &splitStateScan{stateScan: stateScan{t: t, schema: plan.schema, pos: plan.pos, snap: snap, held: true, it: it,
			batchRows: batchRows, dec: format.NewRowDecoder(t.colTypes)}, shared: shared, parts: parts})
	}
	return out, nil
}

// sharedSnap is a pebble snapshot the parts of a split scan share, closed
// with the last part.
type sharedSnap struct {
	snap *readView
	refs atomic.Int32
	// unshrink, when set, gives the block cache back with the snapshot
	// (Store.bulkRead).
	unshrink func()
}

func (s *sharedSnap) release() {
	if s.refs.Add(-1) == 0 {
		_ = s.snap.Close()
		if s.unshrink != nil {
			s.unshrink()
		}
	}
}

// splitStateScan is one part of a split scan of the row store.
type splitStateScan struct {
	stateScan
	shared *sharedSnap
	parts  int
}

func (s *splitStateScan) Close() {
	if s.it != nil {
		s.stateScan.Close() // held: leaves the snapshot open
		s.shared.release()
	}
}

// ScanPath implements fluss.ScanPathReporter.
func (s *splitStateScan) ScanPath() string { return "row store" }
