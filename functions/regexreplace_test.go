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
// strings.Index, match-by-match search for patterns that cannot match
// empty) against the general path the other regexp_* functions take
// (allMatches with every match and the abutting empty ones), row by row,
// over generated sources, patterns, replacements, flags and NULLs, and
// that the first error in row order is the one reported.
func TestRegexpReplaceBatchMatchesRows(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewSource(34))
	words := []string{"", "a", "ab", "abc", "héllo", "x-y", "user-12@example.com", "aaa", "b b", "ABC"}
	pats := []string{"a", "ab", "b*", "@(.*)$", "^a", "(a)(b)?", "é", "x", "[a-c]+", "a|b", "", "\\y", "(a)(b)"}
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
				got, err := referenceReplace(args, tc.start, tc.nth, tc.flags, i)
				if err != nil {
					if firstErr == "" {
						firstErr = sqlerr.As(err).Error()
					}
					want[i] = "error"
					continue
				}
				want[i] = got
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

// referenceReplace is regexp_replace of row i by the general path.
func referenceReplace(args []arrow.Array, startIdx, nIdx, flagsIdx, i int) (string, error) {
	for _, a := range args {
		if a.IsNull(i) {
			return "NULL", nil
		}
	}
	str := func(k int) string { return args[k].(*array.String).Value(i) }
	src, pat, repl := str(0), str(1), str(2)
	flags := ""
	if flagsIdx >= 0 {
		flags = str(flagsIdx)
	}
	var c reCache
	re, f, err := c.get(pat, flags, "regexp_replace", true)
	if err != nil {
		return "", err
	}
	start, nth := int64(1), int64(1)
	if f.global {
		nth = 0
	}
	if startIdx >= 0 {
		start = int64(args[startIdx].(*array.Int32).Value(i))
	}
	if nIdx >= 0 {
		if nth = int64(args[nIdx].(*array.Int32).Value(i)); nth < 0 {
			return "", badParam("n", nth)
		}
	}
	off, ok, err := startOffset(src, start)
	if err != nil {
		return "", err
	}
	if !ok {
		return fmt.Sprintf("%q", src), nil
	}
	// the backtracker alone, against the kernel's RE2 paths
	ms, err := (&areRE{bt: re.bt}).allMatches(context.Background(), src, off, nth != 1)
	if err != nil {
		return "", err
	}
	if nth > 1 {
		if int64(len(ms)) < nth {
			ms = nil
		} else {
			ms = ms[nth-1 : nth]
		}
	}
	var buf []byte
	prev := 0
	for _, m := range ms {
		buf = append(buf, src[prev:m[0]]...)
		buf = expandReplacement(buf, repl, src, m)
		prev = m[1]
	}
	buf = append(buf, src[prev:]...)
	return fmt.Sprintf("%q", buf), nil
}
