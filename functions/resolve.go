package functions

import (
	"fmt"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// pgType is the PostgreSQL type a types.T travels as, which is what
// PostgreSQL's resolution rules look at (typmods such as precision, scale
// and length do not take part in resolution).
type pgType uint8

const (
	pgOther pgType = iota
	pgUnknown
	pgBool
	pgInt2
	pgInt4
	pgInt8
	pgNumeric
	pgFloat4
	pgFloat8
	pgOid
	pgText
	pgVarchar
	pgBpchar
	pgName
	pgBytea
	pgDate
	pgTime
	pgTimestamp
	pgTimestampTZ
	pgInterval
	pgArray
	pgAny // a declared "any" argument (concat, concat_ws)
	pgTimeTZ
	// pgRegclass is apart from the other reg* types (pgOid) because text
	// and varchar convert to it implicitly (pg_cast keeps that for
	// nextval('name'::text) and the like), and to no other reg* type.
	pgRegclass
	// The types sqlgate holds as Strings that are types of their own in
	// PostgreSQL (OwnStringType): no implicit cast to or from text, so
	// jsonb_typeof(text) or length(jsonb) finds no function, as there.
	pgJSON
	pgJSONB
	pgUUID
	pgJSONPath
	pgEnum // every enum type: resolution finds no function of text for one
	// bit and bit varying (category V, varbit preferred), each converting
	// implicitly to the other and to nothing else.
	pgBit
	pgVarbit
	pgInet // inet (category I, preferred), no implicit cast to text
	pgCidr // cidr, converting implicitly to inet
	pgTSVector
	pgTSQuery
	pgRegConfig // regconfig (category N, as every OID alias)
	pgMoney     // money (category N), converting implicitly to nothing
	// macaddr and macaddr8 (category U), each converting implicitly to
	// the other.
	pgMacaddr
	pgMacaddr8
	// the range types (category R), in types' order of their variants
	pgInt4Range
	pgInt8Range
	pgNumRange
	pgDateRange
	pgTsRange
	pgTstzRange
	// the multirange types (category R), in the same order
	pgInt4Multirange
	pgInt8Multirange
	pgNumMultirange
	pgDateMultirange
	pgTsMultirange
	pgTstzMultirange
	// pgQChar is the one-byte "char" (category Z), converting implicitly
	// to text only; no string type converts implicitly to it.
	pgQChar
	// the reg* types but regclass (category N), in types' order of
	// their variants: oid and the integers convert implicitly to each,
	// each to oid, none to another but regproc and regprocedure
	pgRegtype
	pgRegproc
	pgRegprocedure
	pgRegnamespace
	pgRegrole
	pgXid   // xid (category U), converting implicitly to nothing
	pgPgLsn // pg_lsn (category U), converting implicitly to nothing
	// regoper and regoperator (category N), as regproc and regprocedure
	pgRegoper
	pgRegoperator
	// regcollation and regdictionary (category N)
	pgRegcollation
	pgRegdictionary
	// the geometric types (category G), in types' order of their
	// variants, converting implicitly to nothing
	pgPoint
	pgLSeg
	pgLine
	pgBox
	pgPath
	pgPolygon
	pgCircle
)

func pgTypeOf(t types.T) pgType {
	switch t.Kind {
	case types.Unknown, types.Null:
		return pgUnknown
	case types.Bool:
		return pgBool
	case types.Int8, types.Int16:
		return pgInt2
	case types.Int32:
		return pgInt4
	case types.Int64:
		if t.Variant == types.Money {
			return pgMoney
		}
		return pgInt8
	case types.Decimal:
		return pgNumeric
	case types.Float32:
		return pgFloat4
	case types.Float64:
		return pgFloat8
	case types.Oid:
		switch {
		case t.Variant == types.RegClass:
			return pgRegclass
		case t.Variant == types.RegOper:
			return pgRegoper
		case t.Variant == types.RegOperator:
			return pgRegoperator
		case t.Variant == types.RegCollation:
			return pgRegcollation
		case t.Variant == types.RegDictionary:
			return pgRegdictionary
		case t.Variant.IsReg():
			return pgRegtype + pgType(t.Variant-types.RegType)
		case t.Variant == types.Xid:
			return pgXid
		}
		return pgOid
	case types.String:
		switch t.Variant {
		case types.QChar:
			return pgQChar
		case types.PgLsn:
			return pgPgLsn
		case types.JSON:
			return pgJSON
		case types.JSONB:
			return pgJSONB
		case types.UUID:
			return pgUUID
		case types.JSONPath:
			return pgJSONPath
		case types.Enum:
			return pgEnum
		case types.Bit:
			return pgBit
		case types.VarBit:
			return pgVarbit
		case types.Inet:
			return pgInet
		case types.Cidr:
			return pgCidr
		case types.TSVector:
			return pgTSVector
		case types.TSQuery:
			return pgTSQuery
		case types.RegConfig:
			return pgRegConfig
		case types.MacAddr:
			return pgMacaddr
		case types.MacAddr8:
			return pgMacaddr8
		}
		if t.Variant.IsRange() {
			return pgInt4Range + pgType(t.Variant-types.Int4Range)
		}
		if t.Variant.IsMultirange() {
			return pgInt4Multirange + pgType(t.Variant-types.Int4Multirange)
		}
		if t.Variant.IsGeometric() {
			return pgPoint + pgType(t.Variant-types.GeoPoint)
		}
		if t.Length != 0 { // varchar(n), and -1: varchar without a limit
			return pgVarchar
		}
		return pgText
	case types.Char:
		return pgBpchar
	case types.Name:
		return pgName
	case types.Bytes, types.Binary:
		return pgBytea
	case types.Date:
		return pgDate
	case types.Time:
		return pgTime
	case types.Timestamp:
		return pgTimestamp
	case types.TimestampTZ:
		return pgTimestampTZ
	case types.Interval:
		return pgInterval
	case types.TimeTZ:
		return pgTimeTZ
	case types.Array:
		return pgArray
	}
	return pgOther
}

// category is PostgreSQL's typcategory.
func (p pgType) category() byte {
	switch p {
	case pgBool:
		return 'B'
	case pgInt2, pgInt4, pgInt8, pgNumeric, pgFloat4, pgFloat8, pgOid, pgRegclass,
		pgRegtype, pgRegproc, pgRegprocedure, pgRegnamespace, pgRegrole, pgRegoper, pgRegoperator, pgRegcollation, pgRegdictionary:
		return 'N'
	case pgText, pgVarchar, pgBpchar, pgName:
		return 'S'
	case pgDate, pgTime, pgTimestamp, pgTimestampTZ, pgTimeTZ:
		return 'D'
	case pgInterval:
		return 'T'
	case pgArray:
		return 'A'
	case pgUnknown:
		return 'X'
	case pgAny:
		return 'P'
	case pgBit, pgVarbit:
		return 'V'
	case pgInet, pgCidr:
		return 'I'
	case pgRegConfig, pgMoney:
		return 'N'
	case pgInt4Range, pgInt8Range, pgNumRange, pgDateRange, pgTsRange, pgTstzRange,
		pgInt4Multirange, pgInt8Multirange, pgNumMultirange, pgDateMultirange, pgTsMultirange, pgTstzMultirange:
		return 'R'
	case pgQChar:
		return 'Z'
	case pgPoint, pgLSeg, pgLine, pgBox, pgPath, pgPolygon, pgCircle:
		return 'G'
	}
	return 'U'
}

// preferred is PostgreSQL's typispreferred.
func (p pgType) preferred() bool {
	switch p {
	case pgBool, pgFloat8, pgOid, pgText, pgTimestampTZ, pgInterval, pgVarbit, pgInet:
		return true
	}
	return false
}

// implicitCasts lists PostgreSQL 15's implicit casts (pg_cast with
// castcontext 'i', plus binary-coercible ones) among the types sqlgate has.
var implicitCasts = map[pgType][]pgType{
	pgInt2:          {pgInt4, pgInt8, pgNumeric, pgFloat4, pgFloat8, pgOid, pgRegclass, pgRegtype, pgRegproc, pgRegprocedure, pgRegnamespace, pgRegrole, pgRegConfig, pgRegoper, pgRegoperator, pgRegcollation, pgRegdictionary},
	pgInt4:          {pgInt8, pgNumeric, pgFloat4, pgFloat8, pgOid, pgRegclass, pgRegtype, pgRegproc, pgRegprocedure, pgRegnamespace, pgRegrole, pgRegConfig, pgRegoper, pgRegoperator, pgRegcollation, pgRegdictionary},
	pgInt8:          {pgNumeric, pgFloat4, pgFloat8, pgOid, pgRegclass, pgRegtype, pgRegproc, pgRegprocedure, pgRegnamespace, pgRegrole, pgRegConfig, pgRegoper, pgRegoperator, pgRegcollation, pgRegdictionary},
	pgNumeric:       {pgFloat4, pgFloat8},
	pgFloat4:        {pgFloat8},
	pgCidr:          {pgInet},
	pgMacaddr:       {pgMacaddr8},
	pgMacaddr8:      {pgMacaddr},
	pgBit:           {pgVarbit},
	pgVarbit:        {pgBit},
	pgOid:           {pgRegclass, pgRegtype, pgRegproc, pgRegprocedure, pgRegnamespace, pgRegrole, pgRegConfig, pgRegoper, pgRegoperator, pgRegcollation, pgRegdictionary},
	pgRegConfig:     {pgOid},
	pgRegclass:      {pgOid},
	pgRegtype:       {pgOid},
	pgRegproc:       {pgOid, pgRegprocedure},
	pgRegprocedure:  {pgOid, pgRegproc},
	pgRegnamespace:  {pgOid},
	pgRegrole:       {pgOid},
	pgRegcollation:  {pgOid},
	pgRegdictionary: {pgOid},
	pgRegoper:       {pgOid, pgRegoperator},
	pgRegoperator:   {pgOid, pgRegoper},
	pgText:          {pgVarchar, pgBpchar, pgName, pgRegclass},
	pgVarchar:       {pgText, pgBpchar, pgName, pgRegclass},
	pgBpchar:        {pgText, pgVarchar, pgName},
	pgName:          {pgText},
	pgDate:          {pgTimestamp, pgTimestampTZ},
	pgTimestamp:     {pgTimestampTZ},
	pgTime:          {pgInterval, pgTimeTZ},
	pgQChar:         {pgText},
}

// canCoerce reports whether a value of from may be implicitly converted to to.
func canCoerce(from, to pgType) bool {
	if from == to || from == pgUnknown || to == pgAny {
		return true
	}
	for _, t := range implicitCasts[from] {
		if t == to {
			return true
		}
	}
	return false
}

// candidate is one overload expanded to the call's argument count.
type candidate struct {
	f    *Func
	decl []types.T
	pg   []pgType
}

func expand(f *Func, n int) (candidate, bool) {
	if f.Variadic {
		if n < len(f.Args) {
			return candidate{}, false
		}
	} else if n != len(f.Args) {
		return candidate{}, false
	}
	c := candidate{f: f, decl: make([]types.T, n), pg: make([]pgType, n)}
	for i := 0; i < n; i++ {
		d := f.Args[min(i, len(f.Args)-1)]
		c.decl[i] = d
		if d.Kind == types.Unknown {
			c.pg[i] = pgAny
		} else {
			c.pg[i] = pgTypeOf(d)
		}
	}
	return c, true
}

// viableCandidates are the overloads of fs that take len(in) arguments of
// the argument types in, each through an implicit cast at most: the first
// step of PostgreSQL's function resolution, shared by the library's
// functions and declared (UDF) overloads.
func viableCandidates(fs []*Func, in []pgType) []candidate {
	var cands []candidate
	for _, f := range fs {
		if f.Variadic && len(in) < len(f.Args) || !f.Variadic && len(in) != len(f.Args) {
			continue
		}
		// the fit is checked before expand builds the candidate: most
		// overloads of a name do not fit, and need no lists
		fits := true
		for i := range in {
			d := f.Args[min(i, len(f.Args)-1)]
			pg := pgAny
			if d.Kind != types.Unknown {
				pg = pgTypeOf(d)
			}
			if !canCoerce(in[i], pg) {
				fits = false
				break
			}
		}
		if !fits {
			continue
		}
		if c, ok := expand(f, len(in)); ok {
			cands = append(cands, c)
		}
	}
	return cands
}

// Resolve picks the overload PostgreSQL 15 would pick for name(args...),
// following parse_func.c's func_select_candidate in simplified form, and
// returns it with the types the caller must cast each argument to.
//
// The returned argument type is the argument's own type when it already is
// of the declared PostgreSQL type (so a numeric(10,2) argument keeps its
// scale, a timestamp(3) its precision), the declared type otherwise.
// Unknown literals cast to numeric are given types.NumericType (scale 0):
// a caller casting a literal such as '1.25' should choose the scale from
// the literal's text. A char(n) argument is given text, whose cast from
// char strips trailing blanks, as PostgreSQL's does.
func Resolve(name string, args []types.T) (*Func, []types.T, error) {
	lname := strings.ToLower(name)
	in := make([]pgType, len(args))
	for i, a := range args {
		in[i] = pgTypeOf(a)
	}
	if fs := Lookup(lname); len(fs) == 1 && fs[0].unify != "" && len(args) > 0 {
		common, err := CommonType(fs[0].unify, args)
		if err != nil {
			return nil, nil, err
		}
		out := make([]types.T, len(args))
		for i := range out {
			out[i] = common
		}
		return fs[0], out, nil
	}
	if fs := Lookup(lname); lname == "array_cat" && len(fs) == 1 && len(args) == 2 {
		return resolveArrayCat(fs[0], args) // mdarray.go: arrays of any dimensions
	}
	c, err := pickOverload(lname, Lookup(lname), args, in)
	if err != nil {
		return nil, nil, err
	}
	out := make([]types.T, len(args))
	for i, a := range args {
		out[i] = castTarget(a, in[i], c.decl[i], c.pg[i])
	}
	if c.f.check != nil {
		if err := c.f.check(lname, args); err != nil {
			return nil, nil, err
		}
	}
	if c.f.sameArrays {
		if err := bindSameArrays(lname, args, in, out); err != nil {
			return nil, nil, err
		}
	}
	return c.f, out, nil
}

// bindSameArrays gives every array argument of an anyarray function one
// array type, as PostgreSQL's polymorphic resolution does: the known
// arrays must agree exactly (int4[] and int8[], or varchar[] and text[],
// are no match: 42883), and an unknown literal is read as their type
// rather than the declaration's placeholder text[].
func bindSameArrays(name string, args []types.T, in []pgType, out []types.T) error {
	known := -1
	for i, a := range args {
		if in[i] == pgUnknown {
			continue
		}
		if known < 0 {
			known = i
		} else if !SamePGType(args[known], a) {
			return undefinedFunction(name, args)
		}
	}
	if known < 0 {
		// two untyped literals: anyarray's operator is one of several
		// that fit (ranges, geometry)
		return notUnique(name, args)
	}
	for i := range args {
		if in[i] == pgUnknown {
			out[i] = args[known].Nullable()
		}
	}
	return nil
}

// pickOverload is function resolution among the overloads fs of name for
// arguments of types args (in: their PostgreSQL types): the viable
// candidates, narrowed as func_select_candidate does, 42883 for none and
// 42725 for several.
func pickOverload(name string, fs []*Func, args []types.T, in []pgType) (candidate, error) {
	if ambiguousUntyped(name, in) {
		return candidate{}, notUnique(name, args)
	}
	cands := viableCandidates(fs, in)
	if len(cands) == 0 {
		return candidate{}, undefinedFunction(name, args)
	}
	if len(cands) > 1 {
		cands = selectCandidate(cands, in)
	}
	if len(cands) != 1 {
		return candidate{}, notUnique(name, args)
	}
	return cands[0], nil
}

func castTarget(a types.T, in pgType, decl types.T, declPG pgType) types.T {
	switch {
	case declPG == pgAny:
		if in == pgUnknown {
			return types.StringType
		}
		return a.Nullable()
	case in == declPG:
		return a.Nullable()
	case declPG == pgTimestamp || declPG == pgTimestampTZ:
		if in == pgTimestamp || in == pgTimestampTZ {
			d := decl
			d.Precision = a.Precision
			return d
		}
	}
	return decl
}

func undefinedFunction(name string, args []types.T) *sqlerr.Error {
	return sqlerr.New(sqlerr.UndefinedFunction, "function %s(%s) does not exist", name, typeList(args)).
		WithHint("No function matches the given name and argument types. You might need to add explicit type casts.")
}

// UndefinedFunction is 42883 "function name(args) does not exist", for a
// call the binder resolves outside this package's overloads (mod(a, b),
// which TiDB's grammar parses as a % b).
func UndefinedFunction(name string, args []types.T) *sqlerr.Error {
	return undefinedFunction(name, args)
}

// NotUnique is 42725 "function name(args) is not unique" (mod of two
// untyped literals, bound by the binder as %).
func NotUnique(name string, args []types.T) *sqlerr.Error { return notUnique(name, args) }

func notUnique(name string, args []types.T) *sqlerr.Error {
	return sqlerr.New(sqlerr.Code("42725"), "function %s(%s) is not unique", name, typeList(args)).
		WithHint("Could not choose a best candidate function. You might need to add explicit type casts.")
}

func typeList(args []types.T) string {
	names := make([]string, len(args))
	for i, a := range args {
		if a.Kind == types.Null {
			names[i] = "unknown"
		} else {
			names[i] = a.PGName()
		}
	}
	return strings.Join(names, ", ")
}

// selectCandidate narrows several applicable overloads as PostgreSQL's
// func_select_candidate does; it returns the survivors (one on success).
func selectCandidate(cands []candidate, in []pgType) []candidate {
	hasUnknown := false
	for _, t := range in {
		if t == pgUnknown {
			hasUnknown = true
		}
	}
	// 1. most exact matches on the known-type arguments
	cands = keepMax(cands, func(c candidate) int {
		n := 0
		for i, t := range in {
			if t != pgUnknown && c.pg[i] == t {
				n++
			}
		}
		return n
	})
	if len(cands) == 1 {
		return cands
	}
	// 2. most exact-or-preferred matches where coercion is needed
	cands = keepMax(cands, func(c candidate) int {
		n := 0
		for i, t := range in {
			if t != pgUnknown && (c.pg[i] == t || c.pg[i].preferred()) {
				n++
			}
		}
		return n
	})
	if len(cands) == 1 || !hasUnknown {
		return cands
	}
	// 3. resolve unknown arguments by type category: string wins, else a
	// category all candidates agree on; then prefer preferred types.
	resolved := true
	slotCat := make([]byte, len(in))
	slotPreferred := make([]bool, len(in))
	for i, t := range in {
		if t != pgUnknown {
			continue
		}
		for j, c := range cands {
			cat := c.pg[i].category()
			if j == 0 {
				slotCat[i] = cat
				slotPreferred[i] = c.pg[i].preferred()
				continue
			}
			switch {
			case cat == slotCat[i]:
				slotPreferred[i] = slotPreferred[i] || c.pg[i].preferred()
			case cat == 'S':
				slotCat[i] = 'S'
				slotPreferred[i] = c.pg[i].preferred()
			case slotCat[i] == 'S':
			default:
				resolved = false
			}
		}
		if !resolved {
			break
		}
	}
	if resolved {
		var kept []candidate
		for _, c := range cands {
			keep := true
			for i, t := range in {
				if t != pgUnknown {
					continue
				}
				if c.pg[i].category() != slotCat[i] || (slotPreferred[i] && !c.pg[i].preferred()) {
					keep = false
					break
				}
			}
			if keep {
				kept = append(kept, c)
			}
		}
		if len(kept) > 0 {
			cands = kept
		}
		if len(cands) == 1 {
			return cands
		}
	}
	// 4. if all known arguments have one type, assume the unknowns have it too
	known := pgUnknown
	for _, t := range in {
		if t == pgUnknown {
			continue
		}
		if known != pgUnknown && known != t {
			return cands
		}
		known = t
	}
	if known == pgUnknown {
		return cands
	}
	var kept []candidate
	for _, c := range cands {
		ok := true
		for i, t := range in {
			if t == pgUnknown && !canCoerce(known, c.pg[i]) {
				ok = false
				break
			}
		}
		if ok {
			kept = append(kept, c)
		}
	}
	if len(kept) == 1 {
		return kept
	}
	return cands
}

func keepMax(cands []candidate, score func(candidate) int) []candidate {
	best := -1
	var out []candidate
	for _, c := range cands {
		s := score(c)
		switch {
		case s > best:
			best = s
			out = append(out[:0], c)
		case s == best:
			out = append(out, c)
		}
	}
	return out
}

// CommonType returns the type PostgreSQL's select_common_type gives a set
// of types (for CASE, COALESCE, NULLIF, GREATEST, LEAST, IN lists, UNION),
// or 42804 "<context> types A and B cannot be matched". context is the
// construct's name as PostgreSQL spells it in that message ("CASE",
// "COALESCE", "UNION", ...). All-unknown inputs resolve to text. Decimal
// results get the largest scale and enough precision for every input.
//
// Arrays are one category (A) of types none preferred, each converting
// implicitly to another when its elements do (find_coercion_pathway's
// array coercion): int[] and numeric[] give numeric[], int[] and text[]
// are 42846 "<context> could not convert type text[] to integer[]".
func CommonType(context string, ts []types.T) (types.T, error) {
	t, _, err := CommonTypeAt(context, ts)
	if err != nil {
		return types.T{}, err
	}
	return t, nil
}

// CommonTypeAt is CommonType with the index of the input its error is
// about (PostgreSQL's position of the error): the first input whose
// category differs from the type chosen so far (42804), or the first that
// does not convert to the chosen type (42846, coerce_to_common_type's);
// -1 without an error or for an error of no one input. With 42846 it
// also returns the type chosen, which the inputs before the one refused
// were converted to (an untyped literal's own error comes first).
func CommonTypeAt(context string, ts []types.T) (types.T, int, error) {
	first := -1
	for i, t := range ts {
		if pgTypeOf(t) != pgUnknown {
			first = i
			break
		}
	}
	if first < 0 {
		return types.StringType, -1, nil
	}
	if t, ok, err := commonRecord(context, ts); ok || err != nil {
		return t, -1, err
	}
	pt := ts[first].Nullable()
	pcat, pPreferred := categoryOf(pt), preferredType(pt)
	for i, t := range ts[first+1:] {
		if pgTypeOf(t) == pgUnknown || SamePGType(t, pt) {
			continue
		}
		if categoryOf(t) != pcat {
			return types.T{}, first + 1 + i, sqlerr.New(sqlerr.DatatypeMismatch, "%s types %s and %s cannot be matched", context, pt.PGName(), t.PGName())
		}
		if !pPreferred && coercible(pt, t) && !coercible(t, pt) {
			pt, pcat, pPreferred = t.Nullable(), categoryOf(t), preferredType(t)
		}
	}
	if pcat == 'A' {
		if err := sameArrayDepths(context, ts, pt); err != nil {
			return types.T{}, -1, err
		}
	}
	for i, t := range ts {
		if !coercible(t, pt) {
			return pt, i, sqlerr.New(sqlerr.CannotCoerce, "%s could not convert type %s to %s", context, t.PGName(), pt.PGName())
		}
	}
	return refineCommon(pt, pgTypeOf(pt), ts), -1, nil
}

// isNetAddress reports inet and cidr: category I in PostgreSQL, one
// category here although both are own string types (cidr converts
// implicitly to inet: their common type is inet).
func isNetAddress(t types.T) bool {
	return t.Kind == types.String && (t.Variant == types.Inet || t.Variant == types.Cidr)
}

// isNullRecordType reports whether t is NULL::record's type, a ROW of no
// fields, which takes any record's type as an untyped NULL does.
func isNullRecordType(t types.T) bool { return t.Kind == types.Row && len(t.Fields) == 0 }

// commonRecord is CommonType of anonymous records, or of arrays of them
// (ok false when the inputs are other types). PostgreSQL types every one
// of them record (or record[]) and lets each value keep its own fields;
// sqlgate holds a column's values as one type, so the common type is a
// record of as many fields, each the common type of the fields at its
// position (select_common_type per field: an unknown field, a ROW
// constructor's untyped literal as the binder gives it, takes the others'
// type; int and numeric give numeric), named as the first record's.
// Records of different numbers of fields, or fields of no common type,
// which PostgreSQL takes, are 0A000.
func commonRecord(context string, ts []types.T) (_ types.T, ok bool, _ error) {
	var first *types.T
	depth := 0
	for i := range ts {
		t := ts[i]
		if pgTypeOf(t) == pgUnknown || isNullRecordType(t) {
			continue
		}
		d, leaf := arrayDepth(t), ArrayLeaf(t)
		if !leaf.IsAnonRecord() {
			return types.T{}, false, nil
		}
		switch {
		case first == nil:
			first, depth = &ts[i], d
		case d != depth:
			return types.T{}, false, nil // sameArrayDepths' error
		}
	}
	if first == nil {
		return types.T{}, false, nil
	}
	leaves := make([]types.T, 0, len(ts))
	for _, t := range ts {
		if pgTypeOf(t) != pgUnknown && !isNullRecordType(t) {
			leaves = append(leaves, ArrayLeaf(t))
		}
	}
	lead := leaves[0]
	rec := lead.Nullable()
	rec.Fields = make([]types.Field, len(lead.Fields))
	fts := make([]types.T, len(leaves))
	for i, f := range lead.Fields {
		for j, l := range leaves {
			if len(l.Fields) != len(lead.Fields) {
				return types.T{}, true, recordShapeError(context, lead, l)
			}
			fts[j] = l.Fields[i].Type
		}
		ft, err := CommonType(context, fts)
		if err != nil {
			return types.T{}, true, recordShapeError(context, lead, leaves[firstMismatch(context, fts)])
		}
		rec.Fields[i] = types.Field{Name: f.Name, Type: ft.Nullable()}
	}
	if depth == 0 {
		return rec, true, nil
	}
	return mdArrayOf(rec, depth), true, nil
}

// firstMismatch is the index of the first of ts that has no common type
// with those before it.
func firstMismatch(context string, ts []types.T) int {
	for i := 1; i < len(ts); i++ {
		if _, err := CommonType(context, ts[:i+1]); err != nil {
			return i
		}
	}
	return len(ts) - 1
}

// recordShapeError refuses records a and b in one column: PostgreSQL
// would keep each value's own fields.
func recordShapeError(context string, a, b types.T) *sqlerr.Error {
	what := context
	if what == "" {
		what = "a value"
	}
	return sqlerr.NotSupported(fmt.Sprintf("%s of records %s and %s", what, recordShape(a), recordShape(b))).
		WithDetail("sqlgate holds the records of one column as one record type: the same number of fields, each of a common type; PostgreSQL's record values keep their own fields.")
}

// recordShape spells a record's field types: (integer, text).
func recordShape(t types.T) string {
	names := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		names[i] = f.Type.PGName()
	}
	return "(" + strings.Join(names, ", ") + ")"
}

