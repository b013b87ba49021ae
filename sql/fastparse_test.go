package sql

import (
	"fmt"
	goast "go/ast"
	"go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"
	pt "github.com/sqlgate/sqlgate/sql/tree"
)

// fastDiff parses rewritten with the fast path and with TiDB and returns ""
// when the fast path declines or both ASTs are reflect.DeepEqual (texts,
// offsets and flags included), else where they first differ.
//
// An INSERT whose rows the fast path read straight into sqlgate's tree
// (insertfast.go) is compared twice: its AST against TiDB's without the
// rows, and the tree DMLToTree makes of it against the tree DMLToTree
// makes of TiDB's whole AST (directDiff).
func fastDiff(p *Parser, rewritten string) (accepted bool, diff string) {
	fast, rows, _, ok := fastStmtBuf(rewritten, nil)
	if !ok {
		return false, ""
	}
	nodes, _, err := p.tidb.ParseSQL(rewritten)
	if err != nil {
		return true, "fast path accepted what TiDB rejects: " + err.Error()
	}
	if len(nodes) != 1 {
		return true, fmt.Sprintf("TiDB returned %d statements", len(nodes))
	}
	if rows != nil {
		return true, directDiff(rewritten, fast, rows, nodes[0])
	}
	if reflect.DeepEqual(fast, nodes[0]) {
		return true, ""
	}
	if d := firstDiff("stmt", reflect.ValueOf(fast), reflect.ValueOf(nodes[0]), 0); d != "" {
		return true, d
	}
	return true, "ASTs differ"
}

// directDiff compares an INSERT the fast path read into the tree (fast,
// rows) with TiDB's AST of it (tidb): the ASTs without the rows, and the
// trees of the two, which must be the same but for At.Src (nil in the
// nodes the fast path makes without a TiDB node, see directRows).
func directDiff(rewritten string, fast ast.StmtNode, rows [][]pt.Expr, tidb ast.StmtNode) string {
	ins, ok := tidb.(*ast.InsertStmt)
	if !ok {
		return fmt.Sprintf("fast path read rows of a %T", tidb)
	}
	withRows := *ins
	ins.Lists = nil
	d := firstDiff("stmt", reflect.ValueOf(fast), reflect.ValueOf(tidb), 0)
	ins.Lists = withRows.Lists
	if d != "" {
		return d
	}
	fastSt := &Statement{Rewritten: rewritten, AST: fast, fastInsert: fastInsert{stmt: fast.(*ast.InsertStmt), rows: rows}}
	want, err := DMLToTree(&Statement{Rewritten: rewritten, AST: tidb}, nil)
	if err != nil {
		return "the general path's tree: " + err.Error()
	}
	got, err := DMLToTree(fastSt, nil)
	if err != nil {
		return "the fast path's tree: " + err.Error()
	}
	if pt.FormatStatement(got, nil) != pt.FormatStatement(want, nil) {
		return fmt.Sprintf("trees format differently: %s vs %s", pt.FormatStatement(got, nil), pt.FormatStatement(want, nil))
	}
	return firstDiff("tree", reflect.ValueOf(got), reflect.ValueOf(want), 0)
}

// atType is the tree's position, whose Src firstDiff skips: the TiDB
// node a tree node was made from, which a node the fast path makes
// directly has not.
var atType = reflect.TypeOf(pt.At{})

// firstDiff walks two values (unexported fields included) and describes the
// first difference, for a readable failure.
func firstDiff(path string, a, b reflect.Value, depth int) string {
	if depth > 40 { // the charset tables hold cycles
		return ""
	}
	depth++
	if a.IsValid() != b.IsValid() {
		return path + ": one side invalid"
	}
	if !a.IsValid() {
		return ""
	}
	if a.Type() != b.Type() {
		return fmt.Sprintf("%s: type %s vs %s", path, a.Type(), b.Type())
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return fmt.Sprintf("%s: nil %v vs %v", path, a.IsNil(), b.IsNil())
			}
			return ""
		}
		return firstDiff(path, a.Elem(), b.Elem(), depth)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if a.Type() == atType && a.Type().Field(i).Name == "Src" {
				continue
			}
			if d := firstDiff(path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i), depth); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if a.Kind() == reflect.Slice && a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil slice %v vs %v", path, a.IsNil(), b.IsNil())
		}
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: len %d vs %d", path, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if d := firstDiff(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i), depth); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: map len %d vs %d", path, a.Len(), b.Len())
		}
		return ""
	case reflect.String:
		if a.String() != b.String() {
			return fmt.Sprintf("%s: %q vs %q", path, a.String(), b.String())
		}
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return fmt.Sprintf("%s: %v vs %v", path, a.Bool(), b.Bool())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return fmt.Sprintf("%s: %d vs %d", path, a.Int(), b.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			return fmt.Sprintf("%s: %d vs %d", path, a.Uint(), b.Uint())
		}
	case reflect.Float32, reflect.Float64:
		if a.Float() != b.Float() {
			return fmt.Sprintf("%s: %v vs %v", path, a.Float(), b.Float())
		}
	}
	return ""
}

