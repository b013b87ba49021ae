package sql

import (
	"regexp"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestMultiAssign: UPDATE's and DO UPDATE's (cols) = (values) | ROW(..) |
// (sub-SELECT) items become one assignment per column; the malformed ones
// fail with PostgreSQL's 42601 at its position.
func TestMultiAssign(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{"update t set (a, b) = (1, 2)", `update t set "a" = (1 ) , "b" = ( 2 )`},
		{"update t set (a, b) = row(1, default) where k = 1", `update t set "a" = (1 ) , "b" = default where k = 1`},
		{"update t set x = 0, (A) = row(b + 1), c = 3", `update t set x = 0, "a" = (b + 1 ), c = 3`},
		{"update t set (a, b) = (select x, y as z from u where u.k = t.k)",
			`update t set "a" = ( (select ( x ) from u where u.k = t.k) ) , "b" = ( (select ( y ) from u where u.k = t.k) )`},
		{"insert into t values (1) on conflict (k) do update set (a, b) = (excluded.a, 2) where t.a > 0",
			`insert into t values (1) on duplicate key update "a" = ( values (a ) ) , "b" = ( 2 ) , pg__oc_where = ( t.a > 0 )`},
	}
	p := NewParser()
	for _, c := range cases {
		st, err := p.Parse(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if st[0].Rewritten != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.in, st[0].Rewritten, c.want)
		}
	}
	// the malformed ones become marker assignments that carry
	// PostgreSQL's error, which the binder raises once the values before
	// it are bound (DeferredSetError)
	errs := []struct {
		in, msg string
		pos     int
	}{ // PostgreSQL's codes: 0A000 for a single value, 42601 for a count
		{"update t set (a, b) = (1, 2, 3)", "number of columns does not match number of values", 23},
		{"update t set (a, b) = (1)", "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression", 24},
		{"update t set (a) = (1)", "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression", 21},
		{"update t set (a, b) = (select 1)", "number of columns does not match number of values", 23},
		{"update t set (a, b) = (select x, y, z from u)", "number of columns does not match number of values", 23},
		{"update t set (a, b) = row(1)", "number of columns does not match number of values", 23},
		{"update t set (a, b) = 1", "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression", 23},
		{"insert into t values (1) on conflict (k) do update set (a, b) = (1, 2, 3)", "number of columns does not match number of values", 65},
	}
	marker := regexp.MustCompile(`"(pg__ma_[a-z]+_[0-9]+)"`)
	for _, c := range errs {
		st, err := p.Parse(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		m := marker.FindStringSubmatch(st[0].Rewritten)
		if m == nil {
			t.Errorf("%s: no marker in %s", c.in, st[0].Rewritten)
			continue
		}
		e, ok := DeferredSetError(m[1])
		code := sqlerr.SyntaxError
		if strings.HasPrefix(c.msg, "source") {
			code = sqlerr.FeatureNotSupported
		}
		if !ok || e.Code != code || e.Message != c.msg || e.Position != c.pos {
			t.Errorf("%s: got %v (ok %v), want %s %q at %d", c.in, e, ok, code, c.msg, c.pos)
		}
	}
	if _, ok := DeferredSetError("pg__ma_count_x"); ok {
		t.Errorf("a marker without a position is no marker")
	}
	if _, ok := DeferredSetError("a"); ok {
		t.Errorf("a column is no marker")
	}
}