// sameArrayDepths refuses arrays of different dimensions, which
// PostgreSQL's select_common_type takes (int[] and int[][] are one type
// there) but sqlgate cannot hold in one value: its array types fix the
// number of dimensions. When the elements have no common type either,
// that is the error, as PostgreSQL reports it; in ARRAY[...] it is
// PostgreSQL's own 2202E.
func sameArrayDepths(context string, ts []types.T, pt types.T) error {
	depth, mixed := arrayDepth(pt), false
	for _, t := range ts {
		if t.Kind == types.Array && arrayDepth(t) != depth {
			mixed = true
		}
	}
	if !mixed {
		return nil
	}
	flat := make([]types.T, len(ts))
	for i, t := range ts {
		flat[i] = t
		if t.Kind == types.Array {
			flat[i] = WithArrayDepth(t, 1)
		}
	}
	if _, err := CommonType(context, flat); err != nil {
		return err
	}
	if context == "ARRAY" {
		return sqlerr.New(sqlerr.ArraySubscriptError, "multidimensional arrays must have array expressions with matching dimensions")
	}
	return sqlerr.New(sqlerr.FeatureNotSupported, "%s of arrays of different numbers of dimensions is not supported", context).
		WithDetail("sqlgate's array types fix the number of dimensions; PostgreSQL's do not.")
}

