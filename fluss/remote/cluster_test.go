//go:build fluss_cluster

package remote

// Tests against a real Apache Fluss 0.9.1 cluster. Built only with
// -tags fluss_cluster (`make test-cluster`, part of `make test`): they use
// the cluster named by SQLGATE_FLUSS_BOOTSTRAP, or start one with
// scripts/fluss-cluster.sh and stop it afterwards. If no cluster can be had
// the run fails; it never skips.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/format"
	"github.com/sqlgate/sqlgate/types"
)

var bootstrap string

func TestMain(m *testing.M) {
	bootstrap = os.Getenv("SQLGATE_FLUSS_BOOTSTRAP")
	stop := func() {}
	if bootstrap == "" {
		dir, err := os.MkdirTemp("", "fluss-cluster-test-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var stopCluster func()
		bootstrap, stopCluster, err = startCluster(filepath.Join(dir, "c"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		stop = func() {
			stopCluster()
			_ = os.RemoveAll(dir)
		}
	}
	code := m.Run()
	stop()
	os.Exit(code)
}

// startCluster starts a cluster with scripts/fluss-cluster.sh, its state in
// dir (env: more of the script's settings), and returns its bootstrap
// address and how to stop it.
func startCluster(dir string, env ...string) (string, func(), error) {
	script, _ := filepath.Abs("../../scripts/fluss-cluster.sh")
	env = append(append(os.Environ(), "SQLGATE_FLUSS_DIR="+dir), env...)
	cmd := exec.Command(script, "start")
	cmd.Env, cmd.Stderr = env, os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", nil, fmt.Errorf("starting the Fluss cluster (%s start): %v", script, err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1], func() {
		c := exec.Command(script, "stop")
		c.Env, c.Stdout, c.Stderr = env, os.Stderr, os.Stderr
		_ = c.Run()
	}, nil
}

func clusterClient(t *testing.T) *Client {
	t.Helper()
	c, err := New(Config{Bootstrap: strings.Split(bootstrap, ",")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// testDB creates a database of its own for one test and drops it after.
func testDB(t *testing.T, c *Client) string {
	t.Helper()
	ctx := ctxT(t)
	name := fmt.Sprintf("t_%s_%d", strings.ToLower(strings.ReplaceAll(t.Name(), "/", "_")), time.Now().UnixNano()%1e6)
	if err := c.CreateDatabase(ctx, name, false); err != nil {
		t.Fatalf("CreateDatabase: %v", err)
	}
	t.Cleanup(func() {
		if err := c.DropDatabase(context.Background(), name, true, true); err != nil {
			t.Errorf("DropDatabase: %v", err)
		}
	})
	return name
}

var (
	tInt    = types.T{Kind: types.Int32}
	tBigint = types.T{Kind: types.Int64}
	tText   = types.T{Kind: types.String}
	tDouble = types.T{Kind: types.Float64}
)

// createTable creates a table and waits until every bucket has a leader
// (a fresh table's replicas start asynchronously).
func createTable(t *testing.T, c *Client, path fluss.TablePath, d fluss.TableDescriptor) fluss.TableInfo {
	t.Helper()
	ctx := ctxT(t)
	if err := c.CreateTable(ctx, path, d, false); err != nil {
		t.Fatalf("CreateTable %s: %v", path, err)
	}
	info, err := c.GetTableInfo(ctx, path)
	if err != nil {
		t.Fatalf("GetTableInfo: %v", err)
	}
	return info
}

type row struct {
	id   int32
	name *string
	v    float64
	big  int64
}

func strp(s string) *string { return &s }

func buildRecord(schema *arrow.Schema, rows []row) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, r := range rows {
		b.Field(0).(*array.Int32Builder).Append(r.id)
		if r.name == nil {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(*r.name)
		}
		b.Field(2).(*array.Float64Builder).Append(r.v)
		b.Field(3).(*array.Int64Builder).Append(r.big)
	}
	return b.NewRecordBatch()
}

func rowsOf(rec arrow.RecordBatch) []row {
	var out []row
	for i := 0; i < int(rec.NumRows()); i++ {
		r := row{id: rec.Column(0).(*array.Int32).Value(i), v: rec.Column(2).(*array.Float64).Value(i),
			big: rec.Column(3).(*array.Int64).Value(i)}
		if !rec.Column(1).IsNull(i) {
			r.name = strp(rec.Column(1).(*array.String).Value(i))
		}
		out = append(out, r)
	}
	return out
}

func sameRows(t *testing.T, what string, got, want []row) {
	t.Helper()
	str := func(rs []row) string {
		var b strings.Builder
		for _, r := range rs {
			n := "NULL"
			if r.name != nil {
				n = *r.name
			}
			fmt.Fprintf(&b, "(%d,%s,%g,%d)", r.id, n, r.v, r.big)
		}
		return b.String()
	}
	if str(got) != str(want) {
		t.Fatalf("%s:\n got %s\nwant %s", what, str(got), str(want))
	}
}

var cols4 = []fluss.Column{{Name: "id", Type: types.T{Kind: types.Int32, NotNull: true}}, {Name: "name", Type: tText},
	{Name: "v", Type: tDouble}, {Name: "big", Type: tBigint}}

func TestClusterCatalog(t *testing.T) {
	c := clusterClient(t)
	ctx := ctxT(t)
	db := testDB(t, c)
	dbs, err := c.ListDatabases(ctx)
	if err != nil || !slices.Contains(dbs, db) {
		t.Fatalf("ListDatabases = %v, %v; want %s in it", dbs, err, db)
	}
	if ok, err := c.DatabaseExists(ctx, db); err != nil || !ok {
		t.Fatalf("DatabaseExists(%s) = %v, %v", db, ok, err)
	}
	if ok, err := c.DatabaseExists(ctx, db+"_missing"); err != nil || ok {
		t.Fatalf("DatabaseExists(missing) = %v, %v", ok, err)
	}
	err = c.CreateDatabase(ctx, db, false)
	if CodeOf(err) != CodeDatabaseAlreadyExist {
		t.Fatalf("CreateDatabase twice: %v, want DATABASE_ALREADY_EXIST", err)
	}
	path := fluss.TablePath{Database: db, Table: "pk"}
	d := fluss.TableDescriptor{Schema: fluss.Schema{Columns: cols4, PrimaryKey: []string{"id"}}, BucketCount: 3, Comment: "a table"}
	info := createTable(t, c, path, d)
	if info.TableID < 0 || !info.HasPrimaryKey() || info.Descriptor.BucketCount != 3 {
		t.Fatalf("GetTableInfo = %+v", info)
	}
	var names []string
	for _, col := range info.Descriptor.Schema.Columns {
		names = append(names, col.Name+" "+col.Type.String())
	}
	if got, want := strings.Join(names, ", "), "id int NOT NULL, name string, v double, big bigint"; got != want {
		t.Fatalf("columns read back: %s, want %s", got, want)
	}
	if len(info.Descriptor.Schema.Columns) != 4 || info.Descriptor.Schema.Columns[3].Name != "big" ||
		info.Descriptor.Schema.Columns[2].Type.Kind != types.Float64 {
		t.Fatalf("schema read back = %v", names)
	}
	s, sid, err := c.GetTableSchema(ctx, path, -1)
	if err != nil || sid != info.SchemaID || len(s.Columns) != 4 || !slices.Equal(s.PrimaryKey, []string{"id"}) {
		t.Fatalf("GetTableSchema = %+v, %d, %v", s, sid, err)
	}
	tables, err := c.ListTables(ctx, db)
	if err != nil || !slices.Equal(tables, []string{"pk"}) {
		t.Fatalf("ListTables = %v, %v", tables, err)
	}
	if ok, err := c.TableExists(ctx, path); err != nil || !ok {
		t.Fatalf("TableExists = %v, %v", ok, err)
	}
	if err := c.CreateTable(ctx, path, d, false); CodeOf(err) != CodeTableAlreadyExist {
		t.Fatalf("CreateTable twice: %v", err)
	}
	if err := c.DropTable(ctx, path, false); err != nil {
		t.Fatal(err)
	}
	if ok, err := c.TableExists(ctx, path); err != nil || ok {
		t.Fatalf("TableExists after drop = %v, %v", ok, err)
	}
	if _, err := c.GetTableInfo(ctx, path); CodeOf(err) != CodeTableNotExist {
		t.Fatalf("GetTableInfo after drop: %v", err)
	}

	// Every type, nested ones included, goes through Fluss's table JSON
	// and comes back the same.
	i32 := types.T{Kind: types.Int32}
	every := []fluss.Column{
		{Name: "b", Type: types.T{Kind: types.Bool}}, {Name: "i8", Type: types.T{Kind: types.Int8}},
		{Name: "i16", Type: types.T{Kind: types.Int16}}, {Name: "id", Type: types.T{Kind: types.Int32, NotNull: true}},
		{Name: "i64", Type: tBigint}, {Name: "f32", Type: types.T{Kind: types.Float32}}, {Name: "f64", Type: tDouble},
		{Name: "c", Type: types.T{Kind: types.Char, Length: 3}}, {Name: "s", Type: tText, Comment: "text"},
		{Name: "by", Type: types.T{Kind: types.Bytes}}, {Name: "bi", Type: types.T{Kind: types.Binary, Length: 16}},
		{Name: "d", Type: types.T{Kind: types.Decimal, Precision: 20, Scale: 4}}, {Name: "dt", Type: types.T{Kind: types.Date}},
		{Name: "tm", Type: types.T{Kind: types.Time, Precision: 3}}, {Name: "ts", Type: types.T{Kind: types.Timestamp, Precision: 6}},
		{Name: "tz", Type: types.T{Kind: types.TimestampTZ, Precision: 0}},
		{Name: "arr", Type: types.T{Kind: types.Array, Elem: &types.T{Kind: types.Int32, NotNull: true}}},
		{Name: "m", Type: types.T{Kind: types.Map, Key: &types.T{Kind: types.String, NotNull: true}, Elem: &i32}},
		{Name: "r", Type: types.T{Kind: types.Row, Fields: []types.Field{{Name: "x", Type: i32}, {Name: "y", Type: tText}}}},
	}
	epath := fluss.TablePath{Database: db, Table: "every"}
	einfo := createTable(t, c, epath, fluss.TableDescriptor{Schema: fluss.Schema{Columns: every, PrimaryKey: []string{"id"}}, BucketCount: 1})
	if got := einfo.Descriptor.Schema.Columns; !reflect.DeepEqual(got, every) {
		for i := range every {
			if i < len(got) && !reflect.DeepEqual(got[i], every[i]) {
				t.Errorf("column %s: read back %+v, wrote %+v", every[i].Name, got[i], every[i])
			}
		}
		t.Fatalf("%d columns read back, %d written", len(got), len(every))
	}
}

func TestClusterLogTable(t *testing.T) {
	c := clusterClient(t)
	ctx := ctxT(t)
	db := testDB(t, c)
	path := fluss.TablePath{Database: db, Table: "events"}
	// Uncompressed Arrow bodies: this client writes uncompressed batches,
	// and the server's column projection of a table whose declared
	// compression (ZSTD by default) differs from its batches' produces
	// batches that do not decode.
	info := createTable(t, c, path, fluss.TableDescriptor{Schema: fluss.Schema{Columns: cols4}, BucketCount: 2,
		Properties: map[string]string{"table.log.arrow.compression.type": "NONE"}})
	tab := TableOf(info)
	schema := info.ArrowSchema()

	want := map[int32][]row{}
	w := c.NewWriter(path)
	for round := 0; round < 3; round++ {
		for bucket := int32(0); bucket < 2; bucket++ {
			var rows []row
			for i := 0; i < 5; i++ {
				id := int32(round*100 + int(bucket)*10 + i)
				r := row{id: id, v: float64(id) / 4, big: int64(id) << 40}
				if i%2 == 0 {
					r.name = strp(fmt.Sprintf("n%d-é", id))
				}
				rows = append(rows, r)
			}
			rec := buildRecord(schema, rows)
			batch, err := format.EncodeBatch(rec, nil, info.SchemaID)
			rec.Release()
			if err != nil {
				t.Fatal(err)
			}
			var off int64
			if round == 1 {
				off, err = c.ProduceLog(ctx, tab, bucket, batch) // not idempotent
			} else {
				off, err = w.Append(ctx, tab, bucket, batch)
			}
			if err != nil {
				t.Fatalf("produce round %d bucket %d: %v", round, bucket, err)
			}
			if off != int64(len(want[bucket])) {
				t.Fatalf("base offset %d, want %d", off, len(want[bucket]))
			}
			want[bucket] = append(want[bucket], rows...)
		}
	}

	ends, err := c.ListOffsets(ctx, tab, []int32{0, 1}, OffsetLatest, 0)
	if err != nil || ends[0] != 15 || ends[1] != 15 {
		t.Fatalf("ListOffsets latest = %v, %v", ends, err)
	}
	starts, err := c.ListOffsets(ctx, tab, []int32{0, 1}, OffsetEarliest, 0)
	if err != nil || starts[0] != 0 || starts[1] != 0 {
		t.Fatalf("ListOffsets earliest = %v, %v", starts, err)
	}

	dec := format.NewBatchDecoder(schema)
	for bucket := int32(0); bucket < 2; bucket++ {
		var got []row
		off := int64(0)
		for off < ends[bucket] {
			res, err := c.FetchLog(ctx, tab, bucket, off, 1<<20, nil)
			if err != nil {
				t.Fatalf("FetchLog: %v", err)
			}
			if res.HighWatermark != 15 {
				t.Fatalf("high watermark %d", res.HighWatermark)
			}
			batches, err := splitBatches(res.Records)
			if err != nil {
				t.Fatal(err)
			}
			if len(batches) == 0 {
				t.Fatalf("FetchLog at %d returned no batch", off)
			}
			for _, b := range batches {
				bt, err := dec.Decode(b)
				if err != nil {
					t.Fatalf("decoding fetched batch: %v", err)
				}
				if bt.Header.BaseOffset != off {
					t.Fatalf("batch base offset %d, want %d", bt.Header.BaseOffset, off)
				}
				if bt.Header.CommitTimestamp == 0 {
					t.Fatalf("server did not stamp the commit timestamp")
				}
				got = append(got, rowsOf(bt.Record)...)
				off = bt.Header.NextOffset()
				bt.Record.Release()
			}
		}
		sameRows(t, fmt.Sprintf("bucket %d", bucket), got, want[bucket])

		// LimitScan of a log table: the log's tail.
		isLog, recs, err := c.LimitScan(ctx, tab, bucket, 3)
		if err != nil || !isLog {
			t.Fatalf("LimitScan = %v, %v", isLog, err)
		}
		batches, err := splitBatches(recs)
		if err != nil {
			t.Fatal(err)
		}
		var tail []row
		for _, b := range batches {
			bt, err := dec.Decode(b)
			if err != nil {
				t.Fatalf("decoding LimitScan batch: %v", err)
			}
			tail = append(tail, rowsOf(bt.Record)...)
			bt.Record.Release()
		}
		if len(tail) < 3 {
			t.Fatalf("LimitScan 3 returned %d rows", len(tail))
		}
		sameRows(t, "LimitScan tail", tail[len(tail)-3:], want[bucket][len(want[bucket])-3:])
	}

	// Projection pushdown: columns 3 and 0 only.
	res, err := c.FetchLog(ctx, tab, 0, 0, 1<<20, []int32{0, 3})
	if err != nil {
		t.Fatal(err)
	}
	pschema := arrow.NewSchema([]arrow.Field{schema.Field(0), schema.Field(3)}, nil)
	batches, _ := splitBatches(res.Records)
	if len(batches) == 0 {
		t.Fatal("projected fetch returned nothing")
	}
	// The server rewrites a projected batch's Arrow body but keeps the
	// original CRC: the checked decoder refuses it, ServerProjected reads it
	// (as Fluss's client skips the check for projected fetches).
	if _, err := format.NewBatchDecoder(pschema).Decode(batches[0]); err == nil || !strings.Contains(err.Error(), "CRC") {
		t.Fatalf("checked decode of a projected batch: err = %v, want the server's kept CRC to mismatch", err)
	}
	bt, err := format.NewBatchDecoder(pschema).ServerProjected().Decode(batches[0])
	if err != nil {
		t.Fatalf("decoding projected batch: %v", err)
	}
	if bt.Record.NumCols() != 2 || bt.Record.Column(1).(*array.Int64).Value(1) != want[0][1].big {
		t.Fatalf("projected batch = %v", bt.Record)
	}
	bt.Record.Release()
}

// splitBatches cuts FetchLog's concatenated batches, dropping a partial
// batch at the end.
func splitBatches(b []byte) ([][]byte, error) {
	var out [][]byte
	for len(b) >= format.HeaderSize {
		h, err := format.ParseHeader(b)
		if err != nil {
			return nil, err
		}
		n := h.Size()
		if n > int64(len(b)) {
			break
		}
		out = append(out, b[:n])
		b = b[n:]
	}
	return out, nil
}

func TestClusterPrimaryKeyTable(t *testing.T) {
	c := clusterClient(t)
	ctx := ctxT(t)
	db := testDB(t, c)
	// PK (region, id), bucket key region: prefix lookups by region.
	cols := []fluss.Column{{Name: "region", Type: types.T{Kind: types.String, NotNull: true}},
		{Name: "id", Type: types.T{Kind: types.Int32, NotNull: true}}, {Name: "name", Type: tText}, {Name: "v", Type: tDouble}}
	path := fluss.TablePath{Database: db, Table: "kv"}
	const nb = 3
	info := createTable(t, c, path, fluss.TableDescriptor{Schema: fluss.Schema{Columns: cols, PrimaryKey: []string{"region", "id"}},
		BucketCount: nb, BucketKey: []string{"region"}})
	tab := TableOf(info)
	ts := []types.T{cols[0].Type, cols[1].Type, cols[2].Type, cols[3].Type}
	schema := info.ArrowSchema()

	type kv struct {
		region string
		id     int32
		name   *string
		v      float64
	}
	encode := func(r kv) (key, prefix, value []byte, bucket int32) {
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		defer b.Release()
		b.Field(0).(*array.StringBuilder).Append(r.region)
		b.Field(1).(*array.Int32Builder).Append(r.id)
		if r.name == nil {
			b.Field(2).AppendNull()
		} else {
			b.Field(2).(*array.StringBuilder).Append(*r.name)
		}
		b.Field(3).(*array.Float64Builder).Append(r.v)
		rec := b.NewRecordBatch()
		defer rec.Release()
		var err error
		if key, err = format.AppendKey(nil, ts[:2], rec.Columns()[:2], 0); err != nil {
			t.Fatal(err)
		}
		if prefix, err = format.AppendKey(nil, ts[:1], rec.Columns()[:1], 0); err != nil {
			t.Fatal(err)
		}
		if value, err = format.AppendRow(nil, ts, rec.Columns(), 0); err != nil {
			t.Fatal(err)
		}
		return key, prefix, value, int32(format.BucketOf(prefix, nb))
	}
	decode := func(v []byte) kv {
		schemaID, row, err := format.SplitValue(v)
		if err != nil {
			t.Fatal(err)
		}
		if schemaID != info.SchemaID {
			t.Fatalf("value schema id %d, want %d", schemaID, info.SchemaID)
		}
		bs := make([]array.Builder, 4)
		for i, f := range schema.Fields() {
			bs[i] = array.NewBuilder(memory.DefaultAllocator, f.Type)
			defer bs[i].Release()
		}
		if _, err := format.DecodeRow(row, ts, bs); err != nil {
			t.Fatalf("decoding value row: %v", err)
		}
		a0, a1, a2, a3 := bs[0].NewArray(), bs[1].NewArray(), bs[2].NewArray(), bs[3].NewArray()
		defer a0.Release()
		defer a1.Release()
		defer a2.Release()
		defer a3.Release()
		r := kv{region: a0.(*array.String).Value(0), id: a1.(*array.Int32).Value(0), v: a3.(*array.Float64).Value(0)}
		if !a2.IsNull(0) {
			r.name = strp(a2.(*array.String).Value(0))
		}
		return r
	}
	str := func(r kv) string {
		n := "NULL"
		if r.name != nil {
			n = *r.name
		}
		return fmt.Sprintf("(%s,%d,%s,%g)", r.region, r.id, n, r.v)
	}

	regions := []string{"eu", "us", "apac", "latam"}
	state := map[string]kv{} // by str(key)
	keyOf := func(r kv) string { return fmt.Sprintf("%s/%d", r.region, r.id) }
	w := c.NewWriter(path)
	put := func(recs []kv, deletes []kv) {
		byBucket := map[int32][]format.KvRecord{}
		for _, r := range recs {
			k, _, v, b := encode(r)
			byBucket[b] = append(byBucket[b], format.KvRecord{Key: k, Row: v})
			state[keyOf(r)] = r
		}
		for _, r := range deletes {
			k, _, _, b := encode(r)
			byBucket[b] = append(byBucket[b], format.KvRecord{Key: k})
			delete(state, keyOf(r))
		}
		for b, rs := range byBucket {
			if _, err := w.Put(ctx, tab, b, info.SchemaID, rs, nil); err != nil {
				t.Fatalf("PutKv bucket %d: %v", b, err)
			}
		}
	}
	var first []kv
	for i, reg := range regions {
		for id := int32(0); id < 6; id++ {
			r := kv{region: reg, id: id, v: float64(i)*10 + float64(id)}
			if id%3 != 0 {
				r.name = strp(fmt.Sprintf("%s-%d", reg, id))
			}
			first = append(first, r)
		}
	}
	put(first, nil)
	// Update some, delete some, in a second round.
	put([]kv{{region: "eu", id: 1, name: strp("updated"), v: -1}, {region: "us", id: 7, v: 77}},
		[]kv{{region: "eu", id: 2}, {region: "apac", id: 0}, {region: "nowhere", id: 1}})

	// Point lookups: every key written (present or deleted) and a missing one.
	probe := append(append([]kv{}, first...), kv{region: "us", id: 7}, kv{region: "mars", id: 1})
	byBucket := map[int32][]int{}
	keys := make([][]byte, len(probe))
	for i, r := range probe {
		k, _, _, b := encode(r)
		keys[i] = k
		byBucket[b] = append(byBucket[b], i)
	}
	for b, idx := range byBucket {
		var ks [][]byte
		for _, i := range idx {
			ks = append(ks, keys[i])
		}
		vals, err := c.Lookup(ctx, tab, b, ks)
		if err != nil {
			t.Fatalf("Lookup: %v", err)
		}
		for j, i := range idx {
			want, ok := state[keyOf(probe[i])]
			switch {
			case !ok && vals[j] != nil:
				t.Errorf("Lookup %s = %s, want none", keyOf(probe[i]), str(decode(vals[j])))
			case ok && vals[j] == nil:
				t.Errorf("Lookup %s = none, want %s", keyOf(probe[i]), str(want))
			case ok && str(decode(vals[j])) != str(want):
				t.Errorf("Lookup %s = %s, want %s", keyOf(probe[i]), str(decode(vals[j])), str(want))
			}
		}
	}

	// Prefix lookups by region.
	for _, reg := range append(regions, "mars") {
		_, prefix, _, b := encode(kv{region: reg})
		lists, err := c.PrefixLookup(ctx, tab, b, [][]byte{prefix})
		if err != nil {
			t.Fatalf("PrefixLookup %s: %v", reg, err)
		}
		var got, want []string
		for _, v := range lists[0] {
			got = append(got, str(decode(v)))
		}
		for _, r := range state {
			if r.region == reg {
				want = append(want, str(r))
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("PrefixLookup %s:\n got %v\nwant %v", reg, got, want)
		}
	}

	// LimitScan of a primary-key table reads the KV store: the union over
	// buckets (limit above the row count) is the whole current state.
	var all, want []string
	for b := int32(0); b < nb; b++ {
		isLog, recs, err := c.LimitScan(ctx, tab, b, 1000)
		if err != nil || isLog {
			t.Fatalf("LimitScan bucket %d = %v, %v", b, isLog, err)
		}
		vals, err := format.ParseValueBatch(recs)
		if err != nil {
			t.Fatalf("ValueRecordBatch: %v", err)
		}
		for _, v := range vals {
			all = append(all, str(decode(append(format.AppendValueHeader(nil, v.SchemaID), v.Row...))))
		}
	}
	for _, r := range state {
		want = append(want, str(r))
	}
	slices.Sort(all)
	slices.Sort(want)
	if !slices.Equal(all, want) {
		t.Errorf("LimitScan union:\n got %v\nwant %v", all, want)
	}

	// The changelog: ListOffsets + FetchLog of the PK table's log carries
	// +I/-U/+U/-D change types: 25 inserts, one update (-U, +U), two
	// deletes; the delete of a missing key changes nothing (its batch may
	// be an empty one that still takes an offset).
	ends, err := c.ListOffsets(ctx, tab, []int32{0, 1, 2}, OffsetLatest, 0)
	if err != nil {
		t.Fatal(err)
	}
	dec := format.NewBatchDecoder(schema)
	tally := map[format.ChangeType]int{}
	for b := int32(0); b < nb; b++ {
		for off := int64(0); off < ends[b]; {
			res, err := c.FetchLog(ctx, tab, b, off, 1<<20, nil)
			if err != nil {
				t.Fatal(err)
			}
			batches, err := splitBatches(res.Records)
			if err != nil || len(batches) == 0 {
				t.Fatalf("changelog fetch at %d: %d batches, %v", off, len(batches), err)
			}
			for _, raw := range batches {
				h, _ := format.ParseHeader(raw)
				// An empty batch (a delete of a missing key) still takes
				// LastOffsetDelta+1 offsets (fluss.md §5).
				off = h.BaseOffset + int64(h.LastOffsetDelta) + 1
				if h.RecordCount == 0 {
					continue
				}
				bt, err := dec.Decode(raw)
				if err != nil {
					t.Fatalf("decoding changelog batch: %v", err)
				}
				for _, ct := range bt.Changes {
					tally[ct]++
				}
				bt.Record.Release()
			}
		}
	}
	if got := fmt.Sprint(tally); got != fmt.Sprint(map[format.ChangeType]int{1: 25, 2: 1, 3: 1, 4: 2}) {
		t.Errorf("changelog change types = %v, want +I 25, -U 1, +U 1, -D 2", got)
	}
}
