package embedded

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// encodedPart is one part of a bulk upsert encoded: each row's bucket, key
// and stored value, the keys as a run sorted by key (entries numbered from
// the part's first row), and the sketch of the part's values.
type encodedPart struct {
	rows []pkRow
	run  []keyEntry
	ndv  *ndvDelta
}

// encodePart encodes conv, the part whose first row is row base of the
// upsert. A part of parallelRows rows or more (Options.ParallelEncodeRows)
// is encoded on two cores, as Upsert does: the keys with their sketch and
// sort on one, the rows on the other (the two take about as long). Parts
// that large come from a caller that hands over whole Arrow batches
// (Flight SQL's bulk ingest) and leaves a core idle while the worker
// encodes; COPY FROM STDIN decodes its parts of a few thousand rows on the
// connection's goroutine, which keeps the other core busy already.
//
// pool is the upsert's entry pool: only the keys' side uses it.
func encodePart(t *tableState, conv arrow.RecordBatch, base int32, pool *entryPool, parallelRows int) (encodedPart, error) {
	var (
		p      encodedPart
		keyErr error
		buf    []byte
		ends   []int
		rowErr error
	)
	keysJob := func() {
		if p.rows, keyErr = encodeKeys(t, conv, pick(conv, t.pkIdx), pick(conv, t.bkIdx), int(base)); keyErr != nil {
			return
		}
		p.ndv = sketchRecord(conv, nil)
		p.run = sortedKeyEntries(p.rows, base, pool)
	}
	rowsJob := func() { buf, ends, rowErr = encodeRows(t, conv) }
	if conv.NumRows() >= int64(parallelRows) {
		parallel(2, func(i int) {
			if i == 0 {
				keysJob()
			} else {
				rowsJob()
			}
		})
	} else {
		keysJob()
		if keyErr == nil {
			rowsJob()
		}
	}
	if keyErr != nil {
		return encodedPart{}, keyErr
	}
	if rowErr != nil {
		pool.put(p.run)
		return encodedPart{}, sqlerr.Wrap(rowErr, sqlerr.InternalError, "encoding a row of %s: %v", t.info.Path, rowErr)
	}
	start := 0
	for i := range p.rows {
		p.rows[i].row = buf[start:ends[i]:ends[i]]
		start = ends[i]
	}
	return p, nil
}
