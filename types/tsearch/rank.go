package tsearch

import (
	"math"
	"strings"

	"github.com/sqlgate/sqlgate/internal/pgsort"
)

// DefaultWeights are ts_rank's weights of D, C, B and A.
var DefaultWeights = [4]float32{0.1, 0.2, 0.4, 1.0}

// Normalization bits of ts_rank's last argument.
const (
	normLogLength = 1
	normLength    = 2
	normUniq      = 8
	normLogUniq   = 16
	normRDivRPlus = 32
)

// rankItems is SortAndUniqItems: the query's operands sorted by word,
// each word once.
func rankItems(q Query) []*Node {
	// from PostgreSQL's item order (rankOrder) by its qsort_arg, which is
	// not stable from 7 items on: of operands with one word ('fox' and
	// 'fox':*, which finds more) the one it leaves first is the one
	// ranked
	items := rankOrder(q)
	pgsort.Sort(items, func(x, y *Node) int { return strings.Compare(x.Word, y.Word) })
	out := items[:0]
	for i, it := range items {
		if i == 0 || it.Word != items[i-1].Word {
			out = append(out, it)
		}
	}
	return out
}

// entries are the lexemes of v the operand finds (find_wordentry: a
// prefix operand finds all it starts; weights are not looked at).
func (v Vector) entries(n *Node) []Lexeme {
	if n.Prefix {
		lo, hi := v.prefixRange(n.Word)
		return v[lo:hi]
	}
	if i := v.Find(n.Word); i >= 0 {
		return v[i : i+1]
	}
	return nil
}

// cntLength is the number of positions in v, a stripped lexeme counting
// one.
func cntLength(v Vector) int {
	n := 0
	for _, l := range v {
		if len(l.Pos) == 0 {
			n++
		} else {
			n += len(l.Pos)
		}
	}
	return n
}

func wordDistance(w int) float32 {
	if w > 100 {
		return 1e-30
	}
	return float32(1.0 / (1.005 + 0.05*math.Exp(float64(float32(w))/1.5-2)))
}

func rankOr(w [4]float32, v Vector, q Query) float32 {
	items := rankItems(q)
	var res float32
	posNull := []Pos{0}
	for _, it := range items {
		for _, l := range v.entries(it) {
			post := l.Pos
			if len(post) == 0 {
				post = posNull
			}
			var resj float32
			wjm := float32(-1)
			jm := 0
			for j, p := range post {
				wp := w[p.Weight()]
				resj = resj + wp/float32((j+1)*(j+1))
				if wp > wjm {
					wjm, jm = wp, j
				}
			}
			inner := wjm + resj - wjm/float32((jm+1)*(jm+1))
			res = float32(float64(res) + float64(inner)/1.64493406685)
		}
	}
	if len(items) > 0 {
		res = res / float32(len(items))
	}
	return res
}

func rankAnd(w [4]float32, v Vector, q Query) float32 {
	items := rankItems(q)
	if len(items) < 2 {
		return rankOr(w, v, q)
	}
	posNull := []Pos{makePos(maxEntryPos-1, 0)}
	pos := make([][]Pos, len(items))
	isNull := make([]bool, len(items))
	res := float32(-1)
	for i, it := range items {
		for _, l := range v.entries(it) {
			if len(l.Pos) > 0 {
				pos[i], isNull[i] = l.Pos, false
			} else {
				pos[i], isNull[i] = posNull, true
			}
			post := pos[i]
			for k := 0; k < i; k++ {
				if pos[k] == nil {
					continue
				}
				for _, pl := range post {
					for _, pk := range pos[k] {
						dist := pl.Position() - pk.Position()
						if dist < 0 {
							dist = -dist
						}
						if dist != 0 || isNull[i] || isNull[k] {
							if dist == 0 {
								dist = maxEntryPos
							}
							curw := float32(math.Sqrt(float64(w[pl.Weight()] * w[pk.Weight()] * wordDistance(dist))))
							if res < 0 {
								res = curw
							} else {
								res = float32(1.0 - (1.0-float64(res))*(1.0-float64(curw)))
							}
						}
					}
				}
			}
		}
	}
	return res
}

// Rank is ts_rank(weights, v, q, normalization) (calc_rank).
func Rank(w [4]float32, v Vector, q Query, method int) float32 {
	if len(v) == 0 || q.Root == nil {
		return 0
	}
	var res float32
	if q.Root.Op == OpAnd || q.Root.Op == OpPhrase {
		res = rankAnd(w, v, q)
	} else {
		res = rankOr(w, v, q)
	}
	if res < 0 {
		res = 1e-20
	}
	if method&normLogLength != 0 {
		res = float32(float64(res) / (math.Log(float64(cntLength(v)+1)) / math.Log(2.0)))
	}
	if method&normLength != 0 {
		if l := cntLength(v); l > 0 {
			res /= float32(l)
		}
	}
	if method&normUniq != 0 {
		res /= float32(len(v))
	}
	if method&normLogUniq != 0 {
		res = float32(float64(res) / (math.Log(float64(len(v)+1)) / math.Log(2.0)))
	}
	if method&normRDivRPlus != 0 {
		res /= res + 1
	}
	return res
}
