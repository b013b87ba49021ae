package sql

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/ast"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestRewrittenText(t *testing.T) {
	tests := []struct {
		name, in, want string
		params         []int
	}{
		{"param", "SELECT $1", "SELECT ?", []int{1}},
		{"param reuse and order", "SELECT $2, $1 FROM t WHERE a = $2", "SELECT ?, ? FROM t WHERE a = ?", []int{2, 1, 2}},
		{"param inside string stays", "SELECT '$1', $1", "SELECT '$1', ?", []int{1}},
		{"param inside quoted identifier stays", `SELECT "$1" FROM t`, `SELECT "$1" FROM t`, nil},
		{"param inside comment dropped", "SELECT 1 /* $1 */ + $2", "SELECT 1 + ?", []int{2}},
		{"cast inside comment stays out", "SELECT a -- a::int\n FROM t", "SELECT a FROM t", nil},
		{"cast inside string stays", "SELECT 'a::int'", "SELECT 'a::int'", nil},
		{"simple cast", "SELECT a::int", "SELECT pg__cast(a, 'int')", nil},
		{"NOT BETWEEN after an operand is the operator", "SELECT 1 NOT BETWEEN y AND 2, x NOT  between y AND 2 FROM t", "SELECT 1 NOT BETWEEN y AND 2, x NOT  between y AND 2 FROM t", nil},
		{"between after a prefix NOT is a column", "SELECT NOT between, a AND NOT between FROM t", `SELECT NOT "between", a AND NOT "between" FROM t`, nil},
		{"field of a field", "SELECT (x).a.b, ((x).a).b FROM t", "SELECT pg__field(pg__field((x), 'a'), 'b'), pg__field((pg__field((x), 'a')), 'b') FROM t", nil},
		{"whole-row argument", "SELECT pg_typeof(t.*), count(t.*), f(1, t.*) FROM t", "SELECT pg_typeof(t), count(t), f(1, t) FROM t", nil},
		{"star in the select list stays", "SELECT t.*, t.* FROM t", "SELECT t.*, t.* FROM t", nil},
		{"normalize form keyword", "SELECT normalize(a, NFKD) FROM t", "SELECT normalize(a, 'NFKD') FROM t", nil},
		{"is normalized", "SELECT a || 'x' IS NOT NFC NORMALIZED, a IS NORMALIZED FROM t", "SELECT not is_normalized(a | pg__pipes() | 'x', 'NFC'), is_normalized(a, 'NFC') FROM t", nil},
		{"column definition list", `SELECT * FROM json_to_record(j) AS x(a int, "B" numeric(10, 2)[])`, `SELECT * FROM (select pg__srf('json_to_record', 0, 1, pg__cols(pg__coldef('a', 'int'), pg__coldef('B', 'numeric(10, 2)[]')), j)) as x`, nil},
		{"bare column definition list", `SELECT * FROM json_to_recordset(j) AS (a int)`, `SELECT * FROM (select pg__srf('json_to_recordset', 0, 0, pg__cols(pg__coldef('a', 'int')), j)) as json_to_recordset`, nil},
		{"nested casts", "SELECT a::text::int", "SELECT pg__cast(pg__cast(a, 'text'), 'int')", nil},
		{"qualified cast target", "SELECT c.oid::pg_catalog.regclass::pg_catalog.text", "SELECT pg__cast(pg__cast(c.oid, 'pg_catalog.regclass'), 'pg_catalog.text')", nil},
		{"cast with args and array", "SELECT x::numeric(10,2)[]", "SELECT pg__cast(x, 'numeric(10,2)[]')", nil},
		{"multi-word cast", "SELECT x::double precision, y::timestamp with time zone, z::character varying(5)",
			"SELECT pg__cast(x, 'double precision'), pg__cast(y, 'timestamp with time zone'), pg__cast(z, 'character varying(5)')", nil},
		{"cast of param", "SELECT $1::int8", "SELECT pg__cast(?, 'int8')", []int{1}},
		{"cast of parenthesised expr", "SELECT (a + 1)::text", "SELECT pg__cast((a + 1), 'text')", nil},
		{"cast of function call", "SELECT current_setting('server_version_num')::int/100", "SELECT pg__cast(current_setting('server_version_num'), 'int')/100", nil},
		{"cast of qualified call", "SELECT pg_catalog.f(a, b)::text", "SELECT pg__cast(pg_catalog.f(a, b), 'text')", nil},
		{"cast of literal", "SELECT NULL::text, '{r,p}'::\"char\"[]", "SELECT pg__cast(NULL, 'text'), pg__cast('{r,p}', '\"char\"[]')", nil},
		{"cast binds tighter than minus", "SELECT -1::text", "SELECT -pg__cast(1, 'text')", nil},
		{"cast of CASE", "SELECT CASE WHEN a THEN 1 END::text", "SELECT pg__cast(CASE WHEN a THEN 1 END, 'text')", nil},
		{"CAST AS", "SELECT CAST(a AS integer)", "SELECT pg__cast(a, 'integer')", nil},
		{"CAST with inner cast and param", "SELECT CAST($1::text AS varchar(10))", "SELECT pg__cast(pg__cast(?, 'text'), 'varchar(10)')", []int{1}},
		{"E string", `SELECT E'a\'b\n\x41\u00e9\\'`, "SELECT 'a''b\nAé\\'", nil},
		{"E string doubled quote", `SELECT E'it''s'`, "SELECT 'it''s'", nil},
		{"dollar quote", "SELECT $$it's$$, $tag$a$$b$tag$", "SELECT 'it''s', 'a$$b'", nil},
		{"is not distinct from", "SELECT 1 FROM t WHERE a IS NOT DISTINCT FROM b", "SELECT 1 FROM t WHERE a <=> b", nil},
		{"is distinct from", "SELECT 1 FROM t WHERE a IS DISTINCT FROM b", "SELECT 1 FROM t WHERE NOT a <=> b", nil},
		{"regex", "SELECT 1 FROM t WHERE n !~ '^pg_' AND m ~ 'x'", "SELECT 1 FROM t WHERE n NOT REGEXP '^pg_' AND m REGEXP 'x'", nil},
		{"regex case-insensitive", "SELECT a ~* 'x', a !~* $1", "SELECT a REGEXP pg__ci('x'), a NOT REGEXP pg__ci(?)", []int{1}},
		{"unary tilde is bitwise not", "SELECT ~5", "SELECT pg__op_not(5)", nil},
		{"operator()", "SELECT 1 FROM t WHERE c.relname OPERATOR(pg_catalog.~) '^(orders)$' COLLATE pg_catalog.default",
			"SELECT 1 FROM t WHERE c.relname REGEXP pg__collate('^(orders)$', 'pg_catalog', 'default')", nil},
		{"operator = and collate C", `SELECT 1 FROM t WHERE a OPERATOR(pg_catalog.=) b COLLATE "C"`, "SELECT 1 FROM t WHERE a = pg__collate(b, 'C')", nil},
		{"collate binds tighter than ||", `SELECT a || b::text COLLATE "C" || c`, "SELECT a | pg__pipes() | pg__collate(pg__cast(b, 'text'), 'C') | pg__pipes() | c", nil},
		{"a column's collate is no expression's", `CREATE TABLE t (a text COLLATE "C")`, `CREATE TABLE t ( "a" text)`, nil},
		{"power", "SELECT 2 ^ 3, -2 ^ 2, 2 * x ^ 2", "SELECT pg__power(2, 3), pg__power(-2, 2), 2 * pg__power(x, 2)", nil},
		{"json operators", "SELECT j -> 'a' -> 0, j ->> -1, t.j #> '{a,b}', (j)#>>p, j -> 1 + n * 2 = x FROM t WHERE j->>'k' = 'v'",
			"SELECT pg__json_get(pg__json_get(j, 'a'), 0), pg__json_get_text(j, -1), pg__json_path(t.j, '{a,b}'), pg__json_path_text((j), p), pg__json_get(j, 1 + n * 2) = x FROM t WHERE pg__json_get_text(j, 'k') = 'v'", nil},
		{"array constructor and subscript", "SELECT ARRAY[1, 2], (current_schemas(true))[1]", "SELECT pg__array(1, 2), pg__subscript((current_schemas(true)), 1)", nil},
		{"cast of window function", "SELECT row_number() OVER (PARTITION BY a ORDER BY b)::int FROM t",
			"SELECT pg__cast(row_number() OVER (PARTITION BY a ORDER BY b), 'int') FROM t", nil},
		{"array of subquery", "SELECT ARRAY(SELECT a FROM t)", "SELECT pg__array_subquery((SELECT a FROM t))", nil},
		{"array slices", "SELECT a[1:2], a[:n+1], (b)[f(1):], a[:], x[g(1, 2):]",
			"SELECT pg__slice(a, 1, 2), pg__slice(a, pg__open(), n+1), pg__slice((b), f(1), pg__open()), pg__slice(a, pg__open(), pg__open()), pg__slice(x, g(1, 2), pg__open())", nil},
		{"field selection", "SELECT (f(x)).n, (t.k).\"X\" FROM t WHERE (k).a = 1", "SELECT pg__field((f(x)), 'n'), pg__field((t.k), 'X') FROM t WHERE pg__field((k), 'a') = 1", nil},
		{"nested array constructor", "SELECT ARRAY[[1, 2], [3, x[1]]], ARRAY[ARRAY[1]]", "SELECT pg__array(pg__array(1, 2), pg__array(3, pg__subscript(x, 1))), pg__array(pg__array(1))", nil},
		{"keyword-named function", "SELECT cardinality(a), pg_catalog.cardinality(b) FROM t", `SELECT "cardinality"(a), pg_catalog."cardinality"(b) FROM t`, nil},
		{"table function", "SELECT * FROM unnest(a)", "SELECT * FROM (select pg__srf('unnest', 0, 0, pg__cols(), a)) as unnest", nil},
		{"table functions in a FROM list", "SELECT * FROM t, pg_catalog.generate_series(1, $1) s, unnest(ARRAY['x']) WITH ORDINALITY AS u(v, \"N\") WHERE x",
			"SELECT * FROM t, (select pg__srf('generate_series', 0, 1, pg__cols(), 1, ?)) as s, (select pg__srf('unnest', 1, 1, pg__cols('v', 'N'), pg__array('x'))) as u WHERE x", []int{1}},
		{"plain functions in FROM", "SELECT * FROM string_to_array('a,b', ',') s, pg_catalog.current_schema(), information_schema._pg_expandarray(a) e",
			"SELECT * FROM (select pg__srf('string_to_array', 0, 1, pg__cols(), 'a,b', ',')) as s, (select pg__srf('current_schema', 0, 0, pg__cols())) as current_schema, (select pg__srf('_pg_expandarray', 0, 1, pg__cols(), a)) as e", nil},
		{"FROM inside calls is no FROM clause", "SELECT substring(x FROM lower(y)), trim(both 'x' FROM lower(y)), a IS DISTINCT FROM lower(b) FROM t",
			"SELECT substring(x FROM lower(y)), pg__btrim( lower(y) , 'x'), NOT a <=> lower(b) FROM t", nil}, // trim.go
		{"table function in JOIN and subquery", "SELECT (SELECT x FROM generate_subscripts(a, 1) x) FROM t JOIN unnest(b) ON true",
			"SELECT (SELECT x FROM (select pg__srf('generate_subscripts', 0, 1, pg__cols(), a, 1)) as x) FROM t JOIN (select pg__srf('unnest', 0, 0, pg__cols(), b)) as unnest ON true", nil},
		{"any function in FROM", "SELECT * FROM my_gen(3) g, t JOIN other_fn('a') ON true",
			"SELECT * FROM (select pg__srf('my_gen', 0, 1, pg__cols(), 3)) as g, t JOIN (select pg__srf('other_fn', 0, 0, pg__cols(), 'a')) as other_fn ON true", nil},
		{"TABLE argument of a function in FROM", "SELECT * FROM f(TABLE t) a, g(TABLE public.\"T\", 3), h((SELECT x FROM t))",
			"SELECT * FROM (select pg__srf('f', 0, 1, pg__cols(), (select * from t))) as a, (select pg__srf('g', 0, 0, pg__cols(), (select * from public.\"T\"), 3)) as g, (select pg__srf('h', 0, 0, pg__cols(), (SELECT x FROM t))) as h", nil},
		{"FROM inside a function's parentheses stays", "SELECT extract(year FROM now()), trim(BOTH FROM lower(x)) FROM t",
			"SELECT pg__extract('year', now()), pg__btrim( lower(x)) FROM t", nil}, // trim.go
		{"LATERAL subquery stays", "SELECT * FROM t JOIN LATERAL (SELECT 1) s ON true", "SELECT * FROM t JOIN LATERAL (SELECT 1) s ON true", nil},
		{"set function outside FROM stays", "SELECT unnest(a), f(x, unnest(b)) FROM t", "SELECT unnest(a), f(x, unnest(b)) FROM t", nil},
		{"op ANY array", "SELECT 1 FROM t WHERE a.x + 1 = ANY('{1,2}'::int[]) AND b <> ALL (c) AND 'd' = any(stxkind)",
			"SELECT 1 FROM t WHERE pg__any(a.x + 1, '=', pg__cast('{1,2}', 'int[]')) AND pg__all(b, '<>', c) AND pg__any('d', '=', stxkind)", nil},
		{"op ANY subquery stays", "SELECT 1 FROM t WHERE a = ANY (SELECT b FROM u)", "SELECT 1 FROM t WHERE a = ANY (SELECT b FROM u)", nil},
		{"nulls first/last", "SELECT a FROM t ORDER BY a + 1 DESC NULLS LAST, f(b, c) NULLS FIRST",
			"SELECT a FROM t ORDER BY pg__nulls(a + 1, 'last') desc, pg__nulls(f(b, c), 'first')", nil},
		{"long numeric constant", "SELECT 1234567890123456789012345678901234567890123456789012345678901234567890",
			"SELECT pg__cast('1234567890123456789012345678901234567890123456789012345678901234567890', 'numeric')", nil},
		{"typed literals", "SELECT DATE '2024-01-02', interval '1 day'", "SELECT pg__cast('2024-01-02', 'date'), pg__cast('1 day', 'interval')", nil},
		{"backslash is ordinary", `SELECT 'a\'`, `SELECT 'a\'`, nil},
		{"mysql hint comment neutralised", "SELECT /*! 1, */ 2", "SELECT 2", nil},
		{"nested comment", "SELECT /* a /* b */ c */ 1", "SELECT 1", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := parseOne(t, tc.in)
			if want := foldOutsideQuotes(tc.want); st.Rewritten != want {
				t.Errorf("Rewritten = %q, want %q", st.Rewritten, want)
			}
			if !reflect.DeepEqual(st.ParamNumbers, tc.params) {
				t.Errorf("ParamNumbers = %v, want %v", st.ParamNumbers, tc.params)
			}
			if st.AST == nil {
				t.Errorf("AST is nil")
			}
		})
	}
}

