package binder

import (
	"strings"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// castFunc is the function the sql/ rewrite turns every x::type and
// CAST(x AS type) into: pg__cast(x, 'type text').
const castFunc = "pg__cast"

// FuncCall calls a scalar function of the library (functions), whose
// overload the binder resolved; Kernel is that overload bound to the
// argument types.
type FuncCall struct {
	Name     string
	Args     []Expr
	T        types.T
	Volatile bool
	Kernel   functions.Kernel
}

func (e *FuncCall) Type() types.T { return e.T }
func (e *FuncCall) String() string {
	parts := make([]string, len(e.Args))
	for i, a := range e.Args {
		parts[i] = a.String()
	}
	return e.Name + "(" + strings.Join(parts, ", ") + ")"
}

// callFunction resolves name(args) with PostgreSQL's function resolution
// and converts each argument to the chosen overload's type.
func (b *binder) callFunction(n sourceNode, name string, args []Expr) (Expr, error) {
	if e, ok, err := b.callUDF(n, name, args); ok {
		return e, err
	}
	if e, ok, err := b.enumFunction(n, name, args); ok { // enumops.go
		return e, err
	}
	if e, ok, err := b.recordGreatest(n, name, args); ok { // recordmix.go
		return e, err
	}
	if e, ok, err := b.bindArrayPolyCall(n, name, args); ok { // arrayfuncs.go
		return e, err
	}
	if e, ok, err := b.fuseJSONCast(n, name, args); ok { // jsonfuse.go
		return e, err
	}
	if e, ok, err := b.operatorFunction(n, name, args); ok { // operfuncs.go
		return e, err
	}
	var typeBuf [4]types.T // Resolve reads the types only: most calls' fit on the stack
	argTypes := typeBuf[:0]
	for _, a := range args {
		t := a.Type()
		if t.Kind == types.Null {
			t = types.UnknownType
		}
		argTypes = append(argTypes, t)
	}
	if err := refuseRecordArgs(name, argTypes); err != nil { // searchcycle.go
		return nil, b.errAt(n, err)
	}
	if isPopulateScalar(name) {
		return b.bindPopulateCall(n, name, args) // jsonpopulate.go
	}
	if functions.ResolveRecordFunc(name, argTypes, types.T{}) != nil {
		// json_to_record and friends outside FROM: a record no column
		// definition list describes, as PostgreSQL refuses it
		return nil, b.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "could not determine row type for result of %s", name).
			WithHint("Provide a non-null record argument, or call the function in the FROM clause using a column definition list."))
	}
	f, want, err := functions.Resolve(name, argTypes)
	if err != nil {
		if se := sqlerr.As(err); se != nil {
			return nil, b.commonInputError(n, name, args, argTypes, se) // conditional.go
		}
		return nil, err
	}
	consts := make([]any, len(args))
	for i := range args {
		if isUnknown(args[i].Type()) {
			if args[i], err = b.coerceUnknown(n, args[i], want[i]); err != nil {
				return nil, err
			}
		} else if want[i].Variant.IsReg() && args[i].Type().IsString() {
			// text -> regclass is an implicit cast (nextval('s'::text)); it
			// runs regclassin, which looks the name up.
			if args[i], err = b.callFunction(n, want[i].Variant.Name()+"_in", []Expr{args[i]}); err != nil {
				return nil, err
			}
		} else {
			args[i] = b.castTo(args[i], want[i])
		}
		if c, ok := args[i].(*Const); ok {
			consts[i] = c.Value
		}
	}
	if (f.Name == "greatest" || f.Name == "least") && len(want) > 0 {
		if ord, _ := typeSortOps(want[0]); !ord { // typeops.go
			return nil, errNoComparison(want[0])
		}
	}
	ret, kernel := f.Bind(want, consts)
	if o, ok := textOrderOf(ret); ok && (f.Name == "greatest" || f.Name == "least") {
		kernel = keyedGreatest(f.Name, o) // by the values' keys (textorder.go)
	}
	return &FuncCall{Name: f.Name, Args: args, T: ret, Volatile: f.Volatile, Kernel: kernel}, nil
}

func joinComma(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}

