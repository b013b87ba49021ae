package sql

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// truncatedVerbs are the first words of the statements sqlgate parses with
// its own parsers (DDL, session and utility statements) rather than
// TiDB's grammar alone; those parsers walk tokens by index, and a
// statement cut short is where such a walk runs off the end.
var truncatedVerbs = []string{"CREATE", "ALTER", "DROP", "COMMENT", "GRANT", "REVOKE", "SET", "RESET", "SHOW",
	"TRUNCATE", "COPY", "PREPARE", "EXECUTE", "DEALLOCATE", "DECLARE", "FETCH", "MOVE", "CLOSE", "BEGIN",
	"START", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "LOCK", "ANALYZE", "VACUUM", "REFRESH", "REINDEX",
	"CLUSTER", "DISCARD", "LISTEN", "NOTIFY", "UNLISTEN", "EXPLAIN", "DO", "CALL", "SECURITY", "REASSIGN", "IMPORT"}

// TestParseTruncatedStatements cuts every such statement of the
// sqllogictest suites after each of its tokens (alone, then followed by
// ";" or ")"), replaces each token by a comma and drops each token, and
// parses the result: a
// statement cut short must be a *sqlerr.Error with a position inside the
// input, never a panic (ALTER TABLE t ADD COLUMN; indexed past the end of
// its tokens and the connection saw an internal error).
func TestParseTruncatedStatements(t *testing.T) {
	stmts := utilityStatements(t, "../tests/sqllogic")
	if len(stmts) < 500 {
		t.Fatalf("only %d statements read from the suites", len(stmts))
	}
	p := NewParser()
	cuts := 0
	for _, s := range stmts {
		toks, err := lex(s)
		if err != nil {
			continue
		}
		for k, tk := range toks {
			for _, in := range []string{s[:tk.end], s[:tk.end] + ";", s[:tk.end] + " )", s[:tk.start] + "," + s[tk.end:], cutToken(s, toks, k)} {
				cuts++
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("Parse(%q) panicked: %v", in, r)
						}
					}()
					if _, err := p.Parse(in); err != nil {
						e := sqlerr.As(err)
						if e == nil {
							t.Errorf("Parse(%q): error %T %v is not *sqlerr.Error", in, err, err)
						} else if e.Position < 0 || e.Position > len([]rune(in))+1 {
							t.Errorf("Parse(%q): position %d out of range", in, e.Position)
						}
					}
				}()
			}
		}
	}
	t.Logf("%d statements, %d cuts", len(stmts), cuts)
}

// utilityStatements are the statements of the .slt files under dir whose
// first word is one of truncatedVerbs, once each.
func utilityStatements(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.slt"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(dir, "*", "*.slt"))
	seen := map[string]bool{}
	var out []string
	for _, name := range append(files, more...) {
		for _, s := range sltStatements(t, name) { // fastparse_test.go
			s = strings.TrimSpace(s)
			first, _, _ := strings.Cut(s, " ")
			first = strings.ToUpper(strings.TrimRight(first, ";\n"))
			if slices.Contains(truncatedVerbs, first) && !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// cutToken is s without its k-th token.
func cutToken(s string, toks []token, k int) string {
	return s[:toks[k].start] + s[toks[k].end:]
}
