package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestUserCallDeparseDifferential makes SQLGATE_DIFF_USERCALL_FUNCS
// (default 12) random LANGUAGE sql functions on sqlgate and PostgreSQL 15
// (one to five parameters of mixed types, named or not, trailing
// DEFAULTs, a VARIADIC last parameter, overloads of one name) and, for
// each, views calling it in every form PostgreSQL's parser takes:
// positional, with defaults left out, named notation (a => 1, a := 1) in
// any order after positional arguments, VARIADIC's elements one by one or
// an array after the word, arguments that convert implicitly and untyped
// literals. It compares pg_get_viewdef(v) and pg_get_viewdef(v, true):
// ruleutils.c's get_func_expr prints the names, the VARIADIC and the
// casts as parse analysis left them. A view one system refuses is
// tallied (which calls resolve is callforms_test.go's matter); a
// different text fails the test.
func TestUserCallDeparseDifferential(t *testing.T) {
	t.Parallel()
	n := envInt(t, "SQLGATE_DIFF_USERCALL_FUNCS", 12)
	seed := diffSeed(t, 1)
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewPCG(uint64(seed), 45))
	stats := map[string]int{}
	for k := range n {
		name := fmt.Sprintf("uf%d", k/2) // two functions a name: overloads
		f := randomUserFunc(rng, name)
		create := f.create()
		sg, pg := r.SQLGate.Run(ctx, create), r.Postgres.Run(ctx, create)
		if (sg.Err == nil) != (pg.Err == nil) {
			t.Errorf("%s\n  sqlgate: %v\n  PostgreSQL: %v", create, sg.Err, pg.Err)
			continue
		}
		if pg.Err != nil {
			stats["function refused by both"]++
			continue
		}
		for j := range 6 {
			view := fmt.Sprintf("uv%d_%d", k, j)
			var calls []string
			for c := range 2 {
				calls = append(calls, fmt.Sprintf("%s AS c%d", f.call(rng), c))
			}
			stmt := fmt.Sprintf("CREATE VIEW %s AS SELECT %s", view, strings.Join(calls, ", "))
			sg, pg := r.SQLGate.Run(ctx, stmt), r.Postgres.Run(ctx, stmt)
			switch {
			case sg.Err != nil && pg.Err != nil:
				stats["view refused by both"]++
				continue
			case sg.Err != nil || pg.Err != nil:
				stats["view accepted differently"]++
				t.Logf("accepted differently: %s\n  sqlgate: %v\n  PostgreSQL: %v", stmt, sg.Err, pg.Err)
				if sg.Err == nil {
					r.SQLGate.Run(ctx, "DROP VIEW "+view)
				}
				continue
			}
			q := fmt.Sprintf("SELECT pg_get_viewdef('%s'::regclass), pg_get_viewdef('%s'::regclass, true)", view, view)
			kind, why := verdict(r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q), tallyRule{ordered: true})
			stats["viewdef "+kind]++
			if kind == "different" {
				t.Errorf("%s\n%s\n%s", create, stmt, why)
			}
		}
	}
	t.Logf("%v", stats)
	if stats["viewdef same"] == 0 {
		t.Errorf("no view compared: %v", stats)
	}
}

// userFunc is a generated function's signature.
type userFunc struct {
	name     string
	params   []userParam
	defaults int // trailing parameters with a DEFAULT
	variadic bool
}

type userParam struct {
	name, typ string
}

var userParamTypes = []string{"integer", "bigint", "numeric", "text", "double precision", "date", "boolean"}

func randomUserFunc(rng *rand.Rand, name string) userFunc {
	f := userFunc{name: name}
	n := 1 + rng.IntN(5)
	named := rng.IntN(5) > 0
	for i := range n {
		p := userParam{typ: userParamTypes[rng.IntN(len(userParamTypes))]}
		if named && rng.IntN(6) > 0 {
			p.name = fmt.Sprintf("p%d", i)
		}
		f.params = append(f.params, p)
	}
	switch rng.IntN(3) {
	case 0:
		f.variadic = true
		last := &f.params[n-1]
		last.typ = []string{"integer", "text", "numeric"}[rng.IntN(3)] + "[]"
	case 1:
		f.defaults = 1 + rng.IntN(n)
	}
	return f
}