func (b *binder) bindCast(s *scope, n *pt.Cast) (Expr, error) {
	typeText := n.Type
	tn, err := sql.ParseTypeName(typeText)
	if err != nil {
		return nil, b.errAt(n, sqlerr.New(sqlerr.UndefinedObject, "type %q does not exist", typeText))
	}
	if isRecordTarget(tn) {
		return b.bindRecordCast(s, n) // recordcast.go
	}
	if err := b.qualifiedBuiltinType(tn); err != nil {
		return nil, b.errAt(n, sqlerr.As(err))
	}
	target, err := castTypeFromNameIn(tn, b.typeCatalog())
	if err != nil {
		ct, ok := b.compositeCastTarget(tn) // composite.go
		if !ok || sqlerr.CodeOf(err) != sqlerr.UndefinedObject {
			if pos := b.castTypePosition(n); pos > 0 && sqlerr.CodeOf(err) == sqlerr.UndefinedObject {
				if leaf, _ := typeLeaf(tn); leaf.Schema != "" {
					err = b.missingQualifiedType(tn)
				}
				return nil, sqlerr.As(err).WithPosition(pos)
			}
			return nil, b.errAt(n, sqlerr.As(err))
		}
		target = ct
	}
	if r, ok := n.X.(*pt.Row); ok && len(r.Fields) == 0 && target.IsComposite() {
		return b.emptyRowCast(castPlace(n), target) // composite.go
	}
	if a, ok := n.X.(*pt.Array); ok && target.Kind == types.Array && len(a.Elems) == 0 {
		return &Const{Value: []any{}, T: target.Nullable()}, nil // ARRAY[]::int[]
	}
	if m, ok := n.X.(*pt.Map); ok && target.Kind == types.Map && len(m.KeysValues) == 0 {
		return &Const{Value: []types.MapEntry{}, T: target.Nullable()}, nil // MAP[]::map<k, v>
	}
	if a, ok := n.X.(*pt.Array); ok && target.Kind == types.Array {
		// ARRAY['1', '2']::int[]: the cast types the elements (arrays.go)
		return b.bindArrayCast(s, a, target)
	}
	x, err := b.bindTree(s, n.X)
	if err != nil {
		return nil, err
	}
	out, err := b.castBound(n, castPlace(n), n.X, x, target)
	if d := domainNamed(b.typeCatalog(), tn); d != nil && err == nil {
		out = b.domainCast(d, out) // domains.go
	}
	return out, err
}

// castBound is the explicit cast of x, bound from xn, to target: n is the
// cast as an expression, place where its own errors point. An ARRAY[...]
// constructor's elements are cast with it, each its own n and place.
func (b *binder) castBound(n, place sourceNode, xn pt.Expr, x Expr, target types.T) (Expr, error) {
	if err := refuseRecordCast(x.Type()); err != nil { // searchcycle.go
		return nil, b.errAt(n, err)
	}
	if target.Kind == types.Array && x.Type().Kind == types.Array {
		// PostgreSQL's array types have no fixed number of dimensions:
		// int[][] is int[], and a cast keeps the operand's dimensions
		target = functions.WithArrayDepth(target, functions.ArrayDepth(x.Type()))
	}
	if c, ok := x.(*Const); ok && target.Kind == types.Array && x.Type().Kind == types.Unknown {
		// '{{1},{2}}'::int[] has the literal's dimensions
		if v, ok := c.Value.(string); ok {
			if d := functions.LiteralArrayDepth(v); d > 0 {
				target = functions.WithArrayDepth(target, d)
			}
		}
	}
	if e, ok, err := b.geometricCast(n, place, x, target); ok { // geometric.go
		return e, err
	}
	if target.Variant.IsReg() {
		// 'name'::regclass looks the name up; an oid, an integer or
		// another reg* value is already one.
		if c, ok := x.(*Const); ok && isUnknown(c.T) {
			if err := b.regLiteral(c, target.Variant); err != nil {
				return nil, err
			}
		}
		if isUnknown(x.Type()) || stringCategory(x.Type()) {
			return b.callFunction(n, target.Variant.Name()+"_in", []Expr{b.resolveUnknown(x, types.StringType)})
		}
		if oidCastable(x.Type(), target) {
			return b.castTo(x, target), nil
		}
	}
	if x.Type().Variant.IsReg() && stringCategory(target) {
		// x::regclass::text is the object's name, as the reg* type's
		// output function prints it
		name, err := b.regText(n, x)
		if err != nil {
			return nil, err
		}
		return b.castTo(name, target), nil
	}
	if isUnknown(x.Type()) {
		if target.Kind == types.String && target.Length > 0 || target.Kind == types.Char {
			// An explicit cast to varchar(n) truncates (only an
			// assignment refuses a longer value): read the literal as
			// text, then cast.
			x, err := b.coerceUnknown(xn, x, types.StringType)
			if err != nil {
				return nil, err
			}
			return &Cast{X: x, T: target}, nil
		}
		// an invalid literal is reported where it stands, as PostgreSQL
		// places a constant's input error, not at the cast
		return b.coerceUnknown(xn, x, target)
	}
	if e, ok, err := b.castConstructor(compositeCastNode(n, place, target), x, target); ok {
		return e, err
	}
	if e, ok, err := b.enumCast(place, x, target); ok { // enumops.go
		return e, err
	}
	if !castable(x.Type(), target) {
		return nil, b.errAt(place, sqlerr.New(sqlerr.CannotCoerce, "cannot cast type %s to %s", x.Type().PGName(), target.PGName()))
	}
	if x.Type().Equal(target) {
		return x, nil
	}
	return &Cast{X: x, T: target}, nil
}

