package pgtypes

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestFloatOutputAgainstPostgres compares AppendFloat64/AppendFloat32 with a
// real PostgreSQL 15's float8out/float4out over generated values: random
// bit patterns (every exponent, subnormals), random short decimals, and
// the class where Go's shortest digits and PostgreSQL's differ — short
// decimals that are exactly the midpoint between two adjacent floats (1e23,
// 265121435752770000), which PostgreSQL's Ryu never prints. The values go
// to PostgreSQL in binary (pgx's float8[]/float4[]), so both sides format
// the same bits.
func TestFloatOutputAgainstPostgres(t *testing.T) {
	ctx, conn := pgConn(t)
	rng := rand.New(rand.NewPCG(25, 1))

	f64 := midpoints64()
	if len(f64) < 50 {
		t.Fatalf("only %d midpoint decimals generated", len(f64))
	}
	f32 := midpoints32()
	if len(f32) < 20 {
		t.Fatalf("only %d float4 midpoint decimals generated", len(f32))
	}
	for i := 0; i < 3000; i++ {
		f64 = append(f64, math.Float64frombits(rng.Uint64()))
		f32 = append(f32, math.Float32frombits(rng.Uint32()))
		d := strconv.Itoa(1+rng.IntN(99999)) + "e" + strconv.Itoa(rng.IntN(640)-330)
		if v, err := strconv.ParseFloat(d, 64); err == nil {
			f64 = append(f64, v)
		}
		if v, err := strconv.ParseFloat(d, 32); err == nil {
			f32 = append(f32, float32(v))
		}
	}
	compare := func(typ string, n int, vals any, ours func(i int) string) {
		rows, err := conn.Query(ctx, "SELECT x::text FROM unnest($1::"+typ+"[]) WITH ORDINALITY AS u(x, i) ORDER BY i", vals)
		if err != nil {
			t.Fatal(err)
		}
		want, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil || len(want) != n {
			t.Fatalf("%s: %d rows, %v", typ, len(want), err)
		}
		bad := 0
		for i, w := range want {
			if got := ours(i); got != w && bad < 20 {
				bad++
				t.Errorf("%s value %d: sqlgate %q, PostgreSQL %q", typ, i, got, w)
			}
		}
	}
	compare("float8", len(f64), f64, func(i int) string { return string(AppendFloat64(nil, f64[i])) })
	compare("float4", len(f32), f32, func(i int) string { return string(AppendFloat32(nil, f32[i])) })
}

// midpoints64 returns the doubles next to short decimals d*10^k that are
// exactly halfway between two doubles (each such decimal gives the even
// double it rounds to and, for the other neighbour, the odd one).
func midpoints64() []float64 {
	var out []float64
	for k := 15; k <= 40; k++ {
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
		for d := int64(1); d < 20000; d++ {
			n := new(big.Int).Mul(big.NewInt(d), p)
			if f, ok := midpointNeighbour(n, 53); ok {
				out = append(out, f, math.Nextafter(f, math.Inf(1)), math.Nextafter(f, 0))
			}
		}
	}
	return out
}

func midpoints32() []float32 {
	var out []float32
	for k := 6; k <= 30; k++ {
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
		for d := int64(1); d < 2000; d++ {
			n := new(big.Int).Mul(big.NewInt(d), p)
			if f, ok := midpointNeighbour(n, 24); ok && f <= math.MaxFloat32 {
				out = append(out, float32(f), math.Nextafter32(float32(f), float32(math.Inf(1))))
			}
		}
	}
	return out
}

// midpointNeighbour reports whether the integer n lies exactly halfway
// between two floats of a mantissa of mant bits, and returns the float n
// rounds to.
func midpointNeighbour(n *big.Int, mant int) (float64, bool) {
	bl := n.BitLen()
	if bl <= mant+1 {
		return 0, false
	}
	// n = odd * 2^s with the odd part exactly one bit longer than the mantissa
	s := int(n.TrailingZeroBits())
	if bl-s != mant+1 {
		return 0, false
	}
	f, _ := new(big.Float).SetInt(n).Float64()
	if mant == 24 {
		g, _ := new(big.Float).SetInt(n).Float32()
		f = float64(g)
	}
	return f, !math.IsInf(f, 0)
}
