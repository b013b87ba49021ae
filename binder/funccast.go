package binder

import (
	"strings"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// pgTypeNames are the pg_type names of the built-in types sqlgate has,
// each with the type text the cast parses: the names a call may name a
// type by (PostgreSQL's FuncNameAsType looks the name up in pg_type, so
// the grammar's spellings int, integer, float, boolean, decimal, double
// precision name none). "char" is the one-byte type, reached only quoted.
var pgTypeNames = map[string]string{
	"bool": "bool", "bytea": "bytea", "char": `"char"`, "name": "name", "int2": "int2", "int4": "int4",
	"int8": "int8", "float4": "float4", "float8": "float8", "numeric": "numeric", "text": "text",
	"varchar": "varchar", "bpchar": "bpchar", "oid": "oid", "json": "json", "jsonb": "jsonb",
	"jsonpath": "jsonpath", "uuid": "uuid", "inet": "inet", "cidr": "cidr", "macaddr": "macaddr",
	"macaddr8": "macaddr8", "money": "money", "date": "date", "time": "time", "timetz": "timetz",
	"timestamp": "timestamp", "timestamptz": "timestamptz", "interval": "interval", "bit": "bit",
	"varbit": "varbit", "xid": "xid", "pg_lsn": "pg_lsn", "tsvector": "tsvector", "tsquery": "tsquery",
	"regclass": "regclass", "regtype": "regtype", "regproc": "regproc", "regprocedure": "regprocedure",
	"regnamespace": "regnamespace", "regrole": "regrole", "regoper": "regoper", "regoperator": "regoperator", "regcollation": "regcollation", "regdictionary": "regdictionary", "regconfig": "regconfig",
	"int4range": "int4range", "int8range": "int8range", "numrange": "numrange", "daterange": "daterange",
	"tsrange": "tsrange", "tstzrange": "tstzrange",
	"point": "point", "lseg": "lseg", "line": "line", "box": "box", "path": "path", "polygon": "polygon", "circle": "circle",
}

// funcCast binds a call of one argument x whose name names a type as the
// explicit cast of x to that type, as PostgreSQL's func_get_detail does
// (FUNCDETAIL_COERCION): int4('12'), float8(1), text(1), date('2024-01-01'),
// mood('happy') of an enum. An untyped literal (or NULL) is always cast;
// another argument only when the cast exists, and a composite value never
// to a string type (PostgreSQL's exception: text(t) of a row is no cast).
// ok is false where the call is no cast: the function lookup decides it
// (PostgreSQL then finds its cast functions of the type's name, int4(date)
// finds none: 42883).
func (b *binder) funcCast(n *pt.FuncCall, x Expr) (Expr, bool, error) {
	tn, target, ok := b.funcNameType(n.Name)
	if !ok {
		return nil, false, nil
	}
	t := x.Type()
	if _, literal := x.(*Const); !literal || !isUnknown(t) {
		if isUnknown(t) {
			return nil, false, nil // a parameter or an expression of unknown type: no conversion from unknown
		}
		if (t.Kind == types.Row || t.Variant.IsRecord()) && (target.IsString() || target.Kind == types.Name) {
			return nil, false, nil
		}
	}
	if _, literal := x.(*Const); (!literal || !isUnknown(t)) && (!castable(t, target) || castByOtherFunction(n.Name, t)) {
		return b.typeNamedFunction(n, x, target)
	}
	out, err := b.castBound(n, n, n.Args[0], x, target)
	if sqlerr.CodeOf(err) == sqlerr.CannotCoerce {
		return nil, false, nil
	}
	if d := domainNamed(b.typeCatalog(), tn); d != nil && err == nil {
		out = b.domainCast(d, out) // domains.go
	}
	return out, true, err
}

// funcNameType is the type a function's name names, as PostgreSQL's
// FuncNameAsType finds it: a built-in type's pg_type name or a
// user-defined type's name.
func (b *binder) funcNameType(name string) (*sql.TypeName, types.T, bool) {
	text, builtin := pgTypeNames[name]
	if !builtin {
		text = `"` + name + `"`
	}
	tn, err := sql.ParseTypeName(text)
	if err != nil {
		return nil, types.T{}, false
	}
	if !builtin {
		if len(functions.Lookup(name)) > 0 {
			// a built-in function's name naming a table's row type
			// (lower, a table's): left to the function, where
			// PostgreSQL would cast an untyped literal to the row type
			return nil, types.T{}, false
		}
		if _, user := userType(b.typeCatalog(), "", name); !user {
			ct, ok := b.compositeCastTarget(tn) // composite.go
			return tn, ct, ok
		}
	}
	t, err := castTypeFromNameIn(tn, b.typeCatalog())
	if err != nil {
		return nil, types.T{}, false
	}
	if name == "bit" {
		t.Length = 0 // pg_type's bit has no length (the grammar's BIT is bit(1))
	}
	return tn, t, true
}

// castByOtherFunction reports a typed argument whose cast to the type
// name names is one of pg_cast's by a function of another name (boolean,
// inet and cidr to bpchar and varchar by text(...), "char" to varchar by
// text("char"), integer and bigint to bit by bit(integer, integer),
// smallint and bigint to the reg* types by int4(int2) and oid(int8)): PostgreSQL's func_get_detail takes typename(x) as a cast
// only for a binary-coercible or an I/O conversion, so these are left to
// the function lookup, which finds no function of the type's name taking
// them (varchar(boolean) and regclass(bigint) are 42883; the other casts
// by a function are all by one of the type's name, which the lookup
// would find and which casts as the cast does).
func castByOtherFunction(name string, t types.T) bool {
	switch strings.TrimPrefix(name, "pg_catalog.") {
	case "bpchar":
		return t.Kind == types.Bool || netVariant(t.Variant)
	case "varchar":
		return t.Kind == types.Bool || netVariant(t.Variant) || t.Variant == types.QChar
	case "bit":
		return t.Kind == types.Int32 || t.Kind == types.Int64 && !t.IsMoney() // bit(integer, integer)'s
	case "regclass", "regtype", "regproc", "regprocedure", "regnamespace", "regrole", "regconfig", "regoper", "regoperator", "regcollation", "regdictionary":
		return t.Kind == types.Int8 || t.Kind == types.Int16 || t.Kind == types.Int64 && !t.IsMoney()
	}
	return false
}

// typeNamedFuncs are pg_proc's functions of one argument named like a type
// sqlgate has, each a cast from its argument type to that type, by the
// argument types' pg_type names.
var typeNamedFuncs = map[string][]string{
	"bool": {"jsonb", "int4"}, "bpchar": {"char", "name"}, "char": {"text", "int4"},
	"cidr": {"inet"}, "date": {"timestamptz", "timestamp"},
	"float4":   {"int8", "int2", "numeric", "jsonb", "int4", "float8"},
	"float8":   {"int2", "int8", "float4", "numeric", "jsonb", "int4"},
	"int2":     {"numeric", "float8", "float4", "int4", "int8", "jsonb"},
	"int4":     {"float4", "bit", "int8", "float8", "numeric", "int2", "bool", "char", "jsonb"},
	"int8":     {"int2", "float8", "int4", "bit", "jsonb", "oid", "numeric", "float4"},
	"interval": {"time"}, "macaddr": {"macaddr8"}, "macaddr8": {"macaddr"},
	"money": {"numeric", "int4", "int8"}, "name": {"bpchar", "varchar", "text"},
	"numeric": {"float4", "int4", "int8", "int2", "jsonb", "money", "float8"},
	"oid":     {"int8"}, "pg_lsn": {"numeric"}, "regclass": {"text"},
	"text":      {"inet", "char", "bool", "name", "bpchar"},
	"time":      {"timetz", "interval", "timestamptz", "timestamp"},
	"timestamp": {"date", "timestamptz"}, "timestamptz": {"date", "timestamp"},
	"timetz": {"timestamptz", "time"}, "varchar": {"name"},
}

// typeNamedFunction binds typename(x) where it is no cast (castable
// false, or castByOtherFunction) as PostgreSQL's function lookup does:
// among typeNamedFuncs of the name, those whose argument type x converts
// to implicitly, a preferred type's before the others (func_select_
// candidate), one left: x converted to its argument type, then cast to
// the type (the function is that cast). time(date) is time(timestamptz),
// timetz(timestamp) timetz(timestamptz). ok is false when none or more
// than one is left: the function lookup's 42883 (or 42725).
func (b *binder) typeNamedFunction(n *pt.FuncCall, x Expr, target types.T) (Expr, bool, error) {
	var fits, preferred []types.T
	for _, arg := range typeNamedFuncs[strings.TrimPrefix(n.Name, "pg_catalog.")] {
		tn, err := sql.ParseTypeName(pgTypeNames[arg])
		if err != nil {
			continue
		}
		at, err := castTypeFromName(tn)
		if err != nil || !functions.Coercible(x.Type(), at) {
			continue
		}
		fits = append(fits, at)
		if functions.Preferred(at) {
			preferred = append(preferred, at)
		}
	}
	if len(fits) > 1 && len(preferred) > 0 {
		fits = preferred
	}
	if len(fits) != 1 {
		return nil, false, nil
	}
	out, err := b.castBound(n, n, n.Args[0], b.castTo(x, fits[0]), target)
	return out, true, err
}