// OwnStringType reports a type sqlgate holds as a String but that is a
// type of its own in PostgreSQL, with no implicit cast to or from text:
// json, jsonb and uuid (category U). text = jsonb, a CASE of uuid and
// text, a UNION of json[] and text[] find no operator or common type.
func OwnStringType(t types.T) bool {
	return t.Kind == types.String && (t.Variant == types.JSON || t.Variant == types.JSONB || t.Variant == types.UUID || t.Variant == types.JSONPath || t.Variant == types.Enum || t.Variant == types.Inet || t.Variant == types.Cidr || t.Variant == types.PgLsn || t.IsTextSearch() || t.IsMacAddr() || t.IsRange() || t.IsMultirange() || t.IsGeometric())
}

// SamePGType reports whether a and b are the same PostgreSQL type, their
// typmods aside: varchar(3) and varchar(5) are, as are numeric(10,2) and
// numeric; int4 and int8, text and varchar, text and jsonb, int4[] and
// int8[] are not. PostgreSQL's array operators take two arrays of the same
// type (anyarray): int[] = bigint[] is 42883.
func SamePGType(a, b types.T) bool {
	if a.Kind == types.Array || b.Kind == types.Array {
		return a.Kind == b.Kind && a.Variant == b.Variant && a.Elem != nil && b.Elem != nil && SamePGType(*a.Elem, *b.Elem)
	}
	if a.IsBitString() || b.IsBitString() {
		return a.Kind == b.Kind && a.Variant == b.Variant // bit(3) and bit are one type
	}
	if a.Kind == types.String && b.Kind == types.String {
		// text, varchar (a limit or -1) and the own string types
		return a.Variant == b.Variant && a.TypeOID == b.TypeOID && (a.Length == 0) == (b.Length == 0)
	}
	pa, pb := pgTypeOf(a), pgTypeOf(b)
	if pa != pb {
		return false
	}
	switch pa {
	case pgOther, pgOid, pgXid:
		return a.Kind == b.Kind && a.Variant == b.Variant
	}
	return true
}