// TestExpressionStructure checks the tree TiDB builds from the rewrite:
// the rewrite must keep PostgreSQL's precedence.
func TestExpressionStructure(t *testing.T) {
	tests := []struct{ where, want string }{
		{"a IS DISTINCT FROM b AND c", "((not (a nulleq b)) and c)"},
		{"x = 1 AND a + 1 IS DISTINCT FROM b * 2", "((x eq 1) and (not ((a plus 1) nulleq (b mul 2))))"},
		{"NOT a IS DISTINCT FROM b", "(not (not (a nulleq b)))"},
		{"(a IS DISTINCT FROM b) OR c", "((not (a nulleq b)) or c)"},
		{"CASE WHEN a THEN 1 END IS DISTINCT FROM 2", "(not (case when a then 1 end nulleq 2))"},
		{"f(a, b) IS NOT DISTINCT FROM $1 OR c", "((f(a, b) nulleq ?0) or c)"},
		{"n.nspname !~ '^pg_toast' AND n.nspname <> 'x'", "((n.nspname not regexp '^pg_toast') and (n.nspname ne 'x'))"},
		{"a ~* 'x' OR b", "((a regexp pg__ci('x')) or b)"},
		// a word written for an operator with no space around it (emit
		// keeps it apart; TiDB would read one word)
		{"a~'x' AND b!~c", "((a regexp 'x') and (b not regexp c))"},
		{"a0~0", "(a0 regexp 0)"},
		{"a::int + 1 > 2", "((pg__cast(a, 'int') plus 1) gt 2)"},
		{"a || b = 'xy'", "(((a bitor pg__pipes()) bitor b) eq 'xy')"}, // pipes.go,
		{"-2 ^ 2 = 4", "(pg__power((minus 2), 2) eq 4)"},
		{"ts AT TIME ZONE 'UTC' > x + 1", "(timezone('UTC', ts) gt (x plus 1))"},
		{"position('l' IN name) = 3", "(pg__position(name, 'l') eq 3)"},
		{"(SELECT a AS default FROM t) = (SELECT b AS KEY FROM t AS tbl)", "((SELECT a AS default FROM t) eq (SELECT b AS key FROM t AS tbl))"},
		{"(SELECT a AS select, b AS table FROM t) IS NULL", "(SELECT a AS select,b AS table FROM t) IS NULL"},
		{"extract(dow FROM d) = 1 + extract('epoch' from ts::date)", "(pg__extract('dow', d) eq (1 plus pg__extract('epoch', pg__cast(ts, 'date'))))"},
		{"position(substring(a, 1, 2) IN b || c) > 1", "(pg__position(((b bitor pg__pipes()) bitor c), substring(a, 1, 2)) gt 1)"},
		{"a + t.ts::timestamp AT TIME ZONE z::text = b", "((a plus timezone(pg__cast(z, 'text'), pg__cast(t.ts, 'timestamp'))) eq b)"},
		{"now() AT TIME ZONE 'Europe/Paris' AT TIME ZONE 'UTC' IS NULL", "TIMEZONE(_UTF8MB4'UTC', TIMEZONE(_UTF8MB4'Europe/Paris', NOW())) IS NULL"},
		{"2 ^ 3 ^ 2 = 64", "(pg__power(pg__power(2, 3), 2) eq 64)"},
		{"a = 'x\\' AND b = ' OR 1=1 -- '", "((a eq 'x\\') and (b eq ' OR 1=1 -- '))"},
	}
	for _, tc := range tests {
		t.Run(tc.where, func(t *testing.T) {
			sel := parseOne(t, "SELECT 1 FROM t WHERE "+tc.where).AST.(*ast.SelectStmt)
			got := strings.ReplaceAll(tree(t, sel.Where), "`", "")
			got = strings.ReplaceAll(got, "CASE WHEN a THEN 1 END", "case when a then 1 end")
			if got != tc.want {
				t.Errorf("tree = %s, want %s", got, tc.want)
			}
		})
	}
}

