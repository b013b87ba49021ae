package functions

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestRegexpReplaceBatchMatchesRows checks the batch kernel (split between
// goroutines from replaceParallelRows rows, literal patterns found with
// strings.Index, empty matches added only for patterns that can match
// empty) against the same kernel run one row at a time, over generated
// sources, patterns, replacements, flags and NULLs, and that the first
// error in row order is the one reported.
func TestRegexpReplaceBatchMatchesRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewSource(34))
	words := []string{"", "a", "ab", "abc", "héllo", "x-y", "user-12@example.com", "aaa", "b b", "ABC"}
	pats := []string{"a", "ab", "b*", "@(.*)$", "^a", "(a)(b)?", "é", "x", "[a-c]+", "a|b", "", "\\y"}
	repls := []string{"", "-", "[\\1]", "<\\&>", "\\\\"}
	flags := []string{"", "g", "i", "gi"}
	for _, tc := range []struct {
		name              string
		start, nth, flags int
	}{{"flags", -1, -1, 3}, {"plain", -1, -1, -1}, {"start", 3, -1, -1}, {"start n flags", 3, 4, 5}} {
		t.Run(tc.name, func(t *testing.T) {
			const n = 3*replaceParallelRows + 17
			cols := 3
			for _, k := range []int{tc.start, tc.nth, tc.flags} {
				cols = max(cols, k+1)
			}
			bs := make([]array.Builder, cols)
			for k := range bs {
				if k == tc.start || k == tc.nth {
					bs[k] = array.NewInt32Builder(mem)
				} else {
					bs[k] = array.NewStringBuilder(mem)
				}
			}
			for i := 0; i < n; i++ {
				for k, b := range bs {
					if rng.Intn(40) == 0 {
						b.AppendNull()
						continue
					}
					switch {
					case k == tc.start:
						b.(*array.Int32Builder).Append(int32(1 + rng.Intn(3)))
					case k == tc.nth:
						b.(*array.Int32Builder).Append(int32(rng.Intn(3)))
					case k == 0:
						b.(*array.StringBuilder).Append(words[rng.Intn(len(words))] + words[rng.Intn(len(words))])
					case k == 1:
						p := pats[rng.Intn(len(pats))]
						if tc.start >= 0 && (p == "^a" || p == "\\y") && rng.Intn(500) != 0 {
							p = "b" // an anchor after start 1 is an error: keep those rare
						}
						b.(*array.StringBuilder).Append(p)
					case k == 2:
						b.(*array.StringBuilder).Append(repls[rng.Intn(len(repls))])
					default:
						b.(*array.StringBuilder).Append(flags[rng.Intn(len(flags))])
					}
				}
			}
			args := make([]arrow.Array, cols)
			for k, b := range bs {
				args[k] = b.NewArray()
				b.Release()
				defer args[k].Release()
			}
			kernel := regexpReplaceKernel(tc.start, tc.nth, tc.flags)
			ctx := context.Background()
			want := make([]string, n)
			firstErr := ""
			for i := 0; i < n; i++ {
				one := make([]arrow.Array, cols)
				for k, a := range args {
					one[k] = array.NewSlice(a, int64(i), int64(i+1))
				}
				out, err := kernel(ctx, mem, one, 1)
				for _, a := range one {
					a.Release()
				}
				if err != nil {
					if firstErr == "" {
						firstErr = sqlerr.As(err).Error()
					}
					want[i] = "error"
					continue
				}
				if out.IsNull(0) {
					want[i] = "NULL"
				} else {
					want[i] = fmt.Sprintf("%q", out.(*array.String).Value(0))
				}
				out.Release()
			}
			out, err := kernel(ctx, mem, args, n)
			if firstErr != "" {
				if err == nil || sqlerr.As(err).Error() != firstErr {
					t.Fatalf("batch error %v, want the first row's %q", err, firstErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			s := out.(*array.String)
			for i := 0; i < n; i++ {
				got := "NULL"
				if !s.IsNull(i) {
					got = fmt.Sprintf("%q", s.Value(i))
				}
				if got != want[i] {
					t.Fatalf("row %d: batch %s, row by row %s", i, got, want[i])
				}
			}
		})
	}
}
