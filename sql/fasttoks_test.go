package sql

import (
	"slices"
	"testing"
)

// fastTokensDiff compares the fast path's tokens built from fs (what
// Parse uses) with the fast lexer's reading of text (the reference): the
// same answer (both decline, or both accept with the same tokens and
// estimates; the string bytes estimate may only be larger), and the same
// fast parse. It returns "" when they agree.
func fastTokensDiff(text string, fs *fastSource) string {
	lexed := fastParser{src: text}
	okLex := lexed.lex()
	built := fastParser{src: text}
	okBuilt := built.fromSource(fs)
	_, _, _, acceptLex := fastStmtFrom(text, nil, nil)
	_, _, _, acceptBuilt := fastStmtFrom(text, fs, nil)
	switch {
	case acceptLex != acceptBuilt:
		return "fast path from the lexer's tokens accepted " + btoa(acceptLex) + ", from the statement's " + btoa(acceptBuilt)
	case !okLex || !okBuilt:
		return "" // one declined at the tokens, and the parse declined either way
	case !slices.Equal(lexed.toks, built.toks):
		for i := range min(len(lexed.toks), len(built.toks)) {
			if lexed.toks[i] != built.toks[i] {
				return "token " + text[lexed.toks[i].start:lexed.toks[i].end] + " differs"
			}
		}
		return "token counts differ"
	case lexed.nLits != built.nLits || lexed.nOps != built.nOps || lexed.nNames != built.nNames:
		return "estimates differ"
	case built.strBytes < lexed.strBytes:
		return "string bytes underestimated"
	}
	return ""
}

func btoa(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// TestFastTokensMatchLexer: over the corpus, with and without the plain
// shortcut, the tokens Parse gives the fast path without lexing are the
// fast lexer's tokens of the rewritten text.
func TestFastTokensMatchLexer(t *testing.T) {
	for _, noPlain := range []bool{false, true} {
		p := NewParser()
		p.noPlain = noPlain
		var cur string
		failed, accepted, made := 0, 0, 0
		p.fastHook = func(text string, fs *fastSource, ok bool) {
			if ok {
				accepted++
				if fs.plain || slices.ContainsFunc(fs.marks, func(m rwMark) bool { return m.mark == markText }) {
					made++
				}
			}
			if d := fastTokensDiff(text, fs); d != "" {
				failed++
				if failed <= 20 {
					t.Errorf("noPlain %v, %q, rewritten %q: %s", noPlain, cur, text, d)
				}
			}
		}
		for _, in := range corpusInputs(t) {
			cur = in
			_, _ = p.Parse(in)
		}
		t.Logf("noPlain %v: fast path took %d statements", noPlain, accepted)
	}
}

// TestLexOncePerStatement counts the passes over statement text: over
// the corpus, every Parse call lexes its text once (twice for WHERE
// CURRENT OF, whose statement is parsed again with WHERE false in the
// clause's place), and a statement the fast path takes is never lexed
// again, by the fast path's lexer or by TiDB's.
func TestLexOncePerStatement(t *testing.T) {
	p := NewParser()
	took, total := 0, 0
	var fast []bool
	p.fastHook = func(_ string, fs *fastSource, ok bool) {
		if fs == nil {
			t.Errorf("the fast path lexed the rewritten text")
		}
		fast = append(fast, ok)
	}
	for _, in := range corpusInputs(t) {
		p.passes, fast = passCounts{}, fast[:0]
		stmts, err := p.Parse(in)
		if err != nil {
			continue
		}
		want := 1
		for _, st := range stmts {
			if st.CurrentOf != nil {
				want++
			}
		}
		if p.passes.lex != want {
			t.Errorf("%q: lexed %d times, want %d", in, p.passes.lex, want)
		}
		declined := 0
		for _, ok := range fast {
			total++
			if ok {
				took++
			} else {
				declined++
			}
		}
		if p.passes.tidb != declined {
			t.Errorf("%q: TiDB parsed %d times, the fast path declined %d statements", in, p.passes.tidb, declined)
		}
	}
	if took < total/4 {
		t.Errorf("fast path took only %d of %d statements", took, total)
	}
	t.Logf("%d statements reached the parsers, the fast path took %d (each lexed once)", total, took)
}

// FuzzFastTokens: on any input, the fast path's tokens built from the
// statement's are the fast lexer's tokens of the rewritten text.
func FuzzFastTokens(f *testing.F) {
	for _, s := range []string{benchQuery, fastBenchQuery, "select a::int, $1 + 2, 'x''y' as z from t where b = any($2)",
		"INSERT INTO t (a, \"B\") VALUES (1, 'x'), (-2.5e3, NULL)", "select a as date, b status from t1 as status",
		"select\fa from t", "select 1.e5, .5, 1..2 from t", "select x'ab', e'\\n', $$q$$ from t"} {
		f.Add(s)
	}
	p := NewParser()
	f.Fuzz(func(t *testing.T, in string) {
		p.fastHook = func(text string, fs *fastSource, _ bool) {
			if d := fastTokensDiff(text, fs); d != "" {
				t.Fatalf("%q, rewritten %q: %s", in, text, d)
			}
		}
		_, _ = p.Parse(in)
		p.fastHook = nil
	})
}

// BenchmarkLexOnly is the lexer alone on the front-end benchmark's
// statement (fastBenchQuery): the one pass Parse makes.
func BenchmarkLexOnly(b *testing.B) {
	var buf []token
	b.SetBytes(int64(len(fastBenchQuery)))
	b.ReportAllocs()
	for b.Loop() {
		toks, err := lexInto(fastBenchQuery, buf)
		if err != nil {
			b.Fatal(err)
		}
		buf = toks[:0]
	}
}

// BenchmarkFastTokens compares the fast path's two ways to its tokens on
// the front-end benchmark's statement (plain) and on benchQuery (the
// general rewrite's marks): the fast lexer over the rewritten text (what
// Parse did before) against building them from the statement's tokens.
func BenchmarkFastTokens(b *testing.B) {
	for _, q := range []struct{ name, sql string }{{"plain", fastBenchQuery}, {"general", benchQuery}} {
		p := NewParser()
		var text string
		var fs fastSource
		p.fastHook = func(t string, s *fastSource, _ bool) {
			text, fs = t, *s
			fs.toks, fs.edits, fs.marks = slices.Clone(s.toks), slices.Clone(s.edits), slices.Clone(s.marks)
		}
		if _, err := p.Parse(q.sql); err != nil {
			b.Fatal(err)
		}
		var buf []ftok
		b.Run(q.name+"/lexed", func(b *testing.B) {
			for b.Loop() {
				fp := fastParser{src: text, toks: buf[:0]}
				if !fp.lex() {
					b.Fatal("declined")
				}
				buf = fp.toks
			}
		})
		b.Run(q.name+"/built", func(b *testing.B) {
			for b.Loop() {
				fp := fastParser{src: text, toks: buf[:0]}
				if !fp.fromSource(&fs) {
					b.Fatal("declined")
				}
				buf = fp.toks
			}
		})
	}
}