// castPlace is where a cast's own errors point: its :: or CAST
// (tree.Cast.TypeAt), not its operand's start, which is the cast's place
// as an expression.
func castPlace(n *pt.Cast) sourceNode {
	if n.TypeAt.Offset > 0 {
		return n.TypeAt
	}
	return n
}

// castTypePosition is the position of the type name of x::t in the
// statement's text, where PostgreSQL points a type's "does not exist"
// (typenameType reports the TypeName's location); 0 when the cast is not
// written with :: there.
func (b *binder) castTypePosition(n *pt.Cast) int {
	if b.stmt == nil || n.TypeAt.Offset <= 0 {
		return 0
	}
	base := b.stmt.Position(0) // the statement's first character
	at := b.stmt.Position(n.TypeAt.Offset)
	text := []rune(b.stmt.Text)
	i := at - base
	if i < 0 || i+2 > len(text) || string(text[i:i+2]) != "::" {
		return 0
	}
	i += 2
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
		i++
	}
	return base + i
}

// regText is a reg* value as text: the name its type's output function
// (regclass_out ...) prints.
func (b *binder) regText(n sourceNode, e Expr) (Expr, error) {
	return b.callFunction(n, e.Type().Variant.Name()+"_out", []Expr{e})
}

// castable reports whether an explicit cast from a to b exists.
func castable(a, b types.T) bool {
	if a.Equal(b) {
		return true
	}
	if a.IsBitString() || b.IsBitString() {
		return bitCastable(a, b) // bitstring.go
	}
	if ok, handled := smallCastable(a, b); handled { // smalltypes.go
		return ok
	}
	if ok, handled := nestedCastable(a, b, false); handled {
		return ok
	}
	if _, ok := types.JSONBScalarCast(a, b); ok {
		return true // jsonb to numeric, the integers, the floats, boolean
	}
	if a.Variant.IsJSON() || b.Variant.IsJSON() {
		// json converts only to and from text (and between json and jsonb)
		ok := func(t types.T) bool { return stringCategory(t) || t.Kind == types.Unknown || t.Variant.IsJSON() }
		return ok(a) && ok(b)
	}
	if a.Kind == types.Array && b.Kind == types.Array {
		return castable(*a.Elem, *b.Elem)
	}
	if a.Kind == types.Array && b.IsString() || a.IsString() && b.Kind == types.Array {
		return true // PostgreSQL's array output and input
	}
	if a.IsNested() || b.IsNested() {
		return false
	}
	if a.Variant == types.QChar || b.Variant == types.QChar {
		return qcharCastable(a, b)
	}
	if ok, handled := regconfigCastable(a, b); handled {
		return ok
	}
	if stringCategory(a) || stringCategory(b) {
		return true // every scalar type has a text form and a text input
	}
	if a.IsString() || b.IsString() {
		// a type held as a string that is none of PostgreSQL's string
		// category (inet, uuid, pg_lsn ...): its own, and inet's and
		// cidr's to each other
		// and a range's to its multirange (multirange(anyrange))
		return a.Kind == b.Kind && (a.Variant == b.Variant || netVariant(a.Variant) && netVariant(b.Variant) ||
			a.IsRange() && b.IsMultirange() && types.MultirangeOf(a.Variant) == b.Variant)
	}
	if a.IsNumeric() && b.IsNumeric() {
		return true
	}
	if a.Kind == types.Oid || b.Kind == types.Oid {
		return oidCastable(a, b)
	}
	if a.Kind == types.Bool && b.Kind == types.Int32 || a.Kind == types.Int32 && b.Kind == types.Bool {
		return true
	}
	dt := func(k types.Kind) bool { return k == types.Date || k == types.Timestamp || k == types.TimestampTZ }
	if dt(a.Kind) && dt(b.Kind) {
		return true
	}
	if (a.Kind == types.Timestamp || a.Kind == types.TimestampTZ) && b.Kind == types.Time {
		return true // the time of day (in the session's zone for timestamptz)
	}
	if (a.Kind == types.Bytes || a.Kind == types.Binary) && (b.Kind == types.Bytes || b.Kind == types.Binary) {
		return true
	}
	if a.Kind == types.Time && b.Kind == types.Time {
		return true // another precision: rounded to the target's
	}
	if a.Kind == types.Interval && b.Kind == types.Interval {
		return true // another qualifier or precision: truncated, rounded
	}
	if a.Kind == types.Time && b.Kind == types.Interval || a.Kind == types.Interval && b.Kind == types.Time {
		return true // a time of day as an interval, an interval's time part as a time
	}
	return timeTZCastable(a, b) // timetz.go
}

