package main

import (
	"context"
	"github.com/apache/arrow-go/v18/arrow"
	"math"
	"math/big"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgtype"
)

func TestMakeEventIsDeterministicAndInRange(t *testing.T) {
	const n = 100_000
	var nulls int
	for id := int64(1); id <= n; id++ {
		r := makeEvent(id)
		if again := makeEvent(id); again != r {
			t.Fatalf("row %d differs between calls: %+v vs %+v", id, r, again)
		}
		if r.ID != id || r.UserID < 1 || r.UserID > usersCount || r.Qty < 1 || r.Qty > 50 {
			t.Fatalf("row %d out of range: %+v", id, r)
		}
		if !r.AmountValid {
			nulls++
		} else if r.Amount < 0 || r.Amount >= 10_000 || math.Abs(math.Round(r.Amount*100)-r.Amount*100) > 1e-6 {
			t.Fatalf("row %d amount %v is not 0.00..9999.99", id, r.Amount)
		}
		if len(r.Name) < 2 || r.TS.Nanosecond()%1000 != 0 {
			t.Fatalf("row %d: name %q or ts %v not as designed", id, r.Name, r.TS)
		}
	}
	// 1% NULL: allow sampling noise, catch a broken modulus.
	if nulls < n/200 || nulls > n/50 {
		t.Errorf("%d NULL amounts in %d rows, want about 1%%", nulls, n)
	}
}

func TestNewStat(t *testing.T) {
	tests := []struct {
		in                []float64
		median, min, max_ float64
	}{
		{[]float64{3, 1, 2}, 2, 1, 3},
		{[]float64{4, 1, 3, 2}, 2.5, 1, 4},
		{[]float64{7}, 7, 7, 7},
	}
	for _, tc := range tests {
		s := newStat(tc.in)
		if s.Median != tc.median || s.Min != tc.min || s.Max != tc.max_ {
			t.Errorf("newStat(%v) = median %v min %v max %v, want %v %v %v", tc.in, s.Median, s.Min, s.Max, tc.median, tc.min, tc.max_)
		}
	}
}

func TestPercentile(t *testing.T) {
	d := make([]time.Duration, 100)
	for i := range d {
		d[i] = time.Duration(100-i) * time.Microsecond // reversed: percentile must sort
	}
	tests := []struct {
		p    float64
		want time.Duration
	}{{50, 50 * time.Microsecond}, {99, 99 * time.Microsecond}, {100, 100 * time.Microsecond}, {0, time.Microsecond}}
	for _, tc := range tests {
		if got := percentile(d, tc.p); got != tc.want {
			t.Errorf("percentile(%v) = %v, want %v", tc.p, got, tc.want)
		}
	}
}

