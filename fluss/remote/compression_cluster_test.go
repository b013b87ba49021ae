//go:build fluss_cluster

package remote

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/types"
)

// TestClusterLogCompression appends through the Store to log tables of
// every declared Arrow compression (Fluss's default, ZSTD, when the table
// says none) and reads the values back: by the Store's scan, by an
// unprojected FetchLog (whose batches keep our bytes and CRC), and by a
// FetchLog the server projects, which it can only do with batches written
// in the table's declared codec.
func TestClusterLogCompression(t *testing.T) {
	s := openStore(t)
	ctx := ctxT(t)
	db := testDB(t, s.Client())
	for _, codec := range []string{"", "ZSTD", "LZ4_FRAME", "NONE"} {
		t.Run("codec="+codec, func(t *testing.T) {
			path := fluss.TablePath{Database: db, Table: "log_" + strings.ToLower(codec) + map[string]string{"": "default"}[codec]}
			desc := fluss.TableDescriptor{Schema: fluss.Schema{Columns: cols4}, BucketCount: 1}
			if codec != "" {
				desc.Properties = map[string]string{format.CompressionProperty: codec}
			}
			if _, err := s.CreateTable(ctx, path, desc, false); err != nil {
				t.Fatal(err)
			}
			lt, err := s.Table(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			schema := lt.Info().ArrowSchema()
			var want, wantProj []string
			for round := 0; round < 3; round++ {
				var rows []row
				for i := 0; i < 200; i++ {
					id := int32(round*1000 + i)
					r := row{id: id, v: float64(id) / 4, big: int64(id) * -3}
					if i%5 != 0 {
						r.name = strp(fmt.Sprintf("name-%d-%d", round, i%7))
					}
					rows = append(rows, r)
				}
				rec := buildRecord(schema, rows)
				if res, err := lt.Append(ctx, rec); err != nil || res.Rows != 200 {
					t.Fatalf("Append = %v, %v", res, err)
				}
				want = append(want, renderRows(rec)...)
				for _, r := range rows {
					wantProj = append(wantProj, fmt.Sprintf("(%d,%d)", r.id, r.big))
				}
				rec.Release()
			}
			slices.Sort(want)
			slices.Sort(wantProj)
			r, err := lt.Scan(ctx, fluss.ScanOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := drain(t, r); !slices.Equal(got, want) {
				t.Fatalf("scan: %d rows, want %d:\n got %v\nwant %v", len(got), len(want), got, want)
			}

			tab := TableOf(lt.Info())
			var all []types.T
			for _, c := range cols4 {
				all = append(all, c.Type)
			}
			ts := []types.T{cols4[0].Type, cols4[3].Type}
			pschema := arrow.NewSchema([]arrow.Field{schema.Field(0), schema.Field(3)}, nil)
			for _, proj := range [][]int32{nil, {0, 3}} { // Fluss wants projections in field order
				res, err := s.Client().FetchLog(ctx, tab, 0, 0, 16<<20, proj)
				if err != nil {
					t.Fatal(err)
				}
				batches, err := splitBatches(res.Records)
				if err != nil || len(batches) != 3 {
					t.Fatalf("FetchLog(projection %v): %d batches, %v; want the 3 appended", proj, len(batches), err)
				}
				var got []string
				for _, b := range batches {
					dec := format.NewTableBatchDecoder(schema, all)
					if proj != nil {
						dec = format.NewTableBatchDecoder(pschema, ts).ServerProjected()
					}
					bt, err := dec.Decode(b)
					if err != nil {
						t.Fatalf("FetchLog(projection %v): decoding: %v", proj, err)
					}
					got = append(got, renderRows(bt.Record)...)
					bt.Record.Release()
				}
				slices.Sort(got)
				w := want
				if proj != nil {
					w = wantProj
				}
				if !slices.Equal(got, w) {
					t.Fatalf("FetchLog(projection %v): %d rows, want %d:\n got %v\nwant %v", proj, len(got), len(w), got, w)
				}
			}
		})
	}
}