// corpusInputs returns every statement of the sqllogictest corpus and every
// string literal of this package's tests: the inputs the fast path is
// checked against TiDB on.
func corpusInputs(t *testing.T) []string {
	t.Helper()
	var inputs []string
	files, err := filepath.Glob("../tests/sqllogic/*.slt")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../tests/sqllogic/*/*.slt")
	files = append(files, more...)
	if len(files) < 10 {
		t.Fatalf("found only %d .slt files", len(files))
	}
	for _, f := range files {
		inputs = append(inputs, sltStatements(t, f)...)
	}
	goFiles, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := gotoken.NewFileSet()
	for _, f := range goFiles {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		goast.Inspect(file, func(n goast.Node) bool {
			if lit, ok := n.(*goast.BasicLit); ok && lit.Kind == gotoken.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && strings.TrimSpace(s) != "" {
					inputs = append(inputs, s)
				}
			}
			return true
		})
	}
	return append(inputs, benchQuery, fastBenchQuery)
}

// sltStatements extracts the SQL of each statement and query record of a
// .slt file: the lines after the record header up to "----" or a blank line.
func sltStatements(t *testing.T, file string) []string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "statement ") && !strings.HasPrefix(lines[i], "query ") {
			continue
		}
		var sql []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "" && lines[i] != "----"; i++ {
			sql = append(sql, lines[i])
		}
		out = append(out, strings.Join(sql, "\n"))
	}
	return out
}

// fastBenchQuery is lower.BenchmarkParseBindPlan's query.
const fastBenchQuery = `SELECT id, region, v || '!' AS tagged, n * 2 + 1 AS score FROM kv WHERE id IN (1, 2, 3, 4, 5) AND region = 'eu' AND n BETWEEN 10 AND 20 AND v LIKE 'a%' AND n <> 15 ORDER BY score DESC, id LIMIT 10 OFFSET 0`

// TestFastPathMatchesTiDB: wherever the fast path accepts a statement of the
// corpus, its AST equals TiDB's for the same rewritten text.
func TestFastPathMatchesTiDB(t *testing.T) {
	p := NewParser()
	inputs := corpusInputs(t)
	total, accepted, failed := 0, 0, 0
	for _, in := range inputs {
		stmts, err := p.Parse(in)
		if err != nil {
			continue
		}
		for _, st := range stmts {
			if st.AST == nil {
				continue
			}
			total++
			ok, diff := fastDiff(p, st.Rewritten)
			if ok {
				accepted++
			}
			if diff != "" {
				failed++
				if failed <= 20 {
					t.Errorf("%q:\n  %s", st.Rewritten, diff)
				}
			}
		}
	}
	t.Logf("%d statements, fast path accepted %d", total, accepted)
	if accepted < total/4 {
		t.Errorf("fast path accepted only %d of %d statements", accepted, total)
	}
}

// TestFastPathCases pins which forms the fast path takes (so a change that
// silently sends them all to TiDB fails) and checks each against TiDB.
func TestFastPathCases(t *testing.T) {
	p := NewParser()
	for _, tc := range []struct {
		sql  string
		fast bool
	}{
		{benchQuery, true},
		{fastBenchQuery, true},
		{"select 1", true},
		{"SELECT a, b AS x, c y, * FROM t", true},
		{"SELECT t.* FROM s.t", true},
		{"SELECT DISTINCT a FROM t WHERE a IS NOT NULL AND NOT b OR c IS NULL", true},
		{"SELECT count(*), count(DISTINCT a), sum(b), avg(c), min(d), max(e) FROM t GROUP BY f HAVING count(*) > 1", true},
		{"SELECT a FROM t1 JOIN t2 ON t1.x = t2.x LEFT JOIN t3 ON t3.y = t2.y, t4", true},
		{"SELECT a FROM t ORDER BY 1, a DESC, b ASC LIMIT $1 OFFSET $2", true},
		{"SELECT -a, +1.5, 2e3, 'it''s', NULL, TRUE, FALSE, (a + 1) * 2, a % 3 FROM t", true},
		{"SELECT a FROM t WHERE a NOT IN (1, 2) AND b NOT BETWEEN 1 AND 2 AND c NOT LIKE 'x%' AND d = $1", true},
		{"SELECT lower(name), coalesce(a, b, 0), now() FROM t", false}, // now() is a TiDB token
		{"SELECT x::int FROM t", true},
		{"SELECT a FROM t WHERE a = ANY(SELECT b FROM u)", false},
		{"SELECT CASE WHEN a THEN 1 END FROM t", false},
		{"INSERT INTO t VALUES (1)", true}, // insertfast.go
		{`SELECT 'é€ \n', "Mixed""Q" FROM "T"`, true},
		{"SELECT o.status, o.date, status FROM o", true}, // unreserved keywords as names
		{"SELECT a status FROM t", true},                 // and as an alias without AS (quoted, names.go)
		{"SELECT a AS status FROM t AS region", true},
		{"SELECT 9223372036854775807, 9223372036854775808, -9223372036854775808 FROM t", true},
		{"SELECT 99999999999999999999999 FROM t", true}, // TiDB makes it a decimal, as the fast path does
		{"SELECT 1.5e300 * 1e-5 FROM t", true},
		{"SELECT a FROM t WHERE b = 'x'\n'y'", false},
		{"SELECT a FROM t WHERE b LIKE 'x' ESCAPE '!'", false},
		{"SELECT a FROM t WHERE (a, b) = (1, 2)", false},
		{"SELECT a FROM t WHERE a IS TRUE", false},
		{"SELECT a FROM t WHERE a = 1 -- c", true}, // the rewrite drops the comment
		{"SELECT t._change_type, _x FROM t", true},
		{"SELECT a FROM t UNION SELECT b FROM u", false},
		// the lexer's slab estimates: lists with nested parentheses,
		// BETWEEN's AND, empty and escaped strings, more names than first
		// guessed (the slabs grow), flags of every node kind
		{"SELECT a FROM t WHERE b IN (1, (2), f(3, 4), 5) AND c = $1 ORDER BY f(a, b), c DESC, 2", true},
		{"SELECT a FROM t WHERE a BETWEEN 1 AND 2 AND b BETWEEN c AND d OR e NOT BETWEEN 1 + 1 AND 3", true},
		{"SELECT '', 'a''b', '' || 'x' || '', 1000, -70000 FROM t", true}, // || is a | pg__pipes() | b (pipes.go)
		{"SELECT t.a, t.b, t.c, t.d, t.e, t.f, s.t.g, h.i, j.k FROM t AS x, u y JOIN v ON v.a = y.b", true},
		{"SELECT count(a + $1), sum(b) * 2, f(g(c), -d) IS NULL, (e || f) REGEXP 'x' FROM t GROUP BY 1 LIMIT $2", true},
		// every operator after an operand (ftok.follow: each level must see its own)
		{"SELECT a * b / c % d + e - f || g FROM t WHERE a = 1 AND b < 2 AND c <= 3 AND d > 4 AND e >= 5 AND f <> 6 " +
			"AND g != 7 AND h IS NOT DISTINCT FROM 8 AND i ~ 'y' AND j IS NOT NULL OR k NOT LIKE 'z'", true},
	} {
		stmts, err := p.Parse(tc.sql)
		if err != nil {
			t.Errorf("%s: %v", tc.sql, err)
			continue
		}
		ok, diff := fastDiff(p, stmts[0].Rewritten)
		if ok != tc.fast {
			t.Errorf("%s: fast path accepted %v, want %v", tc.sql, ok, tc.fast)
		}
		if diff != "" {
			t.Errorf("%s: %s", tc.sql, diff)
		}
	}
}

// TestFastPathHavingWithoutFrom: without FROM, TiDB's grammar takes HAVING
// only right after the select list; the fast path must not accept it after
// WHERE or GROUP BY (found by FuzzFastPath).
func TestFastPathHavingWithoutFrom(t *testing.T) {
	p := NewParser()
	for _, q := range []string{"select 0 having 1", "select 0 group by 0 having 1", "select 0 where 1 having 1",
		"select 0 where 1 group by 0 having 1", "select a from t group by a having a > 1"} {
		if ok, diff := fastDiff(p, q); diff != "" {
			t.Errorf("%q (fast path took it: %v): %s", q, ok, diff)
		}
	}
}

// TestFastPathDeclinesCharsetIntroducers: TiDB reads _binary, _gbk,
// _utf8mb3 ... as character set introducers (a syntax error without a
// string after them); the fast path must not take them for column names.
func TestFastPathDeclinesCharsetIntroducers(t *testing.T) {
	for _, in := range []string{"select _binary from t", "select a, _gbk from t", "select _utf8mb3 from t", "select _latin1 from t"} {
		if _, ok := fastStmt(in); ok {
			t.Errorf("fast path accepted %q", in)
		}
	}
}

// FuzzFastPath: on any input the fast path accepts, its AST equals TiDB's.
func FuzzFastPath(f *testing.F) {
	for _, s := range []string{benchQuery, fastBenchQuery, "select a from t where b in (1, 2) order by 1",
		"select count(distinct a) from s.t x join u on x.a = u.b group by 1 having sum(c) > 0 limit 3",
		"select (a), -b || 'x' || c, a <=> b from t"} {
		f.Add(s)
	}
	p := NewParser()
	f.Add("  select _binary 'x' from t  ")
	f.Add("select a as date, b status from t1 as status")
	f.Fuzz(func(t *testing.T, in string) {
		for _, text := range []string{in, strings.ToLower(in)} {
			if _, diff := fastDiff(p, text); diff != "" {
				t.Fatalf("%q: %s", text, diff)
			}
		}
		stmts, err := p.Parse(in)
		if err != nil {
			return
		}
		for _, st := range stmts {
			if _, diff := fastDiff(p, st.Rewritten); diff != "" {
				t.Fatalf("%q: %s", st.Rewritten, diff)
			}
		}
	})
}

// BenchmarkFastPathOnly is the fast path alone on the rewritten text of
// benchQuery: compare with BenchmarkTiDBOnly.
func BenchmarkFastPathOnly(b *testing.B) {
	text := rewrittenBenchQuery(b, NewParser())
	b.SetBytes(int64(len(benchQuery)))
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := fastStmt(text); !ok {
			b.Fatal("fast path declined")
		}
	}
}

// TestWordTable checks the lexer's word table against the map it is built
// from: every word's entry, and the zero entry for words that are none.
func TestWordTable(t *testing.T) {
	m := fastWordMap()
	for w, want := range m {
		if got := fastWords.get(w); got != want {
			t.Errorf("%q: got %+v, want %+v", w, got, want)
		}
	}
	for _, w := range []string{"", "id", "regionx", "kv", "selec", "selectx", "x_1", "froms", "a$b", "tagged"} {
		if _, ok := m[w]; ok {
			t.Fatalf("%q is a keyword: pick another", w)
		}
		if got := fastWords.get(w); got != (fwInfo{}) {
			t.Errorf("%q: got %+v, want none", w, got)
		}
	}
	if got := fastWords.get("select"); got.id != kwSelect || got.class != wordHard {
		t.Errorf("select: %+v", got)
	}
}

// TestUintVal checks the in-place integer parse against strconv.ParseUint,
// around the 19-digit limit of the in-place loop and past uint64's range.
func TestUintVal(t *testing.T) {
	for _, s := range []string{"0", "7", "10", "0010", "9223372036854775807", "9223372036854775808",
		"9999999999999999999", "18446744073709551615", "18446744073709551616", "99999999999999999999",
		"000000000000000000001"} {
		fp := fastParser{src: s}
		got, ok := fp.uintVal(&ftok{kind: ftInt, start: 0, end: int32(len(s))})
		want, err := strconv.ParseUint(s, 10, 64)
		if ok != (err == nil) || ok && got != want {
			t.Errorf("%s: got %d, %v; want %d, %v", s, got, ok, want, err)
		}
	}
}
