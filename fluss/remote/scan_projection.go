package remote

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/types"
)

// pushDown makes a log table's scan ask the tablet server for only the
// columns it reads (FetchLog's projected_fields), so that the other columns'
// bytes never cross the network: Fluss's server cuts them out of each Arrow
// batch (its log is columnar for this). It asks for the projected columns
// in table order, as the server returns them, and r.proj then picks the
// output columns out of the fetched ones. A scan of every column in order
// fetches whole batches, whose CRC stays checked; a projected batch keeps
// the original CRC over bytes the server changed, so it is decoded without
// that check, as Fluss's client does (format.BatchDecoder.ServerProjected).
// A scan of no column (count(*)) fetches the first, for the row counts.
//
// A table altered since its creation (schema id above 1, Fluss's first)
// is read whole: its log holds batches of older schemas, whose columns the
// projection's indexes do not name.
func (r *logReader) pushDown(t *table) {
	if t.info.SchemaID > 1 {
		return
	}
	n := len(t.ts)
	fields := make([]int32, 0, len(r.proj))
	for _, p := range r.proj {
		if !slices.Contains(fields, int32(p)) {
			fields = append(fields, int32(p))
		}
	}
	slices.Sort(fields)
	if len(fields) == 0 {
		fields = []int32{0}
	}
	if len(fields) == n {
		return // every column: whole batches
	}
	full := t.info.ArrowSchema()
	afs := make([]arrow.Field, len(fields))
	ts := make([]types.T, len(fields))
	at := make(map[int]int, len(fields))
	for i, f := range fields {
		afs[i], ts[i], at[int(f)] = full.Field(int(f)), t.ts[f], i
	}
	proj := make([]int, len(r.proj))
	for i, p := range r.proj {
		proj[i] = at[p]
	}
	r.fields, r.proj = fields, proj
	r.dec = format.NewTableBatchDecoder(arrow.NewSchema(afs, nil), ts).ServerProjected()
}
