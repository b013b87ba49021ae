package functions

import (
	"context"
	"errors"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// PostgreSQL's regular-expression functions (regexp_replace, regexp_match,
// regexp_matches, regexp_like, regexp_count, regexp_instr, regexp_substr,
// regexp_split_to_array/_table).
//
// A pattern is parsed as PostgreSQL's compiler reads it (regexparse.go:
// the ARE, ERE and BRE flavours, the *** directors, leading embedded
// options, the x and q flags), so that a faulty one fails with
// PostgreSQL's REG_* message (2201B) for the first fault PostgreSQL finds.
// The tree is matched by PostgreSQL's rules (regexengine.go): Go's RE2
// finds the match where it finds PostgreSQL's (a greedy pattern without
// back-references, lookaround, word constraints or non-greedy quantifiers:
// leftmost-longest, RE2's Longest mode, on the tree written in RE2's
// syntax by regexemit.go: every literal as itself or \x{..}, \Z as \z,
// the classes as the locale's ranges); the backtracker (regexbt.go)
// matches the rest and finds every match's subexpressions. Searches follow
// PostgreSQL's loop: each from the previous match's end, a character
// further after an empty match, seeing the text before the search start.
//
// Known differences, documented in doc.go: case-insensitive matching
// folds non-ASCII letters too.

// areFlags are PostgreSQL's regex flag letters, parsed.
type areFlags struct {
	global, icase, newline, partialNL, weirdNL, expanded, quote bool
	// basic: a BRE (the b flag, and PostgreSQL 15's e flag, which clears
	// the ARE bits the ERE bit is part of: regexp.c's parse_re_flags).
	basic bool
}

// parseFlags parses a flags argument; fn names the function for the
// "does not support the global option" error.
func parseFlags(s string, fn string, allowGlobal bool) (areFlags, error) {
	var f areFlags
	for _, c := range s {
		switch c {
		case 'g':
			if !allowGlobal {
				err := sqlerr.New(sqlerr.InvalidParameterValue, "%s() does not support the \"global\" option", fn)
				if fn == "regexp_match" {
					// the one of them PostgreSQL points elsewhere
					err = err.WithHint("Use the regexp_matches function instead.")
				}
				return f, err
			}
			f.global = true
		case 'i':
			f.icase = true
		case 'c':
			f.icase = false
		case 'n', 'm':
			f.newline, f.partialNL, f.weirdNL = true, false, false
		case 'p':
			f.partialNL, f.newline, f.weirdNL = true, false, false
		case 'w':
			f.weirdNL, f.newline, f.partialNL = true, false, false
		case 's':
			f.newline, f.partialNL, f.weirdNL = false, false, false
		case 'x':
			f.expanded = true
		case 't':
			f.expanded = false
		case 'q':
			f.quote = true
		case 'b', 'e':
			f.basic, f.quote = true, false
		default:
			return f, sqlerr.New(sqlerr.InvalidParameterValue, "invalid regular expression option: \"%s\"", string(c))
		}
	}
	return f, nil
}

func errAREUnsupported(what string) error {
	return sqlerr.New(sqlerr.FeatureNotSupported, "regular expression %s is not supported (Go's RE2 engine cannot match it as PostgreSQL does)", what)
}

// translateARE rewrites a PostgreSQL pattern into RE2 syntax (see above).
func translateARE(pat string, f areFlags) (string, error) {
	src, _, err := translateAREInfo(pat, f)
	return src, err
}

// translateAREInfo is translateARE and whether the pattern prefers
// shorter matches (its greediness by PostgreSQL's rules: a pattern of two
// or more alternatives is greedy whatever its quantifiers).
func translateAREInfo(pat string, f areFlags) (string, bool, error) {
	tree, v, err := parseARE(pat, f)
	if err != nil {
		return "", false, err
	}
	if len(v.features) > 0 {
		return "", false, errAREUnsupported(v.features[0])
	}
	if v.greedy && v.lazy {
		return "", false, errAREUnsupported("mixing greedy and non-greedy quantifiers")
	}
	src, err := emitRE2(tree, v.cf, false)
	if err != nil {
		return "", false, err
	}
	return src, tree.preference() < 0, nil
}

// compileARE compiles a PostgreSQL pattern with flags: RE2 finds the
// match's extent unless the pattern has what RE2 reads otherwise (back-
// references, lookaround, word starts and ends, \y \Y, whose word
// characters are the locale's, greedy and non-greedy quantifiers mixed,
// a preference for shorter matches, a complemented escape in a negated
// bracket expression), the backtracker otherwise and for the groups
// (regexengine.go).
func compileARE(pat string, f areFlags) (*areRE, error) {
	tree, v, err := parseARE(pat, f)
	if err != nil {
		return nil, err
	}
	bt, err := compileBT(tree, v.cf, v.nsub)
	if err != nil {
		return nil, err
	}
	a := &areRE{bt: bt}
	if len(v.features) > 0 || v.greedy && v.lazy || tree.has(opWordB, opNWordB) {
		// the backtracker finds the match, where the widened pattern
		// matches (PostgreSQL's DFA pre-check): one RE2 refuses (too
		// large) is no condition
		if src, err := emitRE2(tree, v.cf, true); err == nil {
			if pre, err := regexp.Compile(src); err == nil {
				a.pre, a.preAnchored = pre, anchored(pre)
			}
		}
		return a, nil
	}
	src, _, err := translateAREInfo(pat, f)
	if err != nil {
		return a, nil // what RE2 cannot express
	}
	re, err := regexp.Compile(src)
	if err != nil {
		if bt.lazy {
			return a, nil // the backtracker alone, as before RE2 was tried
		}
		return nil, re2CompileError(err)
	}
	// Whether a pattern matches at all does not depend on which match
	// PostgreSQL prefers (the groups' split, shortest or longest): RE2
	// answers it for every pattern it can express.
	a.exists = re
	if bt.lazy {
		return a, nil
	}
	re.Longest()
	a.re, a.anchored = re, anchored(re)
	a.sub = bt.ngroups > 0 && submatchSafe(tree, bt.sets)
	return a, nil
}

// has reports whether n holds a node of one of ops.
func (n *reNode) has(ops ...reOp) bool {
	for _, op := range ops {
		if n.op == op {
			return true
		}
	}
	for _, s := range n.subs {
		if s.has(ops...) {
			return true
		}
	}
	return false
}

// re2CompileError is the error of a translated pattern RE2 refuses:
// parsing found every fault PostgreSQL reports, so what is left is RE2's
// size limits (nested repetitions past 1000 copies, a program too large),
// PostgreSQL's "too complex".
func re2CompileError(err error) error {
	var se *syntax.Error
	if errors.As(err, &se) {
		switch se.Code {
		case syntax.ErrInvalidRepeatSize, syntax.ErrLarge, syntax.ErrNestingDepth:
			return reError(regETooBig)
		}
	}
	return sqlerr.New(sqlerr.InvalidRegularExpression, "invalid regular expression: %s", regexErrText(err))
}

// reCache keeps the last compiled pattern of a kernel call, so a column
// with a constant pattern compiles it once per batch.
type reCache struct {
	pat, flags string
	re         *areRE
	f          areFlags
	valid      bool
}

func (c *reCache) get(pat, flags, fn string, allowGlobal bool) (*areRE, areFlags, error) {
	if c.valid && c.pat == pat && c.flags == flags {
		return c.re, c.f, nil
	}
	f, err := parseFlags(flags, fn, allowGlobal)
	if err != nil {
		return nil, f, err
	}
	re, err := compileARE(pat, f)
	if err != nil {
		return nil, f, err
	}
	*c = reCache{pat: pat, flags: flags, re: re, f: f, valid: true}
	return re, f, nil
}

// regexArgs reads the argument getters shared by the regexp_* kernels:
// positional text and int4 arguments, each possibly absent.
type regexArgs struct {
	args []arrow.Array
}

func (r regexArgs) str(k, i int) (string, bool) {
	if k >= len(r.args) {
		return "", false
	}
	s := r.args[k].(*array.String)
	return s.Value(i), true
}

func (r regexArgs) int(k, i int) (int64, bool) {
	if k >= len(r.args) {
		return 0, false
	}
	return int64(r.args[k].(*array.Int32).Value(i)), true
}

// anchored reports whether translated source depends on what precedes
// the search start (^, \A, word boundaries): such a pattern cannot be
// searched from an offset by slicing, which would move the string start.
func anchored(re *regexp.Regexp) bool {
	src := re.String()
	if !strings.ContainsAny(src, "^") && !strings.Contains(src, `\A`) && !strings.Contains(src, `\b`) && !strings.Contains(src, `\B`) {
		return false
	}
	// a ^ may only negate a class ([^...], as \W and \S translate): ask the parse
	parsed, err := syntax.Parse(src, syntax.Perl)
	return err != nil || hasAnchorOp(parsed)
}

// hasAnchorOp reports a start-of-text or line anchor or a word boundary
// in r.
func hasAnchorOp(r *syntax.Regexp) bool {
	switch r.Op {
	case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	for _, sub := range r.Sub {
		if hasAnchorOp(sub) {
			return true
		}
	}
	return false
}

// byteOffsetOfChar returns the byte offset of the (1-based) character
// position pos in s, or -1 past the end.
func byteOffsetOfChar(s string, pos int64) int {
	if pos <= 1 {
		return 0
	}
	k := int64(1)
	for off := range s {
		if k == pos {
			return off
		}
		k++
	}
	if k == pos {
		return len(s)
	}
	return -1
}

func checkStart(start int64) error {
	if start <= 0 {
		return sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for parameter \"%s\": %d", "start", start)
	}
	return nil
}

// expandReplacement appends repl with \1..\9 and \& substituted.
func expandReplacement(buf []byte, repl, s string, m []int) []byte {
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '\\' || i+1 >= len(repl) {
			buf = append(buf, c)
			continue
		}
		d := repl[i+1]
		switch {
		case d >= '1' && d <= '9':
			g := int(d - '0')
			if 2*g+1 < len(m) && m[2*g] >= 0 {
				buf = append(buf, s[m[2*g]:m[2*g+1]]...)
			}
			i++
		case d == '&':
			buf = append(buf, s[m[0]:m[1]]...)
			i++
		case d == '\\':
			buf = append(buf, '\\')
			i++
		default:
			buf = append(buf, c)
		}
	}
	return buf
}

