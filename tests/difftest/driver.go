package difftest

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// Config is one differential run.
type Config struct {
	Seed    uint64
	Queries int
	// MaxMinimise bounds how many distinct mismatches are shrunk (each
	// shrink costs up to MinimiseBudget query pairs); later ones are only
	// counted.
	MaxMinimise    int
	MinimiseBudget int
	// Progress, when set, receives a line every 1000 queries.
	Progress io.Writer
}

// Mismatch is one distinct minimised disagreement.
type Mismatch struct {
	Class    string // MismatchClass of the original
	Why      string // Compare's explanation for the minimised query
	Query    string // minimised SQL
	Original string // the generated SQL it was shrunk from
	SQLGate  Outcome
	Postgres Outcome
	Count    int // generated queries that shrank to this one
}

func (m *Mismatch) String() string {
	return fmt.Sprintf("%s — %s (seen %d×)\n    query:    %s\n    sqlgate:  %s\n    postgres: %s\n    from:     %s",
		m.Class, m.Why, m.Count, m.Query, m.SQLGate.Format(8), m.Postgres.Format(8), m.Original)
}

// Report is the result of a run.
type Report struct {
	Coverage   *Coverage
	Mismatches []*Mismatch       // unexplained, distinct after minimisation
	Known      map[string]int    // KnownBug name -> generated queries showing it
	Explained  map[string]int    // SemanticDifference name -> count
	Examples   map[string]string // one minimised example per known bug or difference
	Unshrunk   int               // mismatches beyond MaxMinimise (counted, not shrunk)
}

// Runner holds the two sessions under comparison.
type Runner struct {
	SQLGate  Executor
	Postgres Executor
}

// ProbeFeatures returns the optional families sqlgate runs today. A probe
// PostgreSQL rejects is a bug in the probe, reported as an error.
func (r *Runner) ProbeFeatures(ctx context.Context) (map[string]bool, error) {
	on := map[string]bool{}
	for _, f := range Features() {
		if o := r.Postgres.Run(ctx, f.Probe); o.Err != nil {
			return nil, fmt.Errorf("probe %s fails on PostgreSQL: %s (%s)", f.Name, o.Err.Message, o.Err.Code)
		}
		if o := r.SQLGate.Run(ctx, f.Probe); o.Err == nil {
			on[f.Name] = true
		}
	}
	return on, nil
}

// outcome runs q on both systems.
func (r *Runner) outcome(ctx context.Context, q *Query) (sg, pg Outcome) {
	sql := q.SQL()
	return r.SQLGate.Run(ctx, sql), r.Postgres.Run(ctx, sql)
}

func compareQuery(q *Query, sg, pg Outcome) (bool, string) {
	return Compare(sg, pg, q.CompletelyOrdered(), q.hasAnyAggregate())
}