// coercible reports whether a value of from converts implicitly to to
// (can_coerce_type with COERCION_IMPLICIT): an array when its elements
// do, an own string type (OwnStringType) only to itself.
func coercible(from, to types.T) bool {
	pf, pt := pgTypeOf(from), pgTypeOf(to)
	if pf == pgUnknown || SamePGType(from, to) {
		return true
	}
	if from.Kind == types.Array || to.Kind == types.Array {
		return from.Kind == types.Array && to.Kind == types.Array && from.Elem != nil && to.Elem != nil && coercible(*from.Elem, *to.Elem)
	}
	if (pf == pgMacaddr || pf == pgMacaddr8) && (pt == pgMacaddr || pt == pgMacaddr8) {
		return true // macaddr and macaddr8 convert implicitly to each other
	}
	if from.Kind == types.String && from.Variant == types.Cidr && to.Kind == types.String && to.Variant == types.Inet {
		return true // cidr converts implicitly to inet (GREATEST, COALESCE, UNION of the two are inet)
	}
	if pf == pgRegConfig || pt == pgRegConfig {
		// kept as its configuration's name, regconfig converts as the OID
		// it is in PostgreSQL: to and from oid and from the integers
		return canCoerce(pf, pt)
	}
	if OwnStringType(from) || OwnStringType(to) || pf == pgOther || pt == pgOther {
		return false
	}
	return canCoerce(pf, pt)
}

