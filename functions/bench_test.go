package functions

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/types"
)

const benchRows = 1 << 20

func benchStrings(b *testing.B, withNonASCII bool) arrow.Array {
	bld := array.NewStringBuilder(memory.DefaultAllocator)
	defer bld.Release()
	bld.Reserve(benchRows)
	for i := 0; i < benchRows; i++ {
		s := fmt.Sprintf("Customer-%07d Order NUMBER %d", i, i%977)
		if withNonASCII && i%10 == 0 {
			s += " Ünïcödé"
		}
		bld.Append(s)
	}
	return bld.NewArray()
}

func constString(s string, n int) arrow.Array {
	bld := array.NewStringBuilder(memory.DefaultAllocator)
	defer bld.Release()
	bld.Reserve(n)
	for i := 0; i < n; i++ {
		bld.Append(s)
	}
	return bld.NewArray()
}

func BenchmarkLower1M(b *testing.B) {
	for _, mixed := range []bool{false, true} {
		b.Run(fmt.Sprintf("nonASCII=%v", mixed), func(b *testing.B) {
			col := benchStrings(b, mixed)
			defer col.Release()
			f, _, err := Resolve("lower", []types.T{types.StringType})
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(col.(*array.String).ValueBytes())))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				out, err := f.Kernel(context.Background(), memory.DefaultAllocator, []arrow.Array{col}, benchRows)
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
		})
	}
}

func BenchmarkLike1M(b *testing.B) {
	col := benchStrings(b, false)
	defer col.Release()
	for _, pat := range []string{"Customer-00%", "%NUMBER 12%", "%-0%7 Order%1", "Cust_mer-%9"} {
		b.Run(pat, func(b *testing.B) {
			p := constString(pat, benchRows)
			defer p.Release()
			f, _, err := Resolve("like", []types.T{types.StringType, types.StringType})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				out, err := f.Kernel(context.Background(), memory.DefaultAllocator, []arrow.Array{col, p}, benchRows)
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
		})
	}
}

// BenchmarkRegexpReplace is the ledger's regexp_replace rows in process:
// 'user-N@example.com' rows in batches of 1024 (what generate_series in
// FROM emits), a capturing pattern with 'g' and a literal one; and
// 'userN@hostM.example.com' rows with three groups read back.
func BenchmarkRegexpReplace(b *testing.B) {
	const batch = 1024
	bld := array.NewStringBuilder(memory.DefaultAllocator)
	for i := 0; i < batch; i++ {
		bld.Append(fmt.Sprintf("user-%d@example.com", i*977))
	}
	src := bld.NewArray()
	defer src.Release()
	for i := 0; i < batch; i++ {
		bld.Append(fmt.Sprintf("user%d@host%d.example.com", i*977, i%100))
	}
	hosts := bld.NewArray()
	bld.Release()
	defer hosts.Release()
	for _, tc := range []struct {
		name, pat, repl string
		src             arrow.Array
	}{
		{"capture", "@(.*)$", `[at]\1`, src},
		{"literal", "example", "sample", src},
		{"groups", `(\w+)@(\w+)\.(\w+)`, `\2:\1`, hosts},
	} {
		b.Run(tc.name, func(b *testing.B) {
			pat, repl, flags := constString(tc.pat, batch), constString(tc.repl, batch), constString("g", batch)
			defer pat.Release()
			defer repl.Release()
			defer flags.Release()
			t := types.StringType
			f, _, err := Resolve("regexp_replace", []types.T{t, t, t, t})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				out, err := f.Kernel(context.Background(), memory.DefaultAllocator, []arrow.Array{tc.src, pat, repl, flags}, batch)
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batch), "ns/row")
		})
	}
}