// oidCastable decides pg_cast's casts among oid, the reg* types, xid and
// the integers (the string types' I/O conversions decided before): an
// integer to oid or a reg* type, oid or a reg* type to int4 and int8 (not
// int2), oid to each reg* type and back, regproc and regprocedure to each
// other (regoper and regoperator too), but no other reg* type to another and nothing to or from xid.
func oidCastable(a, b types.T) bool {
	switch {
	case a.Variant == types.Xid || b.Variant == types.Xid:
		return false
	case a.Kind == types.Oid && b.Kind == types.Oid:
		procs := func(v types.Variant) bool { return v == types.RegProc || v == types.RegProcedure }
		opers := func(v types.Variant) bool { return v == types.RegOper || v == types.RegOperator }
		return a.Variant == types.NoVariant || b.Variant == types.NoVariant || procs(a.Variant) && procs(b.Variant) || opers(a.Variant) && opers(b.Variant)
	case a.Kind == types.Oid:
		return b.Kind == types.Int32 || b.Kind == types.Int64 && !b.IsMoney()
	}
	return a.IsInteger()
}

// regconfigCastable decides pg_cast's casts between regconfig (kept as its
// configuration's name, a String) and oid or the integers, as oidCastable
// decides them for the reg* types kept as OIDs: oid, int2, int4 and int8
// to regconfig, regconfig to oid, int4 and int8. handled is false when
// neither side is regconfig or the other is no oid or integer.
func regconfigCastable(a, b types.T) (ok, handled bool) {
	switch {
	case a.Variant == types.RegConfig && b.Variant != types.RegConfig && (b.Kind == types.Oid && b.Variant == types.NoVariant || b.IsInteger()):
		return b.Kind == types.Oid || b.Kind == types.Int32 || b.Kind == types.Int64 && !b.IsMoney(), true
	case b.Variant == types.RegConfig && a.Variant != types.RegConfig && (a.Kind == types.Oid && a.Variant == types.NoVariant || a.IsInteger()):
		return !a.IsMoney(), true
	case a.Variant == types.RegConfig && b.Kind == types.Oid || b.Variant == types.RegConfig && a.Kind == types.Oid:
		return false, true // no reg* type converts to another but regproc's kin
	}
	return false, false
}

// stringCategory reports a type of PostgreSQL's string category (text,
// varchar, bpchar, name), which converts to and from every type by the
// other's output and input ("char" is of category Z: qcharCastable).
func stringCategory(t types.T) bool {
	return t.IsString() && t.Variant == types.NoVariant || t.Kind == types.Name
}

// qcharCastable decides the casts to and from the one-byte "char", of
// category Z, which has I/O conversions only with the string types:
// pg_cast's to and from text, varchar and bpchar, name's I/O conversions,
// and to and from int4 (its byte's value).
func qcharCastable(a, b types.T) bool {
	other := a
	if a.Variant == types.QChar {
		other = b
	}
	return stringCategory(other) || other.Variant == types.QChar || other.Kind == types.Int32 || isUnknown(other)
}

// qcharAssignable is qcharCastable in an assignment: "char" to a string
// type (pg_cast's, or the I/O conversion to name), text, varchar and
// bpchar to "char" (name's is its explicit I/O conversion), int4 neither
// way.
func qcharAssignable(a, b types.T) bool {
	if a.Variant == types.QChar {
		return stringCategory(b) || b.Variant == types.QChar
	}
	return a.IsString() && a.Variant == types.NoVariant || isUnknown(a)
}

// netVariant reports inet or cidr.
func netVariant(v types.Variant) bool { return v == types.Inet || v == types.Cidr }

// typeFromName maps a parsed type name (DDL spellings and PostgreSQL names)
// to a type, as DESIGN.md's type table says.
//
// castTypeFromName is typeFromName for the target of a cast or a typed
// literal, where two names mean what they mean in PostgreSQL's
// expressions rather than what a table column of that name is (README:
// column types, where FLOAT is Fluss's 4-byte FLOAT): float without a
// precision is double precision, and varchar without a length is
// character varying without a limit, not text.
func castTypeFromName(tn *sql.TypeName) (types.T, error) { return castTypeFromNameIn(tn, nil) }

// castTypeFromNameIn is castTypeFromName knowing the user-defined types
// of ut (enumtypes.go).
func castTypeFromNameIn(tn *sql.TypeName, ut TypeCatalog) (types.T, error) {
	t, err := typeFromNameIn(tn, ut)
	inner := tn // T of T[] / ARRAY<T>
	for inner.Name == "array" && inner.Elem != nil {
		inner = inner.Elem
	}
	if err != nil || len(inner.Args) > 0 {
		return t, err
	}
	base := &t
	for base.Kind == types.Array && base.Elem != nil {
		elem := *base.Elem // a copy: element types may be shared
		base.Elem = &elem
		base = base.Elem
	}
	switch inner.Name {
	case "float":
		base.Kind = types.Float64
	case "varchar", "character varying":
		base.Length = -1
	}
	return t, nil
}