// Coercible reports whether a value of from converts implicitly to to,
// as function resolution decides it (can_coerce_type with
// COERCION_IMPLICIT).
func Coercible(from, to types.T) bool { return coercible(from, to) }

// Preferred reports t's typispreferred.
func Preferred(t types.T) bool { return preferredType(t) }

// categoryOf is t's typcategory: pgType's, but U for an own string type
// (regconfig aside: kept as a string, it is an OID type, category N).
func categoryOf(t types.T) byte {
	if OwnStringType(t) && t.Variant != types.RegConfig { // regconfig is N, as coercible's
		// typcategory: inet and cidr are I, enums E, ranges R, the
		// others (json, jsonb, uuid, jsonpath, pg_lsn, macaddr, the
		// text search types) U, so that json and cidr are of two
		// categories (42804) and not of one without a conversion (42846)
		switch {
		case isNetAddress(t):
			return 'I'
		case t.Variant == types.Enum:
			return 'E'
		case t.IsRange() || t.IsMultirange():
			return 'R'
		case t.IsGeometric():
			return 'G'
		}
		return 'U'
	}
	return pgTypeOf(t).category()
}

// preferredType is t's typispreferred (no array type and no own string
// type is preferred).
func preferredType(t types.T) bool {
	return !OwnStringType(t) && pgTypeOf(t).preferred()
}

