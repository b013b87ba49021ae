package coverage

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/tests/difftest"
)

var updateKnown = flag.Bool("update-known", false, "rewrite known_differences.tsv from a full run")

// knownFile lists the signatures whose generated calls still differ from
// PostgreSQL, each with its first differing call; it is written by a full
// run with -update-known and shrinks as functions are fixed.
const knownFile = "known_differences.tsv"

func readKnown(t *testing.T) map[string]string {
	known := map[string]string{}
	f, err := os.Open(knownFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			k, v, _ := strings.Cut(line, "\t")
			known[k] = v
		}
	}
	return known
}

// TestFunctionsMatchPostgres walks the coverage table's implemented
// signatures and runs each one's generated calls (Variants) on sqlgate
// and PostgreSQL 15, comparing text output and SQLSTATE (values only for
// immutable functions; types, row counts and SQLSTATEs for the others).
// A signature that differs and is not in known_differences.tsv fails the
// test. By default it walks a seeded sample of SQLGATE_COVERAGE_SAMPLE
// (150, 30 under -race) signatures; SQLGATE_COVERAGE_FULL=1 walks all of them (.ci/run)
// and then also fails when a known difference has gone (remove it).
func TestFunctionsMatchPostgres(t *testing.T) {
	p := startPair(t)
	ctx := context.Background()
	es, err := p.Build(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var impl []*Entry
	for _, e := range es {
		if e.Status == Implemented {
			impl = append(impl, e)
		}
	}
	full := os.Getenv("SQLGATE_COVERAGE_FULL") == "1" || *updateKnown
	if !full {
		n := 150
		if raceEnabled {
			n = 30
		}
		if v := os.Getenv("SQLGATE_COVERAGE_SAMPLE"); v != "" {
			if n, err = strconv.Atoi(v); err != nil {
				t.Fatalf("SQLGATE_COVERAGE_SAMPLE=%q: %v", v, err)
			}
		}
		rng := rand.New(rand.NewSource(int64(len(impl))))
		rng.Shuffle(len(impl), func(i, j int) { impl[i], impl[j] = impl[j], impl[i] })
		if n < len(impl) {
			impl = impl[:n]
		}
	}
	known := readKnown(t)
	differs := map[string]string{}
	calls, restrictedCalls := 0, 0
	for _, e := range impl {
		for _, q := range Variants(e.Signature) {
			calls++
			sg, pg := p.SQLGate.Run(ctx, q), p.Postgres.Run(ctx, q)
			if why, ok := differ(e.Signature, sg, pg); ok {
				if r, ok := restricted(sg, pg); ok {
					// a documented restriction (restrictions.go), listed in
					// docs/functions.md with its reason
					restrictedCalls++
					t.Logf("restriction %q: %s", r.Name, q)
					continue
				}
				differs[e.Key()] = q + " -- " + why
				break
			}
		}
	}
	var unknown, gone []string
	for k, v := range differs {
		if _, ok := known[k]; !ok {
			unknown = append(unknown, k+"\n    "+v)
		}
	}
	if full {
		for k := range known {
			if _, ok := differs[k]; !ok {
				gone = append(gone, k)
			}
		}
	}
	sort.Strings(unknown)
	sort.Strings(gone)
	t.Logf("%d signatures, %d calls (%d under a documented restriction), %d signatures differ from PostgreSQL (%d known)",
		len(impl), calls, restrictedCalls, len(differs), len(differs)-len(unknown))
	if *updateKnown {
		writeKnown(t, differs)
		return
	}
	if len(unknown) > 0 {
		t.Errorf("%d signatures differ from PostgreSQL 15 (fix them, or after a full run: go test ./tests/coverage -run TestFunctionsMatchPostgres -update-known):\n%s", len(unknown), strings.Join(unknown, "\n"))
	}
	if len(gone) > 0 {
		t.Errorf("known differences no longer reproduce (run with -update-known):\n%s", strings.Join(gone, "\n"))
	}
}

// differ compares one call's outcomes.
func differ(s *Signature, sg, pg difftest.Outcome) (string, bool) {
	if (sg.Err == nil) != (pg.Err == nil) || sg.Err != nil && sg.Err.Code != pg.Err.Code {
		return fmt.Sprintf("sqlgate %s, PostgreSQL %s", sg.Format(3), pg.Format(3)), true
	}
	if sg.Err != nil {
		return "", false
	}
	if !s.Immutable {
		if len(sg.Rows) != len(pg.Rows) || !equalOIDs(sg.OIDs, pg.OIDs) {
			// values of a volatile function differ by nature: name only the shapes
			return fmt.Sprintf("types or row counts: sqlgate %v (%d rows), PostgreSQL %v (%d rows)", sg.OIDs, len(sg.Rows), pg.OIDs, len(pg.Rows)), true
		}
		return "", false
	}
	if same, why := difftest.Compare(sg, pg, false, false); !same {
		return oneLine(why), true
	}
	return "", false
}

func writeKnown(t *testing.T, differs map[string]string) {
	keys := make([]string, 0, len(differs))
	for k := range differs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("# Signatures whose generated calls differ from PostgreSQL 15 today, with the first differing call.\n" +
		"# Written by: go test ./tests/coverage -run TestFunctionsMatchPostgres -update-known\n")
	for _, k := range keys {
		b.WriteString(k + "\t" + strings.ReplaceAll(differs[k], "\n", " ") + "\n")
	}
	if err := os.WriteFile(knownFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
