//go:build fluss_cluster

package remote_test

// Partitioned tables on a real Fluss 0.9.1 cluster, through sqlgate and
// through pyfluss (testdata/pyfluss_partitions.py holds the data set and
// pyfluss's side):
//
//   - sqlgate's INSERT and COPY write the rows of a partitioned log table
//     and primary-key table (each row's partition created by the write);
//     pyfluss lists the same partitions, scans every partition's buckets and
//     looks up every key, and finds exactly the data set's values;
//   - pyfluss writes the same rows into partitioned tables sqlgate created,
//     and sqlgate reads them, value by value, whole and pruned;
//   - ALTER TABLE ... ADD / DROP PARTITION through sqlgate is what pyfluss
//     lists; an auto-partitioned table has the coordinator's pre-created
//     partitions (today's and tomorrow's in its time zone).

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/fluss/remote"
)

func runPyPartitions(t *testing.T, python string, args ...string) []byte {
	t.Helper()
	return runPyScript(t, python, "testdata/pyfluss_partitions.py", args...)
}

func TestClusterPyflussPartitions(t *testing.T) {
	python := pyflussPython(t)
	ctx, conn := serveCluster(t)
	var data struct {
		Columns    string
		Rows       [][]*string
		Partitions []string
	}
	if err := json.Unmarshal(runPyPartitions(t, python, "sql"), &data); err != nil {
		t.Fatal(err)
	}
	suffix := fmt.Sprint(time.Now().UnixNano() % 1e6)
	name := func(role string) string { return role + "_" + suffix }
	for _, role := range []string{"ins_log", "ins_pk", "copy_log", "copy_pk", "py_log", "py_pk"} {
		ddl := fmt.Sprintf("CREATE TABLE %s (%s) PARTITIONED BY (region) WITH ('bucket.num' = '2')", name(role), data.Columns)
		if strings.HasSuffix(role, "_pk") {
			ddl = fmt.Sprintf("CREATE TABLE %s (%s, PRIMARY KEY (region, id)) PARTITIONED BY (region) WITH ('bucket.num' = '2')", name(role), data.Columns)
		}
		mustExec(t, ctx, conn, ddl)
		defer conn.Exec(ctx, "DROP TABLE "+name(role))
	}
	literal := func(v *string) string {
		if v == nil {
			return "NULL"
		}
		return "'" + strings.ReplaceAll(*v, "'", "''") + "'"
	}
	var values, copyText []string
	for _, row := range data.Rows {
		vals, text := make([]string, len(row)), make([]string, len(row))
		for i, v := range row {
			vals[i] = literal(v)
			text[i] = `\N`
			if v != nil {
				text[i] = *v
			}
		}
		values = append(values, "("+strings.Join(vals, ", ")+")")
		copyText = append(copyText, strings.Join(text, "\t"))
	}
	for _, role := range []string{"ins_log", "ins_pk"} {
		mustExec(t, ctx, conn, fmt.Sprintf("INSERT INTO %s VALUES %s", name(role), strings.Join(values, ", ")))
	}
	// an older version of a row, replaced by the INSERT above's value
	mustExec(t, ctx, conn, fmt.Sprintf("INSERT INTO %s VALUES ('eu', 1, 999, 'old', NULL)", name("copy_pk")))
	for _, role := range []string{"copy_log", "copy_pk"} {
		tag, err := conn.PgConn().CopyFrom(ctx, strings.NewReader(strings.Join(copyText, "\n")+"\n"), fmt.Sprintf("COPY %s FROM STDIN", name(role)))
		if err != nil || tag.RowsAffected() != int64(len(data.Rows)) {
			t.Fatalf("COPY %s: %v, %v", name(role), tag, err)
		}
	}
	bs := remote.ClusterBootstrap()
	runPyPartitions(t, python, "write", bs, "public", name("py_log"), name("py_pk"))

	// Through sqlgate, every table holds the data set, and SHOW
	// PARTITIONS lists its regions.
	read := func(sql string) [][]string {
		t.Helper()
		res := conn.PgConn().ExecParams(ctx, sql, nil, nil, nil, nil).Read()
		if res.Err != nil {
			t.Fatalf("%s: %v", sql, res.Err)
		}
		var rows [][]string
		for _, r := range res.Rows {
			row := make([]string, len(r))
			for i, v := range r {
				row[i] = "NULL"
				if v != nil {
					row[i] = string(v)
				}
			}
			rows = append(rows, row)
		}
		return rows
	}
	var want [][]string
	for _, row := range data.Rows {
		r := make([]string, len(row))
		for i, v := range row {
			r[i] = "NULL"
			if v != nil {
				r[i] = *v
			}
		}
		want = append(want, r)
	}
	slices.SortFunc(want, func(a, b []string) int { return strings.Compare(a[0]+"/"+a[1], b[0]+"/"+b[1]) })
	var wantParts []string
	for _, p := range data.Partitions {
		wantParts = append(wantParts, "region="+p)
	}
	for _, role := range []string{"ins_log", "ins_pk", "copy_log", "copy_pk", "py_log", "py_pk"} {
		got := read(fmt.Sprintf("SELECT region, id, v, s, d FROM %s ORDER BY region || '/' || id", name(role)))
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("%s through sqlgate:\n got %q\nwant %q", role, got, want)
		}
		var parts []string
		for _, r := range read("SHOW PARTITIONS " + name(role)) {
			parts = append(parts, r[0])
		}
		if !slices.Equal(parts, wantParts) {
			t.Errorf("SHOW PARTITIONS %s: %v, want %v", role, parts, wantParts)
		}
		// pruned to one partition: its rows only, and EXPLAIN says so
		got = read(fmt.Sprintf("SELECT region, id, v, s, d FROM %s WHERE region = 'us' ORDER BY id", name(role)))
		if len(got) != 1 || !slices.Equal(got[0], want[slices.IndexFunc(want, func(r []string) bool { return r[0] == "us" })]) {
			t.Errorf("%s WHERE region = 'us': %q", role, got)
		}
		plan := read(fmt.Sprintf("EXPLAIN SELECT * FROM %s WHERE region IN ('eu', 'nowhere')", name(role)))
		if s := fmt.Sprint(plan); !strings.Contains(s, fmt.Sprintf("partitions=[region=eu] (1 of %d)", len(data.Partitions))) {
			t.Errorf("%s: EXPLAIN of region IN ('eu', 'nowhere'): %s", role, s)
		}
	}
	// point lookups of a partitioned primary-key table
	for _, role := range []string{"ins_pk", "py_pk"} {
		got := read(fmt.Sprintf("SELECT s FROM %s WHERE region = 'eu' AND id = 2", name(role)))
		if len(got) != 1 || got[0][0] != "deux ✓" {
			t.Errorf("%s lookup (eu, 2): %q", role, got)
		}
	}

	// pyfluss reads what sqlgate wrote.
	runPyPartitions(t, python, "read", bs, "public", name("ins_log"), name("ins_pk"))
	runPyPartitions(t, python, "read", bs, "public", name("copy_log"), name("copy_pk"))

	// Partitions added and dropped through sqlgate are the cluster's.
	mustExec(t, ctx, conn, fmt.Sprintf("ALTER TABLE %s ADD PARTITION (region = 'latam')", name("ins_log")))
	mustExec(t, ctx, conn, fmt.Sprintf("ALTER TABLE %s DROP PARTITION (region = 'us')", name("ins_log")))
	var parts []string
	if err := json.Unmarshal(runPyPartitions(t, python, "partitions", bs, "public", name("ins_log")), &parts); err != nil {
		t.Fatal(err)
	}
	wantPy := slices.DeleteFunc(append(slices.Clone(data.Partitions), "latam"), func(p string) bool { return p == "us" })
	slices.Sort(wantPy)
	if !slices.Equal(parts, wantPy) {
		t.Errorf("pyfluss lists %v after ADD latam / DROP us, want %v", parts, wantPy)
	}
	if got := read(fmt.Sprintf("SELECT count(*) FROM %s", name("ins_log"))); got[0][0] != fmt.Sprint(len(data.Rows)-1) {
		t.Errorf("rows after DROP PARTITION us: %v", got)
	}

	// Auto-partitioning is the coordinator's: a DAY table has today's and
	// tomorrow's partitions (UTC) once created.
	auto := name("auto")
	mustExec(t, ctx, conn, fmt.Sprintf(`CREATE TABLE %s (dt STRING, v INT) PARTITIONED BY (dt) WITH (
		'table.auto-partition.enabled' = 'true', 'table.auto-partition.time-unit' = 'DAY',
		'table.auto-partition.time-zone' = 'UTC', 'table.auto-partition.num-precreate' = '2')`, auto))
	defer conn.Exec(ctx, "DROP TABLE "+auto)
	now := time.Now().UTC()
	wantAuto := []string{"dt=" + now.Format("20060102"), "dt=" + now.Add(24*time.Hour).Format("20060102")}
	var got []string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		got = got[:0]
		for _, r := range read("SHOW PARTITIONS " + auto) {
			got = append(got, r[0])
		}
		if slices.Equal(got, wantAuto) {
			break
		}
	}
	if !slices.Equal(got, wantAuto) {
		t.Errorf("auto-partitioned table's partitions %v, want %v", got, wantAuto)
	}
	mustExec(t, ctx, conn, fmt.Sprintf("INSERT INTO %s VALUES ('%s', 1)", auto, now.Format("20060102")))
	if got := read(fmt.Sprintf("SELECT v FROM %s WHERE dt = '%s'", auto, now.Format("20060102"))); len(got) != 1 || got[0][0] != "1" {
		t.Errorf("row in today's partition: %v", got)
	}
}
