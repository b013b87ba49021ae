package exec

import (
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// castQChar is a cast between the one-byte "char" and int4, which
// pg_cast has as the functions "char"(int4) and int4("char"): the byte's
// value, not its text. int4 to "char" takes -128 to 127 (22003 beyond),
// 0 as the empty "char", a byte past ASCII as charout prints it (\ooo);
// "char" to int4 is its first byte, signed (a \ooo written back as its
// byte). The string types to "char" read the text as charin does
// (types.QCharIn). ok is false for the other casts.
func castQChar(v any, from, to types.T) (out any, ok bool, err error) {
	switch {
	case from.Kind == types.Int32 && to.Kind == types.String && to.Variant == types.QChar:
		n := v.(int64)
		if n < -128 || n > 127 {
			return nil, true, sqlerr.New(sqlerr.NumericValueOutOfRange, "\"char\" out of range")
		}
		return types.QCharOut(byte(n)), true, nil
	case to.Kind == types.String && to.Variant == types.QChar && from.Variant == types.NoVariant &&
		(from.Kind == types.String || from.Kind == types.Char || from.Kind == types.Name):
		// text, varchar, bpchar and name to "char": "char"(text) reads
		// the text as charin does
		return types.QCharIn(v.(string)), true, nil
	case from.Kind == types.String && from.Variant == types.QChar && to.Kind == types.Int32:
		return int64(int8(types.QCharByte(v.(string)))), true, nil
	}
	return nil, false, nil
}
