package difftest

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// geoCoords are the coordinates random geometric literals are built of:
// few distinct values, so that equal, touching, parallel and fuzzily
// equal (within geo_ops.c's EPSILON 1e-6) shapes are common, with now and
// then a value whose digits or range matter.
var geoCoords = []string{"0", "1", "2", "-1", "-2", "3", "0.5", "1.0000001", "1e-7", "-0", "2.5", "0.1", "1e300", "NaN", "-Infinity", "1e-320"}

func geoCoord(rng *rand.Rand) string {
	if rng.Intn(25) == 0 {
		return geoCoords[12+rng.Intn(4)]
	}
	return geoCoords[rng.Intn(12)]
}

// geoPair is a point's text in one of point_in's forms.
func geoPair(rng *rand.Rand) string {
	x, y := geoCoord(rng), geoCoord(rng)
	switch rng.Intn(4) {
	case 0:
		return x + "," + y
	case 1:
		return fmt.Sprintf(" ( %s , %s ) ", x, y)
	}
	return "(" + x + "," + y + ")"
}

func geoPairs(rng *rand.Rand, n int) string {
	ps := make([]string, n)
	for i := range ps {
		ps[i] = geoPair(rng)
	}
	return strings.Join(ps, ",")
}

// randomGeo is a literal of geometric type name in one of the forms its
// input function reads (seeded: a failure repeats); now and then one its
// input refuses, whose error is compared too.
func randomGeo(rng *rand.Rand, name string) string {
	var text string
	switch name {
	case "point":
		text = geoPair(rng)
	case "lseg", "box":
		text = []string{"[%s]", "(%s)", "%s"}[rng.Intn(3)]
		text = fmt.Sprintf(text, geoPairs(rng, 2))
	case "line":
		if rng.Intn(2) == 0 {
			text = fmt.Sprintf("{%s,%s,%s}", geoCoord(rng), geoCoord(rng), geoCoord(rng))
		} else {
			text = fmt.Sprintf("[%s]", geoPairs(rng, 2))
		}
	case "path":
		text = fmt.Sprintf([]string{"[%s]", "(%s)", "%s"}[rng.Intn(3)], geoPairs(rng, 1+rng.Intn(4)))
	case "polygon":
		text = fmt.Sprintf([]string{"(%s)", "%s"}[rng.Intn(2)], geoPairs(rng, 1+rng.Intn(5)))
	case "circle":
		r := []string{"1", "0.5", "2", "0", "3"}[rng.Intn(5)]
		text = fmt.Sprintf([]string{"<%s,%s>", "(%s,%s)", "%s,%s"}[rng.Intn(3)], geoPair(rng), r)
	}
	if rng.Intn(30) == 0 {
		text = text[:rng.Intn(len(text)+1)] // a cut one: its error
	}
	return "'" + text + "'::" + name
}

// geoSignature is one operator or function PostgreSQL 15 has over the
// geometric types: its name and argument types (left "" for a prefix
// operator).
type geoSignature struct {
	op   bool
	name string
	args []string
}

// geoSignatures asks PostgreSQL for its operators and functions over the
// geometric types (neither index support nor I/O nor selectivity
// functions), so the generator calls every one of them.
func geoSignatures(t *testing.T, ctx context.Context, r *Runner) []geoSignature {
	t.Helper()
	const geo = "600,601,602,603,604,628,718"
	ops := r.Postgres.Run(ctx, `SELECT o.oprname, coalesce(l.typname, ''), rt.typname FROM pg_operator o
		LEFT JOIN pg_type l ON l.oid = o.oprleft JOIN pg_type rt ON rt.oid = o.oprright
		WHERE o.oprleft IN (`+geo+`) OR o.oprright IN (`+geo+`) ORDER BY 1, 2, 3`)
	fns := r.Postgres.Run(ctx, `SELECT p.proname, array_to_string(array(SELECT format_type(a, NULL) FROM unnest(p.proargtypes) a), ',')
		FROM pg_proc p WHERE (p.proargtypes::oid[] && '{`+geo+`}'::oid[] OR p.prorettype IN (`+geo+`))
		AND p.proname !~ '^(gist|spg|brin)' AND p.proname !~ '(sel|_in|_out|_recv|_send|_consistent|_distance)$'
		AND NOT p.proargtypes::oid[] && '{2275,2281}'::oid[] ORDER BY 1, 2`)
	if ops.Err != nil || fns.Err != nil {
		t.Fatalf("catalog: %v %v", ops.Err, fns.Err)
	}
	var out []geoSignature
	for _, row := range ops.Rows {
		args := []string{row[1].Text, row[2].Text}
		if args[0] == "" {
			args = args[1:]
		}
		out = append(out, geoSignature{op: true, name: row[0].Text, args: args})
	}
	for _, row := range fns.Rows {
		out = append(out, geoSignature{name: row[0].Text, args: strings.Split(row[1].Text, ",")})
	}
	return out
}

// geoArg is a random argument of type name: a geometric literal, or a
// small number for float8 and integer.
func geoArg(rng *rand.Rand, name string) string {
	switch name {
	case "double precision":
		return geoCoord(rng) + "::float8"
	case "integer":
		return fmt.Sprint(rng.Intn(6))
	}
	return randomGeo(rng, name)
}