func typeFromName(tn *sql.TypeName) (types.T, error) { return typeFromNameIn(tn, nil) }

// qualifiedBuiltinType is the error of a cast target that names a
// built-in type (whose schema is pg_catalog, which ParseTypeName drops)
// under another schema that has no type of the name: PostgreSQL looks
// the name up in that schema alone, so '6'::nosuch.int4 is 3F000 and
// '6'::public.int4 is 42704 type "public.int4" does not exist. A user
// type, a table's row type or an information_schema name is the
// resolver's as before.
func (b *binder) qualifiedBuiltinType(tn *sql.TypeName) error {
	leaf, _ := typeLeaf(tn)
	if leaf.Schema == "" || leaf.Schema == "information_schema" || leaf.Key != nil || len(leaf.Fields) > 0 {
		return nil
	}
	if _, err := typeFromNameIn(&sql.TypeName{Name: leaf.Name, Args: leaf.Args}, nil); err != nil {
		return nil // no built-in of the name: the resolver's error
	}
	if _, ok := userType(b.typeCatalog(), leaf.Schema, leaf.Name); ok {
		return nil
	}
	if _, ok := b.compositeNamed(leaf.Name); ok {
		return nil
	}
	return b.missingQualifiedType(tn)
}

// missingQualifiedType is the error for the schema-qualified type name tn
// that names no type: 3F000 when its schema does not exist, else 42704
// naming the type as written, with its brackets (public.int4[]).
func (b *binder) missingQualifiedType(tn *sql.TypeName) error {
	leaf, dims := typeLeaf(tn)
	if c, ok := b.cat.(SchemaChecker); ok {
		exists, err := c.SchemaExists(b.ctx, leaf.Schema)
		if err != nil {
			return err
		}
		if !exists {
			return sqlerr.UndefinedSchema(leaf.Schema)
		}
	}
	return sqlerr.New(sqlerr.UndefinedObject, "type \"%s.%s%s\" does not exist", leaf.Schema, leaf.Name, strings.Repeat("[]", dims+leaf.ArrayDims))
}

