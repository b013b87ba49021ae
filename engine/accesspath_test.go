package engine_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
)

// newSessionRows is newSession over a store whose scans make batches of
// batchRows rows.
func newSessionRows(t *testing.T, batchRows int) pgwire.Session {
	t.Helper()
	store, err := embedded.Open(t.TempDir(), embedded.Options{BatchRows: batchRows})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	s, err := engine.New(store, engine.Options{}).NewSession(context.Background(), pgwire.SessionInfo{User: "u"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// rowsOf runs one statement with parameters and renders each row as its
// columns' text joined by "|".
func rowsOf(t *testing.T, s pgwire.Session, sql string, params ...any) []string {
	t.Helper()
	ctx := context.Background()
	stmts, err := s.Prepare(ctx, sql, nil)
	if err != nil || len(stmts) != 1 {
		t.Fatalf("%s: %v", sql, err)
	}
	res, err := stmts[0].Execute(ctx, params)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	defer res.Close()
	var out []string
	for {
		b, err := res.Next(ctx)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		if b == nil {
			return out
		}
		for i := 0; i < int(b.NumRows()); i++ {
			var vals []string
			for c := 0; c < int(b.NumCols()); c++ {
				col := b.Column(c)
				if col.IsNull(i) {
					vals = append(vals, "NULL")
				} else if sc, ok := col.(*array.String); ok {
					vals = append(vals, sc.Value(i))
				} else {
					vals = append(vals, col.ValueStr(i))
				}
			}
			out = append(out, strings.Join(vals, "|"))
		}
		b.Release()
	}
}

// TestPrefixLookupPlans asserts which filters become prefix lookups.
func TestPrefixLookupPlans(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, `CREATE TABLE mt (tenant INT, id BIGINT, v STRING, PRIMARY KEY (tenant, id)) WITH ('bucket.num' = '4', 'bucket.key' = 'tenant')`)
	mustRun(t, s, `CREATE TABLE pt (id BIGINT, tenant INT, v STRING, PRIMARY KEY (id, tenant)) WITH ('bucket.num' = '4', 'bucket.key' = 'tenant')`)
	mustRun(t, s, `CREATE TABLE ft (tenant DOUBLE, id BIGINT, PRIMARY KEY (tenant, id)) WITH ('bucket.key' = 'tenant')`)
	mustRun(t, s, `CREATE TABLE kt (tenant INT, id BIGINT, PRIMARY KEY (tenant, id))`)
	tests := []struct {
		sql, want string // want: the leaf line's prefix
	}{
		{"SELECT * FROM mt WHERE tenant = 5", "prefix_lookup: table=mt bucket_key=[tenant] keys=1 columns=[tenant, id, v]"},
		{"SELECT v FROM mt WHERE tenant IN (1, 2, 3) AND v <> 'x'", "prefix_lookup: table=mt bucket_key=[tenant] keys=3 columns=[tenant, v]"},
		{"SELECT id FROM mt WHERE 7 = tenant", "prefix_lookup: table=mt bucket_key=[tenant] keys=1 columns=[tenant, id]"},
		{"SELECT count(*) FROM pt WHERE tenant = 1 AND v = 'a'", "prefix_lookup: table=pt bucket_key=[tenant] keys=1"},
		// the whole primary key: a point lookup
		{"SELECT v FROM mt WHERE tenant = 1 AND id = 2", "lookup: table=mt keys=1"},
		// the bucket key not fixed: a scan
		{"SELECT v FROM mt WHERE tenant > 1", "scan: table=mt"},
		{"SELECT v FROM mt WHERE tenant = 1 OR v = 'a'", "scan: table=mt"},
		{"SELECT v FROM mt WHERE id = 1", "scan: table=mt"},
		// floating-point bucket keys (-0 = 0) and bucket key = primary key
		{"SELECT id FROM ft WHERE tenant = 1", "scan: table=ft"},
		{"SELECT id FROM kt WHERE tenant = 1", "scan: table=kt"},
		{"SELECT _log_offset FROM mt$changelog WHERE tenant = 1", "changelog_scan: table=mt"},
	}
	for _, tt := range tests {
		lines := mustRun(t, s, "EXPLAIN "+tt.sql)
		leaf := strings.TrimSpace(lines[len(lines)-1])
		if !strings.HasPrefix(leaf, tt.want) {
			t.Errorf("%s:\n got %s\nwant %s...", tt.sql, leaf, tt.want)
		}
	}
	// a parameter fixes the bucket key too
	lines := rowsOf(t, s, "EXPLAIN SELECT v FROM mt WHERE tenant = $1", int64(3))
	if !strings.Contains(strings.Join(lines, "\n"), "prefix_lookup: table=mt") {
		t.Errorf("tenant = $1: %q", lines)
	}
}

// TestPrefixLookupMatchesScan compares prefix lookups with the same query
// written so that no access path applies (tenant + 0), on random data with
// duplicates, deletes and a transaction's uncommitted writes, for a bucket
// key that leads the primary key and one that does not.
func TestPrefixLookupMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	s := newSessionRows(t, 16)
	for ti, pk := range []string{"tenant, id", "id, tenant"} {
		name := fmt.Sprintf("r%d", ti)
		mustRun(t, s, fmt.Sprintf(`CREATE TABLE %s (tenant INT, id BIGINT, v STRING, PRIMARY KEY (%s)) WITH ('bucket.num' = '3', 'bucket.key' = 'tenant')`, name, pk))
		check := func(stage string) {
			t.Helper()
			for q := 0; q < 8; q++ {
				var list []string
				for n := 1 + rng.IntN(3); n > 0; n-- {
					list = append(list, fmt.Sprint(rng.IntN(12)-2))
				}
				in := strings.Join(list, ", ")
				fast := fmt.Sprintf("SELECT tenant, id, v FROM %s WHERE tenant IN (%s) ORDER BY tenant, id", name, in)
				slow := fmt.Sprintf("SELECT tenant, id, v FROM %s WHERE tenant + 0 IN (%s) ORDER BY tenant, id", name, in)
				plan := strings.Join(mustRun(t, s, "EXPLAIN "+fast), "\n")
				if !strings.Contains(plan, "prefix_lookup") {
					t.Fatalf("%s: no prefix lookup:\n%s", fast, plan)
				}
				got, want := rowsOf(t, s, fast), rowsOf(t, s, slow)
				if !slices.Equal(got, want) {
					t.Fatalf("%s %s:\n got %q\nwant %q", name, stage, got, want)
				}
				one := list[0]
				got = rowsOf(t, s, fmt.Sprintf("SELECT tenant, id, v FROM %s WHERE tenant = $1 ORDER BY tenant, id", name), one)
				want = rowsOf(t, s, fmt.Sprintf("SELECT tenant, id, v FROM %s WHERE tenant + 0 = %s ORDER BY tenant, id", name, one))
				if !slices.Equal(got, want) {
					t.Fatalf("%s %s tenant = $1 (%s):\n got %q\nwant %q", name, stage, one, got, want)
				}
			}
		}
		write := func(n int) {
			var vals []string
			for i := 0; i < n; i++ {
				vals = append(vals, fmt.Sprintf("(%d, %d, 'v%d')", rng.IntN(10), rng.IntN(60), rng.IntN(1000)))
			}
			mustRun(t, s, fmt.Sprintf("INSERT INTO %s VALUES %s", name, strings.Join(vals, ", ")))
			mustRun(t, s, fmt.Sprintf("DELETE FROM %s WHERE id %% 7 = %d", name, rng.IntN(7)))
		}
		for round := 0; round < 4; round++ {
			write(200)
			check(fmt.Sprintf("round %d", round))
		}
		// a transaction's own writes, then the same after rollback
		mustRun(t, s, "BEGIN")
		write(50)
		mustRun(t, s, fmt.Sprintf("UPDATE %s SET v = 'upd' WHERE id %% 5 = 0", name))
		check("in a transaction")
		mustRun(t, s, "ROLLBACK")
		check("after rollback")
	}
}

var actualRe = regexp.MustCompile(`batches_out=(\d+) rows_in=\d+ rows_out=(\d+)`)

// scanActuals returns the leaf's batches and rows out from EXPLAIN ANALYZE.
func scanActuals(t *testing.T, s pgwire.Session, sql string) (int, int) {
	t.Helper()
	lines := mustRun(t, s, "EXPLAIN ANALYZE "+sql)
	m := actualRe.FindStringSubmatch(lines[len(lines)-1])
	if m == nil {
		t.Fatalf("%s: no counters in %q", sql, lines[len(lines)-1])
	}
	var b, r int
	fmt.Sscan(m[1], &b)
	fmt.Sscan(m[2], &r)
	return b, r
}

// TestLimitStopsScanEarly counts the batches a scan produces under a LIMIT
// without ORDER BY: only those the limit needs, on both kinds of table.
func TestLimitStopsScanEarly(t *testing.T) {
	s := newSessionRows(t, 10)
	mustRun(t, s, "CREATE TABLE lk (id BIGINT PRIMARY KEY, v INT)")
	mustRun(t, s, "CREATE TABLE ll (id BIGINT, v INT)")
	mustRun(t, s, "INSERT INTO lk SELECT g, g % 3 FROM generate_series(1, 1000) g")
	mustRun(t, s, "INSERT INTO ll SELECT g, g % 3 FROM generate_series(1, 1000) g")
	for _, tb := range []string{"lk", "ll"} {
		tests := []struct {
			sql              string
			maxBatches, rows int
		}{
			// pushed into the scan: it stops after 5 rows
			{"SELECT * FROM " + tb + " LIMIT 5", 1, 5},
			{"SELECT id FROM " + tb + " LIMIT 25 OFFSET 5", 3, 30},
			// over a filter: every third row passes, 15 rows need 5 batches of 10
			{"SELECT id FROM " + tb + " WHERE v = 0 LIMIT 15", 5, 50},
		}
		for _, tt := range tests {
			b, r := scanActuals(t, s, tt.sql)
			if b > tt.maxBatches || r > tt.rows {
				t.Errorf("%s: scan produced %d batches, %d rows; want at most %d, %d", tt.sql, b, r, tt.maxBatches, tt.rows)
			}
			if got := len(rowsOf(t, s, tt.sql)); got != 15 && got != 5 && got != 25 {
				t.Errorf("%s: %d rows", tt.sql, got)
			}
		}
		// the whole table without a limit, for contrast
		if b, r := scanActuals(t, s, "SELECT id FROM "+tb); b != 100 || r != 1000 {
			t.Errorf("%s without a limit: %d batches, %d rows", tb, b, r)
		}
	}
}

// TestChangelogOffsetBounds compares bounded changelog scans with the same
// query the rule cannot bound (_log_offset + 0), on a log table and a
// primary-key table of three buckets, and checks that the scan reads
// fewer rows than the whole changelog.
func TestChangelogOffsetBounds(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, `CREATE TABLE cl (k INT, v INT) WITH ('bucket.num' = '3', 'bucket.key' = 'k')`)
	mustRun(t, s, `CREATE TABLE cp (k INT PRIMARY KEY, v INT) WITH ('bucket.num' = '3')`)
	for i := 0; i < 30; i++ {
		mustRun(t, s, fmt.Sprintf("INSERT INTO cl SELECT g %% 7, g FROM generate_series(%d, %d) g", i*10, i*10+9))
		mustRun(t, s, fmt.Sprintf("INSERT INTO cp SELECT g %% 40, g FROM generate_series(%d, %d) g", i*10, i*10+9))
	}
	for _, tb := range []string{"cl", "cp"} {
		total := len(rowsOf(t, s, "SELECT 1 FROM "+tb+"$changelog"))
		for _, cond := range []string{"_log_offset >= %d", "_log_offset > %d", "%d <= _log_offset", "_log_offset = %d", "_log_offset >= %d AND v %% 2 = 0"} {
			for _, n := range []int{0, 1, 17, 60, 95, 1000} {
				where := fmt.Sprintf(cond, n)
				fast := fmt.Sprintf("SELECT _change_type, _log_offset, k, v FROM %s$changelog WHERE %s ORDER BY _log_offset, k, v", tb, where)
				slow := strings.ReplaceAll(fast, "WHERE _log_offset", "WHERE _log_offset + 0")
				slow = strings.ReplaceAll(slow, "<= _log_offset", "<= _log_offset + 0")
				plan := strings.Join(mustRun(t, s, "EXPLAIN "+fast), "\n")
				if !strings.Contains(plan, "changelog_scan: table="+tb) || !strings.Contains(plan, "_log_offset>") {
					t.Fatalf("%s: no bounded changelog scan:\n%s", fast, plan)
				}
				got, want := rowsOf(t, s, fast), rowsOf(t, s, slow)
				if !slices.Equal(got, want) {
					t.Fatalf("%s:\n got %q\nwant %q", fast, got, want)
				}
				if n >= 60 {
					if _, rows := scanActuals(t, s, fast); rows >= total {
						t.Errorf("%s: the scan read %d of %d changes", fast, rows, total)
					}
				}
			}
		}
		// a parameter bound
		got := rowsOf(t, s, "SELECT count(*) FROM "+tb+"$changelog WHERE _log_offset >= $1", int64(50))
		want := rowsOf(t, s, "SELECT count(*) FROM "+tb+"$changelog WHERE _log_offset + 0 >= 50")
		if !slices.Equal(got, want) {
			t.Errorf("%s: $1 bound %q, want %q", tb, got, want)
		}
	}
}

