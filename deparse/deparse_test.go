package deparse

import (
	"testing"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/types"
)

// testScope is the table of testdata's oracle: a column of each type.
func testScope(t *testing.T) Scope {
	var sc Scope
	for _, c := range [][2]string{{"i2", "int2"}, {"i4", "int4"}, {"i8", "int8"}, {"n", "numeric"}, {"n2", "numeric(10,2)"},
		{"f4", "float4"}, {"f8", "float8"}, {"t", "text"}, {"v", "varchar(10)"}, {"c", "char(3)"}, {"b", "bool"},
		{"d", "date"}, {"ts", "timestamp"}, {"tz", "timestamptz"}, {"j", "jsonb"}, {"tm", "time"}, {"iv", "interval"}} {
		typ, err := binder.ParseType(c[1])
		if err != nil {
			t.Fatal(err)
		}
		sc.Columns = append(sc.Columns, Column{Name: c[0], Type: typ})
	}
	return sc
}

// TestCheck compares with PostgreSQL 15's pg_get_constraintdef(oid) and
// pg_get_constraintdef(oid, true) of the same CHECKs (recorded from the
// server).
func TestCheck(t *testing.T) {
	sc := testScope(t)
	for _, c := range []struct{ in, plain, pretty string }{
		{"i8 < 100", "CHECK ((i8 < 100))", "CHECK (i8 < 100)"},
		{"n < 100", "CHECK ((n < (100)::numeric))", "CHECK (n < 100::numeric)"},
		{"f4 < 100", "CHECK ((f4 < (100)::double precision))", "CHECK (f4 < 100::double precision)"},
		{"f8 > 1.5", "CHECK ((f8 > (1.5)::double precision))", "CHECK (f8 > 1.5::double precision)"},
		{"i8 % 2 = 0", "CHECK (((i8 % (2)::bigint) = 0))", "CHECK ((i8 % 2::bigint) = 0)"},
		{"i2 % 2 = 0", "CHECK ((((i2)::integer % 2) = 0))", "CHECK ((i2::integer % 2) = 0)"},
		{"v <> ''", "CHECK (((v)::text <> ''::text))", "CHECK (v::text <> ''::text)"},
		{"c = 'ab'", "CHECK ((c = 'ab'::bpchar))", "CHECK (c = 'ab'::bpchar)"},
		{"t in ('a','b')", "CHECK ((t = ANY (ARRAY['a'::text, 'b'::text])))", "CHECK (t = ANY (ARRAY['a'::text, 'b'::text]))"},
		{"v in ('a','b')", "CHECK (((v)::text = ANY ((ARRAY['a'::character varying, 'b'::character varying])::text[])))", "CHECK (v::text = ANY (ARRAY['a'::character varying, 'b'::character varying]::text[]))"},
		{"i8 in (1,2)", "CHECK ((i8 = ANY (ARRAY[(1)::bigint, (2)::bigint])))", "CHECK (i8 = ANY (ARRAY[1::bigint, 2::bigint]))"},
		{"i4 between 1 and 5", "CHECK (((i4 >= 1) AND (i4 <= 5)))", "CHECK (i4 >= 1 AND i4 <= 5)"},
		{"v not like 'x%'", "CHECK (((v)::text !~~ 'x%'::text))", "CHECK (v::text !~~ 'x%'::text)"},
		{"t ilike 'x'", "CHECK ((t ~~* 'x'::text))", "CHECK (t ~~* 'x'::text)"},
		{"b", "CHECK (b)", "CHECK (b)"},
		{"not b", "CHECK ((NOT b))", "CHECK (NOT b)"},
		{"ts > '2024-01-01'", "CHECK ((ts > '2024-01-01 00:00:00'::timestamp without time zone))", "CHECK (ts > '2024-01-01 00:00:00'::timestamp without time zone)"},
		{"tz > d", "CHECK ((tz > d))", "CHECK (tz > d)"},
		{"lower(v) = v", "CHECK ((lower((v)::text) = (v)::text))", "CHECK (lower(v::text) = v::text)"},
		{"coalesce(i4, 0) > -1", "CHECK ((COALESCE(i4, 0) > '-1'::integer))", "CHECK (COALESCE(i4, 0) > '-1'::integer)"},
		{"case when i4 > 0 then true else false end", "CHECK (\nCASE\n    WHEN (i4 > 0) THEN true\n    ELSE false\nEND)", "CHECK (\nCASE\n    WHEN i4 > 0 THEN true\n    ELSE false\nEND)"},
		{"case i4 when 1 then 'a' else 'b' end = t", "CHECK ((\nCASE i4\n    WHEN 1 THEN 'a'::text\n    ELSE 'b'::text\nEND = t))", "CHECK (\nCASE i4\n    WHEN 1 THEN 'a'::text\n    ELSE 'b'::text\nEND = t)"},
		{"i4 + i8 * 2 > 0", "CHECK (((i4 + (i8 * 2)) > 0))", "CHECK ((i4 + i8 * 2) > 0)"},
		{"i4::numeric(10,2) > 1", "CHECK (((i4)::numeric(10,2) > (1)::numeric))", "CHECK (i4::numeric(10,2) > 1::numeric)"},
		{"n > -1.5", "CHECK ((n > '-1.5'::numeric))", "CHECK (n > '-1.5'::numeric)"},
		{"f8 <> 1e5", "CHECK ((f8 <> ('100000'::numeric)::double precision))", "CHECK (f8 <> '100000'::numeric::double precision)"},
		{"i8 <> 10000000000", "CHECK ((i8 <> '10000000000'::bigint))", "CHECK (i8 <> '10000000000'::bigint)"},
		{"t || 'x' <> v", "CHECK (((t || 'x'::text) <> (v)::text))", "CHECK ((t || 'x'::text) <> v::text)"},
		{"i4 || 'x' <> t", "CHECK (((i4 || 'x'::text) <> t))", "CHECK ((i4 || 'x'::text) <> t)"},
		{"b is not false", "CHECK ((b IS NOT FALSE))", "CHECK (b IS NOT FALSE)"},
		{"i4 is distinct from i8", "CHECK ((i4 IS DISTINCT FROM i8))", "CHECK (i4 IS DISTINCT FROM i8)"},
		{"not (i4 > 1 and i4 < 3 or b)", "CHECK ((NOT (((i4 > 1) AND (i4 < 3)) OR b)))", "CHECK (NOT (i4 > 1 AND i4 < 3 OR b))"},
		{"i4 not in (1,2)", "CHECK ((i4 <> ALL (ARRAY[1, 2])))", "CHECK (i4 <> ALL (ARRAY[1, 2]))"},
		{"i4 not between 1 and 2", "CHECK (((i4 < 1) OR (i4 > 2)))", "CHECK (i4 < 1 OR i4 > 2)"},
		{"n in (1, 2.5)", "CHECK ((n = ANY (ARRAY[(1)::numeric, 2.5])))", "CHECK (n = ANY (ARRAY[1::numeric, 2.5]))"},
		{"iv > '1 day'", "CHECK ((iv > '1 day'::interval))", "CHECK (iv > '1 day'::interval)"},
		{"tm < '12:00'", "CHECK ((tm < '12:00:00'::time without time zone))", "CHECK (tm < '12:00:00'::time without time zone)"},
		{"i4 > 5::bigint", "CHECK ((i4 > (5)::bigint))", "CHECK (i4 > 5::bigint)"},
		{"t = 'x'::varchar(10)", "CHECK ((t = ('x'::character varying(10))::text))", "CHECK (t = 'x'::character varying(10)::text)"},
		{"t is null or i4 is null", "CHECK (((t IS NULL) OR (i4 IS NULL)))", "CHECK (t IS NULL OR i4 IS NULL)"},
		{"j ? 'a'", "CHECK ((j ? 'a'::text))", "CHECK (j ? 'a'::text)"},
	} {
		for _, pretty := range []bool{false, true} {
			want := c.plain
			if pretty {
				want = c.pretty
			}
			got, err := Check(c.in, sc, false, pretty)
			if err != nil {
				t.Errorf("%s (pretty %v): %v", c.in, pretty, err)
				continue
			}
			if got != want {
				t.Errorf("%s (pretty %v):\n got %q\nwant %q", c.in, pretty, got, want)
			}
		}
	}
}