// typeFromNameIn is typeFromName knowing the user-defined types of ut (nil:
// none).
func typeFromNameIn(tn *sql.TypeName, ut TypeCatalog) (types.T, error) {
	var t types.T
	arg := func(i, def int) int {
		if i < len(tn.Args) {
			return tn.Args[i]
		}
		return def
	}
	if bt, ok, err := bitTypeFromName(tn.Name, tn.Args); ok { // bitstring.go
		return bt, err
	}
	switch tn.Name {
	case "bool", "boolean":
		t = types.BoolType
	case "tinyint":
		t = types.T{Kind: types.Int8}
	case "int2", "smallint":
		t = types.Int16Type
	case "int4", "int", "integer":
		t = types.Int32Type
	case "int8", "bigint":
		t = types.Int64Type
	case "float4", "real", "float":
		t = types.Float32Type
		if tn.Name == "float" && len(tn.Args) > 0 && tn.Args[0] > 24 {
			t = types.Float64Type
		}
	case "float8", "double", "double precision":
		t = types.Float64Type
	case "numeric", "decimal", "dec":
		if len(tn.Args) == 0 {
			t = types.NumericType
		} else {
			t = types.DecimalType(arg(0, 10), arg(1, 0))
			if t.Precision < 1 || t.Precision > 38 {
				return t, sqlerr.New(sqlerr.InvalidParameterValue, "NUMERIC precision %d must be between 1 and 38", t.Precision)
			}
			if t.Scale < 0 || t.Scale > t.Precision {
				return t, sqlerr.New(sqlerr.InvalidParameterValue, "NUMERIC scale %d must be between 0 and precision %d", t.Scale, t.Precision)
			}
		}
	case "text", "string", "varchar", "character varying":
		t = types.StringType
		if tn.Name == "varchar" || tn.Name == "character varying" {
			t.Length = arg(0, 0)
		}
	case "char", "bpchar", "character":
		// character without a length is character(1), as the SQL standard
		// says; bpchar without one has no limit (Length 0, types.T.Length)
		def := 1
		if tn.Name == "bpchar" {
			def = 0
		}
		t = types.T{Kind: types.Char, Length: arg(0, def)}
		if len(tn.Args) > 0 && t.Length < 1 {
			return t, sqlerr.New(sqlerr.InvalidParameterValue, "length for type char must be at least 1")
		}
	case "bytea", "bytes", "blob", "varbinary":
		t = types.BytesType
	case "binary":
		t = types.T{Kind: types.Binary, Length: arg(0, 1)}
	case "date":
		t = types.DateType
	case "time":
		t = types.T{Kind: types.Time, Precision: arg(0, 6)}
	case "timetz", "time with time zone":
		t = types.TimeTZType(min(arg(0, 6), 6)) // PostgreSQL holds microseconds at most
	case "timestamp", "datetime":
		t = types.TimestampType(arg(0, 6))
	case "timestamptz", "timestamp_ltz", "timestamp with time zone":
		t = types.TimestampTZType(arg(0, 6))
	case "interval":
		// INTERVAL DAY TO SECOND, INTERVAL(3): the qualifier is kept, for
		// the cast to read and truncate by.
		it, err := types.IntervalTypeOf(tn.IntervalFields, arg(0, -1))
		if err != nil {
			return types.T{}, err
		}
		t = it
	case "oid":
		t = types.T{Kind: types.Oid}
	case "regclass", "regtype", "regproc", "regprocedure", "regnamespace", "regrole", "regoper", "regoperator", "regcollation", "regdictionary", "json", "jsonb", "uuid", "inet", "cidr", "pg_lsn", "xid", "jsonpath", "tsvector", "tsquery", "regconfig", "money", "macaddr", "macaddr8":
		v, _ := types.VariantNamed(tn.Name)
		t = types.T{Kind: types.Oid, Variant: v}
		if v.IsJSON() || v == types.UUID || v == types.Inet || v == types.Cidr || v == types.PgLsn || v == types.JSONPath || v.IsTextSearch() || v == types.MacAddr || v == types.MacAddr8 {
			t.Kind = types.String
		}
		if v == types.Money {
			t.Kind = types.Int64 // cents (types/money.go)
		}
	case "int4range", "int8range", "numrange", "daterange", "tsrange", "tstzrange":
		v, _ := types.VariantNamed(tn.Name)
		t = types.RangeType(v) // types/ranges.go
	case "int4multirange", "int8multirange", "nummultirange", "datemultirange", "tsmultirange", "tstzmultirange":
		v, _ := types.VariantNamed(tn.Name)
		t = types.RangeType(v) // a String variant, as a range (types/multirange.go)
	case "point", "lseg", "line", "box", "path", "polygon", "circle":
		v, _ := types.VariantNamed(tn.Name)
		t = types.GeometricType(v) // types/geometric.go
	case "name":
		t = types.T{Kind: types.Name}
	case `"char"`:
		t = types.QCharType
	case "int2vector":
		t = types.Int2VectorType
	case "oidvector":
		t = types.OidVectorType
	case "array":
		if tn.Elem == nil {
			return t, sqlerr.New(sqlerr.SyntaxError, "ARRAY needs an element type")
		}
		e, err := typeFromNameIn(tn.Elem, ut)
		if err != nil {
			return t, err
		}
		t = types.ArrayOf(e)
	case "map":
		if tn.Key == nil || tn.Value == nil {
			return t, sqlerr.New(sqlerr.SyntaxError, "MAP needs a key and a value type")
		}
		k, err := typeFromNameIn(tn.Key, ut)
		if err != nil {
			return t, err
		}
		v, err := typeFromNameIn(tn.Value, ut)
		if err != nil {
			return t, err
		}
		k.NotNull = true // MAP keys are never null (seed 000)
		t = types.T{Kind: types.Map, Key: &k, Elem: &v}
	case "row":
		fs := make([]types.Field, len(tn.Fields))
		for i, f := range tn.Fields {
			ft, err := typeFromNameIn(f.Type, ut)
			if err != nil {
				return t, err
			}
			fs[i] = types.Field{Name: f.Name, Type: ft}
		}
		t = types.T{Kind: types.Row, Fields: fs}
	default:
		ue, ok := userType(ut, tn.Schema, tn.Name) // enumtypes.go
		if !ok {
			return t, sqlerr.New(sqlerr.UndefinedObject, "type %q does not exist", tn.Name)
		}
		t = ue
	}
	if t.Kind == types.Timestamp || t.Kind == types.TimestampTZ || t.Kind == types.Time {
		if t.Precision < 0 || t.Precision > 9 {
			return t, sqlerr.New(sqlerr.InvalidParameterValue, "%s precision %d must be between 0 and 9", tn.Name, t.Precision)
		}
	}
	dims := tn.ArrayDims
	if tn.Name == "array" {
		// T[] and T[][] arrive as one "array" node per dimension (ArrayDims
		// counts the levels so far), each built above: nothing to add
		dims = 0
	}
	for i := 0; i < dims; i++ {
		t = types.ArrayOf(t)
	}
	t.NotNull = tn.NotNull
	return t, nil
}

