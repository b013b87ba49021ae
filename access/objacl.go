package access

import (
	"slices"
	"strings"
)

// ObjectACL is the ACL of an object other than a table, whose privileges
// are PostgreSQL's aclitem letters: a schema's (U USAGE, C CREATE) and
// ALTER DEFAULT PRIVILEGES' lists (tables' arwdDxt, sequences' rwU,
// functions' X, types' U, schemas' UC). It is a value: Grant and Revoke
// return the changed list (the metadata store keeps it; package meta).
// Items are kept in the order their grantees were first granted, as
// PostgreSQL's aclitem arrays are.
type ObjectACL []ObjectItem

// ObjectItem is one grantee's privileges (letters) and the ones it may
// grant on (Options, a subset).
type ObjectItem struct {
	Grantee string `json:"grantee"` // a role, or Public
	Privs   string `json:"privs"`
	Options string `json:"options,omitempty"`
}

// Letters of the privileges of each kind of object, in aclitem order
// (ACL_ALL_RIGHTS_* of PostgreSQL's acl.h).
const (
	SchemaLetters   = "UC"
	TableLetters    = "arwdDxt"
	SequenceLetters = "rwU"
	FunctionLetters = "X"
	TypeLetters     = "U"
)

// ObjectPrivilegeLetter is the aclitem letter of a privilege's upper-case
// SQL name (USAGE, CREATE, EXECUTE and the table privileges).
func ObjectPrivilegeLetter(name string) (byte, bool) {
	for _, n := range privilegeNames {
		if n.name == name {
			return n.letter, true
		}
	}
	switch name {
	case "USAGE":
		return 'U', true
	case "CREATE":
		return 'C', true
	case "EXECUTE":
		return 'X', true
	}
	return 0, false
}

// Grant adds letters (in the order of all, the kind's letters) to
// grantee's privileges, and to its grant options with withOption.
func (a ObjectACL) Grant(grantee, letters, all string, withOption bool) ObjectACL {
	out := slices.Clone(a)
	i := slices.IndexFunc(out, func(it ObjectItem) bool { return it.Grantee == grantee })
	if i < 0 {
		out = append(out, ObjectItem{Grantee: grantee})
		i = len(out) - 1
	}
	out[i].Privs = union(out[i].Privs, letters, all)
	if withOption {
		out[i].Options = union(out[i].Options, letters, all)
	}
	return out
}

// Revoke removes letters from grantee's privileges (only from its grant
// options with optionOnly); a grantee left with none leaves the list.
func (a ObjectACL) Revoke(grantee, letters string, optionOnly bool) ObjectACL {
	out := slices.Clone(a)
	i := slices.IndexFunc(out, func(it ObjectItem) bool { return it.Grantee == grantee })
	if i < 0 {
		return out
	}
	out[i].Options = minus(out[i].Options, letters)
	if !optionOnly {
		out[i].Privs = minus(out[i].Privs, letters)
	}
	if out[i].Privs == "" {
		out = slices.Delete(out, i, i+1)
	}
	return out
}

// Has reports whether role holds the privilege letter, itself or through
// Public.
func (a ObjectACL) Has(role string, letter byte) bool {
	for _, it := range a {
		if (it.Grantee == role || it.Grantee == Public) && strings.IndexByte(it.Privs, letter) >= 0 {
			return true
		}
	}
	return false
}

// Items is the list as aclitem texts ("grantee=privs/grantor", Public's
// grantee empty, a grant option's letter followed by '*').
func (a ObjectACL) Items(grantor string) []string {
	out := make([]string, 0, len(a))
	for _, it := range a {
		var b strings.Builder
		if it.Grantee != Public {
			b.WriteString(quoteACLName(it.Grantee))
		}
		b.WriteByte('=')
		for k := 0; k < len(it.Privs); k++ {
			b.WriteByte(it.Privs[k])
			if strings.IndexByte(it.Options, it.Privs[k]) >= 0 {
				b.WriteByte('*')
			}
		}
		b.WriteByte('/')
		b.WriteString(quoteACLName(grantor))
		out = append(out, b.String())
	}
	return out
}

// Equal reports whether two lists grant the same, in whatever order.
func (a ObjectACL) Equal(b ObjectACL) bool {
	if len(a) != len(b) {
		return false
	}
	for _, it := range a {
		if !slices.Contains(b, it) {
			return false
		}
	}
	return true
}

// OwnerFirst orders a default privileges list as PostgreSQL stores one
// (sorted by grantee OID): Public first, then owner, then the others in
// the order they were granted.
func (a ObjectACL) OwnerFirst(owner string) ObjectACL {
	rank := func(it ObjectItem) int {
		switch it.Grantee {
		case Public:
			return 0
		case owner:
			return 1
		}
		return 2
	}
	out := slices.Clone(a)
	slices.SortStableFunc(out, func(x, y ObjectItem) int { return rank(x) - rank(y) })
	return out
}

// union is the letters of all that are in x or y, in all's order.
func union(x, y, all string) string {
	var b strings.Builder
	for k := 0; k < len(all); k++ {
		if strings.IndexByte(x, all[k]) >= 0 || strings.IndexByte(y, all[k]) >= 0 {
			b.WriteByte(all[k])
		}
	}
	return b.String()
}

// minus is x without the letters of y.
func minus(x, y string) string {
	var b strings.Builder
	for k := 0; k < len(x); k++ {
		if strings.IndexByte(y, x[k]) < 0 {
			b.WriteByte(x[k])
		}
	}
	return b.String()
}
