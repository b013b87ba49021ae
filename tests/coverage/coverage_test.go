package coverage

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

// startPair starts both systems for a test.
func startPair(t *testing.T) *Pair {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p, err := StartPair(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// committedRows reads the committed functions.tsv.
func committedRows(t *testing.T) []*Row {
	t.Helper()
	f, err := os.Open("functions.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := ReadTSV(f)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestCoverageTableCurrent regenerates the coverage table and fails when
// the committed functions.tsv says something else about any signature
// (its status, or whether its sample output matches PostgreSQL's), so the
// table and the README's figure cannot drift from what sqlgate does.
func TestCoverageTableCurrent(t *testing.T) {
	p := startPair(t)
	es, err := p.Build(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rows := committedRows(t)
	committed := map[string]*Row{}
	for _, r := range rows {
		committed[r.Key()] = r
	}
	var stale []string
	for _, e := range es {
		r, ok := committed[e.Key()]
		switch {
		case !ok:
			stale = append(stale, e.Key()+": not in functions.tsv")
		case r.Status != string(e.Status) || r.Sample != sampleWord(e):
			stale = append(stale, e.Key()+": functions.tsv says "+r.Status+" "+r.Sample+", sqlgate now "+string(e.Status)+" "+sampleWord(e)+" "+e.Note)
		}
		delete(committed, e.Key())
	}
	for k := range committed {
		stale = append(stale, k+": in functions.tsv, not in PostgreSQL's catalog")
	}
	if len(stale) > 0 {
		t.Fatalf("functions.tsv is stale (run go run ./tests/coverage/gen from the top directory):\n%s", strings.Join(stale, "\n"))
	}
	fig := Count(es)
	t.Logf("coverage: %d of %d signatures (%.1f%%)", fig.Implemented, fig.Signatures, fig.Percent())
}

// TestReadmeFigure checks that README.md states the coverage figure that
// functions.tsv holds.
func TestReadmeFigure(t *testing.T) {
	rows := committedRows(t)
	es := make([]*Entry, len(rows))
	for i, r := range rows {
		es[i] = &Entry{Signature: &Signature{Kind: Kind(r.Kind), Name: r.Name, Display: r.Signature}, Status: Status(r.Status)}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	want := FigureLine(Count(es))
	if !strings.Contains(string(readme), want) {
		t.Fatalf("README.md does not state the coverage figure; want a line containing %q", want)
	}
}
