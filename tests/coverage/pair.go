package coverage

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/internal/pgtest"
	"github.com/sqlgate/sqlgate/server"
	"github.com/sqlgate/sqlgate/tests/difftest"
)

// queryTimeout bounds one call on either system.
const queryTimeout = 10 * time.Second

// Pair is a throwaway PostgreSQL 15 and an in-process sqlgate, one session
// on each, with the same session settings.
type Pair struct {
	SQLGate, Postgres *difftest.Session
	stops             []func()
}

// sessionSetup makes both sessions print the same way.
var sessionSetup = []string{"SET TimeZone = 'UTC'", "SET DateStyle = 'ISO, MDY'", "SET IntervalStyle = 'postgres'", "SET extra_float_digits = 1"}

// StartPair starts both systems; dir holds PostgreSQL's cluster. The
// caller must Close the pair.
func StartPair(ctx context.Context, dir string) (*Pair, error) {
	p := &Pair{}
	pg, err := pgtest.StartCluster(ctx, dir)
	if err != nil {
		return nil, err
	}
	p.stops = append(p.stops, func() { _ = pg.Stop() })
	url, cleanup, err := server.InProcess(ctx, "")
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("start sqlgate: %w", err)
	}
	p.stops = append(p.stops, cleanup)
	if p.Postgres, err = difftest.Connect(ctx, pg.ConnString(), queryTimeout); err != nil {
		p.Close()
		return nil, err
	}
	p.stops = append(p.stops, func() { p.Postgres.Close(context.Background()) })
	if p.SQLGate, err = difftest.Connect(ctx, url, queryTimeout); err != nil {
		p.Close()
		return nil, err
	}
	p.stops = append(p.stops, func() { p.SQLGate.Close(context.Background()) })
	if err := p.Postgres.Exec(ctx, append(sessionSetup, "SET statement_timeout = '5s'")); err != nil {
		p.Close()
		return nil, err
	}
	if err := p.SQLGate.Exec(ctx, sessionSetup); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// Close stops both systems.
func (p *Pair) Close() {
	for i := len(p.stops) - 1; i >= 0; i-- {
		p.stops[i]()
	}
}

// Build loads the catalog from PostgreSQL and probes every signature.
func (p *Pair) Build(ctx context.Context) ([]*Entry, error) {
	sigs, err := Load(ctx, p.Postgres)
	if err != nil {
		return nil, err
	}
	return Probe(ctx, sigs, p.SQLGate, p.Postgres), nil
}

// WriteFiles writes functions.tsv and the markdown rendering under root
// (the repository's top directory).
func WriteFiles(root string, es []*Entry) error {
	for _, f := range []struct {
		path  string
		write func(*os.File) error
	}{
		{root + "/tests/coverage/functions.tsv", func(w *os.File) error { return WriteTSV(w, es) }},
		{root + "/docs/functions.md", func(w *os.File) error { return WriteMarkdown(w, es) }},
	} {
		w, err := os.Create(f.path)
		if err != nil {
			return err
		}
		if err := f.write(w); err != nil {
			w.Close()
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
	}
	return nil
}

// UpdateReadme rewrites the coverage sentence between README.md's
// <!-- coverage --> markers.
func UpdateReadme(root string, f Figures) error {
	path := root + "/README.md"
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(b)
	const open, end = "<!-- coverage -->", "<!-- /coverage -->"
	i, j := strings.Index(s, open), strings.Index(s, end)
	if i < 0 || j < i {
		return fmt.Errorf("README.md has no %s ... %s markers", open, end)
	}
	s = s[:i+len(open)] + "sqlgate runs " + FigureLine(f) + s[j:]
	return os.WriteFile(path, []byte(s), 0o644)
}