// TestInjection is pg-clients.md §3: with standard_conforming_strings a
// backslash is ordinary, so this is two literals, and OR 1=1 stays inside
// the second one.
func TestInjection(t *testing.T) {
	st := parseOne(t, `SELECT * FROM t WHERE a = 'x\' AND b = ' OR 1=1 -- '`)
	and, ok := st.AST.(*ast.SelectStmt).Where.(*ast.BinaryOperationExpr)
	if !ok {
		t.Fatalf("WHERE is %T, want AND", st.AST.(*ast.SelectStmt).Where)
	}
	var lits []string
	for _, side := range []ast.ExprNode{and.L, and.R} {
		cmp := side.(*ast.BinaryOperationExpr)
		lit, ok := LiteralOf(cmp.R)
		if !ok || lit.Kind != LitString {
			t.Fatalf("right side %T is not a string literal", cmp.R)
		}
		lits = append(lits, lit.Text)
	}
	if want := []string{`x\`, ` OR 1=1 -- `}; !reflect.DeepEqual(lits, want) {
		t.Errorf("literals = %q, want %q", lits, want)
	}
}

func TestParamMarkerOrder(t *testing.T) {
	st := parseOne(t, "SELECT $2::int, $1 FROM t WHERE a = $2 AND b IN ($3, $1)")
	if want := []int{2, 1, 2, 3, 1}; !reflect.DeepEqual(st.ParamNumbers, want) {
		t.Fatalf("ParamNumbers = %v, want %v", st.ParamNumbers, want)
	}
	if st.NumParams != 3 {
		t.Errorf("NumParams = %d, want 3", st.NumParams)
	}
	sel := st.AST.(*ast.SelectStmt)
	// first field: pg__cast(?, 'int') -> marker Order 0 stands for $2
	call := sel.Fields.Fields[0].Expr.(*ast.FuncCallExpr)
	if o, ok := ParamOrder(call.Args[0]); !ok || o != 0 || st.ParamNumbers[o] != 2 {
		t.Errorf("first marker order %d ok=%v", o, ok)
	}
	if o, ok := ParamOrder(sel.Fields.Fields[1].Expr); !ok || o != 1 || st.ParamNumbers[o] != 1 {
		t.Errorf("second marker order %d ok=%v", o, ok)
	}
	in := sel.Where.(*ast.BinaryOperationExpr).R.(*ast.PatternInExpr)
	if o, ok := ParamOrder(in.List[1]); !ok || st.ParamNumbers[o] != 1 || o != 4 {
		t.Errorf("last marker order %d ok=%v", o, ok)
	}
}

func TestLiteralOf(t *testing.T) {
	st := parseOne(t, "SELECT 1, 1.50, 1e3, TRUE, 'a''b', NULL, 18446744073709551615, 99999999999999999999999")
	want := []Literal{
		{Kind: LitInt, Int: 1},
		{Kind: LitDecimal, Text: "1.50"},
		{Kind: LitFloat, Float: 1000},
		{Kind: LitBool, Int: 1},
		{Kind: LitString, Text: "a'b"},
		{Kind: LitNull},
		{Kind: LitUint, Uint: 18446744073709551615},
		{Kind: LitDecimal, Text: "99999999999999999999999"},
	}
	for i, f := range st.AST.(*ast.SelectStmt).Fields.Fields {
		got, ok := LiteralOf(f.Expr)
		if !ok {
			t.Errorf("field %d: not a literal (%T)", i, f.Expr)
			continue
		}
		if !reflect.DeepEqual(got, want[i]) {
			t.Errorf("field %d: %+v, want %+v", i, got, want[i])
		}
	}
	col := parseOne(t, "SELECT a").AST.(*ast.SelectStmt).Fields.Fields[0].Expr
	if _, ok := LiteralOf(col); ok {
		t.Errorf("a column reference read as a literal")
	}
	param := parseOne(t, "SELECT $1").AST.(*ast.SelectStmt).Fields.Fields[0].Expr
	if _, ok := LiteralOf(param); ok {
		t.Errorf("a parameter marker read as a literal")
	}
}

func TestSplitAndEmpty(t *testing.T) {
	p := NewParser()
	for _, in := range []string{"", ";", " ; ;", "-- ping", "/* x */", "  \n\t"} {
		stmts, err := p.Parse(in)
		if err != nil || len(stmts) != 0 {
			t.Errorf("Parse(%q) = %d statements, %v; want 0, nil", in, len(stmts), err)
		}
	}
	in := "SELECT 1;  SELECT ';' ; \n SET x = 'a;b';BEGIN"
	stmts, err := p.Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		text string
		kind Kind
	}{{"SELECT 1", Select}, {"SELECT ';'", Select}, {"SET x = 'a;b'", Set}, {"BEGIN", Begin}}
	if len(stmts) != len(want) {
		t.Fatalf("%d statements, want %d", len(stmts), len(want))
	}
	for i, w := range want {
		s := stmts[i]
		if s.Text != w.text || s.Kind != w.kind || in[s.Offset:s.Offset+len(s.Text)] != s.Text {
			t.Errorf("stmt %d = %q %v @%d, want %q %v", i, s.Text, s.Kind, s.Offset, w.text, w.kind)
		}
	}
}

func TestKinds(t *testing.T) {
	tests := map[string]Kind{
		"SELECT 1":                             Select,
		"SELECT 1 UNION SELECT 2":              Select,
		"WITH x AS (SELECT 1) SELECT * FROM x": Select,
		"INSERT INTO t VALUES (1)":             Insert,
		"UPDATE t SET a = 1":                   Update,
		"DELETE FROM t WHERE a = 1":            Delete,
		"CREATE TABLE t (a INT)":               CreateTable,
		"DROP TABLE t":                         DropTable,
		"EXPLAIN SELECT 1":                     Explain,
		"EXPLAIN ANALYZE SELECT 1":             Explain,
		"COPY t FROM STDIN":                    Copy,
		"SAVEPOINT s1":                         Savepoint,
		"RELEASE SAVEPOINT s1":                 ReleaseSavepoint,
		"ROLLBACK TO SAVEPOINT s1":             RollbackToSavepoint,
		"DISCARD ALL":                          Discard,
		"DEALLOCATE PREPARE s":                 Deallocate,
		"END":                                  Commit,
		"ABORT":                                Rollback,
		"CREATE VIEW v AS SELECT 1":            Other,
	}
	for in, want := range tests {
		if got := parseOne(t, in).Kind; got != want {
			t.Errorf("%q: kind %v, want %v", in, got, want)
		}
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, in string
		code     sqlerr.Code
		msg      string
		pos      int
	}{
		{"end of input", "SELECT (", sqlerr.SyntaxError, "syntax error at end of input", 9},
		{"end of input with spaces", "SELECT (   ", sqlerr.SyntaxError, "syntax error at end of input", 12},
		{"at semicolon", "SELECT ( ;", sqlerr.SyntaxError, `syntax error at or near ";"`, 10},
		{"simple", "SELECT 1 FROM t WHERE x = = 1", sqlerr.SyntaxError, `syntax error at or near "="`, 27},
		{"after a rewrite, multi-line", "SELECT a::int,\n  E'x\\ny'::text\nFROM t WHERE\n  y = = 2", sqlerr.SyntaxError, `syntax error at or near "="`, 51},
		{"after params", "SELECT $1, $2 FROM t WHERE\n  a = $1 AND AND", sqlerr.SyntaxError, `syntax error at or near "AND"`, 41},
		{"non-ascii before the error", "SELECT 'é', 'ü' FROM WHERE", sqlerr.SyntaxError, `syntax error at or near "WHERE"`, 22},
		{"second statement", "SELECT 1; SELECT 1 FROM WHERE", sqlerr.SyntaxError, `syntax error at or near "WHERE"`, 25},
		{"duplicate column", "CREATE TABLE t (a int, b int, a text)", sqlerr.DuplicateColumn, `column "a" specified more than once`, 31},
		{"unterminated string", "SELECT 'abc", sqlerr.SyntaxError, `unterminated quoted string at or near "'abc"`, 8},
		{"unterminated identifier", `SELECT "`, sqlerr.SyntaxError, `unterminated quoted identifier at or near """`, 8},
		{"unterminated comment", "SELECT 1 /* x", sqlerr.SyntaxError, `unterminated /* comment at or near "/* x"`, 10},
		{"unterminated dollar", "SELECT $a$x", sqlerr.SyntaxError, `unterminated dollar-quoted string at or near "$a$x"`, 8},
		{"dangling cast", "SELECT ::int", sqlerr.SyntaxError, `syntax error at or near "::"`, 8},
		{"bad cast type", "SELECT a::(int)", sqlerr.SyntaxError, `syntax error at or near "("`, 11},
		{"question mark", "SELECT ? FROM t", sqlerr.SyntaxError, `syntax error at or near "FROM"`, 10},                          // a prefix ? with no operand, as PostgreSQL reads it
		{"nul escape", `SELECT E'\x00'`, sqlerr.CharacterNotInRepertoire, `invalid byte sequence for encoding "UTF8": 0x00`, 0}, // PostgreSQL gives no position
		{"bad SET", "SET x", sqlerr.SyntaxError, "syntax error at end of input", 6},
		{"bad SHOW", "SHOW a b", sqlerr.SyntaxError, `syntax error at or near "b"`, 8},
		{"bad BEGIN", "BEGIN READ SOMETHING", sqlerr.SyntaxError, `syntax error at or near "READ"`, 7},
		{"param zero", "SELECT $0", sqlerr.UndefinedParameter, "there is no parameter $0", 8},
		{"unknown collation", `CREATE TABLE t (a text COLLATE "de_DE")`, sqlerr.UndefinedObject, `collation "de_DE" for encoding "UTF8" does not exist`, 24},
		{"bad column type", "CREATE TABLE t (a MAP<INT>)", sqlerr.SyntaxError, `syntax error at or near ">"`, 26},
		{"data-modifying WITH below the top level", "SELECT * FROM (WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x) s", sqlerr.FeatureNotSupported, "WITH clause containing a data-modifying statement must be at the top level", 21},
		{"data-modifying WITH, second CTE, in a subquery", "SELECT (WITH a AS (SELECT 1), b AS MATERIALIZED (insert INTO t VALUES (1)) SELECT 1)", sqlerr.FeatureNotSupported, "WITH clause containing a data-modifying statement must be at the top level", 31},
	}
	p := NewParser()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := p.Parse(tc.in)
			e := sqlerr.As(err)
			if e == nil {
				t.Fatalf("Parse(%q) error = %v, want *sqlerr.Error", tc.in, err)
			}
			if e.Code != tc.code || e.Message != tc.msg || e.Position != tc.pos {
				t.Errorf("got %s %q @%d, want %s %q @%d", e.Code, e.Message, e.Position, tc.code, tc.msg, tc.pos)
			}
		})
	}
}

func TestPositionOfASTNodes(t *testing.T) {
	in := "SELECT 1;\nSELECT a::int, é, $1 + bcol FROM t"
	stmts, err := NewParser().Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	st := stmts[1]
	sel := st.AST.(*ast.SelectStmt)
	// the column bcol sits in the rewritten text after the pg__cast(...) rewrite
	bin := sel.Fields.Fields[2].Expr.(*ast.BinaryOperationExpr)
	col := bin.R.(*ast.ColumnNameExpr)
	rw := strings.Index(st.Rewritten, "bcol")
	if rw < 0 {
		t.Fatalf("rewritten %q lacks bcol", st.Rewritten)
	}
	// 1-based character position of "bcol" in the original (é is one character)
	want := len([]rune(in[:strings.Index(in, "bcol")])) + 1
	if got := st.Position(rw); got != want {
		t.Errorf("Position(%d) = %d, want %d", rw, got, want)
	}
	if got := col.OriginTextPosition(); got != rw {
		t.Errorf("TiDB offset of bcol = %d, rewritten text has it at %d", got, rw)
	}
	if got := st.Position(col.OriginTextPosition()); got != want {
		t.Errorf("Position(node offset) = %d, want %d", got, want)
	}
	if got := st.Position(0); got != 11 {
		t.Errorf("Position(0) = %d, want 11", got)
	}
}

func TestExplain(t *testing.T) {
	tests := []struct {
		in      string
		analyze bool
		opts    map[string]string
	}{
		{"EXPLAIN SELECT 1", false, map[string]string{}},
		{"EXPLAIN ANALYZE SELECT 1", true, map[string]string{"analyze": "true"}},
		{"EXPLAIN ANALYZE VERBOSE SELECT 1", true, map[string]string{"analyze": "true", "verbose": "true"}},
		{"EXPLAIN (ANALYZE, COSTS OFF, FORMAT TEXT) SELECT 1", true, map[string]string{"analyze": "true", "costs": "off", "format": "text"}},
		{"EXPLAIN (ANALYZE false) SELECT 1", false, map[string]string{"analyze": "false"}},
	}
	for _, tc := range tests {
		st := parseOne(t, tc.in)
		ex, ok := st.AST.(*ast.ExplainStmt)
		if !ok || st.Kind != Explain {
			t.Fatalf("%q: %T %v", tc.in, st.AST, st.Kind)
		}
		if ex.Analyze != tc.analyze || !reflect.DeepEqual(st.ExplainOptions, tc.opts) {
			t.Errorf("%q: analyze=%v opts=%v, want %v %v", tc.in, ex.Analyze, st.ExplainOptions, tc.analyze, tc.opts)
		}
		if _, ok := ex.Stmt.(*ast.SelectStmt); !ok {
			t.Errorf("%q: explained %T", tc.in, ex.Stmt)
		}
	}
}

func TestIdentifierFolding(t *testing.T) {
	st := parseOne(t, `SELECT MyCol, "MyCol", T.X FROM Tab AS T`)
	sel := st.AST.(*ast.SelectStmt)
	var names []string
	for _, f := range sel.Fields.Fields {
		c := f.Expr.(*ast.ColumnNameExpr).Name
		names = append(names, c.Table.O+"."+c.Name.O)
	}
	if want := []string{".mycol", ".MyCol", "t.x"}; !reflect.DeepEqual(names, want) {
		t.Errorf("column names %v, want %v", names, want)
	}
	tbl := sel.From.TableRefs.Left.(*ast.TableSource)
	if tbl.Source.(*ast.TableName).Name.O != "tab" || tbl.AsName.O != "t" {
		t.Errorf("table %v as %v", tbl.Source.(*ast.TableName).Name.O, tbl.AsName.O)
	}
}

func TestIntervalLiteralFields(t *testing.T) {
	st := parseOne(t, "SELECT INTERVAL '1' DAY, interval '1:30' hour to minute, interval '2 days'")
	if want := foldOutsideQuotes("SELECT pg__cast('1', 'interval day'), pg__cast('1:30', 'interval hour to minute'), pg__cast('2 days', 'interval')"); st.Rewritten != want {
		t.Errorf("Rewritten = %q, want %q", st.Rewritten, want)
	}
	if got := fieldsOf(t, st); len(got) != 3 {
		t.Errorf("%d fields: DAY was taken as an alias", len(got))
	}
	tn, err := ParseTypeName("interval hour to minute")
	if err != nil || tn.IntervalFields != "hour to minute" {
		t.Errorf("ParseTypeName: %+v %v", tn, err)
	}
}

// TestBuiltinNamesAsRelations checks that the names TiDB lexes as builtins
// when "(" follows at once stay relation names where a column list follows
// one: the rewrite glues "count (" into a call only in an expression.
func TestBuiltinNamesAsRelations(t *testing.T) {
	for name := range tidbBuiltinTokens {
		if name == "CAST" {
			continue // reserved in PostgreSQL too: no table may be named cast
		}
		n := strings.ToLower(name)
		for _, q := range []string{
			"CREATE TABLE " + n + " (id INT PRIMARY KEY, name TEXT)",
			"CREATE TABLE IF NOT EXISTS " + n + " (id INT)",
			"INSERT INTO " + n + " (id) VALUES (1)",
			"COPY " + n + " (id) FROM STDIN",
		} {
			if _, err := NewParser().Parse(q); err != nil {
				t.Errorf("%s: %v", q, err)
			}
		}
	}
	for _, q := range []string{"SELECT count (*) FROM t", "SELECT ALL max ( x ) FROM t", "SELECT mid ('abc', 1, 2)"} {
		if _, err := NewParser().Parse(q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
}

// TestRenamedAggregatesWithSpaces checks the aggregates the rewrite renames
// (stddev and variance with DISTINCT become TiDB's stddev_samp and
// var_samp) still parse when a space stands before their "(".
func TestRenamedAggregatesWithSpaces(t *testing.T) {
	for _, q := range []string{
		"SELECT stddev (DISTINCT x) FROM t", "SELECT variance ( DISTINCT x ) FROM t",
		"SELECT round(stddev (DISTINCT x)::numeric, 6) FROM t", "SELECT stddev (x) FROM t",
	} {
		if _, err := NewParser().Parse(q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
}

// TestQualifiedTableAlias checks that every word PostgreSQL takes as a
// table alias without AS after an unqualified table name (an unreserved
// or column-name keyword TiDB's grammar may reserve: of, key, rows ...)
// is one after a schema-qualified name too, bare or quoted (psql's \dAo
// writes pg_catalog.pg_opfamily of).
func TestQualifiedTableAlias(t *testing.T) {
	n := 0
	for w, k := range pgKeywords {
		if k.cat != kwUnreserved && k.cat != kwColName {
			continue
		}
		a := strings.ToLower(w)
		if _, err := NewParser().Parse("SELECT 1 FROM t " + a + " WHERE true"); err != nil {
			continue // not PostgreSQL's alias there either (a clause word: set ...)
		}
		n++
		for _, q := range []string{
			"SELECT 1 FROM s.t " + a + " WHERE true",
			`SELECT 1 FROM s."T" ` + a + " WHERE true",
			"SELECT 1 FROM u LEFT JOIN pg_catalog.pg_am " + a + " ON true",
		} {
			if _, err := NewParser().Parse(q); err != nil {
				t.Errorf("%s: %v", q, err)
			}
		}
	}
	if n < 300 {
		t.Errorf("%d keywords taken as aliases: the probe is wrong", n)
	}
}