func regexFuncs() []*Func {
	t, i4 := tText, tInt4
	fs := []*Func{
		{Name: "regexp_replace", Args: []types.T{t, t, t}, Ret: t, Strict: true, Kernel: regexpReplaceKernel(-1, -1, -1)},
		{Name: "regexp_replace", Args: []types.T{t, t, t, t}, Ret: t, Strict: true, Kernel: regexpReplaceKernel(-1, -1, 3)},
		{Name: "regexp_replace", Args: []types.T{t, t, t, i4}, Ret: t, Strict: true, Kernel: regexpReplaceKernel(3, -1, -1)},
		{Name: "regexp_replace", Args: []types.T{t, t, t, i4, i4}, Ret: t, Strict: true, Kernel: regexpReplaceKernel(3, 4, -1)},
		{Name: "regexp_replace", Args: []types.T{t, t, t, i4, i4, t}, Ret: t, Strict: true, Kernel: regexpReplaceKernel(3, 4, 5)},
		{Name: "regexp_match", Args: []types.T{t, t}, Ret: tTextArr, Strict: true, Kernel: regexpMatchKernel},
		{Name: "regexp_match", Args: []types.T{t, t, t}, Ret: tTextArr, Strict: true, Kernel: regexpMatchKernel},
		{Name: "regexp_like", Args: []types.T{t, t, t}, Ret: tBool, Strict: true, Kernel: regexpLikeKernel},
		{Name: "regexp_count", Args: []types.T{t, t}, Ret: i4, Strict: true, Kernel: regexpCountKernel},
		{Name: "regexp_count", Args: []types.T{t, t, i4}, Ret: i4, Strict: true, Kernel: regexpCountKernel},
		{Name: "regexp_count", Args: []types.T{t, t, i4, t}, Ret: i4, Strict: true, Kernel: regexpCountKernel},
		{Name: "regexp_split_to_array", Args: []types.T{t, t}, Ret: tTextArr, Strict: true, Kernel: regexpSplitKernel},
		{Name: "regexp_split_to_array", Args: []types.T{t, t, t}, Ret: tTextArr, Strict: true, Kernel: regexpSplitKernel},
	}
	for _, a := range [][]types.T{{t, t}, {t, t, i4}, {t, t, i4, i4}, {t, t, i4, i4, i4}, {t, t, i4, i4, i4, t}, {t, t, i4, i4, i4, t, i4}} {
		fs = append(fs, &Func{Name: "regexp_instr", Args: a, Ret: i4, Strict: true, Kernel: regexpInstrSubstrKernel(true)})
	}
	for _, a := range [][]types.T{{t, t}, {t, t, i4}, {t, t, i4, i4}, {t, t, i4, i4, t}, {t, t, i4, i4, t, i4}} {
		fs = append(fs, &Func{Name: "regexp_substr", Args: a, Ret: t, Strict: true, Kernel: regexpInstrSubstrKernel(false)})
	}
	return fs
}