// TestSyntaxFunctions compares the functions PostgreSQL 15 prints in SQL
// syntax, and defaults, with its pg_get_constraintdef and pg_get_expr
// (recorded from the server).
func TestSyntaxFunctionsAndDefaults(t *testing.T) {
	sc := testScope(t)
	for _, c := range []struct{ in, want string }{
		{"extract(year from d) > 2000", "CHECK ((EXTRACT(year FROM d) > (2000)::numeric))"},
		{"position('a' in t) > 0", "CHECK ((POSITION(('a'::text) IN (t)) > 0))"},
		{"substring(t from 1 for 2) <> 'x'", "CHECK ((SUBSTRING(t FROM 1 FOR 2) <> 'x'::text))"},
		{"trim(t) <> ''", "CHECK ((TRIM(BOTH FROM t) <> ''::text))"},
		{"btrim(t, 'x') <> ''", "CHECK ((btrim(t, 'x'::text) <> ''::text))"},
		{"d::timestamp < ts", "CHECK (((d)::timestamp without time zone < ts))"},
		{"ts at time zone 'UTC' > now()", "CHECK (((ts AT TIME ZONE 'UTC'::text) > now()))"},
		{"-i4 < 5", "CHECK (((- i4) < 5))"},
		{"i4::text <> 'x'", "CHECK (((i4)::text <> 'x'::text))"},
		{"t::int > 0", "CHECK (((t)::integer > 0))"},
		{"case i4 when 1 then true end", "CHECK (\nCASE i4\n    WHEN 1 THEN true\n    ELSE NULL::boolean\nEND)"},
		{"j ->> 'a' <> 'b'", "CHECK (((j ->> 'a'::text) <> 'b'::text))"},
	} {
		got, err := Check(c.in, sc, false, false)
		if err != nil || got != c.want {
			t.Errorf("%s:\n got %q (%v)\nwant %q", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, col, plain, pretty string }{
		{"1 + 2 * 3", "i4", "(1 + (2 * 3))", "1 + 2 * 3"},
		{"'x' || 'y'", "v", "('x'::text || 'y'::text)", "(('x'::text || 'y'::text))"},
		{"'x' || 'y'", "t", "('x'::text || 'y'::text)", "'x'::text || 'y'::text"},
		{"nextval('q2s'::regclass)", "i8", "nextval('q2s'::regclass)", "nextval('q2s'::regclass)"},
		{"'anon'", "v", "'anon'::character varying", "'anon'::character varying"},
		{"-1", "i8", "'-1'::integer", "'-1'::integer"},
		{"2.5 * 2", "n2", "(2.5 * (2)::numeric)", "(2.5 * 2::numeric)"}, // the length coercion to numeric(10,2) brackets it
		{"CURRENT_DATE", "d", "CURRENT_DATE", "CURRENT_DATE"},
		{"'t'", "b", "true", "true"},
		{"0", "n2", "0", "0"},
	} {
		var col types.T
		for _, sc := range sc.Columns {
			if sc.Name == c.col {
				col = sc.Type
			}
		}
		for _, pretty := range []bool{false, true} {
			want := c.plain
			if pretty {
				want = c.pretty
			}
			got, err := Default(c.in, sc, col, pretty)
			if err != nil || got != want {
				t.Errorf("DEFAULT %s on %s (pretty %v):\n got %q (%v)\nwant %q", c.in, c.col, pretty, got, err, want)
			}
		}
	}
	// ARRAY[..] under a cast to an array type is built as that type, its
	// elements cast to the element type; an empty one prints its type
	// (without the typmod, which the cast around it applies)
	varchar := func(n int) types.T { return types.T{Kind: types.String, Length: n} }
	for _, c := range []struct {
		in            string
		col           types.T
		plain, pretty string
	}{
		{"ARRAY[]::varchar(20)[]", types.ArrayOf(varchar(20)),
			"(ARRAY[]::character varying[])::character varying(20)[]", "ARRAY[]::character varying[]::character varying(20)[]"},
		{"array[]::text[]", types.ArrayOf(types.StringType), "ARRAY[]::text[]", "ARRAY[]::text[]"},
		{"array[]::int[]", types.ArrayOf(types.Int32Type), "ARRAY[]::integer[]", "ARRAY[]::integer[]"},
		{"array['a','b']::varchar(5)[]", types.ArrayOf(varchar(5)),
			"ARRAY['a'::character varying(5), 'b'::character varying(5)]", "ARRAY['a'::character varying(5), 'b'::character varying(5)]"},
	} {
		for _, pretty := range []bool{false, true} {
			want := c.plain
			if pretty {
				want = c.pretty
			}
			got, err := Default(c.in, sc, c.col, pretty)
			if err != nil || got != want {
				t.Errorf("DEFAULT %s (pretty %v):\n got %q (%v)\nwant %q", c.in, pretty, got, err, want)
			}
		}
	}
}
