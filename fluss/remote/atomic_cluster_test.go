//go:build fluss_cluster

package remote

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestClusterStoreDatabaseAndGroups: a Store whose "public" is a database
// of its own (Config.Database) keeps its tables there; a group of writes to
// one table (WriteAtomically) lands as one write per bucket, upserts and
// deletes together; writes to two tables are refused with 0A000.
func TestClusterStoreDatabaseAndGroups(t *testing.T) {
	ctx := ctxT(t)
	c, s, db := storeInTestDB(t)
	if _, err := OpenStore(ctx, Config{Bootstrap: strings.Split(bootstrap, ","), Database: "no.dots"}); err == nil {
		t.Fatal("OpenStore accepted a database name Fluss refuses")
	}

	// With a prefix every schema is a database of the prefix's, "public"
	// included, and other databases are not shown.
	prefix := db + "_p_"
	ps, err := OpenStore(ctx, Config{Bootstrap: strings.Split(bootstrap, ","), DatabasePrefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	defer ps.Close()
	defer c.DropDatabase(ctx, prefix+"public", true, true)
	if _, err := ps.CreateTable(ctx, fluss.TablePath{Database: fluss.DefaultDatabase, Table: "t"},
		fluss.TableDescriptor{Schema: fluss.Schema{Columns: cols4}}, false); err != nil {
		t.Fatal(err)
	}
	if ok, err := c.TableExists(ctx, fluss.TablePath{Database: prefix + "public", Table: "t"}); err != nil || !ok {
		t.Fatalf("table t in database %spublic: %v, %v", prefix, ok, err)
	}
	if got := ps.clusterDB("s1"); got != prefix+"s1" {
		t.Fatalf("clusterDB(s1) = %s", got)
	}
	if n, ok := ps.shownDB(prefix + "s1"); !ok || n != "s1" {
		t.Fatalf("shownDB(%ss1) = %s, %v", prefix, n, ok)
	}
	if _, ok := ps.shownDB(db); ok {
		t.Fatalf("a Store with prefix %s shows database %s", prefix, db)
	}

	pkPath := fluss.TablePath{Database: fluss.DefaultDatabase, Table: "pk"}
	logPath := fluss.TablePath{Database: fluss.DefaultDatabase, Table: "lg"}
	info, err := s.CreateTable(ctx, pkPath, fluss.TableDescriptor{Schema: fluss.Schema{Columns: cols4, PrimaryKey: []string{"id"}}, BucketCount: 1}, false)
	if err != nil {
		t.Fatal(err)
	}
	if info.Path != pkPath {
		t.Fatalf("CreateTable's info names %s, want %s", info.Path, pkPath)
	}
	if _, err := s.CreateTable(ctx, logPath, fluss.TableDescriptor{Schema: fluss.Schema{Columns: cols4}, BucketCount: 1}, false); err != nil {
		t.Fatal(err)
	}
	if ok, err := c.TableExists(ctx, fluss.TablePath{Database: db, Table: "pk"}); err != nil || !ok {
		t.Fatalf("table pk in database %s: %v, %v", db, ok, err)
	}
	if ok, _ := c.TableExists(ctx, fluss.TablePath{Database: fluss.DefaultDatabase, Table: "pk"}); ok {
		t.Fatal("table pk was created in the cluster's database public")
	}
	infos, err := s.ListTables(ctx, fluss.DefaultDatabase)
	if err != nil || len(infos) != 2 || infos[0].Path != logPath || infos[1].Path != pkPath {
		t.Fatalf("ListTables(public) = %+v, %v", infos, err)
	}

	pk, err := s.Table(ctx, pkPath)
	if err != nil {
		t.Fatal(err)
	}
	schema := pk.Info().ArrowSchema()
	mk := func(ids ...int32) []row {
		var rs []row
		for _, id := range ids {
			rs = append(rs, row{id: id, name: strp(fmt.Sprint("n", id)), v: float64(id), big: int64(id) * 10})
		}
		return rs
	}
	// Rows 1-4 exist; the group upserts 3-6 (two records) and deletes 1.
	base := buildRecord(schema, mk(1, 2, 3, 4))
	defer base.Release()
	if _, err := s.WriteAtomically(ctx, []fluss.TableWrite{{Path: pkPath, TableID: info.TableID, Kind: fluss.WriteUpsert, Rec: base}}); err != nil {
		t.Fatal(err)
	}
	up1, up2 := buildRecord(schema, mk(3, 4)), buildRecord(schema, mk(5, 6))
	defer up1.Release()
	defer up2.Release()
	del := keysRecord(1)
	defer del.Release()
	end0, err := c.ListOffsets(ctx, TableOf(infoOnCluster(pk.Info(), db)), []int32{0}, OffsetLatest, 0)
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.WriteAtomically(ctx, []fluss.TableWrite{
		{Path: pkPath, TableID: info.TableID, Kind: fluss.WriteUpsert, Rec: up1},
		{Path: pkPath, TableID: info.TableID, Kind: fluss.WriteDelete, Rec: del},
		{Path: pkPath, TableID: info.TableID, Kind: fluss.WriteUpsert, Rec: up2},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 || res[0].Rows != 2 || res[1].Rows != 1 || res[2].Rows != 2 {
		t.Fatalf("results %+v", res)
	}
	r, err := pk.Scan(ctx, fluss.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := drain(t, r)
	want := []string{"(2,n2,2,20)", "(3,n3,3,30)", "(4,n4,4,40)", "(5,n5,5,50)", "(6,n6,6,60)"}
	if !slices.Equal(got, want) {
		t.Fatalf("after the group: %v, want %v", got, want)
	}
	// One KV batch: its changelog batch follows the first write's at once
	// (-U/+U for 3 and 4, -D for 1, +I for 5 and 6: 7 changes).
	end1, err := c.ListOffsets(ctx, TableOf(infoOnCluster(pk.Info(), db)), []int32{0}, OffsetLatest, 0)
	if err != nil || end1[0]-end0[0] != 7 {
		t.Fatalf("changelog grew by %d (%v), want 7", end1[0]-end0[0], err)
	}

	lg, err := s.Table(ctx, logPath)
	if err != nil {
		t.Fatal(err)
	}
	a, b := buildRecord(schema, mk(10, 11)), buildRecord(schema, mk(12))
	defer a.Release()
	defer b.Release()
	lid := lg.Info().TableID
	if _, err := s.WriteAtomically(ctx, []fluss.TableWrite{{Path: logPath, TableID: lid, Kind: fluss.WriteAppend, Rec: a},
		{Path: logPath, TableID: lid, Kind: fluss.WriteAppend, Rec: b}}); err != nil {
		t.Fatal(err)
	}
	res2, err := c.FetchLog(ctx, TableOf(infoOnCluster(lg.Info(), db)), 0, 0, 1<<20, nil)
	if err != nil {
		t.Fatal(err)
	}
	batches, err := splitBatches(res2.Records)
	if err != nil || len(batches) != 1 {
		t.Fatalf("the log holds %d batches (%v), want the group's one", len(batches), err)
	}
	r, err = lg.Scan(ctx, fluss.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := drain(t, r); !slices.Equal(got, []string{"(10,n10,10,100)", "(11,n11,11,110)", "(12,n12,12,120)"}) {
		t.Fatalf("log rows %v", got)
	}

	_, err = s.WriteAtomically(ctx, []fluss.TableWrite{{Path: logPath, TableID: lid, Kind: fluss.WriteAppend, Rec: a},
		{Path: pkPath, TableID: info.TableID, Kind: fluss.WriteUpsert, Rec: up1}})
	if sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported || !strings.Contains(err.Error(), "more than one table") {
		t.Fatalf("a group over two tables: %v, want 0A000", err)
	}
}

// infoOnCluster is info as the cluster names it (database db).
func infoOnCluster(info fluss.TableInfo, db string) fluss.TableInfo {
	info.Path.Database = db
	return info
}

// keysRecord is the primary keys (column id) of cols4's table.
func keysRecord(ids ...int32) arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int32}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Int32Builder).AppendValues(ids, nil)
	return b.NewRecordBatch()
}

// storeInTestDB opens a Store whose "public" is a database of the test's
// own, dropped after it.
func storeInTestDB(t *testing.T) (*Client, *Store, string) {
	t.Helper()
	c := clusterClient(t)
	db := testDB(t, c)
	s, err := OpenStore(ctxT(t), Config{Bootstrap: strings.Split(bootstrap, ","), Database: db})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return c, s, db
}