// geoInputs are texts the input functions are given: white space, junk,
// missing parts, nesting, exponents, bad radii and lines.
var geoInputs = []string{"''", "'(1,2'", "'1,2)'", "'(1,2)x'", "'((1,2))'", "'  ( 1 , 2 )  '", "'(1e400,2)'", "'(1e-400,2)'", "'(0x10,2)'", "'(inf,-infinity)'",
	"'(nan,1)'", "'1,2,3'", "'1,2,3,4'", "'(1,2),(3,4)'", "'[(1,2),(3,4)]'", "'((1,2),(3,4))'", "'[(1,2),(3,4)'", "'<(1,2),3>'", "'<(1,2),-3>'", "'((1,2),3)'",
	"'{1,2,3}'", "'{0,0,1}'", "'{1,2}'", "'{1,2,3'", "'[(1,1),(1,1)]'", "'(1,2,3,4,5,6)'", "'((1,2),(3,4),(5,6))'", "'[1,2,3,4]'", "'(1,2)(3,4)'", "'( (1,2) , (3,4) )'"}

var geoTypeNames = []string{"point", "lseg", "line", "box", "path", "polygon", "circle"}

// TestGeometricDifferential: PostgreSQL 15's every operator and function
// over the geometric types, called with random literals, on sqlgate and
// PostgreSQL under extra_float_digits 1, 0, 3 and -4: the same text
// (floats as PostgreSQL prints them) or the same error. SQLGATE_GEO_CALLS
// sets the calls per signature (default 1).
func TestGeometricDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 600))))
	per := envInt(t, "SQLGATE_GEO_CALLS", 1)
	stats := map[string]int{}
	sigs := geoSignatures(t, ctx, r)
	for _, efd := range []string{"1", "0", "3", "-4"} {
		tally(t, ctx, r, "SET extra_float_digits = "+efd, stats)
		for _, s := range sigs {
			for i := 0; i < per; i++ {
				args := make([]string, len(s.args))
				for k, a := range s.args {
					args[k] = geoArg(rng, a)
				}
				name := s.name
				if name == "width" {
					// sqlgate's grammar reserves WIDTH (TiDB's keyword): the
					// quoted name is the same function
					name = `"width"`
				}
				q := fmt.Sprintf("SELECT %s(%s)", name, strings.Join(args, ", "))
				switch {
				case s.op && len(args) == 1:
					q = fmt.Sprintf("SELECT %s %s", s.name, args[0])
				case s.op:
					q = fmt.Sprintf("SELECT %s %s %s", args[0], s.name, args[1])
				}
				tally(t, ctx, r, q, stats)
			}
		}
		for _, name := range geoTypeNames {
			tally(t, ctx, r, fmt.Sprintf("SELECT %s, %s::text, CAST(%s AS text)::%s", randomGeo(rng, name), randomGeo(rng, name), randomGeo(rng, name), name), stats)
		}
	}
	for _, name := range geoTypeNames {
		for _, in := range geoInputs {
			tally(t, ctx, r, fmt.Sprintf("SELECT %s::%s", in, name), stats)
		}
		for _, other := range geoTypeNames {
			tally(t, ctx, r, fmt.Sprintf("SELECT CAST(%s AS %s)", randomGeo(rng, name), other), stats)
		}
		tally(t, ctx, r, fmt.Sprintf("SELECT 1::%s", name), stats)
		tally(t, ctx, r, fmt.Sprintf("SELECT %s = %s", randomGeo(rng, name), randomGeo(rng, name)), stats)
	}
	t.Logf("%d signatures: %v", len(sigs), stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}

// TestGeometricColumnsDifferential stores random shapes in a column of
// each geometric type and reads them back, filtered by their operators;
// ordering, grouping and DISTINCT are refused as PostgreSQL refuses them
// (no btree opclass).
func TestGeometricColumnsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := rand.New(rand.NewSource(int64(diffSeed(t, 601))))
	stats := map[string]int{}
	tally(t, ctx, r, "CREATE TABLE gs (id int PRIMARY KEY, p point, s lseg, l line, b box, a path, g polygon, c circle)", stats)
	for id := 1; id <= 20; id++ {
		vals := make([]string, len(geoTypeNames))
		for k, name := range geoTypeNames {
			vals[k] = randomGeo(rng, name)
			if rng.Intn(8) == 0 {
				vals[k] = "NULL"
			}
		}
		tally(t, ctx, r, fmt.Sprintf("INSERT INTO gs VALUES (%d, %s)", id, strings.Join(vals, ", ")), stats)
	}
	for _, q := range []string{
		"SELECT * FROM gs ORDER BY id",
		"SET extra_float_digits = 0",
		"SELECT * FROM gs ORDER BY id",
		"RESET extra_float_digits",
		"SELECT id FROM gs WHERE b @> p ORDER BY id",
		"SELECT id, c <-> p, area(b), npoints(a), # g, @@ c FROM gs ORDER BY id",
		"SELECT id FROM gs WHERE b && '(0,0),(1,1)' OR c << '<(5,5),1>' ORDER BY id",
		"SELECT id, b::polygon, c::box, s <-> p, l ?# s FROM gs ORDER BY id",
		"SELECT id FROM gs WHERE b = '(0,0),(1,1)' OR c < '<(0,0),1>' ORDER BY id",
		"SELECT id, p FROM gs ORDER BY p",
		"SELECT id, b FROM gs ORDER BY b",
		"SELECT id, c FROM gs ORDER BY c",
		"SELECT DISTINCT p FROM gs",
		"SELECT c, count(*) FROM gs GROUP BY c",
		"UPDATE gs SET p = p + '(1,1)', b = b * '(2,0)' WHERE id % 2 = 0",
		"SELECT id, p, b FROM gs ORDER BY id",
		"INSERT INTO gs (id, p) VALUES (100, '(1,2')",
		"INSERT INTO gs (id, c) VALUES (100, '<(1,2),-1>')",
		"DROP TABLE gs",
	} {
		tally(t, ctx, r, q, stats)
	}
	t.Logf("%v", stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}