func (f userFunc) create() string {
	var ps []string
	for i, p := range f.params {
		s := p.typ
		if p.name != "" {
			s = p.name + " " + s
		}
		if f.variadic && i == len(f.params)-1 {
			s = "VARIADIC " + s
		}
		if i >= len(f.params)-f.defaults {
			s += " DEFAULT " + literalOf(p.typ, 0)
		}
		ps = append(ps, s)
	}
	return fmt.Sprintf("CREATE FUNCTION %s(%s) RETURNS integer LANGUAGE sql AS 'SELECT 1'", f.name, strings.Join(ps, ", "))
}

// literalOf is a value for a parameter of type typ: kind 0 its own type's
// literal, 1 an untyped string, 2 a value of another type that converts
// implicitly (or not: both systems then refuse alike).
func literalOf(typ string, kind int) string {
	if strings.HasSuffix(typ, "[]") {
		elem := strings.TrimSuffix(typ, "[]")
		return "ARRAY[" + literalOf(elem, kind) + ", " + literalOf(elem, 0) + "]"
	}
	switch kind {
	case 1:
		switch typ {
		case "date":
			return "'2024-02-29'"
		case "boolean":
			return "'t'"
		case "text":
			return "'q''s'"
		}
		return "'7'"
	case 2:
		switch typ {
		case "numeric", "double precision", "bigint":
			return "3"
		case "text":
			return "'v'::varchar"
		case "integer":
			return "2::smallint"
		case "date":
			return "'2024-01-01'::timestamp" // no implicit cast: refused alike
		}
	}
	switch typ {
	case "integer":
		return "4"
	case "bigint":
		return "5000000000"
	case "numeric":
		return "2.50"
	case "text":
		return "'t'"
	case "double precision":
		return "1.5::double precision"
	case "date":
		return "DATE '2024-03-01'"
	case "boolean":
		return "true"
	}
	return "NULL"
}

// call is a random call of f in one of the forms PostgreSQL's parser
// takes.
func (f userFunc) call(rng *rand.Rand) string {
	np := len(f.params)
	kind := func() int { return []int{0, 0, 1, 2}[rng.IntN(4)] } // mostly each type's own
	arg := func(i int) string { return literalOf(f.params[i].typ, kind()) }
	if f.variadic && rng.IntN(2) == 0 {
		// the elements one by one, or none past the others
		var args []string
		for i := range np - 1 {
			args = append(args, arg(i))
		}
		elem := strings.TrimSuffix(f.params[np-1].typ, "[]")
		for range rng.IntN(4) {
			args = append(args, literalOf(elem, kind()))
		}
		return f.name + "(" + strings.Join(args, ", ") + ")"
	}
	// how many are given: all, or some when defaults allow
	given := np
	if f.defaults > 0 {
		given = np - rng.IntN(f.defaults+1)
	}
	positional := given
	if rng.IntN(2) == 0 {
		positional = rng.IntN(given + 1)
	}
	var args []string
	for i := range positional {
		a := arg(i)
		if f.variadic && i == np-1 {
			a = "VARIADIC " + a
		}
		args = append(args, a)
	}
	// the rest by name, in a random order, sometimes skipping a
	// defaulted one in the middle
	rest := rng.Perm(np - positional)
	for _, j := range rest {
		i := positional + j
		if i >= given && rng.IntN(2) == 0 {
			continue
		}
		name := f.params[i].name
		if name == "" {
			name = fmt.Sprintf("p%d", i) // no such name: refused alike
		}
		op := " => "
		if rng.IntN(3) == 0 {
			op = " := "
		}
		args = append(args, name+op+arg(i))
	}
	return f.name + "(" + strings.Join(args, ", ") + ")"
}
