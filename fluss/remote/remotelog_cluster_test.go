//go:build fluss_cluster

package remote_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/remote"
)

// TestClusterRemoteLog writes a log table past a few of the test cluster's
// 1 MiB segments (scripts/fluss-cluster.sh), waits until the tablet server
// has tiered the oldest to remote.data.dir and dropped them locally (a
// FetchLog from offset 0 is then served from remote segments), and reads
// the whole table back through sqlgate, every value compared with what was
// written: whole rows, and a projection (which FetchLog cannot push down
// into remote segments); of a plain table and of a partition, whose
// segments live under the partition's own remote directory.
func TestClusterRemoteLog(t *testing.T) {
	for _, partitioned := range []bool{false, true} {
		t.Run(fmt.Sprint("partitioned=", partitioned), func(t *testing.T) { testRemoteLog(t, partitioned) })
	}
}

func testRemoteLog(t *testing.T, partitioned bool) {
	ctx, conn := serveCluster(t)
	name := fmt.Sprintf("remotelog_%d", time.Now().UnixNano()%1e6)
	cols, with := "id int, v text, d double precision, b bigint", ""
	if partitioned {
		cols, with = cols+", p text", " PARTITIONED BY (p)"
	}
	mustExec(t, ctx, conn, fmt.Sprintf(`CREATE TABLE %s (%s)%s
		WITH ('bucket.num' = '1', 'table.log.tiered.local-segments' = '1')`, name, cols, with))
	defer conn.Exec(ctx, "DROP TABLE "+name)
	if partitioned {
		mustExec(t, ctx, conn, fmt.Sprintf("ALTER TABLE %s ADD PARTITION (p = 'x')", name))
	}
	part := ""
	if partitioned {
		part = ", 'x'"
	}

	// Random letters: Fluss compresses Arrow batches (ZSTD by default), so
	// the text must not shrink much for the log to pass a few segments.
	rng := rand.New(rand.NewPCG(26, 1))
	const rows, perInsert, width = 6000, 300, 800
	want := make([]string, rows)
	var sb strings.Builder
	for start := 0; start < rows; start += perInsert {
		sb.Reset()
		fmt.Fprintf(&sb, "INSERT INTO %s VALUES ", name)
		for i := start; i < start+perInsert; i++ {
			v := make([]byte, width)
			for j := range v {
				v[j] = byte('a' + rng.IntN(26))
			}
			d, b := float64(i)/7, int64(i)*1_000_003
			want[i] = fmt.Sprint([]any{int32(i), string(v), d, b})
			if i > start {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "(%d, '%s', %v, %d%s)", i, v, d, b, part)
		}
		mustExec(t, ctx, conn, sb.String())
	}

	c, err := remote.New(remote.Config{Bootstrap: strings.Split(remote.ClusterBootstrap(), ",")})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	info, err := c.GetTableInfo(ctx, fluss.TablePath{Database: "public", Table: name})
	if err != nil {
		t.Fatal(err)
	}
	tab := remote.TableOf(info)
	if partitioned {
		ps, err := c.ListPartitionInfos(ctx, info.Path, []string{"p"})
		if err != nil || len(ps) != 1 {
			t.Fatalf("partitions of %s: %v, %v", name, ps, err)
		}
		tab.Partition = &remote.PartitionRef{ID: ps[0].ID, Name: ps[0].Name}
	}
	deadline := time.Now().Add(90 * time.Second)
	for {
		res, err := c.FetchLog(ctx, tab, 0, 0, 1<<20, nil)
		if err != nil {
			t.Fatalf("FetchLog from offset 0: %v", err)
		}
		if res.Remote {
			if len(res.Records) == 0 {
				t.Fatal("FetchLog from offset 0 was served from remote segments but returned no records")
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("FetchLog of %s from offset 0 still answered from the local log after 90s: no segment was tiered to remote storage (check remote.data.dir, log.segment.file-size and remote.log.task-interval-duration in scripts/fluss-cluster.sh)", name)
		}
		select {
		case <-ctx.Done():
			t.Fatal(ctx.Err())
		case <-time.After(500 * time.Millisecond):
		}
	}

	// Tiering moves segments, it does not delete them: the log still
	// starts at 0, which a primary-key table's changelog replay
	// (scan_replay.go) relies on.
	if starts, err := c.ListOffsets(ctx, tab, []int32{0}, remote.OffsetEarliest, 0); err != nil || starts[0] != 0 {
		t.Fatalf("ListOffsets(earliest) of a tiered log = %v, %v; want 0", starts, err)
	}

	got := queryText(t, ctx, conn, fmt.Sprintf("SELECT id, v, d, b FROM %s ORDER BY id", name))
	compareLines(t, "whole rows", strings.Split(got, "\n"), want)

	// Two of four columns: a scan that pushes its projection down.
	got = queryText(t, ctx, conn, fmt.Sprintf("SELECT b, id FROM %s ORDER BY id", name))
	wantProj := make([]string, rows)
	for i := range wantProj {
		wantProj[i] = fmt.Sprint([]any{int64(i) * 1_000_003, int32(i)})
	}
	compareLines(t, "projected rows", strings.Split(got, "\n"), wantProj)
}

func compareLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", what, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: row %d is\n%.200s\nwant\n%.200s", what, i, got[i], want[i])
		}
	}
}