// castOutputName is the output column name of a cast of a non-column to
// the type named text, which PostgreSQL takes from the target type's
// internal name (SELECT 1::int → int4).
func (b *binder) castOutputName(text string) string {
	if text == "pg__bit" {
		return "?column?" // a B'..' or X'..' literal, no cast (bitstring.go)
	}
	tn, err := sql.ParseTypeName(text)
	if err != nil {
		return "?column?"
	}
	if d := domainNamed(b.typeCatalog(), tn); d != nil {
		return d.Name // domains.go
	}
	t, err := castTypeFromNameIn(tn, b.typeCatalog())
	if err != nil {
		if leaf, _ := typeLeaf(tn); leaf.Key == nil && len(leaf.Fields) == 0 {
			if c, ok := b.compositeNamed(leaf.Name); ok {
				return c.Name // composite.go: x::t[] is named t too
			}
		}
		return "?column?"
	}
	for t.Kind == types.Array && tn.ArrayDims > 0 {
		t = *t.Elem // PostgreSQL names x::int[] after the element type (int4)
	}
	return typname(t)
}

// typname is PostgreSQL's pg_type.typname of t.
func typname(t types.T) string {
	switch t.Variant {
	case types.NoVariant:
	case types.Enum:
		if def := t.EnumDef(); def != nil {
			return def.Name // pg_type.typname: not schema-qualified
		}
		return "?column?"
	case types.QChar:
		return "char"
	default:
		return t.Variant.Name()
	}
	switch t.Kind {
	case types.Bool:
		return "bool"
	case types.Int8, types.Int16:
		return "int2"
	case types.Int32:
		return "int4"
	case types.Int64:
		return "int8"
	case types.Float32:
		return "float4"
	case types.Float64:
		return "float8"
	case types.Decimal:
		return "numeric"
	case types.String:
		if t.Length != 0 { // -1: varchar without a length (castTypeFromName)
			return "varchar"
		}
		return "text"
	case types.Char:
		return "bpchar"
	case types.Bytes, types.Binary:
		return "bytea"
	case types.Date:
		return "date"
	case types.Time:
		return "time"
	case types.TimeTZ:
		return "timetz"
	case types.Timestamp:
		return "timestamp"
	case types.TimestampTZ:
		return "timestamptz"
	case types.Interval:
		return "interval"
	case types.Oid:
		return "oid"
	case types.Name:
		return "name"
	case types.Array:
		return "_" + typname(*t.Elem)
	}
	return "?column?"
}

// isPipes tells a || b from a call concat(a, b): with PIPES_AS_CONCAT the
// TiDB grammar builds the same FuncCallExpr for both, but only the call
// starts with the word concat in the statement text. So does a || b whose
// left operand is a concat call (concat(x, y) || z), told apart by where
// that operand starts: where the whole does, not inside the parentheses.
func (b *binder) isPipes(n *pt.FuncCall) bool {
	text := b.stmt.Rewritten
	off := n.OriginTextPosition()
	if off < 0 || off >= len(text) {
		return true
	}
	// Only the first six characters matter: lowercasing the rest of the
	// statement, as a ToLower of text[off:] would, costs a copy of it per
	// operator.
	const word = "concat"
	if len(text)-off < len(word) || !strings.EqualFold(text[off:off+len(word)], word) {
		return true
	}
	if len(n.Args) == 0 {
		return false
	}
	left, ok := n.Args[0].(sourceNode)
	return ok && left.OriginTextPosition() == off
}

// textOperand reports a side that lets || be text concatenation: text,
// varchar, char, name, or a literal of unknown type (json and jsonb are not
// text here: PostgreSQL has no implicit cast from them).
func textOperand(t types.T) bool {
	if isUnknown(t) {
		return true
	}
	switch t.Kind {
	case types.String, types.Char, types.Name:
		return !t.Variant.IsJSON()
	}
	return false
}

// makeConcat types a || b: PostgreSQL's textcat and anynonarray || text,
// so a non-text side is converted to text; NULL on either side gives NULL.
func (b *binder) makeConcat(n sourceNode, l, r Expr) (Expr, error) {
	if l.Type().Kind == types.Array || r.Type().Kind == types.Array {
		return b.makeArrayConcat(n, l, r)
	}
	if e, ok, err := b.typedConcat(n, l, r); ok { // operators.go
		return e, err
	}
	if !textOperand(l.Type()) && !textOperand(r.Type()) {
		// 1 || 2: textcat, anytextcat and textanycat each want a text side
		return nil, b.operatorError(n, "||", l.Type(), r.Type())
	}
	toText := func(e Expr) (Expr, error) {
		t := e.Type()
		switch {
		case isUnknown(t):
			return b.coerceUnknown(n, e, types.StringType)
		case t.Kind == types.String:
			return e, nil
		case t.Variant.IsReg():
			return b.regText(n, e)
		case t.IsNested():
			return nil, b.operatorError(n, "||", l.Type(), r.Type())
		}
		return &Cast{X: e, T: types.StringType}, nil
	}
	var err error
	if l, err = toText(l); err != nil {
		return nil, err
	}
	if r, err = toText(r); err != nil {
		return nil, err
	}
	return b.newBinaryOp(OpConcat, l, r, types.StringType), nil
}