// refineCommon merges the typmods of the inputs that share the chosen
// PostgreSQL type: decimal precision and scale, timestamp precision,
// varchar/char length.
func refineCommon(pt types.T, ppg pgType, ts []types.T) types.T {
	if pt.Kind == types.Array && pt.Elem != nil {
		elems := make([]types.T, 0, len(ts))
		for _, t := range ts {
			if t.Kind == types.Array && t.Elem != nil {
				elems = append(elems, *t.Elem)
			}
		}
		e := refineElem(*pt.Elem, elems)
		out := pt
		out.Elem = &e
		return out
	}
	switch ppg {
	case pgNumeric:
		// PostgreSQL keeps a typmod only when every input has the same
		// one; anything else is unconstrained numeric.
		var first *types.T
		for i := range ts {
			t := &ts[i]
			switch {
			case t.Kind == types.Decimal && first == nil:
				first = t
			case t.Kind == types.Decimal && t.Precision == first.Precision && t.Scale == first.Scale:
			default:
				// (an untyped literal or NULL too: it is coerced to
				// numeric without a typmod, GREATEST(1.5::numeric(5,2),
				// '7') is 7)
				return types.NumericType
			}
		}
		if first != nil && first.Precision > 0 {
			return types.DecimalType(first.Precision, first.Scale)
		}
		return types.NumericType
	case pgTimestamp, pgTimestampTZ, pgTime, pgTimeTZ:
		for _, t := range ts {
			switch {
			case pgTypeOf(t) == ppg:
				pt.Precision = max(pt.Precision, t.Precision)
			case pgTypeOf(t) == pgUnknown:
				pt.Precision = 6 // an untyped literal keeps its fraction
			}
		}
	case pgBit, pgVarbit:
		for _, t := range ts {
			if pgTypeOf(t) != ppg || t.Length != pt.Length {
				pt.Length = 0 // a typmod only when every input has it
			}
		}
	case pgVarchar, pgBpchar:
		for _, t := range ts {
			// a typmod only when every input has the same one; an untyped
			// literal's is none (GREATEST('a'::varchar(3), 'bbbb') is
			// varchar 'bbbb', not a length error)
			if pgTypeOf(t) != ppg || t.Length != pt.Length {
				if ppg == pgVarchar {
					pt.Length = -1 // varchar without a limit
					return pt
				}
				pt.Length = 0 // bpchar without a length, as select_common_typmod
			}
		}
	}
	return pt
}

