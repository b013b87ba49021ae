package functions

import (
	"context"
	"regexp"
	"regexp/syntax"
	"runtime"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// regexp_replace over a batch, the hot one of the regex family: each row's
// result is appended to one byte buffer (no string or boxed value per
// row); what a pattern allows is decided once per compiled pattern, not
// per row (anchors, whether it can match the empty string, whether it is a
// plain literal, which is then found with strings.Index instead of the
// regex engine); and a large batch is split between two goroutines, each
// with its own pattern cache, whose outputs are joined in row order (the
// first error in row order wins, as a serial run would report it).

// replacePattern is what regexp_replace needs to know of a compiled
// pattern beyond the pattern itself.
type replacePattern struct {
	a        *areRE
	re       *regexp.Regexp // a's RE2 program when RE2 alone matches it, else nil
	f        areFlags
	anchored bool   // depends on what precedes the search start
	empty    bool   // can match the empty string
	literal  string // the whole pattern is this literal (non-empty, case-sensitive)
}

// replaceCache is reCache with the replacePattern facts.
type replaceCache struct {
	reCache
	p replacePattern
}

func (c *replaceCache) get(pat, flags string) (*replacePattern, error) {
	if c.valid && c.pat == pat && c.flags == flags {
		return &c.p, nil
	}
	a, f, err := c.reCache.get(pat, flags, "regexp_replace", true)
	if err != nil {
		return nil, err
	}
	c.p = replacePattern{a: a, f: f}
	if a.re == nil || a.numSubexp() > 0 && !a.sub {
		return &c.p, nil
	}
	re := a.re
	c.p.re, c.p.anchored, c.p.empty = re, a.anchored, true
	if prog, err := syntax.Parse(re.String(), syntax.Perl); err == nil {
		c.p.empty = minMatchLen(prog.Simplify()) == 0
	}
	// a literal with parentheses ((b)(c)) has groups to refer to: only a
	// pattern without subexpressions is a plain string
	if lit, complete := re.LiteralPrefix(); complete && lit != "" && re.NumSubexp() == 0 {
		c.p.literal = lit
	}
	return &c.p, nil
}

// minMatchLen is the fewest bytes a match of r can span (0: it can match
// the empty string somewhere).
func minMatchLen(r *syntax.Regexp) int {
	switch r.Op {
	case syntax.OpNoMatch:
		return 1 // never matches, so never matches empty
	case syntax.OpLiteral:
		return len(string(r.Rune))
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minMatchLen(r.Sub[0])
	case syntax.OpRepeat:
		return r.Min * minMatchLen(r.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, s := range r.Sub {
			n += minMatchLen(s)
		}
		return n
	case syntax.OpAlternate:
		n := -1
		for _, s := range r.Sub {
			if m := minMatchLen(s); n < 0 || m < n {
				n = m
			}
		}
		if n < 0 {
			return 0
		}
		return n
	}
	return 0 // empty match, anchors, word boundaries, star, quest
}

// literalMatches finds the non-overlapping occurrences of lit in s from
// byte offset off on: all of them when global, else the first. The match
// slices are views into flat; both are reused from row to row.
func literalMatches(dst [][]int, flat []int, lit, s string, off int, global bool) ([][]int, []int) {
	dst, flat = dst[:0], flat[:0]
	for pos := off; pos <= len(s); {
		k := strings.Index(s[pos:], lit)
		if k < 0 {
			break
		}
		m := pos + k
		flat = append(flat, m, m+len(lit))
		if !global {
			break
		}
		pos = m + len(lit)
	}
	for i := 0; i < len(flat); i += 2 {
		dst = append(dst, flat[i:i+2:i+2])
	}
	return dst, flat
}

// replaceWorker replaces in rows [lo, hi) into its own buffers.
type replaceWorker struct {
	ctx   context.Context
	cache replaceCache
	data  []byte
	ends  []int32 // end offset of each row in data
	nulls []bool
	lits  [][]int
	flat  []int
	subs  [][]int
	err   error
}

func (w *replaceWorker) run(src, pat, repl, flags *array.String, start, nth *array.Int32, lo, hi int, args []arrow.Array) {
	for i := lo; i < hi; i++ {
		if anyNull(args, i) {
			w.nulls[i-lo] = true
			w.ends[i-lo] = int32(len(w.data))
			continue
		}
		if err := w.row(src.Value(i), pat.Value(i), repl.Value(i), flags, start, nth, i); err != nil {
			w.err = err
			return
		}
		if len(w.data) > maxAllocBytes {
			w.err = errTooLong()
			return
		}
		w.ends[i-lo] = int32(len(w.data))
	}
}

func (w *replaceWorker) row(s, pat, repl string, flagsArr *array.String, startArr, nthArr *array.Int32, i int) error {
	flags := ""
	if flagsArr != nil {
		flags = flagsArr.Value(i)
	}
	// textregexreplace_extended checks start, then n, then compiles
	start, nth := int64(1), int64(-1)
	if startArr != nil {
		start = int64(startArr.Value(i))
	}
	off, ok, err := startOffset(s, start)
	if err != nil {
		return err
	}
	if nthArr != nil {
		if nth = int64(nthArr.Value(i)); nth < 0 {
			return badParam("n", nth)
		}
	}
	p, err := w.cache.get(pat, flags)
	if err != nil {
		return err
	}
	if nth < 0 { // no n: every match under 'g', else the first
		nth = 1
		if p.f.global {
			nth = 0
		}
	}
	if !ok {
		w.data = append(w.data, s...)
		return nil
	}
	var ms [][]int
	switch {
	case p.re == nil || p.anchored && (off > 0 || nth != 1) || p.empty && nth != 1:
		// the backtracker, or PostgreSQL's search loop over RE2 (which
		// hands a search after the start of an anchored pattern to the
		// backtracker)
		if ms, err = p.a.allMatches(w.ctx, s, off, nth != 1); err != nil {
			return err
		}
	case p.literal != "":
		w.lits, w.flat = literalMatches(w.lits, w.flat, p.literal, s, off, nth != 1)
		ms = w.lits
	default:
		// Match by match from the end of the previous one: what FindAll
		// finds when no match can be empty (nor depend on what precedes
		// the search start), without its last search past the last match
		// (a pattern ending in $ would search the empty rest of every row
		// again).
		w.subs = w.subs[:0]
		for pos := off; pos < len(s) || pos == len(s) && p.empty; {
			m := p.re.FindStringSubmatchIndex(s[pos:])
			if m == nil {
				break
			}
			for k := range m {
				if m[k] >= 0 {
					m[k] += pos
				}
			}
			w.subs = append(w.subs, m)
			if nth == 1 || m[1] == pos {
				break
			}
			pos = m[1]
		}
		ms = w.subs
	}
	if nth > 1 {
		if int64(len(ms)) < nth {
			ms = nil
		} else {
			ms = ms[nth-1 : nth]
		}
	}
	prev := 0
	for _, m := range ms {
		w.data = append(w.data, s[prev:m[0]]...)
		w.data = expandReplacement(w.data, repl, s, m)
		prev = m[1]
	}
	w.data = append(w.data, s[prev:]...)
	return nil
}

// replaceParallelRows is the batch size from which regexp_replace splits
// its rows between two goroutines: a goroutine costs about a microsecond,
// a row's match about one, so a few hundred rows already pay for it (a
// set-returning function in FROM emits batches of 1024).
const replaceParallelRows = 256

func regexpReplaceKernel(startIdx, nIdx, flagsIdx int) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		if err := checkArity(args, n); err != nil {
			return nil, err
		}
		texts := func(k int) (*array.String, error) {
			if k < 0 {
				return nil, nil
			}
			s, ok := args[k].(*array.String)
			if !ok {
				return nil, badArg(k, args[k], "utf8")
			}
			return s, nil
		}
		ints := func(k int) (*array.Int32, error) {
			if k < 0 {
				return nil, nil
			}
			x, ok := args[k].(*array.Int32)
			if !ok {
				return nil, badArg(k, args[k], "integer")
			}
			return x, nil
		}
		src, err := texts(0)
		if err != nil {
			return nil, err
		}
		pat, err := texts(1)
		if err != nil {
			return nil, err
		}
		repl, err := texts(2)
		if err != nil {
			return nil, err
		}
		flags, err := texts(flagsIdx)
		if err != nil {
			return nil, err
		}
		start, err := ints(startIdx)
		if err != nil {
			return nil, err
		}
		nth, err := ints(nIdx)
		if err != nil {
			return nil, err
		}
		parts := 1
		if n >= replaceParallelRows && runtime.GOMAXPROCS(0) > 1 {
			parts = 2
		}
		// the workers share one compile of the first row's pattern (a
		// compiled pattern is read-only): a pattern naming a class costs
		// milliseconds to compile; one that fails is left to the row that
		// raises it, in row order
		var primed replaceCache
		for i := range n {
			if !pat.IsNull(i) && (flags == nil || !flags.IsNull(i)) {
				f := ""
				if flags != nil {
					f = flags.Value(i)
				}
				if _, err := primed.get(pat.Value(i), f); err != nil {
					primed = replaceCache{}
				}
				break
			}
		}
		workers := make([]*replaceWorker, parts)
		bounds := make([]int, parts+1)
		for k := range workers {
			bounds[k+1] = n * (k + 1) / parts
			rows := bounds[k+1] - bounds[k]
			workers[k] = &replaceWorker{
				cache: primed,
				ctx:   ctx,
				data:  make([]byte, 0, rows*(len(src.ValueBytes())/max(n, 1)+8)),
				ends:  make([]int32, rows),
				nulls: make([]bool, rows),
			}
		}
		var wg sync.WaitGroup
		for k := 1; k < parts; k++ {
			wg.Add(1)
			go func(k int) {
				defer wg.Done()
				workers[k].run(src, pat, repl, flags, start, nth, bounds[k], bounds[k+1], args)
			}(k)
		}
		workers[0].run(src, pat, repl, flags, start, nth, bounds[0], bounds[1], args)
		wg.Wait()
		total := 0
		for _, w := range workers {
			if w.err != nil {
				return nil, w.err
			}
			total += len(w.data)
		}
		if total > maxAllocBytes {
			return nil, errTooLong()
		}
		b := array.NewStringBuilder(mem)
		defer b.Release()
		b.Reserve(n)
		b.ReserveData(total)
		for _, w := range workers {
			prev := int32(0)
			for r, end := range w.ends {
				if w.nulls[r] {
					b.AppendNull()
				} else {
					b.BinaryBuilder.Append(w.data[prev:end])
				}
				prev = end
			}
		}
		return b.NewArray(), nil
	}
}
