package access

import (
	"slices"
	"testing"
)

// ObjectACL grants and revokes as PostgreSQL's aclupdate: letters in the
// kind's order, grant options marked '*', a grantee with nothing left
// gone, new grantees appended.
func TestObjectACL(t *testing.T) {
	for _, tc := range []struct {
		name string
		do   func(ObjectACL) ObjectACL
		want []string
	}{
		{"grant in letter order", func(a ObjectACL) ObjectACL { return a.Grant("r1", "CU", SchemaLetters, false) }, []string{"r1=UC/o"}},
		{"grant option", func(a ObjectACL) ObjectACL { return a.Grant("r1", "C", SchemaLetters, true) }, []string{"r1=C*/o"}},
		{"public is empty", func(a ObjectACL) ObjectACL { return a.Grant(Public, "U", SchemaLetters, false) }, []string{"=U/o"}},
		{"merge and order of grantees", func(a ObjectACL) ObjectACL {
			return a.Grant("r2", "a", TableLetters, false).Grant("r1", "r", TableLetters, false).Grant("r2", "r", TableLetters, false)
		}, []string{"r2=ar/o", "r1=r/o"}},
		{"revoke all removes the item", func(a ObjectACL) ObjectACL {
			return a.Grant("r1", "UC", SchemaLetters, false).Revoke("r1", "UC", false)
		}, []string{}},
		{"revoke grant option for", func(a ObjectACL) ObjectACL {
			return a.Grant("r1", "UC", SchemaLetters, true).Revoke("r1", "C", true)
		}, []string{"r1=U*C/o"}},
		{"quoted names", func(a ObjectACL) ObjectACL { return a.Grant("Big One", "U", SchemaLetters, false) }, []string{`"Big One"=U/o`}},
	} {
		got := tc.do(nil).Items("o")
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	a := ObjectACL{{Grantee: "o", Privs: "X"}, {Grantee: Public, Privs: "X"}}
	if !a.Equal(ObjectACL{{Grantee: Public, Privs: "X"}, {Grantee: "o", Privs: "X"}}) {
		t.Error("Equal depends on the order")
	}
	if got := a.OwnerFirst("o").Items("o"); !slices.Equal(got, []string{"=X/o", "o=X/o"}) {
		t.Errorf("OwnerFirst: %q", got)
	}
	if !a.Has("anyone", 'X') || a.Has("anyone", 'U') {
		t.Error("Has: PUBLIC's privileges are everyone's")
	}
}