// refineElem is the element type of a common array type whose chosen
// element type is e, over the inputs' element types: PostgreSQL keeps an
// array's typmod (its elements') only when every input has the same one
// (select_common_typmod), so varchar(3)[] and text[] give varchar[], and
// ARRAY[ARRAY[1.5::numeric(2,1)], ARRAY[2]] unconstrained numeric. A
// precision or char length, which drops no digit when raised, is the
// largest of the inputs'.
func refineElem(e types.T, elems []types.T) types.T {
	same := true
	for _, x := range elems {
		if !x.Equal(e) {
			same = false
			break
		}
	}
	if same {
		return e
	}
	switch e.Kind {
	case types.Decimal:
		return types.NumericType
	case types.String:
		if e.Variant == types.NoVariant && e.Length != 0 {
			e.Length = -1 // varchar without a limit
		}
		if e.IsBitString() {
			e.Length = 0 // bit strings of different typmods: none
		}
	case types.Char:
		// character(1) and character(3), or character(1) and an untyped
		// literal, are bpchar without a length: select_common_typmod keeps
		// a typmod only when every input has it
		e.Length = 0
	case types.Timestamp, types.TimestampTZ, types.Time, types.TimeTZ:
		for _, x := range elems {
			if x.Kind == e.Kind {
				e.Precision, e.Length = max(e.Precision, x.Precision), max(e.Length, x.Length)
			}
		}
	case types.Array:
		if e.Elem != nil {
			inner := make([]types.T, 0, len(elems))
			for _, x := range elems {
				if x.Kind == types.Array && x.Elem != nil {
					inner = append(inner, *x.Elem)
				}
			}
			ie := refineElem(*e.Elem, inner)
			e.Elem = &ie
		}
	}
	return e
}

