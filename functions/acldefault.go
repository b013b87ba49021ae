package functions

import (
	"context"
	"strconv"

	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// aclDefaultItems are PostgreSQL 15's acldefault(objtype, owner) (acl.c's
// acldefault): the privileges an object of each kind has while its ACL is
// NULL, as (grantee is PUBLIC, letters) pairs; the owner is the grantor of
// each and the grantee of the non-PUBLIC ones. pg_dump compares an
// object's ACL with it to write the GRANTs and REVOKEs that rebuild it.
var aclDefaultItems = map[string][]struct {
	public  bool
	letters string
}{
	"c": {},                             // column
	"r": {{false, "arwdDxt"}},           // relation
	"s": {{false, "rwU"}},               // sequence
	"d": {{true, "Tc"}, {false, "CTc"}}, // database
	"f": {{true, "X"}, {false, "X"}},    // function
	"l": {{true, "U"}, {false, "U"}},    // language
	"L": {{false, "rw"}},                // large object
	"n": {{false, "UC"}},                // schema
	"t": {{false, "C"}},                 // tablespace
	"F": {{false, "U"}},                 // foreign-data wrapper
	"S": {{false, "U"}},                 // foreign server
	"T": {{true, "U"}, {false, "U"}},    // type
	"p": {{false, "sA"}},                // parameter
}

// aclDefault is acldefault("char", oid) -> aclitem[]. A role OID that
// names no role prints as its number, as PostgreSQL's aclitemout does.
func aclDefault(_ context.Context, c CatalogInfo, a []any) (any, error) {
	kind, _ := a[0].(string)
	items, ok := aclDefaultItems[kind]
	if !ok {
		return nil, sqlerr.New(sqlerr.InternalError, "unrecognized objtype abbreviation: %s", kind)
	}
	owner := strconv.FormatUint(uint64(oidArg(a[1])), 10)
	if n, ok := c.RoleName(oidArg(a[1])); ok {
		owner = access.QuoteACLName(n)
	}
	out := make([]any, 0, len(items))
	for _, it := range items {
		grantee := owner
		if it.public {
			grantee = ""
		}
		out = append(out, grantee+"="+it.letters+"/"+owner)
	}
	return out, nil
}
