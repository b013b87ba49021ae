package binder

import (
	"context"
	"strings"

	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// ExecuteArg binds argument n (1-based) of EXECUTE, the expression text,
// against its parameter's type t as PostgreSQL's EvaluateParams coerces
// it: with the assignment rules (assign), so an unknown literal is read
// as t, a number converts to another number, and a value of a type with
// no assignment cast to t (text or boolean to integer, integer to
// boolean, text to jsonb) is 42804 "parameter $n of type ... cannot be
// coerced to the expected type ...". castTo is the type name the engine
// casts the argument to before passing its text ("" when the argument
// already has type t or its text is the input the parameter reads); a
// parameter has no typmod, so castTo has none. An error's position is in
// text (1-based), or none.
func ExecuteArg(ctx context.Context, cat Catalog, n int, text string, t types.T) (castTo string, err error) {
	x, err := parseExprText(text) // exprbind.go
	if err != nil {
		return "", inArgument(err)
	}
	v := &exprRefusal{what: executeParameter, allowCol: true} // coldefs.go
	pt.Walk(x.tree, v.visit)
	if v.err != nil {
		return "", v.err
	}
	b := &binder{ctx: ctx, cat: cat, stmt: x.st}
	e, err := b.bindTree(&scope{}, x.tree)
	if err != nil {
		return "", inArgument(err)
	}
	target := t.Nullable()
	if _, err := b.assign(nil, e, "", target, ""); err != nil {
		if sqlerr.CodeOf(err) == sqlerr.DatatypeMismatch {
			return "", sqlerr.New(sqlerr.DatatypeMismatch, "parameter $%d of type %s cannot be coerced to the expected type %s", n, e.Type().PGName(), target.PGName()).
				WithHint("You will need to rewrite or cast the expression.")
		}
		return "", inArgument(err)
	}
	if et := e.Type(); isUnknown(et) || et.Nullable().Equal(target) || target.IsBitString() {
		// the parameter's input reads the text as it is: an unknown
		// literal is the type's input already, and a bit string of any
		// length is a parameter's (which has no typmod, where a cast to
		// bit is to bit(1))
		return "", nil
	}
	return withoutTypmod(target.PGName()), nil
}

// executeParameter is PostgreSQL's name for an EXECUTE argument's
// expression kind (ParseExprKindName), in exprRefusal's errors.
const executeParameter = "EXECUTE parameter"

// inArgument moves an error's position in parseExprText's "SELECT "+text
// to text.
func inArgument(err error) error {
	const prefix = len("SELECT ")
	if se := sqlerr.As(err); se != nil && se.Position > prefix {
		return se.WithPosition(se.Position - prefix)
	}
	return err
}

// withoutTypmod is a type's name without its typmod: "timestamp(3) with
// time zone" is "timestamp with time zone", "numeric(5,1)[]" "numeric[]".
func withoutTypmod(name string) string {
	i := strings.IndexByte(name, '(')
	j := strings.IndexByte(name, ')')
	if i <= 0 || j < i || strings.HasPrefix(name, `"`) {
		return name
	}
	return strings.TrimRight(name[:i], " ") + name[j+1:]
}
