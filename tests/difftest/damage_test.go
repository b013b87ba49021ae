package difftest

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Syntax errors of damaged statements: every statement the sqllogictest
// corpus (tests/sqllogic/*.slt) runs successfully on both servers is a
// valid PostgreSQL statement; one token dropped, duplicated or swapped
// with its neighbour, a parenthesis dropped or added, an item added
// before a closing bracket, a keyword inserted, a FROM subquery's alias
// dropped, or a constant replaced by an expression form of PostgreSQL's
// grammar (exprForms), and it is often not. Each damaged statement is parsed (the
// extended protocol's Parse, so that nothing runs and no table is
// needed) by both servers, which must agree on the grammar: both take
// it (whatever else they then say of it: no table exists), or both
// refuse it as a syntax error (42601) with the same message and the same
// position (ErrorResponse field P: "at or near X" with the caret on X,
// or "at end of input").

// damageToken is one token of a statement.
type damageToken struct {
	start, end int // the token's bytes in the statement
}

// damageTokens splits a statement into PostgreSQL tokens (loosely:
// operators are runs of operator characters; what matters is that
// strings, quoted names, comments and dollar quotes stay whole).
func damageTokens(s string) []damageToken {
	var toks []damageToken
	isIdent := func(c byte) bool {
		return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
	}
	isOp := func(c byte) bool { return strings.IndexByte("+-*/<>=~!@#%^&|`?", c) >= 0 }
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			depth := 0
			for i < len(s) {
				if strings.HasPrefix(s[i:], "/*") {
					depth++
					i += 2
				} else if strings.HasPrefix(s[i:], "*/") {
					depth--
					i += 2
					if depth == 0 {
						break
					}
				} else {
					i++
				}
			}
			continue
		}
		start := i
		switch {
		case c == '\'' || (c == 'e' || c == 'E' || c == 'b' || c == 'B' || c == 'x' || c == 'X' || c == 'n' || c == 'N') && i+1 < len(s) && s[i+1] == '\'':
			backslash := c == 'e' || c == 'E'
			if c != '\'' {
				i++
			}
			i++
			for i < len(s) {
				if backslash && s[i] == '\\' {
					i += 2
					continue
				}
				if s[i] == '\'' {
					if i+1 < len(s) && s[i+1] == '\'' {
						i += 2
						continue
					}
					i++
					break
				}
				i++
			}
		case c == '"':
			i++
			for i < len(s) {
				if s[i] == '"' {
					if i+1 < len(s) && s[i+1] == '"' {
						i += 2
						continue
					}
					i++
					break
				}
				i++
			}
		case c == '$' && i+1 < len(s) && (s[i+1] == '$' || !(s[i+1] >= '0' && s[i+1] <= '9')):
			j := i + 1
			for j < len(s) && s[j] != '$' && isIdent(s[j]) {
				j++
			}
			if j < len(s) && s[j] == '$' {
				tag := s[i : j+1]
				if k := strings.Index(s[j+1:], tag); k >= 0 {
					i = j + 1 + k + len(tag)
					break
				}
			}
			i++
		case isIdent(c):
			for i < len(s) && (isIdent(s[i]) || s[i] == '.' && c >= '0' && c <= '9') {
				i++
			}
		case isOp(c):
			for i < len(s) && isOp(s[i]) && !strings.HasPrefix(s[i:], "--") && !strings.HasPrefix(s[i:], "/*") {
				i++
			}
		case c == ':' && i+1 < len(s) && (s[i+1] == ':' || s[i+1] == '='):
			i += 2
		default:
			i++
		}
		toks = append(toks, damageToken{start, i})
	}
	return toks
}

// damageKeywords are the words inserted: reserved words of every clause,
// and a few that are names.
var damageKeywords = []string{
	"SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "NULL", "AS", "BY", "GROUP",
	"ORDER", "JOIN", "ON", "IN", "IS", "LIKE", "CASE", "END", "WHEN", "THEN",
	"UNION", "ALL", "DISTINCT", "LIMIT", "WITH", "INTO", "VALUES", "SET",
	"TABLE", "CREATE", "(", ")", ",", "=", "+", "*", "::", "[", "]", "1", "'x'",
	"ARRAY", "ROW", "OVER", "FILTER", "BETWEEN", "ANY", "EXISTS", "ESCAPE",
	"name", "value", "key", "user", "end", "default", "collate", "some",
}

