package lower

import (
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/internal/pgproc"
)

// TestSyntheticCallsImmutable checks syntheticCalls against PostgreSQL
// 15's pg_proc: every function a name stands for exists and every
// overload of it is immutable, so folding its call is PostgreSQL's.
func TestSyntheticCallsImmutable(t *testing.T) {
	byName := map[string][]pgproc.Prop{}
	for _, sig := range pgproc.Signatures() {
		p, _ := pgproc.Of(sig)
		name := sig[:strings.IndexByte(sig, '(')]
		byName[name] = append(byName[name], p)
	}
	for synth, fns := range syntheticCalls {
		for _, fn := range fns {
			props, ok := byName[fn]
			if !ok {
				t.Errorf("%s: pg_proc has no %s", synth, fn)
			}
			for _, p := range props {
				if p.Volatile != 'i' {
					t.Errorf("%s: %s is provolatile %q in PostgreSQL, not immutable", synth, fn, p.Volatile)
				}
			}
		}
	}
}

// TestSyntheticCallsListed checks that every function of the library
// without a pg_proc row of its name is in syntheticCalls (folded) or in
// notFolded (with the reason): a new name of sqlgate's own is a decision.
func TestSyntheticCallsListed(t *testing.T) {
	inPG := map[string]bool{}
	for _, sig := range pgproc.Signatures() {
		inPG[sig[:strings.IndexByte(sig, '(')]] = true
	}
	for _, n := range functions.Names() {
		if inPG[n] || strings.HasPrefix(n, "__") {
			continue
		}
		_, folded := syntheticCalls[n]
		_, left := notFolded[n]
		if folded == left {
			t.Errorf("%s: pg_proc has no row of that name; list it in syntheticCalls or notFolded (folded %v, left %v)", n, folded, left)
		}
	}
}
