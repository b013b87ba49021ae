package sql

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// plainDiff parses in with the plain shortcut and without it and reports
// the first difference a consumer of Parse could see ("" when none), and
// how many statements of in the shortcut took.
func plainDiff(with, without *Parser, in string) (string, int) {
	taken := 0
	if toks, err := lex(in); err == nil {
		start := 0
		for i := 0; i <= len(toks); i++ {
			if i < len(toks) && !toks[i].isPunct(in, ";") {
				continue
			}
			var seg [1]segment
			if _, _, ok := plainRewrite(in, toks[start:i], &seg, nil, nil); ok {
				taken++
			}
			start = i + 1
		}
	}
	a, errA := with.Parse(in)
	b, errB := without.Parse(in)
	if (errA == nil) != (errB == nil) {
		return fmt.Sprintf("errors differ: %v / %v", errA, errB), taken
	}
	if errA != nil {
		ea, eb := sqlerr.As(errA), sqlerr.As(errB)
		if ea == nil || eb == nil {
			if errA.Error() != errB.Error() {
				return fmt.Sprintf("errors differ: %v / %v", errA, errB), taken
			}
			return "", taken
		}
		if ea.Code != eb.Code || ea.Message != eb.Message || ea.Position != eb.Position || ea.Detail != eb.Detail || ea.Hint != eb.Hint {
			return fmt.Sprintf("errors differ: %+v / %+v", *ea, *eb), taken
		}
		return "", taken
	}
	if len(a) != len(b) {
		return fmt.Sprintf("%d statements / %d", len(a), len(b)), taken
	}
	for i := range a {
		sa, sb := *a[i], *b[i]
		for off := 0; off <= len(sa.Rewritten)+1; off++ {
			if pa, pb := sa.Position(off), sb.Position(off); pa != pb {
				return fmt.Sprintf("statement %d: Position(%d) = %d, want %d (%q)", i, off, pa, pb, sa.Rewritten), taken
			}
		}
		sa.segs, sb.segs, sa.seg1, sb.seg1 = nil, nil, [1]segment{}, [1]segment{}
		if sa.Rewritten != sb.Rewritten {
			return fmt.Sprintf("statement %d: Rewritten %q, want %q", i, sa.Rewritten, sb.Rewritten), taken
		}
		if !reflect.DeepEqual(sa, sb) {
			return fmt.Sprintf("statement %d (%q): statements differ", i, sa.Rewritten), taken
		}
	}
	return "", taken
}

func newPlainPair() (with, without *Parser) {
	with, without = NewParser(), NewParser()
	without.noPlain = true
	return with, without
}

// TestPlainMatchesRewrite: wherever the plain shortcut applies to a
// statement of the corpus, Parse returns what the general rewrite gives.
func TestPlainMatchesRewrite(t *testing.T) {
	with, without := newPlainPair()
	inputs := corpusInputs(t)
	total, failed := 0, 0
	for _, in := range inputs {
		diff, n := plainDiff(with, without, in)
		total += n
		if diff != "" {
			failed++
			if failed <= 20 {
				t.Errorf("%q: %s", in, diff)
			}
		}
	}
	// The corpus is mostly plain SELECTs: a shortcut that declines
	// everything would pass the comparison and speed nothing up.
	if total < 300 {
		t.Errorf("the plain shortcut took only %d statements of the corpus", total)
	}
	t.Logf("plain shortcut: %d statements of %d inputs", total, len(inputs))

	// Near misses: each statement the shortcut takes, mutated (a byte
	// deleted or doubled, a snippet the rewrite acts on inserted), so the
	// comparison also covers what lies just outside the whitelist.
	snippets := []string{"::int", "$1", " AS ", " as x ", "(", ")", "[1]", " is distinct from ", " OFFSET 1", " LIMIT 1",
		"'", "\"", " -- c\n", "/* c */", " E'x' ", " ~ ", ".", " select ", " from ", " Date '2020-01-01' ", "Ä", ";"}
	rng := rand.New(rand.NewPCG(1, 2))
	mutated := 0
	for _, in := range inputs {
		if _, n := plainDiff(with, without, in); n == 0 {
			continue
		}
		for range 8 {
			pos := rng.IntN(len(in) + 1)
			var m string
			switch rng.IntN(3) {
			case 0:
				if pos == len(in) {
					continue
				}
				m = in[:pos] + in[pos+1:]
			case 1:
				if pos == len(in) {
					continue
				}
				m = in[:pos+1] + in[pos:]
			default:
				m = in[:pos] + snippets[rng.IntN(len(snippets))] + in[pos:]
			}
			mutated++
			if diff, _ := plainDiff(with, without, m); diff != "" {
				failed++
				if failed <= 20 {
					t.Errorf("%q: %s", m, diff)
				}
			}
		}
	}
	t.Logf("%d mutations", mutated)
}