func TestBetterRatio(t *testing.T) {
	fast, slow := &stat{Median: 10}, &stat{Median: 40}
	tests := []struct {
		name         string
		a, b         *stat
		higherBetter bool
		want         float64
		ok           bool
	}{
		{"latency: a 4x faster", fast, slow, false, 4, true},
		{"latency: a 4x slower", slow, fast, false, 0.25, true},
		{"throughput: a 4x higher", slow, fast, true, 4, true},
		{"unsupported has no ratio", &stat{Err: "unsupported: x"}, fast, true, 0, false},
		{"missing system has no ratio", nil, fast, true, 0, false},
	}
	for _, tc := range tests {
		got, ok := betterRatio(tc.a, tc.b, tc.higherBetter)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: got %v %v, want %v %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestValuesEqualAcrossDriverTypes(t *testing.T) {
	ts := time.Date(2024, 1, 1, 0, 0, 1, 123456000, time.UTC)
	tests := []struct {
		name string
		a, b any
		want bool
	}{
		{"int64 vs DuckDB HUGEINT", int64(42), big.NewInt(42), true},
		{"int32 vs int64", int32(7), int64(7), true},
		{"different ints", int64(42), int64(43), false},
		{"float summation order", 1234567.8900000001, 1234567.89, true},
		{"floats really differ", 1.0, 1.001, false},
		{"numeric integral vs int", pgtype.Numeric{Int: big.NewInt(5), Exp: 2, Valid: true}, int64(500), true},
		{"numeric fraction vs float", pgtype.Numeric{Int: big.NewInt(125), Exp: -2, Valid: true}, 1.25, true},
		{"NULL vs NULL", nil, nil, true},
		{"NULL vs 0", nil, int64(0), false},
		{"timestamps", ts, ts.In(time.FixedZone("x", 3600)), true},
		{"text", "a", "b", false},
	}
	for _, tc := range tests {
		if got := valuesEqual(normalize(tc.a), normalize(tc.b)); got != tc.want {
			t.Errorf("%s: valuesEqual(%v, %v) = %v, want %v", tc.name, tc.a, tc.b, got, tc.want)
		}
	}
}

func TestCompareResults(t *testing.T) {
	norm := func(rows ...[]any) resultSet {
		out := resultSet{}
		for _, r := range rows {
			n := make([]any, len(r))
			for i, v := range r {
				n[i] = normalize(v)
			}
			out = append(out, n)
		}
		return out
	}
	want := norm([]any{int64(1), 2.5}, []any{int64(2), nil})
	if d := compareResults(want, norm([]any{big.NewInt(1), 2.5}, []any{int32(2), nil})); d != "" {
		t.Errorf("equal answers reported different: %s", d)
	}
	if d := compareResults(want, norm([]any{int64(1), 2.5})); !strings.Contains(d, "2 rows vs 1 rows") {
		t.Errorf("row count difference not reported: %q", d)
	}
	if d := compareResults(want, norm([]any{int64(1), 2.5}, []any{int64(2), 0.0})); !strings.Contains(d, "row 2 column 2") {
		t.Errorf("value difference not located: %q", d)
	}
}

func TestCheckTopAmounts(t *testing.T) {
	// Find real rows to build answers from.
	const n = 1000
	var nullIDs, valued []int64
	for id := int64(1); id <= n; id++ {
		if makeEvent(id).AmountValid {
			valued = append(valued, id)
		} else {
			nullIDs = append(nullIDs, id)
		}
	}
	if len(nullIDs) < 2 {
		t.Fatalf("need two NULL rows in the first %d, have %d", n, len(nullIDs))
	}
	row := func(id int64) []any {
		r := makeEvent(id)
		if !r.AmountValid {
			return []any{big.NewInt(id), nil}
		}
		return []any{big.NewInt(id), r.Amount}
	}
	reference := resultSet{row(nullIDs[0]), row(nullIDs[1])}
	// Ties: another system may return the NULL rows in another order.
	if d := checkTopAmounts(reference, resultSet{row(nullIDs[1]), row(nullIDs[0])}, n); d != "" {
		t.Errorf("tie order reported as a difference: %s", d)
	}
	if d := checkTopAmounts(reference, resultSet{row(nullIDs[0]), row(nullIDs[0])}, n); !strings.Contains(d, "twice") {
		t.Errorf("duplicate id not reported: %q", d)
	}
	wrong := resultSet{row(nullIDs[0]), {big.NewInt(valued[0]), nil}}
	if d := checkTopAmounts(reference, wrong, n); !strings.Contains(d, "has amount") {
		t.Errorf("id whose amount is not NULL not reported: %q", d)
	}
}

func TestInsertBatchSQL(t *testing.T) {
	s := insertBatchSQL("t", 1, 3)
	if !strings.HasPrefix(s, "INSERT INTO t (id, user_id, amount, qty, name, ts) VALUES (1, ") {
		t.Fatalf("unexpected statement start: %.80s", s)
	}
	if got := strings.Count(s, "), ("); got != 2 {
		t.Errorf("3 rows should have 2 separators, have %d: %s", got, s)
	}
	r := makeEvent(2)
	if !strings.Contains(s, "'"+r.Name+"', '"+r.TS.Format("2006-01-02 15:04:05.999999")+"'") {
		t.Errorf("row 2's name and timestamp missing from %s", s)
	}
}

func TestStreamSumEqualToleratesOnlyFloatOrder(t *testing.T) {
	a, _ := expectedSums(1000)
	b := a
	b.SumFloat += a.SumFloat * 1e-13
	if !a.equal(b) {
		t.Error("float summation noise treated as a difference")
	}
	b = a
	b.NameHash++
	if a.equal(b) {
		t.Error("a different name checksum treated as equal")
	}
}

// TestSumEventsMatchesGenerator folds Arrow batches of the events the way
// the Flight W2 client does, whole and sliced at an odd row (so that the
// string offsets do not start at zero), and must give the generator's
// checksum.
func TestSumEventsMatchesGenerator(t *testing.T) {
	const n = 5000
	want, _ := expectedSums(n)
	for _, cut := range []int64{0, 1, 777, 4096} {
		var got streamSum
		for _, rec := range eventBatches(n, 4096) {
			parts := []arrow.RecordBatch{rec}
			if cut > 0 && cut < rec.NumRows() {
				parts = []arrow.RecordBatch{rec.NewSlice(0, cut), rec.NewSlice(cut, rec.NumRows())}
			}
			for _, p := range parts {
				if err := sumEvents(&got, p); err != nil {
					t.Fatal(err)
				}
			}
			rec.Release()
		}
		if !got.equal(want) {
			t.Errorf("cut %d: checksum %+v, generator says %+v", cut, got, want)
		}
	}
}

// TestHarnessEndToEnd runs the whole harness on a small data set against a
// real PostgreSQL 15, a sqlgate child process and DuckDB, and checks that
// every workload produced a figure for every system it applies to and that
// nothing disagreed. A sqlgate "unsupported" is allowed (it is reported,
// not hidden) but logged.
func TestHarnessEndToEnd(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cfg := config{Rows: 2000, Warmups: 0, Runs: 2, W1Duration: 50 * time.Millisecond, W1Clients: []int{1, 8}, W10Clients: []int{1, 8, 32}, W10Hot: true, CopyRows: 1000, InsertRows: 1000,
		InsertConns: 2, Workloads: map[string]bool{}}
	dir := t.TempDir()
	rep, err := benchmark(ctx, cfg, "", profiles{CPU: dir + "/cpu.prof", Mem: dir + "/mem.prof", Mutex: dir + "/mutex.prof"}, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Mismatches) > 0 {
		t.Errorf("answers disagree: %v", rep.Mismatches)
	}
	// 4 W1 metrics x 2 client counts, 2x W2 and W2 through Flight SQL into
	// Go (plus into Python, when its packages are there), 2x W3, W4-W7,
	// 2x W8, W8 COPY into a log table and W8 through Flight SQL ingest into
	// a primary-key and a log table, 3x W9.
	want := 8 + 3 + 2 + 4 + 5 + 3
	if pythonReady(ctx) {
		want += 2
	}
	if len(rep.Figures) != want {
		t.Errorf("%d figures, want %d", len(rep.Figures), want)
	}
	for _, f := range rep.Figures {
		pg := f.Systems[sysPostgres]
		switch {
		case strings.HasPrefix(f.Workload, "W9"):
			if s := f.Systems[sysSqlgate]; s == nil || s.Median <= 0 {
				t.Errorf("%s: no RSS figure: %+v", f.Workload, s)
			}
			continue
		case pg == nil || pg.Err != "" || len(pg.Samples) != cfg.Runs || pg.Median <= 0:
			t.Errorf("%s %s: PostgreSQL figure missing or failed: %+v", f.Workload, f.Metric, pg)
		}
		sg := f.Systems[sysSqlgate]
		if sg == nil {
			t.Errorf("%s: no sqlgate entry at all (must be a figure or unsupported)", f.Workload)
		} else if sg.Err != "" {
			t.Logf("%s: sqlgate %s", f.Workload, sg.Err)
		}
		if strings.HasPrefix(f.Workload, "W4") || strings.HasPrefix(f.Workload, "W5") || strings.HasPrefix(f.Workload, "W6") || strings.HasPrefix(f.Workload, "W7") {
			if d := f.Systems[sysDuckDB]; d == nil || d.Err != "" {
				t.Errorf("%s: DuckDB figure missing or failed: %+v", f.Workload, d)
			}
		}
	}
	for _, p := range []string{dir + "/cpu.prof", dir + "/mem.prof", dir + "/mem.prof.base", dir + "/mutex.prof"} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("profile %s not written: %v", p, err)
		}
	}
	var sb strings.Builder
	printTable(&sb, rep)
	if !strings.Contains(sb.String(), "| W5 GROUP BY qty |") {
		t.Errorf("table lacks the W5 row:\n%s", sb.String())
	}
}
