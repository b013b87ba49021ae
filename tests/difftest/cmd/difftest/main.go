// Command difftest runs the differential tester against two running
// servers: a sqlgate and a PostgreSQL 15 (each given as a connection URL).
// Both databases get the fixture tables (dropped and re-created). It exits
// 1 when an unexplained mismatch is found or a known bug no longer
// reproduces. `go test ./tests/difftest` does the same with throwaway
// servers; this command is for running against servers you already have.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/sqlgate/sqlgate/tests/difftest"
)

func main() {
	sgURL := flag.String("sqlgate", "", "sqlgate connection URL")
	pgURL := flag.String("postgres", "", "PostgreSQL 15 connection URL")
	queries := flag.Int("queries", 2000, "number of generated queries")
	seed := flag.Uint64("seed", 1, "generator seed")
	flag.Parse()
	if *sgURL == "" || *pgURL == "" {
		fmt.Fprintln(os.Stderr, "usage: difftest -sqlgate URL -postgres URL [-queries N] [-seed S]")
		os.Exit(2)
	}
	os.Exit(run(*sgURL, *pgURL, *queries, *seed))
}

func run(sgURL, pgURL string, queries int, seed uint64) int {
	ctx := context.Background()
	schema := difftest.DefaultSchema()
	var sessions [2]*difftest.Session
	for i, url := range []string{sgURL, pgURL} {
		s, err := difftest.Connect(ctx, url, 10*time.Second)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		defer s.Close(ctx)
		if err := s.Exec(ctx, schema.SetupStatements()); err != nil {
			fmt.Fprintf(os.Stderr, "setup on %s: %v\n", url, err)
			return 2
		}
		sessions[i] = s
	}
	r := &difftest.Runner{SQLGate: sessions[0], Postgres: sessions[1]}
	status := 0
	for _, name := range r.CheckKnownBugs(ctx) {
		fmt.Printf("known bug %q no longer reproduces: remove it from KnownBugs\n", name)
		status = 1
	}
	features, err := r.ProbeFeatures(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	start := time.Now()
	rep, err := r.Run(ctx, difftest.Config{Seed: seed, Queries: queries, MaxMinimise: 5000, MinimiseBudget: 400, Progress: os.Stderr}, schema, features)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Printf("%d queries in %s (seed %d)\n%s\n%s", queries, time.Since(start).Round(time.Millisecond), seed, rep.Coverage, rep.Summary())
	if len(rep.Mismatches) > 0 || rep.Unshrunk > 0 {
		status = 1
	}
	return status
}
