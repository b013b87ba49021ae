// Command gen regenerates sqlgate's function coverage table
// (tests/coverage/functions.tsv and docs/functions.md) from a throwaway
// PostgreSQL 15's catalog and calls on an in-process sqlgate. Run it from
// the repository's top directory: go run ./tests/coverage/gen
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/sqlgate/sqlgate/tests/coverage"
)

func main() {
	root := flag.String("root", ".", "the repository's top directory")
	flag.Parse()
	if err := run(*root); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	dir, err := os.MkdirTemp("", "coverage-gen-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	p, err := coverage.StartPair(ctx, dir)
	if err != nil {
		return err
	}
	defer p.Close()
	es, err := p.Build(ctx)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(root+"/docs", 0o755); err != nil {
		return err
	}
	if err := coverage.WriteFiles(root, es); err != nil {
		return err
	}
	f := coverage.Count(es)
	if err := coverage.UpdateReadme(root, f); err != nil {
		return err
	}
	fmt.Printf("%d of %d signatures implemented (%.1f%%); %d of %d names fully (%.1f%%)\n",
		f.Implemented, f.Signatures, f.Percent(), f.NamesImplemented, f.Names, f.NamesPercent())
	return nil
}
