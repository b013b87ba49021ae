package types

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestParseJSON: json keeps valid text as written; jsonb prints it as
// PostgreSQL 15's jsonb output does (outputs taken from PostgreSQL).
func TestParseJSON(t *testing.T) {
	cases := []struct {
		in        string
		jsonb     bool
		want, err string
	}{
		{in: `{"b":1e2,  "a":1}`, want: `{"b":1e2,  "a":1}`},
		{in: ` [1, 2] `, want: ` [1, 2] `},
		{in: `{a`, err: "22P02"},
		{in: `1 2`, err: "22P02"},
		{in: `{"b":1e2,"a":[1.50e-1,-0, -0.0,"x/é"], "b":true}`, jsonb: true, want: `{"a": [0.150, 0, 0.0, "x/é"], "b": true}`},
		{in: `{"bb":1,"a":2,"c":3}`, jsonb: true, want: `{"a": 2, "c": 3, "bb": 1}`},
		{in: `[]`, jsonb: true, want: `[]`},
		{in: `{}`, jsonb: true, want: `{}`},
		{in: `"a\"\u0001\n"`, jsonb: true, want: `"a\"\u0001\n"`},
		{in: `1.5e1`, jsonb: true, want: `15`},
		{in: `1e-2`, jsonb: true, want: `0.01`},
		{in: `-12.30`, jsonb: true, want: `-12.30`},
		{in: `null`, jsonb: true, want: `null`},
		{in: `{"a":1`, jsonb: true, err: "22P02"},
		{in: `[1] x`, jsonb: true, err: "22P02"},
	}
	for _, c := range cases {
		got, err := ParseJSON(c.in, c.jsonb)
		if c.err != "" {
			if string(sqlerr.CodeOf(err)) != c.err {
				t.Errorf("ParseJSON(%q, %v) = %q, %v; want error %s", c.in, c.jsonb, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseJSON(%q, %v) = %q, %v; want %q", c.in, c.jsonb, got, err, c.want)
		}
	}
}

// TestVariantNames: each reg* and json variant has PostgreSQL's type name
// and the kind it is computed as.
func TestVariantNames(t *testing.T) {
	for _, n := range []string{"regclass", "regtype", "regproc", "regprocedure", "regnamespace", "regrole", "json", "jsonb"} {
		v, ok := VariantNamed(n)
		if !ok || v.Name() != n {
			t.Errorf("VariantNamed(%q) = %v, %v", n, v, ok)
		}
		if v.IsReg() == v.IsJSON() {
			t.Errorf("%s: IsReg %v, IsJSON %v", n, v.IsReg(), v.IsJSON())
		}
		if v.IsReg() && RegOf(v).PGName() != n {
			t.Errorf("RegOf(%s).PGName() = %s", n, RegOf(v).PGName())
		}
	}
	if JSONBType.PGName() != "jsonb" || JSONType.String() != "json" {
		t.Errorf("json names: %s %s", JSONBType.PGName(), JSONType.String())
	}
}