// exprForms are expression forms of PostgreSQL 15's grammar that TiDB's
// lacks or reads otherwise, whole or damaged (a comma where one
// expression stands, a missing operand).
var exprForms = []string{
	"COLLATION FOR ('a')", "COLLATION FOR ('a', 'b')", "COLLATION FOR ()",
	"ARRAY 3", "ARRAY[1, 2]", "ARRAY(SELECT 1)", "ARRAY",
	"'a' SIMILAR TO 'b' ESCAPE '#'", "'a' SIMILAR TO 'b' ESCAPE", "'a' NOT LIKE 'b' ESCAPE '#'", "'a' LIKE 'b' ESCAPE",
	"(1, 2) OVERLAPS (3, 4)", "(1, 2, 3) OVERLAPS (3, 4)",
	"'a' IS NORMALIZED", "'a' IS NOT NFKC NORMALIZED", "normalize('a', NFD)", "normalize('a', nfx)",
	"'{1}'::int[]::text[]", "'{1}'::int ARRAY", "CAST('{1}' AS int[][])",
	"ROW(1, 'a')", "ROW(1,)", "(ROW(1, 2)).f1",
	"timestamp '2020-01-01' AT TIME ZONE 'UTC'", "now() AT TIME ZONE",
	"(SELECT 1 FROM (SELECT 1))", "(SELECT 1 FROM (VALUES (1)) v)", "EXISTS (SELECT 1 FROM (VALUES (1)))",
}

// shuffled is xs in a random order.
func shuffled(rng *rand.Rand, xs []int) []int {
	rng.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	return xs
}

// damage applies one random damage to stmt, or says it cannot.
func damage(rng *rand.Rand, stmt string, toks []damageToken) (string, string, bool) {
	n := len(toks)
	if n < 2 {
		return "", "", false
	}
	tok := func(i int) string { return stmt[toks[i].start:toks[i].end] }
	// i's token and the separator after it
	spanEnd := func(i int) int {
		if i+1 < n {
			return toks[i+1].start
		}
		return len(stmt)
	}
	i := rng.IntN(n)
	switch rng.IntN(9) {
	case 7:
		// a FROM subquery's alias dropped: PostgreSQL 15's "subquery in
		// FROM must have an alias" (or VALUES'), at its "("
		var closes []int
		for k := 1; k+1 < n; k++ {
			if tok(k) == ")" {
				closes = append(closes, k)
			}
		}
		for _, c := range shuffled(rng, closes) {
			open, depth := -1, 0
			for k := c; k >= 0; k-- {
				if t := tok(k); t == ")" {
					depth++
				} else if t == "(" {
					if depth--; depth == 0 {
						open = k
						break
					}
				}
			}
			if open < 1 || open+1 >= c {
				continue
			}
			first, prev := strings.ToUpper(tok(open+1)), strings.ToUpper(tok(open-1))
			if first != "SELECT" && first != "VALUES" || prev != "FROM" && prev != "JOIN" && prev != "," && prev != "LATERAL" {
				continue
			}
			end := c + 1 // the alias: [AS] name [(names)]
			if strings.EqualFold(tok(end), "AS") {
				end++
			}
			if end >= n {
				continue
			}
			end++
			if end < n && tok(end) == "(" {
				for depth := 0; end < n; end++ {
					if tok(end) == "(" {
						depth++
					} else if tok(end) == ")" {
						if depth--; depth == 0 {
							end++
							break
						}
					}
				}
			}
			cut := len(stmt)
			if end < n {
				cut = toks[end].start
			}
			return stmt[:toks[c].end] + " " + stmt[cut:], "unalias " + tok(c+1), true
		}
		return "", "", false
	case 8:
		// an expression form of PostgreSQL's grammar, well formed or
		// cut short, in place of a constant
		var consts []int
		for k := 1; k < n; k++ {
			// a constant where an expression starts (not a typed
			// literal's string, a type modifier)
			c, prev := tok(k)[0], strings.ToUpper(tok(k-1))
			if (c >= '0' && c <= '9' || c == '\'') && strings.Contains(" = <> < > + - * , SELECT WHERE AND OR THEN ELSE WHEN ", " "+prev+" ") {
				consts = append(consts, k)
			}
		}
		if len(consts) == 0 {
			return "", "", false
		}
		k := consts[rng.IntN(len(consts))]
		form := exprForms[rng.IntN(len(exprForms))]
		return stmt[:toks[k].start] + form + stmt[toks[k].end:], "form " + strings.Fields(form)[0], true
	case 0:
		return stmt[:toks[i].start] + stmt[spanEnd(i):], "drop " + tok(i), true
	case 1:
		return stmt[:toks[i].end] + " " + tok(i) + stmt[toks[i].end:], "duplicate " + tok(i), true
	case 2:
		if i+1 >= n {
			i--
		}
		a, b := tok(i), tok(i+1)
		return stmt[:toks[i].start] + b + stmt[toks[i].end:toks[i+1].start] + a + stmt[toks[i+1].end:], "swap " + a + " " + b, true
	case 3:
		// a parenthesis dropped
		var parens []int
		for k := range toks {
			if t := tok(k); t == "(" || t == ")" {
				parens = append(parens, k)
			}
		}
		if len(parens) == 0 {
			return "", "", false
		}
		k := parens[rng.IntN(len(parens))]
		return stmt[:toks[k].start] + stmt[toks[k].end:], "drop " + tok(k), true
	case 4:
		p := "("
		if rng.IntN(2) == 0 {
			p = ")"
		}
		return stmt[:toks[i].start] + p + " " + stmt[toks[i].start:], "insert " + p, true
	case 5:
		// an item added before a closing bracket: where the grammar holds
		// one expression there (op ANY (..), CAST, EXTRACT, a subscript,
		// ..) the comma is its syntax error
		var closers []int
		for k := range toks {
			if t := tok(k); t == ")" || t == "]" {
				closers = append(closers, k)
			}
		}
		if len(closers) == 0 {
			return "", "", false
		}
		k := closers[rng.IntN(len(closers))]
		item := []string{"1", "'x'", "NULL", "x", "(1, 2)"}[rng.IntN(5)]
		return stmt[:toks[k].start] + ", " + item + stmt[toks[k].start:], "comma before " + tok(k), true
	default:
		kw := damageKeywords[rng.IntN(len(damageKeywords))]
		if rng.IntN(8) == 0 {
			return stmt + " " + kw, "append " + kw, true
		}
		return stmt[:toks[i].start] + kw + " " + stmt[toks[i].start:], "insert " + kw, true
	}
}

