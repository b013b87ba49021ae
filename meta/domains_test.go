package meta

import (
	"errors"
	"reflect"
	"testing"

	"github.com/sqlgate/sqlgate/types"
)

// A domain survives a reopen as it was stored, a failed change keeps the
// domains as they were, and a dropped one stays dropped.
func TestDomainsSurviveReopen(t *testing.T) {
	dir := t.TempDir()
	m, err := OpenFile(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	want := Domain{OID: 1 << 25, Schema: "public", Name: "posint", Owner: "alice", Base: types.Int32Type, BaseText: "int",
		TypMod: -1, Default: "5", NotNull: true, Checks: []types.DomainCheck{{Name: "posint_check", Expr: "value > 0", OID: 1<<25 + 2}}}
	over := Domain{OID: 1<<25 + 4, Schema: "public", Name: "small", Base: types.Int32Type, Parent: want.OID, TypMod: -1}
	steps := []struct {
		name   string
		change func(tx *Tx) error
		want   map[uint32]Domain
	}{
		{"create", func(tx *Tx) error { tx.Domains[want.OID], tx.Domains[over.OID] = want, over; return nil },
			map[uint32]Domain{want.OID: want, over.OID: over}},
		{"failed change", func(tx *Tx) error { delete(tx.Domains, want.OID); return errors.New("boom") },
			map[uint32]Domain{want.OID: want, over.OID: over}},
		{"drop", func(tx *Tx) error { delete(tx.Domains, over.OID); return nil },
			map[uint32]Domain{want.OID: want}},
	}
	for _, s := range steps {
		_ = m.Update(ctx, s.change)
		m.Close()
		if m, err = OpenFile(ctx, dir); err != nil {
			t.Fatal(err)
		}
		if got := m.Domains().All(); !reflect.DeepEqual(got, s.want) {
			t.Errorf("%s: after reopen %+v, want %+v", s.name, got, s.want)
		}
	}
	m.Close()
}
