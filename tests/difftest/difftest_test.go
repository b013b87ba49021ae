package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sqlgate/sqlgate/server"
)

// queryTimeout bounds one query on either system.
const queryTimeout = 10 * time.Second

func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		t.Fatalf("%s=%q: want a non-negative integer", name, v)
	}
	return n
}

// diffSeed is the seed of a generated test whose own seed is def:
// def moved by SQLGATE_DIFF_SEED's distance from its default 1, so that
// every test keeps its sequence by default and all of them change
// together when the variable is set. It is logged so that a failure can
// be run again.
func diffSeed(t *testing.T, def int) int {
	t.Helper()
	seed := def + envInt(t, "SQLGATE_DIFF_SEED", 1) - 1
	t.Logf("seed %d", seed)
	return seed
}

// seededRand is a generator seeded with diffSeed(t, 1), stream telling
// the tests' generators apart.
func seededRand(t *testing.T, stream uint64) *rand.Rand {
	t.Helper()
	return rand.New(rand.NewPCG(uint64(diffSeed(t, 1)), stream))
}

// startPair makes a database of its own on the package's PostgreSQL
// (sharedPG) and starts an in-process sqlgate, both loaded with schema.
func startPair(t *testing.T, ctx context.Context, schema *Schema) *Runner {
	t.Helper()
	return startPairWith(t, ctx, schema, server.InProcess)
}

// startPairWith is startPair with sqlgate started by inProcess.
func startPairWith(t *testing.T, ctx context.Context, schema *Schema, inProcess func(context.Context, string) (string, func(), error)) *Runner {
	t.Helper()
	pg := sharedPG.Database(t)
	sgURL, cleanup, err := inProcess(ctx, "")
	if err != nil {
		t.Fatalf("start sqlgate: %v", err)
	}
	t.Cleanup(cleanup)
	sg, err := Connect(ctx, sgURL, queryTimeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sg.Close(context.Background()) })
	ps, err := Connect(ctx, pg.ConnString(), queryTimeout)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ps.Close(context.Background()) })
	setup := schema.SetupStatements()
	if err := sg.Exec(ctx, setup); err != nil {
		t.Fatalf("sqlgate setup: %v", err)
	}
	if err := ps.Exec(ctx, setup); err != nil {
		t.Fatalf("postgres setup: %v", err)
	}
	return &Runner{SQLGate: sg, Postgres: ps}
}

// TestDifferential runs SQLGATE_DIFF_QUERIES (default 2000, 300 under
// -race) generated
// queries with seed SQLGATE_DIFF_SEED (default 1) on sqlgate and PostgreSQL
// 15, fails listing every distinct minimised unexplained mismatch, and logs
// the coverage summary. It also fails when a known bug stops reproducing.
func TestDifferential(t *testing.T) {
	t.Parallel()
	def := 2000
	if raceEnabled {
		def = 300
	}
	n := envInt(t, "SQLGATE_DIFF_QUERIES", def)
	seed := diffSeed(t, 1)
	ctx := context.Background()
	schema := DefaultSchema()
	r := startPair(t, ctx, schema)

	for _, name := range r.CheckKnownBugs(ctx) {
		t.Errorf("known bug %q no longer reproduces: remove it from KnownBugs", name)
	}
	features, err := r.ProbeFeatures(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Seed: uint64(seed), Queries: n, MaxMinimise: 5000, MinimiseBudget: 400}
	if testing.Verbose() {
		cfg.Progress = testWriter{t}
	}
	start := time.Now()
	rep, err := r.Run(ctx, cfg, schema, features)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d queries in %s (seed %d)\n%s\n%s", n, time.Since(start).Round(time.Millisecond), seed, rep.Coverage, rep.Summary())
	if rep.Coverage.Outcomes["both ok"] < n/4 {
		t.Errorf("only %d of %d queries ran on both systems: the generator emits too many failing queries", rep.Coverage.Outcomes["both ok"], n)
	}
	if len(rep.Mismatches) > 0 || rep.Unshrunk > 0 {
		t.Errorf("%d distinct unexplained mismatches (see summary above)", len(rep.Mismatches))
	}
}