// charPos is the 1-based character position of byte offset off in s.
func charPos(s string, off int) int64 { return int64(utf8.RuneCountInString(s[:off])) + 1 }

func badParam(name string, v int64) error {
	return sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for parameter \"%s\": %d", name, v)
}

// startOffset checks a start argument and converts it to a byte offset
// (len(s)+1 past the end: no match).
func startOffset(s string, start int64) (int, bool, error) {
	if start <= 0 {
		return 0, false, badParam("start", start)
	}
	off := byteOffsetOfChar(s, start)
	return off, off >= 0, nil
}

// matchGroups is regexp_match's and regexp_matches' row: the
// parenthesised subexpressions' texts (NULL for one that did not take
// part), or the whole match when there are none.
func matchGroups(src string, m []int) []any {
	if len(m) == 2 {
		return []any{src[m[0]:m[1]]}
	}
	out := make([]any, 0, len(m)/2-1)
	for g := 1; g < len(m)/2; g++ {
		if m[2*g] < 0 {
			out = append(out, nil)
		} else {
			out = append(out, src[m[2*g]:m[2*g+1]])
		}
	}
	return out
}

func regexpMatchKernel(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return rowKernel(tTextArr, true, func(args []arrow.Array) (func(int) (any, error), error) {
		r := regexArgs{args}
		var cache reCache
		return func(i int) (any, error) {
			src, _ := r.str(0, i)
			pat, _ := r.str(1, i)
			flags, _ := r.str(2, i)
			re, _, err := cache.get(pat, flags, "regexp_match", false)
			if err != nil {
				return nil, err
			}
			m, err := re.firstMatch(ctx, src)
			if m == nil || err != nil {
				return nil, err
			}
			return matchGroups(src, m), nil
		}, nil
	})(ctx, mem, args, n)
}

