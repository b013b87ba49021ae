package difftest

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The ordered-set generator: percentile_cont, percentile_disc (scalar and
// array fractions, the edges 0 and 1 among them), mode() and the
// hypothetical-set rank, dense_rank, percent_rank and cume_dist (NULL
// hypothetical values, several keys) WITHIN GROUP (ORDER BY a random key
// of GroupSchema's tg, ASC or DESC, NULLS FIRST or LAST), with FILTER and
// GROUP BY. Compared as a multiset, as GroupGen's.

// OrderedSetGen generates ordered-set aggregate queries, deterministically by seed.
type OrderedSetGen struct {
	rng *rand.Rand
}

// NewOrderedSetGen returns a generator.
func NewOrderedSetGen(seed uint64) *OrderedSetGen {
	return &OrderedSetGen{rng: rand.New(rand.NewPCG(seed, 0x6f7365))}
}

// Query returns one query.
func (g *OrderedSetGen) Query() string {
	r := g.rng
	pick := func(xs ...string) string { return xs[r.IntN(len(xs))] }
	fraction := func() string {
		return pick("0", "1", "0.5", "0.25", "0.1", "0.9", "0.33", fmt.Sprintf("%.2f", r.Float64()))
	}
	order := func(key string) string {
		s := key + pick("", " ASC", " DESC")
		return s + pick("", "", " NULLS FIRST", " NULLS LAST")
	}
	hyp := map[string]string{"m": pick("0", "50", "99", "NULL::int", "37"), "f": pick("0", "10.25", "-20", "NULL::float8"),
		"k1": pick("0", "1", "2", "NULL::int"), "s": pick("'a'", "'c'", "'e'", "NULL::text")}
	call := func() string {
		switch r.IntN(5) {
		case 0:
			fr := fraction()
			if r.IntN(3) == 0 {
				fr = "ARRAY[" + fraction() + ", " + pick("NULL", fraction()) + ", " + fraction() + "]"
			}
			return fmt.Sprintf("percentile_cont(%s) WITHIN GROUP (ORDER BY %s)", fr, order(pick("m", "f", "k1")))
		case 1:
			fr := fraction()
			if r.IntN(3) == 0 {
				fr = "ARRAY[" + fraction() + ", " + fraction() + "]"
			}
			return fmt.Sprintf("percentile_disc(%s) WITHIN GROUP (ORDER BY %s)", fr, order(pick("m", "f", "k1", "s", "k3")))
		case 2:
			return "mode() WITHIN GROUP (ORDER BY " + order(pick("k1", "k2", "s", "k3")) + ")"
		}
		fn := pick("rank", "dense_rank", "percent_rank", "cume_dist")
		keys := []string{pick("m", "f", "k1", "s")}
		if fn != "dense_rank" && r.IntN(3) == 0 {
			keys = append(keys, pick("k2", "s"))
		}
		var args, ords []string
		for _, k := range keys {
			args = append(args, hypValue(hyp, k))
			ords = append(ords, order(k))
		}
		return fmt.Sprintf("%s(%s) WITHIN GROUP (ORDER BY %s)", fn, strings.Join(args, ", "), strings.Join(ords, ", "))
	}
	var sel []string
	for n := 1 + r.IntN(3); n > 0; n-- {
		c := call()
		if r.IntN(5) == 0 {
			c += " FILTER (WHERE m > " + fmt.Sprint(r.IntN(60)) + ")"
		}
		sel = append(sel, c)
	}
	q := "SELECT "
	group := ""
	if r.IntN(2) == 0 {
		k := pick("k1", "k2", "k3")
		q += k + ", "
		group = " GROUP BY " + k
	}
	return q + strings.Join(sel, ", ") + " FROM tg" + group
}

func hypValue(hyp map[string]string, key string) string {
	if v, ok := hyp[key]; ok {
		return v
	}
	return hyp["k1"]
}
