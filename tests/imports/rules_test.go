package imports

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/sqlgate/sqlgate"

// rule forbids packages under From (a module-relative path prefix) to import
// any package matching To (a full import path prefix).
type rule struct {
	name string
	from string
	to   []string
}

var rules = []rule{
	{"the binder works on sqlgate's parsed tree, not TiDB's AST", "binder", []string{"github.com/pingcap/tidb/pkg/parser/ast"}},
	{"the binder builds no Arrow kernels and knows no executor", "binder", []string{"github.com/apache/arrow-go/v18/arrow/compute", module + "/exec"}},
	{"the executor does not know the wire protocol", "exec", []string{module + "/pgwire"}},
	{"the wire protocol does not know the executor", "pgwire", []string{module + "/exec"}},
	{"the shipped commands depend on no test code", "cmd", []string{module + "/tests"}},
}

// knownViolations are the edges (importer -> imported) that issue 32's
// stages have yet to remove. Remove an entry in the change that removes its
// edge.
var knownViolations = []string{
	"binder -> github.com/pingcap/tidb/pkg/parser/ast",
}

func TestImportRules(t *testing.T) {
	graph := packageImports(t)
	var found []string
	for _, r := range rules {
		for pkg, imports := range graph {
			if pkg != r.from && !strings.HasPrefix(pkg, r.from+"/") {
				continue
			}
			for _, imp := range imports {
				for _, to := range r.to {
					if imp == to || strings.HasPrefix(imp, to+"/") {
						found = append(found, pkg+" -> "+imp)
						if !contains(knownViolations, pkg+" -> "+imp) {
							t.Errorf("%s imports %s: breaks %q", pkg, imp, r.name)
						}
					}
				}
			}
		}
	}
	for _, v := range knownViolations {
		if !contains(found, v) {
			t.Errorf("known violation %q no longer exists: remove it from knownViolations", v)
		}
	}
}

// TestRulesSeeTheGraph guards the test itself: if the package listing came
// back empty or the module path changed, every rule would hold vacuously.
func TestRulesSeeTheGraph(t *testing.T) {
	graph := packageImports(t)
	for _, pkg := range []string{"binder", "exec", "pgwire", "cmd/sqlgate", "sql"} {
		if len(graph[pkg]) == 0 {
			t.Errorf("package %s not listed with its imports", pkg)
		}
	}
}

// packageImports lists every non-test package of the module with its
// non-test imports, keyed by the module-relative path.
func packageImports(t *testing.T) map[string][]string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	graph := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || !strings.HasPrefix(fields[0], module) {
			continue
		}
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/")
		imports := fields[1:]
		sort.Strings(imports)
		graph[pkg] = imports
	}
	return graph
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
