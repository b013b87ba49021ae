package relop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// bitStringAcc is bit_and, bit_or and bit_xor over bit strings (values
// '0'/'1' strings, types/bitstring.go): the bitwise fold of the non-NULL
// values, which must all have one length (22026 as PostgreSQL's bitand),
// NULL for a group with none.
type bitStringAcc struct {
	arg   int
	op    byte // '&', '|' or '#'
	state [][]byte
	seen  []bool
}

func (a *bitStringAcc) resize(n int) { a.state, a.seen = grow(a.state, n), grow(a.seen, n) }
func (a *bitStringAcc) size() int64 {
	n := int64(cap(a.state)) * 25
	for _, s := range a.state {
		n += int64(len(s))
	}
	return n
}

func (a *bitStringAcc) update(cols []arrow.Array, groups []uint32, rows []int32) error {
	x, ok := cols[a.arg].(*array.String)
	if !ok {
		return sqlerr.New(sqlerr.InternalError, "bit string aggregate over %s", cols[a.arg].DataType())
	}
	var err error
	forRows(len(groups), rows, func(i int) {
		if err != nil || x.IsNull(i) {
			return
		}
		g, v := groups[i], x.Value(i)
		if !a.seen[g] {
			a.state[g], a.seen[g] = []byte(v), true
			return
		}
		acc := a.state[g]
		if len(acc) != len(v) {
			word := map[byte]string{'&': "AND", '|': "OR", '#': "XOR"}[a.op]
			err = sqlerr.New(sqlerr.Code("22026"), "cannot %s bit strings of different sizes", word)
			return
		}
		for k := range acc {
			p, q := acc[k]-'0', v[k]-'0'
			switch a.op {
			case '&':
				p &= q
			case '|':
				p |= q
			default:
				p ^= q
			}
			acc[k] = '0' + p
		}
	})
	return err
}

func (a *bitStringAcc) finish(mem memory.Allocator, groups []uint32) (arrow.Array, error) {
	b := array.NewStringBuilder(mem)
	defer b.Release()
	for _, g := range groups {
		if !a.seen[g] {
			b.AppendNull()
			continue
		}
		b.Append(string(a.state[g]))
	}
	return b.NewArray(), nil
}