func regexpLikeKernel(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return rowKernel(tBool, true, func(args []arrow.Array) (func(int) (any, error), error) {
		r := regexArgs{args}
		var cache reCache
		return func(i int) (any, error) {
			src, _ := r.str(0, i)
			pat, _ := r.str(1, i)
			flags, _ := r.str(2, i)
			re, _, err := cache.get(pat, flags, "regexp_like", false)
			if err != nil {
				return nil, err
			}
			return re.match(ctx, src)
		}, nil
	})(ctx, mem, args, n)
}

func regexpCountKernel(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return rowKernel(tInt4, true, func(args []arrow.Array) (func(int) (any, error), error) {
		r := regexArgs{args}
		var cache reCache
		return func(i int) (any, error) {
			src, _ := r.str(0, i)
			pat, _ := r.str(1, i)
			flags, _ := r.str(3, i)
			re, _, err := cache.get(pat, flags, "regexp_count", false)
			if err != nil {
				return nil, err
			}
			start := int64(1)
			if len(args) > 2 {
				start, _ = r.int(2, i)
			}
			off, ok, err := startOffset(src, start)
			if err != nil || !ok {
				return int64(0), err
			}
			ms, err := re.allMatches(ctx, src, off, true)
			return int64(len(ms)), err
		}, nil
	})(ctx, mem, args, n)
}

