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
			&FunctionStmt{Name: ObjectName{Name: "f"}, Args: []FunctionArg{{"x", "bigint"}, {"", "double precision"}, {"Y", "varchar(10)"}},
				Returns: "numeric(10,2)", Language: "python", Body: " return x "}, ""},
		{"create or replace function public.g(a int) returns table (n bigint, w text) as $body$\n  return a\n$body$ language 'python' volatile",
			&FunctionStmt{OrReplace: true, Name: ObjectName{Schema: "public", Name: "g"}, Args: []FunctionArg{{"a", "int"}},
				Table: []FunctionArg{{"n", "bigint"}, {"w", "text"}}, Language: "python", Body: "\n  return a\n"}, ""},
		{"CREATE FUNCTION h() RETURNS timestamp with time zone LANGUAGE python AS 'return 1'",
			&FunctionStmt{Name: ObjectName{Name: "h"}, Returns: "timestamp with time zone", Language: "python", Body: "return 1"}, ""},
		{"DROP FUNCTION IF EXISTS f(bigint, text) CASCADE",
			&FunctionStmt{Drop: true, IfExists: true, Name: ObjectName{Name: "f"}, HasArgs: true, Args: []FunctionArg{{"", "bigint"}, {"", "text"}}, Cascade: true}, ""},
		{"DROP FUNCTION f", &FunctionStmt{Drop: true, Name: ObjectName{Name: "f"}}, ""},
		{"CREATE FUNCTION f(x int) RETURNS int AS $$ x $$", nil, "no language specified"},
		{"CREATE FUNCTION f(x int) RETURNS int LANGUAGE python IMMUTABLE AS $$ x $$", nil, "CREATE FUNCTION option IMMUTABLE"},
		{"CREATE FUNCTION f(x int) RETURNS TABLE (int) LANGUAGE python AS $$ x $$", nil, "syntax error"},
		{"CREATE FUNCTION f x int", nil, "syntax error"},
		{"DROP FUNCTION f, g", nil, "DROP FUNCTION of several functions"},
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
