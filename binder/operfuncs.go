package binder

import (
	"strings"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/internal/pgoper"
	"github.com/sqlgate/sqlgate/internal/pgproc"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/udf"
)

// The functions implementing PostgreSQL's operators (pg_operator.oprcode:
// int4pl, float8mul, texticlike ...) are callable in PostgreSQL as any
// function. sqlgate binds a call of one the function library does not have
// as its operator: the arguments resolved against the operators' operand
// types (internal/pgoper, PostgreSQL's own) as a function call resolves
// them, then the operator applied to them, as a LANGUAGE sql function
// RETURN $1 op $2 would be.

// operatorFunction binds name(args) when name implements operators and is
// no library function (ok false otherwise).
func (b *binder) operatorFunction(n sourceNode, name string, args []Expr) (Expr, bool, error) {
	ops := pgoper.ByCode(name)
	if len(ops) == 0 || len(functions.Lookup(name)) > 0 {
		return nil, false, nil
	}
	decls := make([][]types.T, 0, len(ops))
	owner := make([]*pgoper.Operator, 0, len(ops))
	for _, o := range ops {
		if d, ok := operandDecls(o, args); ok {
			decls, owner = append(decls, d), append(owner, o)
		}
	}
	if len(decls) == 0 {
		return nil, true, b.errAt(n, undefinedCall(name, args))
	}
	k, err := b.resolveUDFArgs(n, func(int) sourceNode { return n }, name, decls, args)
	if err != nil {
		return nil, true, err
	}
	o := owner[k]
	body := o.Name + " $1"
	if o.Kind == 'b' {
		body = "$1 " + o.Name + " $2"
	}
	vol := byte('v')
	if pp, ok := pgproc.Lookup(name, o.Operands()); ok {
		vol = pp.Volatile
	}
	ret, ok := operatorTypeOf(o.ResultType)
	if !ok {
		ret = types.UnknownType // polymorphic: the operator's own result (sqlfunc.go keeps it)
	}
	f := &udf.Scalar{Name: name, Args: decls[k], Returns: ret, SQL: &udf.SQLFunc{Body: body, BodyKind: "return", Volatility: vol}}
	e, err := b.callSQLFunction(n, f, args) // sqlfunc.go
	return e, true, err
}

// operandDecls are the types o's function declares for args: each
// operand's type, or where it is polymorphic (anyarray ...) or the
// argument already has the operand's type (a bpchar of any length for
// character), the argument's own. ok false when the count differs.
func operandDecls(o *pgoper.Operator, args []Expr) ([]types.T, bool) {
	oids := o.Operands()
	names := []string{o.RightType}
	if o.Kind == 'b' {
		names = []string{o.LeftType, o.RightType}
	}
	if len(args) != len(oids) {
		return nil, false
	}
	out := make([]types.T, len(oids))
	for i, a := range args {
		at := a.Type()
		if oid, _, _ := pgtypes.OIDOf(at); oid == oids[i] && at.Kind != types.Null {
			out[i] = at
			continue
		}
		if names[i] == "record" && (at.Kind != types.Row || len(at.Fields) == 0) {
			return nil, false // a record of no known fields: no operand for the body
		}
		t, ok := operatorTypeOf(names[i])
		if !ok {
			if isUnknown(at) || at.Kind == types.Null {
				return nil, false
			}
			t = at // polymorphic: the operator resolves it
		}
		out[i] = t
	}
	return out, true
}

// operatorTypeOf is the type format_type's name stands for; ok false for
// a pseudo-type (anyarray, anyelement ...) or a name sqlgate lacks.
func operatorTypeOf(name string) (types.T, bool) {
	if strings.HasPrefix(name, "any") || name == "record" {
		return types.T{}, false
	}
	switch name { // the unconstrained types, not their one-character forms
	case "character":
		name = "bpchar"
	case "bit":
		name = "varbit"
	}
	tn, err := sql.ParseTypeName(name)
	if err != nil {
		return types.T{}, false
	}
	t, err := TypeOf(tn)
	return t, err == nil
}
