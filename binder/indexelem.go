package binder

import (
	"strings"

	"github.com/sqlgate/sqlgate/internal/pgoper"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// IndexElem is one element of CREATE INDEX's key list as PostgreSQL's
// index_elem reads it: an expression (Expr, its text) or a column, then
// [COLLATE c] [opclass] [ASC | DESC] [NULLS FIRST | LAST].
type IndexElem struct {
	Expr, Column string
	Collation    string
	Opclass      string
	// Desc is DESC; NullsFirst NULLS FIRST, or DESC without NULLS LAST
	// (PostgreSQL's default for a descending key); Ordered and
	// NullsWritten say whether ASC/DESC and NULLS were written.
	Desc, NullsFirst      bool
	Ordered, NullsWritten bool
}

// ParseIndexElem reads an element of CREATE INDEX's key list as written.
func ParseIndexElem(text string) (IndexElem, error) {
	expr, column, rest := indexElementRest(text)
	e := IndexElem{Expr: expr, Column: column}
	words := indexWords(rest)
	bad := func() error {
		return sqlerr.New(sqlerr.SyntaxError, "syntax error in index element \"%s\"", strings.TrimSpace(text))
	}
	k := 0
	if k+1 < len(words) && strings.EqualFold(words[k], "COLLATE") {
		e.Collation, k = identWord(words[k+1]), k+2
	}
	if k < len(words) && !isOrderWord(words[k]) {
		e.Opclass, k = identWord(words[k]), k+1
	}
	if k < len(words) && (strings.EqualFold(words[k], "ASC") || strings.EqualFold(words[k], "DESC")) {
		e.Ordered, e.Desc, k = true, strings.EqualFold(words[k], "DESC"), k+1
	}
	e.NullsFirst = e.Desc
	if k+1 < len(words) && strings.EqualFold(words[k], "NULLS") {
		switch {
		case strings.EqualFold(words[k+1], "FIRST"):
			e.NullsFirst = true
		case strings.EqualFold(words[k+1], "LAST"):
			e.NullsFirst = false
		default:
			return e, bad()
		}
		e.NullsWritten, k = true, k+2
	}
	if k != len(words) {
		return e, bad()
	}
	return e, nil
}

func isOrderWord(w string) bool {
	return strings.EqualFold(w, "ASC") || strings.EqualFold(w, "DESC") || strings.EqualFold(w, "NULLS")
}

// identWord is a name as the grammar folds it (qualified parts kept).
func identWord(w string) string {
	if strings.Contains(w, `"`) {
		return strings.ReplaceAll(strings.ReplaceAll(w, `""`, "\x00"), `"`, "")
	}
	return strings.ToLower(w)
}

// indexWords splits what follows an index element's expression into
// words, a quoted name (with its dots) one word.
func indexWords(s string) []string {
	var out []string
	i := 0
	for i < len(s) {
		if strings.ContainsRune(" \t\r\n", rune(s[i])) {
			i++
			continue
		}
		j := i
		for j < len(s) && !strings.ContainsRune(" \t\r\n", rune(s[j])) {
			if s[j] == '"' {
				j++
				for j < len(s) && s[j] != '"' {
					j++
				}
			}
			j++
		}
		out = append(out, strings.ReplaceAll(s[i:min(j, len(s))], "\x00", `"`))
		i = j
	}
	return out
}

// indexMethod is an access method's OID and what it can do (PostgreSQL
// 15's IndexAmRoutine flags).
type indexMethod struct {
	oid                      uint32
	order, multicol, include bool
}

var indexMethods = map[string]indexMethod{
	"btree":  {403, true, true, true},
	"hash":   {405, false, false, false},
	"gist":   {783, false, true, true},
	"gin":    {2742, false, true, false},
	"spgist": {4000, false, false, true},
	"brin":   {3580, false, true, false},
}

// IndexMethodOID is the OID of access method name ("" btree), 0 for none.
func IndexMethodOID(name string) uint32 {
	if name == "" {
		name = "btree"
	}
	return indexMethods[strings.ToLower(name)].oid
}

// methodCapabilities refuses what the access method cannot do, as
// DefineIndex does before it computes the attributes: INCLUDE, then more
// than one key column.
func methodCapabilities(method string, keys, include int) error {
	name := strings.ToLower(method)
	if name == "" {
		name = "btree"
	}
	am := indexMethods[name]
	if include > 0 && !am.include {
		return sqlerr.New(sqlerr.FeatureNotSupported, "access method \"%s\" does not support included columns", name)
	}
	if keys > 1 && !am.multicol {
		return sqlerr.New(sqlerr.FeatureNotSupported, "access method \"%s\" does not support multicolumn indexes", name)
	}
	return nil
}

// elemOptions checks an element's operator class and ordering as
// ComputeIndexAttrs does for a key of type t: a written class must exist
// for the method (42704); a method other than btree and hash needs a
// default class for the type; ASC/DESC and NULLS need a method that
// orders.
func elemOptions(e IndexElem, t types.T, method string) error {
	name := strings.ToLower(method)
	if name == "" {
		name = "btree"
	}
	am := indexMethods[name]
	if e.Opclass != "" {
		found := false
		var in uint32
		for _, c := range pgoper.OpClasses() {
			if c.Method == am.oid && c.Name == strings.TrimPrefix(e.Opclass, "pg_catalog.") {
				found, in = true, c.InType
				break
			}
		}
		if !found {
			return sqlerr.New(sqlerr.UndefinedObject, "operator class \"%s\" does not exist for access method \"%s\"", e.Opclass, name)
		}
		// the class's input type must be the key's, one it is binary
		// coercible to (varchar to text) or its polymorphic family
		oid, _, _ := pgtypes.OIDOf(t)
		switch {
		case in == oid, oid == 1043 && in == 25, in == 2277 || in == 3500 || in == 3831 || in == 2249 || in == 2283:
		default:
			return sqlerr.New(sqlerr.DatatypeMismatch, "operator class \"%s\" does not accept data type %s", e.Opclass, t.Nullable().PGName())
		}
	} else if name != "btree" && name != "hash" && DefaultIndexOpClass(am.oid, t) == 0 && !hasDefaultClass(am.oid, t) {
		return sqlerr.New(sqlerr.UndefinedObject, "data type %s has no default operator class for access method \"%s\"", t.Nullable().PGName(), name).
			WithHint("You must specify an operator class for the index or define a default operator class for the data type.")
	}
	if !am.order && e.Ordered {
		return sqlerr.New(sqlerr.FeatureNotSupported, "access method \"%s\" does not support ASC/DESC options", name)
	}
	if !am.order && e.NullsWritten {
		return sqlerr.New(sqlerr.FeatureNotSupported, "access method \"%s\" does not support NULLS FIRST/LAST options", name)
	}
	return nil
}

// DefaultIndexOpClass is the OID of method's default operator class for a
// key of type t (0 none), through its polymorphic family.
func DefaultIndexOpClass(method uint32, t types.T) uint32 {
	oid, _, _ := pgtypes.OIDOf(t)
	return pgoper.DefaultOpClass(method, oid, polyOfIndexKey(t))
}

// polyOfIndexKey is the polymorphic family whose classes serve t without
// one of its own (an array's anyarray, an enum's anyenum ...), or 0.
func polyOfIndexKey(t types.T) uint32 {
	switch {
	case t.Kind == types.Array:
		return 2277 // anyarray
	case t.IsEnum():
		return 3500 // anyenum
	case t.IsRange():
		return 3831 // anyrange
	case t.IsMultirange():
		return 4537 // anymultirange
	case t.IsComposite():
		return 2249 // record
	}
	return 0
}

// hasDefaultClass reports whether PostgreSQL has a default class of the
// access method for t where the catalog lists none (a family with an
// operator sqlgate does not bind, as gin's tsvector_ops with @@@).
func hasDefaultClass(method uint32, t types.T) bool {
	oid, _, _ := pgtypes.OIDOf(t)
	return pgoper.HasDefaultClass(method, oid, polyOfIndexKey(t))
}