// ArrayDepth is array type t's number of dimensions as sqlgate holds it
// (the nesting of its list type; 0 for a scalar).
func ArrayDepth(t types.T) int { return arrayDepth(t) }

// ArrayLeaf is array type t's element type as PostgreSQL sees it: the
// innermost type (integer for int[][]).
func ArrayLeaf(t types.T) types.T { return arrayLeaf(t) }

// WithArrayDepth is array type t with depth dimensions: PostgreSQL's
// int[] and int[][] are one type, so a cast or a common type takes the
// number of dimensions from the values, the element type from t.
func WithArrayDepth(t types.T, depth int) types.T {
	if depth < 1 {
		depth = 1
	}
	return mdArrayOf(arrayLeaf(t), depth)
}

// LiteralArrayDepth is the number of dimensions of array literal s, as
// its leading braces give them ('{{1},{2}}' has 2, '[1:1]={5}' 1); 0 when
// s does not start as an array literal (its input function reports it)
// or is empty.
func LiteralArrayDepth(s string) int {
	i := 0
	skip := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '\v' || s[i] == '\f') {
			i++
		}
	}
	skip()
	if i < len(s) && s[i] == '[' {
		// dimension decoration: [lo:hi][lo:hi]=
		eq := strings.IndexByte(s[i:], '=')
		if eq < 0 {
			return 0
		}
		i += eq + 1
		skip()
	}
	d := 0
	for i < len(s) && s[i] == '{' {
		d++
		i++
		skip()
	}
	if i < len(s) && s[i] == '}' {
		return 0 // '{}' has no dimensions: '{}'::int[][] keeps the type's
	}
	return d
}

// absentOverloadArity is, by function name, the number of arguments of a
// PostgreSQL overload in a type category sqlgate has no type of (trunc's
// macaddr and macaddr8 ones): with untyped arguments only, PostgreSQL
// finds candidates of two categories and no best one.
var absentOverloadArity = map[string]int{"trunc": 1}

// ambiguousUntyped reports whether a call of name with argument types in
// is 42725 in PostgreSQL for the overloads of absentOverloadArity: every
// argument untyped, at that overload's arity.
func ambiguousUntyped(name string, in []pgType) bool {
	n, ok := absentOverloadArity[name]
	if !ok || n != len(in) {
		return false
	}
	for _, t := range in {
		if t != pgUnknown {
			return false
		}
	}
	return true
}
