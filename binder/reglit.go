package binder

import (
	"context"

	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"strings"
)

// regLiteral runs the input function of the reg* type v over the literal
// c now, as PostgreSQL's parser does when it coerces a constant
// ('nope'::regclass, nextval('nope')): a name that does not exist is the
// bind's error, pointing at the literal. The call stays in the plan (the
// name is looked up again when it runs, after DDL too). Without a catalog
// in the binder's context, or for a reg* type whose names the input
// function does not read (0A000), nothing is checked here. In a stored
// expression bound again (binder.storedIn) the name was checked when it
// was stored; an unqualified one is made its table schema's, so that an
// identity column's nextval('t_id_seq') works under pg_dump's empty
// search path.
func (b *binder) regLiteral(c *Const, v types.Variant) error {
	s, ok := c.Value.(string)
	if !ok {
		return nil
	}
	if b.storedIn != "" {
		if oneNamePart(s) {
			c.Value = quoteIdentIfNeeded(b.storedIn) + "." + s
		}
		return nil
	}
	oid, err := functions.RegIn(b.ctx, v, s)
	if err == nil && b.regNames != nil && v == types.RegClass && oneNamePart(s) {
		b.regNames[s] = oid
	}
	se := sqlerr.As(err)
	if se == nil || se.Code == sqlerr.FeatureNotSupported {
		return nil
	}
	if c.At > 0 && b.stmt != nil {
		return se.WithPosition(b.stmt.Position(c.At - 1))
	}
	return se
}

// oneNamePart reports whether s, a reg* literal's text, is a single name
// (a word, or one quoted name) rather than a qualified name or an OID.
func oneNamePart(s string) bool {
	if t := strings.TrimSpace(s); t == "" || strings.Trim(t, "0123456789") == "" {
		return false
	}
	names, ok := types.SplitIdentifierString(s, '.')
	return ok && len(names) == 1
}

// qualifyRegNames is a DEFAULT's text to store for a table of schema:
// each single-name regclass literal the bind resolved (regNames, e.g.
// nextval('s')) and that the table's schema would not resolve to the
// same relation when the text is bound again (binder.storedIn) is
// qualified with the schema the search path found it in, as PostgreSQL
// stores the OID the name had when the default was made.
func qualifyRegNames(ctx context.Context, text, schema string, regNames map[string]uint32) string {
	if len(regNames) == 0 {
		return text
	}
	path, _ := functions.SearchPathOf(ctx)
	for name, oid := range regNames {
		if again, err := functions.RegIn(ctx, types.RegClass, quoteIdentIfNeeded(schema)+"."+name); err == nil && again == oid {
			continue
		}
		for _, sc := range path {
			q := quoteIdentIfNeeded(sc) + "." + name
			if found, err := functions.RegIn(ctx, types.RegClass, q); err == nil && found == oid {
				text = strings.ReplaceAll(text, quoteLiteral(name), quoteLiteral(q))
				break
			}
		}
	}
	return text
}
