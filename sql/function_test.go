package sql

import (
	"reflect"
	"strings"
	"testing"
)

func TestFunctionStatements(t *testing.T) {
	cases := []struct {
		text string
		want *FunctionStmt
		err  string // "" = parses
	}{
		{"CREATE FUNCTION f(x bigint, double precision, \"Y\" varchar(10)) RETURNS numeric(10,2) LANGUAGE python AS $$ return x $$",
			&FunctionStmt{Name: ObjectName{Name: "f"}, Args: []FunctionArg{{Name: "x", Type: "bigint"}, {Name: "", Type: "double precision"}, {Name: "Y", Type: "varchar(10)"}},
				Returns: "numeric(10,2)", Language: "python", Body: " return x "}, ""},
		{"create or replace function public.g(a int) returns table (n bigint, w text) as $body$\n  return a\n$body$ language 'python' volatile",
			&FunctionStmt{OrReplace: true, Name: ObjectName{Schema: "public", Name: "g"}, Args: []FunctionArg{{Name: "a", Type: "int"}},
				Table: []FunctionArg{{Name: "n", Type: "bigint"}, {Name: "w", Type: "text"}}, Language: "python", Body: "\n  return a\n", Volatility: 'v'}, ""},
		{"CREATE FUNCTION h() RETURNS timestamp with time zone LANGUAGE python AS 'return 1'",
			&FunctionStmt{Name: ObjectName{Name: "h"}, Returns: "timestamp with time zone", Language: "python", Body: "return 1"}, ""},
		{"DROP FUNCTION IF EXISTS f(bigint, text) CASCADE",
			&FunctionStmt{Drop: true, IfExists: true, Name: ObjectName{Name: "f"}, HasArgs: true, Args: []FunctionArg{{Name: "", Type: "bigint"}, {Name: "", Type: "text"}}, Cascade: true}, ""},
		{"DROP FUNCTION f", &FunctionStmt{Drop: true, Name: ObjectName{Name: "f"}}, ""},
		{"CREATE FUNCTION f(x int) RETURNS int AS $$ x $$", nil, "no language specified"},
		{"CREATE FUNCTION f(x int, y text DEFAULT 'a, b', z int = (1 + 2)) RETURNS int LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 5 AS $$ SELECT x $$",
			&FunctionStmt{Name: ObjectName{Name: "f"}, Args: []FunctionArg{{Name: "x", Type: "int"}, {Name: "y", Type: "text"}, {Name: "z", Type: "int"}}, Defaults: []string{"", "'a, b'", "(1 + 2)"},
				Returns: "int", Language: "sql", Body: " SELECT x ", Volatility: 'i', Strict: true}, ""},
		{"CREATE FUNCTION f(int) RETURNS int LANGUAGE sql STABLE RETURNS NULL ON NULL INPUT RETURN $1 + 1",
			&FunctionStmt{Name: ObjectName{Name: "f"}, Args: []FunctionArg{{Name: "", Type: "int"}}, Returns: "int", Language: "sql", Body: "$1 + 1", BodyKind: "return", BodyAt: 89, Volatility: 's', Strict: true}, ""},
		{"CREATE FUNCTION f(a int) RETURNS text LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT CASE WHEN a > 0 THEN 'p' END; END",
			&FunctionStmt{Name: ObjectName{Name: "f"}, Args: []FunctionArg{{Name: "a", Type: "int"}}, Returns: "text", Language: "sql", Body: "SELECT 1; SELECT CASE WHEN a > 0 THEN 'p' END;", BodyKind: "atomic", BodyAt: 64}, ""},
		{"CREATE FUNCTION f(a int, OUT x int, INOUT y text) LANGUAGE sql AS $$ x $$",
			&FunctionStmt{Name: ObjectName{Name: "f"}, Args: []FunctionArg{{Name: "a", Type: "int"}, {Name: "x", Type: "int", Mode: 'o'}, {Name: "y", Type: "text", Mode: 'b'}}, Language: "sql", Body: " x "}, ""},
		{"CREATE FUNCTION f(a int DEFAULT 1, OUT x int) RETURNS SETOF int LANGUAGE sql ROWS 5 AS $$ x $$",
			&FunctionStmt{Name: ObjectName{Name: "f"}, Args: []FunctionArg{{Name: "a", Type: "int"}, {Name: "x", Type: "int", Mode: 'o'}}, Defaults: []string{"1", ""},
				Returns: "int", SetOf: true, Rows: "5", Language: "sql", Body: " x "}, ""},
		{"DROP FUNCTION f(IN int, OUT text, INOUT bigint)",
			&FunctionStmt{Drop: true, Name: ObjectName{Name: "f"}, HasArgs: true, Args: []FunctionArg{{Type: "int"}, {Type: "bigint"}}}, ""},
		{"CREATE FUNCTION f(a text, VARIADIC x int[]) RETURNS int LANGUAGE sql AS $$ x $$",
			&FunctionStmt{Name: ObjectName{Name: "f"}, Args: []FunctionArg{{Name: "a", Type: "text"}, {Name: "x", Type: "int[]", Mode: 'v'}}, Returns: "int", Language: "sql", Body: " x "}, ""},
		{"DROP FUNCTION f(text, VARIADIC int[])",
			&FunctionStmt{Drop: true, Name: ObjectName{Name: "f"}, HasArgs: true, Args: []FunctionArg{{Type: "text"}, {Type: "int[]"}}}, ""},
		{"CREATE FUNCTION f(x int) RETURNS int LANGUAGE sql SECURITY DEFINER AS $$ x $$", nil, "CREATE FUNCTION option SECURITY"},
		{"CREATE FUNCTION f(x int) RETURNS TABLE (int) LANGUAGE python AS $$ x $$", nil, "syntax error"},
		{"CREATE FUNCTION f x int", nil, "syntax error"},
		{"DROP FUNCTION IF EXISTS f, s.g(int) CASCADE", &FunctionStmt{Drop: true, IfExists: true, Name: ObjectName{Name: "f"}, Cascade: true,
			More: []FunctionStmt{{Drop: true, IfExists: true, Name: ObjectName{Schema: "s", Name: "g"}, HasArgs: true, Args: []FunctionArg{{Type: "int"}}, Cascade: true}}}, ""},
		{"DROP AGGREGATE a(*), b(int)", &FunctionStmt{Drop: true, Object: "aggregate", Name: ObjectName{Name: "a"}, HasArgs: true, Star: true,
			More: []FunctionStmt{{Drop: true, Object: "aggregate", Name: ObjectName{Name: "b"}, HasArgs: true, Args: []FunctionArg{{Type: "int"}}}}}, ""},
		{"DROP AGGREGATE a(*), b", nil, "syntax error"},
		{"DROP FUNCTION f,", nil, "syntax error"},
	}
	for _, c := range cases {
		sts, err := NewParser().Parse(c.text)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, want an error with %q", c.text, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.text, err)
			continue
		}
		if got := sts[0].Function; !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.text, got, c.want)
		}
	}
}