// bindLike binds x [NOT] LIKE|ILIKE pattern [ESCAPE e] as the like/ilike
// functions of the library (which implement PostgreSQL's escape rules).
func (b *binder) bindLike(s *scope, n *pt.Like) (Expr, error) {
	x, err := b.bindTree(s, n.X)
	if err != nil {
		return nil, err
	}
	p, err := b.bindTree(s, n.Pattern)
	if err != nil {
		return nil, err
	}
	name := "like"
	if n.ILike {
		name = "ilike"
	}
	subject, err := b.paddedChar(n, x)
	if err != nil {
		return nil, err
	}
	args := []Expr{subject, p}
	if n.Escape != '\\' {
		esc := string([]byte{n.Escape})
		if n.Escape == 0 {
			esc = "" // ESCAPE '': no escape (a NUL escape byte would match bytea's NULs)
		}
		args = append(args, &Const{Value: esc, T: types.StringType})
		args[1] = escapedPatternType(b, p)
	}
	e, err := b.callFunction(n, name, args)
	if err != nil {
		args[0] = x // the operand as written names the operator's type
		op := likeOperators[[2]bool{n.ILike, n.Not}]
		if len(args) == 3 { // operators.go
			return nil, b.asLikeEscapeError(n, op, likeWords(n), args, err)
		}
		return nil, b.asPatternOperatorError(n, op, likeWords(n), args, err)
	}
	if n.Not {
		return &UnaryOp{Op: OpNot, X: e, T: types.BoolType}, nil
	}
	return e, nil
}

// escapedPatternType is the pattern of x LIKE p ESCAPE e as PostgreSQL
// reads it, x ~~ like_escape(p, e): an untyped literal p resolves
// like_escape(unknown, unknown) to its text form, so p is text (and
// 'ab'::bytea LIKE 'a#%' ESCAPE '#' finds no bytea ~~ text), where without
// ESCAPE it would take the subject's type.
func escapedPatternType(b *binder, p Expr) Expr {
	if isUnknown(p.Type()) {
		return b.castTo(p, types.StringType)
	}
	return p
}

// paddedChar is a pattern match's subject x as PostgreSQL's bpchar
// operators (bpcharlike, bpcharregexeq...) see it: a char(n) value with its
// blank padding, as stored (so 'ab'::char(4) LIKE 'ab' is false and LIKE
// 'ab  ' true), where a cast to text would drop the trailing blanks. Other
// types pass unchanged.
func (b *binder) paddedChar(n sourceNode, x Expr) (Expr, error) {
	t := x.Type()
	if t.Kind != types.Char || t.Length <= 0 {
		return x, nil
	}
	return b.callFunction(n, "rpad", []Expr{b.castTo(x, types.StringType), &Const{Value: int64(t.Length), T: types.Int32Type}})
}

// bindRegexp binds x ~ p (and ~*, !~, !~*, which the rewrite turns into
// [NOT] REGEXP, with pg__ci(p) marking case-insensitivity) as regex_match.
func (b *binder) bindRegexp(s *scope, n *pt.Regexp) (Expr, error) {
	x, err := b.bindTree(s, n.X)
	if err != nil {
		return nil, err
	}
	p, err := b.bindTree(s, n.Pattern)
	if err != nil {
		return nil, err
	}
	subject, err := b.paddedChar(n, x)
	if err != nil {
		return nil, err
	}
	e, err := b.callFunction(n, "regex_match", []Expr{subject, p, &Const{Value: n.IgnoreCase, T: types.BoolType}})
	if err != nil { // operators.go
		return nil, b.asPatternOperatorError(n, regexOperators[[2]bool{n.IgnoreCase, n.Not}], "", []Expr{x, p}, err)
	}
	if n.Not {
		return &UnaryOp{Op: OpNot, X: e, T: types.BoolType}, nil
	}
	return e, nil
}

// ParseType is the type a type name's text names (a cast's, a column's)
// as the binder reads it, without user-defined types: package deparse
// types a stored expression's casts with it.
func ParseType(text string) (types.T, error) {
	tn, err := sql.ParseTypeName(text)
	if err != nil {
		return types.T{}, err
	}
	return typeFromName(tn)
}
