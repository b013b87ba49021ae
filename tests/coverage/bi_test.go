package coverage

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// callPattern finds name( in SQL text: a function call (or a keyword
// followed by a parenthesis, which is not in the table and so ignored).
var callPattern = regexp.MustCompile(`(?i)\b([a-z_][a-z0-9_]*)\s*\(`)

// TestBICorpusFunctionsImplemented checks the second half of issue 34's
// acceptance 2: every function of the coverage table that the BI query
// corpus (tests/clients/bi/queries.sql) calls has an implemented signature
// in functions.tsv. (Whether the corpus's exact calls give PostgreSQL's
// answers is TestBIIntrospectionQueries' job in tests/clients.)
func TestBICorpusFunctionsImplemented(t *testing.T) {
	corpus, err := os.ReadFile("../clients/bi/queries.sql")
	if err != nil {
		t.Fatal(err)
	}
	rows := committedRows(t)
	implemented, known := map[string]bool{}, map[string]bool{}
	for _, r := range rows {
		if r.Kind == string(KindOperator) {
			continue
		}
		known[r.Name] = true
		if r.Status == string(Implemented) {
			implemented[r.Name] = true
		}
	}
	called := map[string]bool{}
	for _, line := range strings.Split(string(corpus), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "--") {
			continue
		}
		for _, m := range callPattern.FindAllStringSubmatch(line, -1) {
			if n := strings.ToLower(m[1]); known[n] {
				called[n] = true
			}
		}
	}
	if len(called) == 0 {
		t.Fatal("found no call of a function in the table in the BI corpus")
	}
	var missing []string
	for n := range called {
		if !implemented[n] {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Fatalf("the BI corpus calls functions the coverage table does not show implemented: %s", strings.Join(missing, ", "))
	}
	t.Logf("the BI corpus calls %d functions of the table, all implemented", len(called))
}
