package difftest

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The LATERAL generator: a FROM item that reads the row of the items
// before it (a LATERAL subquery with correlated WHERE, aggregates, GROUP
// BY, ORDER BY .. LIMIT, or a function in FROM), joined by a comma, CROSS
// JOIN, JOIN .. ON or LEFT JOIN .. ON, over GroupSchema's tg. Compared as
// a multiset, as GroupGen's.

// LateralGen generates LATERAL queries, deterministically by seed.
type LateralGen struct {
	rng *rand.Rand
}

// NewLateralGen returns a generator.
func NewLateralGen(seed uint64) *LateralGen {
	return &LateralGen{rng: rand.New(rand.NewPCG(seed, 0x6c6174))}
}

var lateralKeys = []string{"k1", "k2", "k4", "m"}

// Query returns one query.
func (g *LateralGen) Query() string {
	r := g.rng
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	var item string
	if r.IntN(4) == 0 {
		hi := "p." + pick([]string{"k1", "k2", "k4"})
		if r.IntN(2) == 0 {
			hi += " + 1"
		}
		item = fmt.Sprintf("generate_series(0, %s) AS s(v)", hi)
		if r.IntN(3) == 0 {
			item = "LATERAL " + item
		}
	} else {
		var where []string
		for n := 1 + r.IntN(2); n > 0; n-- {
			op := pick([]string{"=", "<", ">=", "IS NOT DISTINCT FROM"})
			where = append(where, fmt.Sprintf("q.%s %s p.%s", pick(lateralKeys), op, pick(lateralKeys)))
		}
		sub := ""
		switch r.IntN(4) {
		case 0:
			sub = "SELECT count(*) AS v, sum(q.m) AS w FROM tg q WHERE " + strings.Join(where, " AND ")
		case 1:
			gk := pick([]string{"k1", "k2", "k3"})
			sub = fmt.Sprintf("SELECT q.%s AS v, count(*) AS w FROM tg q WHERE %s GROUP BY q.%s", gk, strings.Join(where, " AND "), gk)
		case 2:
			sub = fmt.Sprintf("SELECT q.id AS v, q.m + p.m AS w FROM tg q WHERE %s ORDER BY q.f DESC, q.id LIMIT %d", strings.Join(where, " AND "), 1+r.IntN(3))
		default:
			sub = "SELECT q.id AS v, q.s AS w FROM tg q WHERE " + strings.Join(where, " OR ")
		}
		item = "LATERAL (" + sub + ") s"
	}
	join := pick([]string{", ", " CROSS JOIN ", " JOIN ", " LEFT JOIN "})
	on := ""
	if strings.Contains(join, " JOIN ") && !strings.Contains(join, "CROSS") {
		on = pick([]string{" ON true", " ON s.v > p.k1", " ON s.v IS NOT NULL"})
	}
	q := "SELECT p.id, p.k1, s.* FROM tg p" + join + item + on
	if r.IntN(3) == 0 {
		q += " WHERE p.m > " + fmt.Sprint(r.IntN(60))
	}
	return q
}
