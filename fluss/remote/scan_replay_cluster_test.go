//go:build fluss_cluster

package remote

import (
	"fmt"
	"slices"
	"testing"

	"github.com/sqlgate/sqlgate/fluss"
)

// TestClusterScanBeyondLimitScan: a primary-key bucket too large for one
// LimitScan is read whole from its changelog (inserts, replacements and
// deletes replayed), so a full scan returns exactly the table's current
// rows; a projection and a limit apply to it too. The per-bucket bound is
// lowered to 40 rows so that the test writes hundreds, not 65,536.
func TestClusterScanBeyondLimitScan(t *testing.T) {
	ctx := ctxT(t)
	_, s, _ := storeInTestDB(t)
	s.scanRows = 40
	path := fluss.TablePath{Database: fluss.DefaultDatabase, Table: "big"}
	if _, err := s.CreateTable(ctx, path, fluss.TableDescriptor{Schema: fluss.Schema{Columns: cols4, PrimaryKey: []string{"id"}}, BucketCount: 2}, false); err != nil {
		t.Fatal(err)
	}
	tab, err := s.Table(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	schema := tab.Info().ArrowSchema()
	state := map[int32]row{}
	upsert := func(rows []row) {
		rec := buildRecord(schema, rows)
		defer rec.Release()
		if _, err := tab.Upsert(ctx, rec, fluss.UpsertOptions{}); err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			state[r.id] = r
		}
	}
	for chunk := 0; chunk < 5; chunk++ {
		var rows []row
		for i := 0; i < 60; i++ {
			id := int32(chunk*60 + i)
			r := row{id: id, v: float64(id) / 2, big: int64(id) * 1000}
			if id%7 != 0 {
				r.name = strp(fmt.Sprint("r", id))
			}
			rows = append(rows, r)
		}
		upsert(rows)
	}
	var upd []row
	for id := int32(0); id < 300; id += 13 {
		upd = append(upd, row{id: id, name: strp("updated"), v: -1, big: -int64(id)})
	}
	upsert(upd)
	var del []int32
	for id := int32(5); id < 300; id += 11 {
		del = append(del, id)
		delete(state, id)
	}
	keys := keysRecord(del...)
	defer keys.Release()
	if _, err := tab.Delete(ctx, keys); err != nil {
		t.Fatal(err)
	}

	var want []string
	for _, r := range state {
		want = append(want, renderRow(r))
	}
	slices.Sort(want)
	r, err := tab.Scan(ctx, fluss.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := drain(t, r)
	if !slices.Equal(got, want) {
		t.Fatalf("full scan: %d rows, want %d\n got %.300v\nwant %.300v", len(got), len(want), got, want)
	}

	r, err = tab.Scan(ctx, fluss.ScanOptions{Projection: []int{3, 0}, Limit: 25})
	if err != nil {
		t.Fatal(err)
	}
	part := drain(t, r)
	if len(part) != 25 {
		t.Fatalf("scan with limit 25: %d rows", len(part))
	}
	for _, p := range part {
		var big int64
		var id int32
		if _, err := fmt.Sscanf(p, "(%d,%d)", &big, &id); err != nil {
			t.Fatalf("projected row %s: %v", p, err)
		}
		if w, ok := state[id]; !ok || w.big != big {
			t.Fatalf("projected row %s is not a current row (%+v, %v)", p, w, ok)
		}
	}
}

func renderRow(r row) string {
	n := "NULL"
	if r.name != nil {
		n = *r.name
	}
	return fmt.Sprintf("(%d,%s,%g,%d)", r.id, n, r.v, r.big)
}