// TestBodyPosition: a position in a function's body is placed in the
// statement's input as PostgreSQL's function_parse_error_transpose places
// it: a RETURN or BEGIN ATOMIC body where it stands, a string body where
// its one occurrence in dollar quotes or in a literal (doubled quotes and
// backslashes counted) is, nowhere (0) when it occurs twice or not at all.
func TestBodyPosition(t *testing.T) {
	cases := []struct {
		text string
		pos  int // in the body
		want int // in the input
		stmt int // which statement of text
	}{
		{"CREATE FUNCTION f() RETURNS int LANGUAGE sql RETURN 1 + x", 5, 57, 0},
		{"CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT x; END", 8, 66, 0},
		{"CREATE FUNCTION f() RETURNS int AS 'SELECT x' LANGUAGE sql", 8, 44, 0},
		{"CREATE FUNCTION f() RETURNS int AS 'SELECT ''a'' || x' LANGUAGE sql", 15, 53, 0},
		{"CREATE FUNCTION f() RETURNS int AS $b$SELECT x$b$ LANGUAGE sql", 8, 46, 0},
		{"SELECT 1; CREATE FUNCTION f() RETURNS int AS $$SELECT é || x$$ LANGUAGE sql", 13, 60, 1},
		{"CREATE FUNCTION f() RETURNS text AS 'SELECT x' LANGUAGE sql; SELECT 'SELECT x'", 8, 0, 0},
		{"CREATE FUNCTION f() RETURNS int AS E'SELECT\\tx' LANGUAGE sql", 8, 0, 0},
	}
	for _, c := range cases {
		sts, err := NewParser().Parse(c.text)
		if err != nil {
			t.Errorf("%s: %v", c.text, err)
			continue
		}
		if got := sts[c.stmt].BodyPosition(c.pos); got != c.want {
			t.Errorf("%s: body position %d is %d in the input, want %d", c.text, c.pos, got, c.want)
		}
	}
}

// TestAtomicBodySplit: the ';'s of a BEGIN ATOMIC body (CASE ... END and
// nested BEGIN ... END counted) stay in its CREATE FUNCTION statement;
// the statements after its END are statements of their own.
func TestAtomicBodySplit(t *testing.T) {
	cases := []struct {
		text string
		n    int
	}{
		{"CREATE FUNCTION f() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT 2; END; SELECT 3", 2},
		{"CREATE FUNCTION f(a int) RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT CASE WHEN a > 0 THEN 1 END; SELECT CASE a WHEN 1 THEN 2 ELSE 3 END; END;", 1},
		{"CREATE FUNCTION f() RETURNS int LANGUAGE sql AS 'SELECT 1'; SELECT 2; SELECT 3", 3},
		{"BEGIN; SELECT 1; END", 3},
	}
	for _, c := range cases {
		sts, err := NewParser().Parse(c.text)
		if err != nil || len(sts) != c.n {
			t.Errorf("%s: %d statements, %v; want %d", c.text, len(sts), err, c.n)
		}
	}
}