// Run generates cfg.Queries queries from schema with the given features,
// compares every one and shrinks each unexplained mismatch.
func (r *Runner) Run(ctx context.Context, cfg Config, schema *Schema, features map[string]bool) (*Report, error) {
	gen := NewGenerator(cfg.Seed, schema, features)
	rep := &Report{Coverage: NewCoverage(), Known: map[string]int{}, Explained: map[string]int{}, Examples: map[string]string{}}
	for _, f := range Features() {
		if features[f.Name] {
			rep.Coverage.Features = append(rep.Coverage.Features, f.Name)
		}
	}
	byQuery := map[string]*Mismatch{}
	minimised := 0
	for i := 0; i < cfg.Queries; i++ {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		if cfg.Progress != nil && i > 0 && i%1000 == 0 {
			fmt.Fprintf(cfg.Progress, "difftest: %d queries, %d mismatches\n", i, len(rep.Mismatches))
		}
		q := gen.Query()
		rep.Coverage.Add(q)
		sg, pg := r.outcome(ctx, q)
		if (sg.Err != nil && sg.Err.Code == connErrorCode) || (pg.Err != nil && pg.Err.Code == connErrorCode) {
			rep.Coverage.Outcomes["connection lost or timeout"]++
		}
		same, _ := compareQuery(q, sg, pg)
		if same {
			if sg.Err != nil {
				rep.Coverage.Outcomes["both failed"]++
				rep.Coverage.Errors[sg.Err.Code]++
			} else {
				rep.Coverage.Outcomes["both ok"]++
			}
			continue
		}
		if d := explainedBy(q, sg, pg, false); d != nil {
			rep.explain(d.Name, q, sg, pg)
			continue
		}
		if minimised >= cfg.MaxMinimise {
			rep.Unshrunk++
			rep.Coverage.Outcomes["mismatch (not shrunk)"]++
			continue
		}
		minimised++
		class := MismatchClass(sg, pg)
		small := Minimise(q, func(c *Query) bool {
			csg, cpg := r.outcome(ctx, c)
			same, _ := compareQuery(c, csg, cpg)
			return !same && MismatchClass(csg, cpg) == class
		}, cfg.MinimiseBudget)
		ssg, spg := r.outcome(ctx, small)
		if same, _ := compareQuery(small, ssg, spg); same {
			// The mismatch did not reproduce on the minimised query's rerun
			// (only possible with a flaky system): judge the original.
			small, ssg, spg = q, sg, pg
		}
		// A guard that decides evaluation explains a mismatch before any
		// known bug: with the guard, the bug may not be what happened.
		if d := explainedBy(small, ssg, spg, true); d != nil {
			rep.explain(d.Name, small, ssg, spg)
			continue
		}
		if kb := knownBugFor(small, ssg, spg); kb != nil {
			rep.Coverage.Outcomes["known bug"]++
			rep.Known[kb.Name]++
			if _, ok := rep.Examples[kb.Name]; !ok {
				rep.Examples[kb.Name] = small.SQL()
			}
			continue
		}
		rep.Coverage.Outcomes["mismatch"]++
		key := small.SQL()
		if m, ok := byQuery[key]; ok {
			m.Count++
			continue
		}
		_, why := compareQuery(small, ssg, spg)
		m := &Mismatch{Class: class, Why: why, Query: key, Original: q.SQL(), SQLGate: ssg, Postgres: spg, Count: 1}
		byQuery[key] = m
		rep.Mismatches = append(rep.Mismatches, m)
	}
	return rep, nil
}

func (rep *Report) explain(name string, q *Query, sg, pg Outcome) {
	rep.Coverage.Outcomes["explained: "+name]++
	rep.Explained[name]++
	if _, ok := rep.Examples[name]; !ok {
		rep.Examples[name] = fmt.Sprintf("%s\n      sqlgate:  %s\n      postgres: %s", q.SQL(), sg.Format(3), pg.Format(3))
	}
}

// CheckKnownBugs runs every known bug's reproduction and returns the names
// of those that no longer mismatch.
func (r *Runner) CheckKnownBugs(ctx context.Context) []string {
	var fixed []string
	for _, kb := range KnownBugs() {
		sg, pg := r.SQLGate.Run(ctx, kb.Repro), r.Postgres.Run(ctx, kb.Repro)
		if same, _ := Compare(sg, pg, kb.Ordered, false); same {
			fixed = append(fixed, kb.Name)
		}
	}
	return fixed
}

// Summary renders the report's findings (coverage is separate).
func (rep *Report) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "unexplained mismatches: %d distinct", len(rep.Mismatches))
	if rep.Unshrunk > 0 {
		fmt.Fprintf(&b, " (+%d not shrunk)", rep.Unshrunk)
	}
	b.WriteString("\n")
	for i, m := range rep.Mismatches {
		fmt.Fprintf(&b, "  #%d %s\n", i+1, m)
	}
	for _, kb := range KnownBugs() {
		if n := rep.Known[kb.Name]; n > 0 {
			fmt.Fprintf(&b, "known bug %q: %d queries, e.g. %s\n", kb.Name, n, rep.Examples[kb.Name])
		}
	}
	for _, d := range SemanticDifferences() {
		if n := rep.Explained[d.Name]; n > 0 {
			fmt.Fprintf(&b, "documented difference %q: %d queries, e.g.\n      %s\n", d.Name, n, rep.Examples[d.Name])
		}
	}
	return b.String()
}
