package functions

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Random is a session's random() generator: PostgreSQL 15's pg_prng
// (xoroshiro128**, seeded through splitmix64), so that after setseed(x)
// random() returns the very numbers PostgreSQL returns after the same
// setseed. Unseeded, it seeds itself from the operating system's random
// source at first use, as a PostgreSQL backend does. A session owns one;
// the executor's workers may draw from it too, hence the lock.
type Random struct {
	mu     sync.Mutex
	s0, s1 uint64
	seeded bool
}

// Seed is setseed(seed), seed in [-1, 1]: pg_prng_fseed.
func (r *Random) Seed(seed float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seedInt(uint64(int64(float64(uint64(1)<<52-1) * seed)))
}

// seedInt is pg_prng_seed.
func (r *Random) seedInt(seed uint64) {
	r.s0 = splitmix64(&seed)
	r.s1 = splitmix64(&seed)
	if r.s0 == 0 && r.s1 == 0 { // pg_prng_seed_check: never all zeroes
		r.s0, r.s1 = 0x5851F42D4C957F2D, 0x14057B7EF767814F
	}
	r.seeded = true
}

// Float64 is random(): pg_prng_double, a multiple of 2^-52 in [0, 1).
func (r *Random) Float64() float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.seeded {
		var b [8]byte
		if _, err := crand.Read(b[:]); err != nil {
			binary.LittleEndian.PutUint64(b[:], rand.Uint64())
		}
		r.seedInt(binary.LittleEndian.Uint64(b[:]))
	}
	return math.Ldexp(float64(r.next()>>(64-52)), -52)
}

// next is xoroshiro128**.
func (r *Random) next() uint64 {
	s0 := r.s0
	sx := r.s1 ^ s0
	val := rotl(s0*5, 7) * 9
	r.s0 = rotl(s0, 24) ^ sx ^ (sx << 16)
	r.s1 = rotl(sx, 37)
	return val
}

func rotl(x uint64, bits int) uint64 { return x<<bits | x>>(64-bits) }

func splitmix64(state *uint64) uint64 {
	*state += 0x9E3779B97f4A7C15
	val := *state
	val = (val ^ val>>30) * 0xBF58476D1CE4E5B9
	val = (val ^ val>>27) * 0x94D049BB133111EB
	return val ^ val>>31
}

// randomFuncs are random() and setseed(seed) over the session's Random.
func randomFuncs() []*Func {
	return []*Func{
		{Name: "random", Ret: tFloat8, Volatile: true, Kernel: randomKernel},
		{Name: "setseed", Args: []types.T{tFloat8}, Ret: types.VoidType, Strict: true, Volatile: true,
			Kernel: rowFunc(types.VoidType, true, func(ctx context.Context, a []any) (any, error) {
				seed := a[0].(float64)
				if seed < -1 || seed > 1 || math.IsNaN(seed) {
					return nil, sqlerr.New(sqlerr.InvalidParameterValue, "setseed parameter %s is out of allowed range [-1,1]", types.AppendFloatG(nil, seed, 6))
				}
				if r := sessionOf(ctx).Random; r != nil {
					r.Seed(seed)
				}
				return "", nil
			})},
	}
}

// randomKernel is random(): n numbers of the session's generator (a
// process-wide one when the context has no session).
func randomKernel(ctx context.Context, mem memory.Allocator, _ []arrow.Array, n int) (arrow.Array, error) {
	next := rand.Float64
	if r := sessionOf(ctx).Random; r != nil {
		next = r.Float64
	}
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	b.Reserve(n)
	for i := 0; i < n; i++ {
		b.UnsafeAppend(next())
	}
	return b.NewArray(), nil
}