// regexpInstrSubstrKernel is regexp_instr(string, pattern [, start [, N [,
// endoption [, flags [, subexpr]]]]]) when instr, else regexp_substr(string,
// pattern [, start [, N [, flags [, subexpr]]]]).
func regexpInstrSubstrKernel(instr bool) Kernel {
	ret, fn := tText, "regexp_substr"
	flagsIdx, subIdx := 4, 5
	if instr {
		ret, fn = tInt4, "regexp_instr"
		flagsIdx, subIdx = 5, 6
	}
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		return rowKernel(ret, true, func(args []arrow.Array) (func(int) (any, error), error) {
			r := regexArgs{args}
			var cache reCache
			var miss any
			if instr {
				miss = int64(0)
			}
			return func(i int) (any, error) {
				src, _ := r.str(0, i)
				pat, _ := r.str(1, i)
				flags, _ := r.str(flagsIdx, i)
				start, nth, endOpt, sub := int64(1), int64(1), int64(0), int64(0)
				if v, ok := r.int(2, i); ok {
					start = v
				}
				if v, ok := r.int(3, i); ok {
					nth = v
				}
				if instr {
					if v, ok := r.int(4, i); ok {
						endOpt = v
					}
				}
				if v, ok := r.int(subIdx, i); ok {
					sub = v
				}
				if start <= 0 {
					return nil, badParam("start", start)
				}
				if nth <= 0 {
					return nil, badParam("n", nth)
				}
				if endOpt != 0 && endOpt != 1 {
					return nil, badParam("endoption", endOpt)
				}
				if sub < 0 {
					return nil, badParam("subexpr", sub)
				}
				re, _, err := cache.get(pat, flags, fn, false)
				if err != nil {
					return nil, err
				}
				off, ok, err := startOffset(src, start)
				if err != nil || !ok {
					return miss, err
				}
				ms, err := re.allMatches(ctx, src, off, true)
				if err != nil {
					return nil, err
				}
				if int64(len(ms)) < nth || 2*sub+1 >= int64(len(ms[nth-1])) {
					return miss, nil
				}
				m := ms[nth-1]
				so, eo := m[2*sub], m[2*sub+1]
				if so < 0 {
					return miss, nil
				}
				if !instr {
					return src[so:eo], nil
				}
				if endOpt == 1 {
					return charPos(src, eo), nil
				}
				return charPos(src, so), nil
			}, nil
		})(ctx, mem, args, n)
	}
}

