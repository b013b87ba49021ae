package imports

import (
	"bytes"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
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
	{"internal/ holds leaf packages: they import nothing of sqlgate's", "internal", []string{module}},
}

// knownViolations are the edges (importing file -> imported package) that
// issue 32's stages have yet to remove, file by file so that the list can
// only shrink. Remove an entry in the change that removes its edge.
var knownViolations = []string{}

func TestImportRules(t *testing.T) {
	files := fileImports(t)
	var found []string
	for _, r := range rules {
		for file, imports := range files {
			pkg := filepath.Dir(file)
			if pkg != r.from && !strings.HasPrefix(pkg, r.from+"/") {
				continue
			}
			for _, imp := range imports {
				for _, to := range r.to {
					if imp == to || strings.HasPrefix(imp, to+"/") {
						found = append(found, file+" -> "+imp)
						if !contains(knownViolations, file+" -> "+imp) {
							t.Errorf("%s imports %s: breaks %q", file, imp, r.name)
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
	files := fileImports(t)
	for _, f := range []string{"binder/binder.go", "sql/parser.go", "cmd/sqlgate/main.go"} {
		if len(files[f]) == 0 {
			t.Errorf("file %s not listed with its imports", f)
		}
	}
}

// fileImports lists every non-test Go file of the module (the files the
// build uses) with its imports, keyed by the module-relative path.
func fileImports(t *testing.T) map[string][]string {
	t.Helper()
	root := moduleRoot(t)
	cmd := exec.Command("go", "list", "-f", "{{.Dir}} {{join .GoFiles \" \"}}", "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	fset := token.NewFileSet()
	files := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		dir, err := filepath.Rel(root, fields[0])
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range fields[1:] {
			f, err := parser.ParseFile(fset, filepath.Join(fields[0], name), nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			var imports []string
			for _, imp := range f.Imports {
				path, err := strconv.Unquote(imp.Path.Value)
				if err != nil {
					t.Fatal(err)
				}
				imports = append(imports, path)
			}
			files[filepath.ToSlash(filepath.Join(dir, name))] = imports
		}
	}
	return files
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
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