func TestPlainRewrite(t *testing.T) {
	tests := []struct {
		in, want string // want "" when the shortcut must decline
	}{
		{"select a from t", "select a from t"},
		{"SELECT A, 'X' FROM T", "select a, 'X' from t"},
		{`SELECT "A" AS B, c AS "D" FROM t AS U`, `select "A" as "b", c as "D" from t as "u"`},
		{"select a as from from t", `select a as "from" from t`},
		{"select a from t limit 1 offset 2", "select a from t limit 1 offset 2"},
		{"select f(x) from t where a in (1, 2) and b is not null", "select f(x) from t where a in (1, 2) and b is not null"},
		{"select a from t offset 2", ""},
		{"select a::int from t", ""},
		{"select $1", ""},
		{"select E'x'", ""},
		{"select a from f(1)", ""},
		{"select a /* c */ from t", ""},
		{"select (a).b from t", ""},
		{"select a[1] from t", ""},
		{"select a from t where b is distinct from c", ""},
		{"select distinct on (a) a from t", ""},
		{"select date '2020-01-01'", ""},
		{"select a as select from t", ""},
		// a label that is the word AS: the word after it is a label too
		{"SELECT a AS as X, B as As as y FROM t", ""},
		{"select count(a order by b) from t", ""},
		{"select a from (select 1) s", ""},
		{"select a ~ 'x' from t", ""},
		{"select é from t", ""},
		{"insert into t values (1)", "insert into t values (1)"}, // insertfast.go
		{"INSERT INTO T (Name) VALUES (1, NULL)", `insert into t ("name") values (1, null)`},
		{"insert into t values (1) returning a", ""},
	}
	for _, tt := range tests {
		toks, err := lex(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		var seg [1]segment
		got, _, ok := plainRewrite(tt.in, toks, &seg, nil, nil)
		if tt.want == "" {
			if ok {
				t.Errorf("%q: shortcut took it (%q), want it declined", tt.in, got)
			}
			continue
		}
		if !ok || got != tt.want {
			t.Errorf("%q: got %q (ok %v), want %q", tt.in, got, ok, tt.want)
		}
		with, without := newPlainPair()
		if diff, _ := plainDiff(with, without, tt.in); diff != "" {
			t.Errorf("%q: %s", tt.in, diff)
		}
	}
}

// FuzzPlainRewrite: on any input, Parse with the plain shortcut returns
// what it returns without.
func FuzzPlainRewrite(f *testing.F) {
	for _, s := range []string{fastBenchQuery, "SELECT A AS b FROM t AS u LIMIT 1 OFFSET 1", "select a from t where x = 'Y' -- c",
		"select a, b from t join u on t.x = u.y where a <> 1"} {
		f.Add(s)
	}
	with, without := newPlainPair()
	f.Fuzz(func(t *testing.T, in string) {
		for _, text := range []string{in, strings.ToLower(in)} {
			if diff, _ := plainDiff(with, without, text); diff != "" {
				t.Fatalf("%q: %s", text, diff)
			}
		}
	})
}