// splitPieces is regexp_split_to_array's and _to_table's pieces:
// PostgreSQL ignores zero-length matches at the start and end of the
// string and right after the previous match.
func splitPieces(ctx context.Context, re *areRE, src string) ([]any, error) {
	ms, err := re.allMatches(ctx, src, 0, true)
	if err != nil {
		return nil, err
	}
	var out []any
	start, prevEnd := 0, 0
	for _, m := range ms {
		if m[0] < len(src) && m[1] > prevEnd {
			out = append(out, src[start:m[0]])
			start = m[1]
		}
		prevEnd = m[1]
	}
	return append(out, src[start:]), nil
}

func regexpSplitKernel(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
	return rowKernel(tTextArr, true, func(args []arrow.Array) (func(int) (any, error), error) {
		r := regexArgs{args}
		var cache reCache
		return func(i int) (any, error) {
			src, _ := r.str(0, i)
			pat, _ := r.str(1, i)
			flags, _ := r.str(2, i)
			re, _, err := cache.get(pat, flags, "regexp_split_to_array", false)
			if err != nil {
				return nil, err
			}
			return splitPieces(ctx, re, src)
		}, nil
	})(ctx, mem, args, n)
}

// resolveRegexSetFunc is regexp_matches(text, text [, flags]) (a text[]
// per match: all of them with the g flag, else the first) and
// regexp_split_to_table(text, text [, flags]); nil when the arguments do
// not fit.
func resolveRegexSetFunc(name string, args []types.T) *SetFunc {
	want := textArgs23(args)
	if want == nil {
		return nil
	}
	if name == "regexp_matches" {
		return &SetFunc{Name: name, Args: want, Ret: tTextArr, Rows: regexpMatchesRows}
	}
	return &SetFunc{Name: name, Args: want, Ret: tText, Rows: regexpSplitRows}
}

// textArgs23 is the argument types of a (text, text [, text]) function
// called with args; nil when there are not two or three of them or one
// cannot be coerced to text.
func textArgs23(args []types.T) []types.T {
	if len(args) != 2 && len(args) != 3 {
		return nil
	}
	want := make([]types.T, len(args))
	for i, a := range args {
		if !canCoerce(pgTypeOf(a), pgTypeOf(tText)) {
			return nil
		}
		want[i] = tText
	}
	return want
}

// setArgs reads a set-returning regexp function's arguments: ok false for
// a NULL one (no rows, as for a strict function).
func setArgs(args []any) (src, pat, flags string, ok bool) {
	for _, a := range args {
		if a == nil {
			return "", "", "", false
		}
	}
	src, _ = args[0].(string)
	pat, _ = args[1].(string)
	if len(args) > 2 {
		flags, _ = args[2].(string)
	}
	return src, pat, flags, true
}

func listRows(items []any) func() (any, bool, error) {
	i := 0
	return func() (any, bool, error) {
		if i >= len(items) {
			return nil, false, nil
		}
		i++
		return items[i-1], true, nil
	}
}

func regexpMatchesRows(ctx context.Context, args []any) (func() (any, bool, error), error) {
	src, pat, flags, ok := setArgs(args)
	if !ok {
		return none, nil
	}
	f, err := parseFlags(flags, "regexp_matches", true)
	if err != nil {
		return nil, err
	}
	re, err := compileARE(pat, f)
	if err != nil {
		return nil, err
	}
	ms, err := re.allMatches(ctx, src, 0, f.global)
	if err != nil {
		return nil, err
	}
	rows := make([]any, len(ms))
	for k, m := range ms {
		rows[k] = matchGroups(src, m)
	}
	return listRows(rows), nil
}

func regexpSplitRows(ctx context.Context, args []any) (func() (any, bool, error), error) {
	src, pat, flags, ok := setArgs(args)
	if !ok {
		return none, nil
	}
	f, err := parseFlags(flags, "regexp_split_to_table", false)
	if err != nil {
		return nil, err
	}
	re, err := compileARE(pat, f)
	if err != nil {
		return nil, err
	}
	pieces, err := splitPieces(ctx, re, src)
	if err != nil {
		return nil, err
	}
	return listRows(pieces), nil
}