// TestChangelogTimeBounds bounds a changelog scan by commit time: batches
// committed before the bound are not read, and the rows equal those of the
// same filter the rule cannot use.
func TestChangelogTimeBounds(t *testing.T) {
	s := newSession(t)
	mustRun(t, s, `CREATE TABLE ct (k INT, v INT) WITH ('bucket.num' = '2', 'bucket.key' = 'k')`)
	var marks []string
	for i := 0; i < 8; i++ {
		mustRun(t, s, fmt.Sprintf("INSERT INTO ct SELECT g, g FROM generate_series(%d, %d) g", i*10, i*10+9))
		marks = append(marks, rowsOf(t, s, "SELECT max(_commit_timestamp)::text FROM ct$changelog")[0])
		time.Sleep(3 * time.Millisecond) // the next batch gets a later millisecond
	}
	for _, m := range marks {
		for _, op := range []string{">", ">="} {
			fast := fmt.Sprintf("SELECT _log_offset, k, v FROM ct$changelog WHERE _commit_timestamp %s '%s' ORDER BY k", op, m)
			slow := fmt.Sprintf("SELECT _log_offset, k, v FROM ct$changelog WHERE coalesce(_commit_timestamp, _commit_timestamp) %s '%s' ORDER BY k", op, m)
			got, want := rowsOf(t, s, fast), rowsOf(t, s, slow)
			if !slices.Equal(got, want) {
				t.Fatalf("%s:\n got %q\nwant %q", fast, got, want)
			}
			if _, rows := scanActuals(t, s, fast); rows > len(want)+10 {
				t.Errorf("%s: the scan read %d rows for %d results", fast, rows, len(want))
			}
		}
	}
	if _, rows := scanActuals(t, s, "SELECT v FROM ct$changelog WHERE _commit_timestamp > now()"); rows != 0 {
		t.Errorf("> now(): the scan read %d rows", rows)
	}
	if _, rows := scanActuals(t, s, "SELECT v FROM ct$changelog WHERE _commit_timestamp >= now() - interval '1 hour'"); rows != 80 {
		t.Errorf(">= now() - 1 hour: the scan read %d rows", rows)
	}
}
