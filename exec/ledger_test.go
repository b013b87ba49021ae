package exec

import (
	"strings"
	"testing"
)

func TestAutoRuleNeedsTwoAdjacentWins(t *testing.T) {
	l := &Ledger{BatchBytes: []int{64 << 10, 1 << 20, 16 << 20}, Families: map[Family]LedgerFamily{}}
	cases := []struct {
		name          string
		native, arrow []float64
		f             Family
		want          Backend
	}{
		{"arrow wins everywhere", []float64{2, 2, 2}, []float64{1, 1, 1}, FamIntMul, BackendArrow},
		{"wins at 1 MiB and 16 MiB", []float64{1, 2, 2}, []float64{1, 1, 1}, FamIntMul, BackendArrow},
		// the seed's S1 case: a win at 16 MiB only, a loss at 1 MiB
		{"wins only at 16 MiB", []float64{1, 1, 2}, []float64{1, 1.3, 1}, FamIntMul, BackendNative},
		{"wins at 64 KiB and 16 MiB, not adjacent", []float64{2, 1, 2}, []float64{1, 1, 1}, FamIntMul, BackendNative},
		{"exactly 25% is not more than 25%", []float64{1.25, 1.25, 1.25}, []float64{1, 1, 1}, FamIntMul, BackendNative},
		{"native faster", []float64{1, 1, 1}, []float64{2, 2, 2}, FamIntMul, BackendNative},
		{"arrow cannot serve the family", []float64{9, 9, 9}, []float64{1, 1, 1}, FamFloatCmp, BackendNative},
	}
	for _, c := range cases {
		l.Families[c.f] = LedgerFamily{NativeNsPerRow: c.native, ArrowNsPerRow: c.arrow}
		if got := l.Decide(c.f).Selected; got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	if got := l.Decide(FamIntCmp); got.Selected != BackendNative || !strings.Contains(got.Reason, "not in the ledger") {
		t.Errorf("missing family: %+v", got)
	}
}

func TestCommittedLedgerCoversArrowFamilies(t *testing.T) {
	l := CommittedLedger()
	if l == nil {
		t.Fatal("exec/ledger.json does not parse")
	}
	if len(l.BatchBytes) != 3 || l.BatchBytes[0] != 64<<10 || l.BatchBytes[1] != 1<<20 || l.BatchBytes[2] != 16<<20 {
		t.Errorf("batch sizes %v", l.BatchBytes)
	}
	for _, f := range Families() {
		if !ArrowServes(f) {
			continue
		}
		lf, ok := l.Families[f]
		if !ok || len(lf.NativeNsPerRow) != 3 || len(lf.ArrowNsPerRow) != 3 {
			t.Errorf("family %s: %+v", f, lf)
		}
	}
}

func TestSelectBackendHonoursRequestsWhereIdentical(t *testing.T) {
	for _, f := range Families() {
		n, a := SelectBackend(BackendNative, f), SelectBackend(BackendArrow, f)
		if n.Selected != BackendNative {
			t.Errorf("%s under native: %+v", f, n)
		}
		if ArrowServes(f) != (a.Selected == BackendArrow) {
			t.Errorf("%s under arrow: %+v", f, a)
		}
		if !ArrowServes(f) && a.Reason == "" {
			t.Errorf("%s stays native without a reason", f)
		}
	}
	for _, s := range []string{"auto", "NATIVE", " arrow "} {
		if _, err := ParseBackend(s); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
	if _, err := ParseBackend("fast"); err == nil {
		t.Error("fast accepted")
	}
}