// TestDifferentialColumnar runs SQLGATE_DIFF_COLUMNAR_QUERIES (default 500,
// 100 under -race) generated queries, seed SQLGATE_DIFF_SEED + 1, with
// every primary-key table's full scans on the columnar path (issue 27:
// ColumnarMinRows 1, so the fixture's small tables get images, built in
// the background after their first scan and read by the queries after it),
// and fails on any unexplained mismatch with PostgreSQL, as
// TestDifferential does for the row path.
func TestDifferentialColumnar(t *testing.T) {
	t.Parallel()
	def := 500
	if raceEnabled {
		def = 100
	}
	n := envInt(t, "SQLGATE_DIFF_COLUMNAR_QUERIES", def)
	seed := diffSeed(t, 1) + 1
	ctx := context.Background()
	schema := DefaultSchema()
	r := startPairWith(t, ctx, schema, server.InProcessColumnar(1))
	features, err := r.ProbeFeatures(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := r.Run(ctx, Config{Seed: uint64(seed), Queries: n, MaxMinimise: 5000, MinimiseBudget: 400}, schema, features)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d queries on the columnar path (seed %d)\n%s", n, seed, rep.Summary())
	if rep.Coverage.Outcomes["both ok"] < n/4 {
		t.Errorf("only %d of %d queries ran on both systems", rep.Coverage.Outcomes["both ok"], n)
	}
	if len(rep.Mismatches) > 0 || rep.Unshrunk > 0 {
		t.Errorf("%d distinct unexplained mismatches on the columnar path (see summary above)", len(rep.Mismatches))
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// TestGeneratedSQLIsValidPostgres generates queries with every optional
// family on (including those sqlgate lacks today) and runs them on
// PostgreSQL alone: none may fail with a syntax, name or type error, so a
// family is ready the day its probe starts to pass.
func TestGeneratedSQLIsValidPostgres(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	schema := DefaultSchema()
	pg := sharedPG.Database(t)
	s, err := Connect(ctx, pg.ConnString(), queryTimeout)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(ctx)
	if err := s.Exec(ctx, schema.SetupStatements()); err != nil {
		t.Fatal(err)
	}
	for _, f := range Features() {
		if o := s.Run(ctx, f.Probe); o.Err != nil {
			t.Errorf("probe %s fails on PostgreSQL: %s", f.Name, o.Err.Message)
		}
	}
	on := map[string]bool{}
	for _, f := range Features() {
		on[f.Name] = true
	}
	g := NewGenerator(99, schema, on)
	okCount := 0
	const n = 1500
	for i := 0; i < n; i++ {
		q := g.Query()
		o := s.Run(ctx, q.SQL())
		if o.Err == nil {
			okCount++
			continue
		}
		if strings.HasPrefix(o.Err.Code, "42") || o.Err.Code == connErrorCode {
			t.Errorf("generated query is invalid SQL for PostgreSQL (%s %s):\n%s", o.Err.Code, o.Err.Message, q.SQL())
		}
	}
	if okCount < n/2 {
		t.Errorf("only %d of %d queries succeeded on PostgreSQL", okCount, n)
	}
}

// tally runs q on both servers and counts its outcome in stats: "same"
// (the same values of the same types, as multisets), "refused alike" (the
// same SQLSTATE and message) or "different" (reported through t). A lost
// connection ends the test.
func tally(t *testing.T, ctx context.Context, r *Runner, q string, stats map[string]int) {
	t.Helper()
	tallyBy(t, ctx, r, q, stats, tallyRule{})
}

// tallyRule makes tally stricter: rows compared in order, the refusals
// (by SQLSTATE) that must also point where PostgreSQL's do, and a
// refusal's DETAIL compared too (detail); or looser: codeOnly takes two
// refusals of one SQLSTATE whatever their messages. oids maps sqlgate's
// type OIDs in a result to PostgreSQL's (typeOIDMap: enums, composites,
// tables' row types), pgOIDs PostgreSQL's to sqlgate's (viewRecordOIDs: a
// view's row type is record in sqlgate), before they are compared.
type tallyRule struct {
	ordered  bool
	placed   func(code string) bool
	detail   bool
	codeOnly bool
	oids     map[uint32]uint32
	pgOIDs   map[uint32]uint32
}

// everyCode is a tallyRule's placed for a query whose every error must be
// at PostgreSQL's position.
func everyCode(string) bool { return true }

// tallyBy is tally under rule.
func tallyBy(t *testing.T, ctx context.Context, r *Runner, q string, stats map[string]int, rule tallyRule) {
	t.Helper()
	sg := r.SQLGate.Run(ctx, q)
	pg := r.Postgres.Run(ctx, q)
	if sg.Err != nil && sg.Err.Code == connErrorCode {
		t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
	}
	for i, o := range sg.OIDs {
		if p, ok := rule.oids[o]; ok {
			sg.OIDs[i] = p
		}
	}
	for i, o := range pg.OIDs {
		if p, ok := rule.pgOIDs[o]; ok {
			pg.OIDs[i] = p
		}
	}
	kind, why := verdict(sg, pg, rule)
	stats[kind]++
	if kind == "different" {
		t.Errorf("%s\n%s", q, why)
	}
}

// verdict is tallyBy's judgement of sqlgate's outcome against
// PostgreSQL's: "refused alike" (the same SQLSTATE and message, and
// position where rule.placed says, DETAIL where rule.detail), "same" (the
// same values of the same types) or "different", with why.
func verdict(sg, pg Outcome, rule tallyRule) (kind, why string) {
	switch {
	case sg.Err != nil && pg.Err != nil && sg.Err.Code == pg.Err.Code && (rule.codeOnly || sg.Err.Message == pg.Err.Message) &&
		(rule.placed == nil || !rule.placed(sg.Err.Code) || sg.Err.Position == pg.Err.Position):
		if rule.detail && sg.Err.Detail != pg.Err.Detail {
			return "different", fmt.Sprintf("  DETAIL: sqlgate %q, PostgreSQL %q", sg.Err.Detail, pg.Err.Detail)
		}
		return "refused alike", ""
	case sg.Err != nil || pg.Err != nil:
		return "different", "  sqlgate:    " + describeErr(sg) + "\n  PostgreSQL: " + describeErr(pg)
	}
	if same, why := Compare(sg, pg, rule.ordered, false); !same {
		return "different", "  " + why
	}
	return "same", ""
}