// corpusStatements are the statements of tests/sqllogic/*.slt that both
// servers run ("statement ok" and "query" records not limited to one
// server), each a single statement.
func corpusStatements(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../sqllogic/*.slt")
	if err != nil || len(files) < 50 {
		t.Fatalf("the sqllogictest corpus: %d files, %v", len(files), err)
	}
	sort.Strings(files)
	var out []string
	seen := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		only := false
		for k := 0; k < len(lines); k++ {
			l := strings.TrimSpace(lines[k])
			switch {
			case strings.HasPrefix(l, "onlyif"), strings.HasPrefix(l, "skipif"):
				only = true
				continue
			case l == "statement ok" || strings.HasPrefix(l, "query ") && !strings.HasPrefix(l, "query error"):
			default:
				if l == "" {
					only = false
				}
				continue
			}
			var sb strings.Builder
			for k++; k < len(lines) && strings.TrimSpace(lines[k]) != "" && lines[k] != "----"; k++ {
				sb.WriteString(lines[k])
				sb.WriteByte('\n')
			}
			q := strings.TrimRight(strings.TrimSpace(sb.String()), ";")
			if only || q == "" || seen[q] {
				only = false
				continue
			}
			only = false
			seen[q] = true
			// one statement of the grammar: no ';' token, no COPY data
			single := true
			for _, tk := range damageTokens(q) {
				if q[tk.start:tk.end] == ";" || q[tk.start:tk.end] == "\\" {
					single = false
				}
			}
			if single && !strings.HasPrefix(strings.ToUpper(q), "COPY") {
				out = append(out, q)
			}
		}
	}
	return out
}

// parseOnly sends stmt as the unnamed statement's Parse (and Describe):
// the grammar, and for a query its analysis, but nothing runs.
func parseOnly(ctx context.Context, s *Session, stmt string) Outcome {
	if qe := s.try(ctx, func(qctx context.Context) error { // run.go
		_, err := s.conn.Prepare(qctx, "", stmt, nil)
		return err
	}); qe != nil {
		return Outcome{Err: qe}
	}
	return Outcome{}
}

// damageDifferencePermille is the share of damaged statements (per
// thousand) whose syntax error may still differ from PostgreSQL's: a
// ratchet, lowered as classes are fixed: 18% when the test was written,
// 16-17% after the first fixes (seed 1: 490 of 3000, 255 of 1500; the
// limit leaves room for other seeds), 16.1% once two string constants on
// one line were PostgreSQL's syntax error (sql/strconcat.go; seed 1: 241
// of 1500, 948 of 6000; seeds 7 and 99: 253 and 206 of 1500), 14% once
// ALTER TABLE's actions, MySQL's column KEY, INSERT without INTO, empty
// VALUES lists, CREATE DOMAIN's and a cast's type names, CREATE
// SCHEMA's elements and a string constant after an operand were
// PostgreSQL's grammar (tests/sqllogic/syntax_damaged.slt; seeds 99991,
// 7, 12345, 1, 99: 179, 159, 183, 202, 171 of 1500, from 230, 227, 224
// for the first three), 12% once a statement with an unclosed bracket or
// refused at its end was parsed again (the closers appended, the last
// token dropped: sql/unclosed.go) for PostgreSQL's earlier error, BY and
// KEY where an expression starts were column references, and CREATE /
// ALTER TYPE and COMMENT ON forms outside PostgreSQL's grammar were 42601
// (seeds 99991, 7, 12345, 1, 99, 424242: 163, 137, 143, 158, 146, 140 of
// 1500; of 3000 at the first three: 330, 301, 302, from 380, 351, 340),
// 11.7% once the generator also adds an item before a closing bracket
// and a comma where PostgreSQL's grammar holds one expression (op ANY
// (..), CAST, EXTRACT, subscripts, f(*, x), ..: sql/singleexpr.go),
// TiDB's one-argument aggregates given several, PREPARE's types and
// EXECUTE's arguments were PostgreSQL's (seeds 1, 12345, 424242, 7, 99,
// 99991: 148, 164, 174, 159, 162, 162 of 1500 before f(*, x) and ARRAY's
// mixed items; the corpus had grown to 6208 statements, at which the
// same seeds differed in 174, 164, 169, 183, 165, 159 before these
// fixes, with the old damage mix), 10.8% once a FROM subquery without an
// alias was PostgreSQL's 42601 (sql/fromalias.go), with COLLATION FOR,
// ARRAY without [ or (, LIKE's ESCAPE expression and DDL's
// one-expression parentheses, the generator also dropping a FROM
// subquery's alias and putting expression forms in place of constants
// (seeds 1, 7, 99, 12345, 99991, 424242: 140, 140, 133, 156, 152, 148 of
// 1500).
// Of those left:
// both refuse at different tokens (about 8%: the rewrite or TiDB's
// grammar fails later or sooner than PostgreSQL's LALR parser), sqlgate
// accepts what PostgreSQL refuses or refuses it with another SQLSTATE
// (about 1.5%), a string constant, :: or typed literal after a bare label
// refused at the end of the input (PostgreSQL stops at the ::).
const damageDifferencePermille = 108

// TestSyntaxErrorDifferential parses SQLGATE_DIFF_DAMAGE_STATEMENTS
// (default 1500) damaged corpus statements on both servers: a syntax
// error on one side only, or a different message or position, is a
// difference. Statements both refuse with other errors (no table exists,
// or their analysis differs) are not judged here.
func TestSyntaxErrorDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := seededRand(t, 0x5e7a)
	corpus := corpusStatements(t)
	if len(corpus) < 1000 {
		t.Fatalf("only %d corpus statements", len(corpus))
	}
	n := envInt(t, "SQLGATE_DIFF_DAMAGE_STATEMENTS", 1500)
	stats := map[string]int{}
	classes := map[string]int{}
	for i := 0; i < n; i++ {
		stmt := corpus[rng.IntN(len(corpus))]
		q, how, ok := damage(rng, stmt, damageTokens(stmt))
		if !ok {
			i--
			continue
		}
		sg, pg := parseOnly(ctx, r.SQLGate.(*Session), q), parseOnly(ctx, r.Postgres.(*Session), q)
		if sg.Err != nil && sg.Err.Code == connErrorCode {
			t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
		}
		syntax := func(o Outcome) bool { return o.Err != nil && o.Err.Code == "42601" }
		switch {
		case syntax(pg) && syntax(sg) && sg.Err.Position == pg.Err.Position && sg.Err.Message == pg.Err.Message:
			stats["refused alike"]++
		case syntax(pg) || syntax(sg):
			stats["different"]++
			classes[strings.Fields(how)[0]]++
			t.Logf("%s (%s)\n  sqlgate:    %s\n  PostgreSQL: %s", q, how, describeErr(sg), describeErr(pg))
		case sg.Err == nil && pg.Err == nil:
			stats["accepted alike"]++
		default:
			stats["parsed alike"]++
		}
	}
	t.Logf("%d damaged statements of %d: %v; differences by damage: %v", n, len(corpus), stats, classes)
	if stats["refused alike"] < n/4 {
		t.Errorf("only %d syntax errors: the damage is too mild", stats["refused alike"])
	}
	if limit := n * damageDifferencePermille / 1000; stats["different"] > limit {
		t.Errorf("%d differences (logged above), more than %d: a class of syntax errors regressed", stats["different"], limit)
	}
}
