package pgcatalog

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/deparse"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/internal/pgproc"
	"github.com/sqlgate/sqlgate/types"
)

// The catalog's expressions as PostgreSQL's deparser prints them
// (package deparse): pg_get_expr of pg_attrdef.adbin and
// pg_constraint.conbin, pg_get_constraintdef of a CHECK,
// information_schema's column_default, generation_expression and
// check_clause. The metadata keeps each expression's text as written,
// which is printed when the catalog is read (deparse's doc says why); an
// expression the deparser does not reproduce shows as written.
//
// adbin is the column's number and its expression's text, in the form
// {EXPR :adnum 3 :text <text>} (PostgreSQL's adbin is a node tree, which
// no client reads as more than pg_get_expr's argument): a default is
// converted to its column's type, which the text alone does not say when
// two columns share it.

const adbinPrefix = "{EXPR :adnum "

// adbinText is a column's pg_attrdef.adbin.
func adbinText(attnum int, text string) string {
	return fmt.Sprintf("%s%d :text %s}", adbinPrefix, attnum, text)
}

// argDefaultsPrefix starts pg_proc.proargdefaults of a LANGUAGE sql
// function with defaults: a list (as PostgreSQL's node tree of the default
// expressions is) of one node holding their text, which pg_get_expr
// prints as PostgreSQL prints the list ("1, 'x'::text"). sqlgate keeps no
// expression trees; the text is what readers of the column print.
const argDefaultsPrefix = "({FUNCDEFAULTS :text "

// argDefaultsNode is proargdefaults of the defaults' texts.
func argDefaultsNode(defaults []string) string {
	return argDefaultsPrefix + strings.Join(defaults, ", ") + "})"
}

// parseArgDefaultsNode reads argDefaultsNode's form (ok false for another
// text).
func parseArgDefaultsNode(s string) (string, bool) {
	rest, ok := strings.CutPrefix(s, argDefaultsPrefix)
	if !ok || !strings.HasSuffix(rest, "})") {
		return "", false
	}
	return strings.TrimSuffix(rest, "})"), true
}

// parseAdbin reads adbinText's form (ok false for another text).
func parseAdbin(s string) (attnum int, text string, ok bool) {
	rest, found := strings.CutPrefix(s, adbinPrefix)
	if !found || !strings.HasSuffix(rest, "}") {
		return 0, "", false
	}
	num, text, found := strings.Cut(rest[:len(rest)-1], " :text ")
	if !found {
		return 0, "", false
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		return 0, "", false
	}
	return n, text, true
}

// tableScope is the scope a table's stored expressions are bound over:
// its columns with the types they show.
func (c *Catalog) tableScope(t fluss.TableInfo) deparse.Scope {
	return c.scopeOf(t, fluss.MetaOf(t.Descriptor))
}

// scopeOf is tableScope given t's metadata.
func (c *Catalog) scopeOf(t fluss.TableInfo, meta fluss.TableMeta) deparse.Scope {
	sc := deparse.Scope{Types: catalogTypes{c}, Schema: t.Path.Database, Functions: c.userFunctions()}
	for i, col := range t.Descriptor.Schema.Columns {
		m := meta.Column(i)
		// the store's descriptor names an enum column's type by OID alone:
		// the registry resolves it, so that the deparser knows it
		dc := deparse.Column{Name: col.Name, Type: c.opts.Types.Bind(shownType(col.Type, m))}
		if oid, array, ok := fluss.ParseOIDPGType("domain", m.PGType); ok && !array {
			dc.Domain = c.opts.Types.Domain(oid)
		}
		sc.Columns = append(sc.Columns, dc)
	}
	return sc
}

// defaultText is pg_get_expr of column i's default (or generation
// expression) text, over its table's scope sc.
func defaultText(sc deparse.Scope, i int, text string, pretty bool) string {
	if out, err := deparse.Default(text, sc, sc.Columns[i].Type, pretty); err == nil {
		return out
	}
	return text
}

// userFunctions are the scalar UDFs (in public, as pg_proc lists them:
// udfprocs.go) stored expressions and views may call, for the deparser.
func (c *Catalog) userFunctions() []deparse.Function {
	if c.opts.UDFs == nil {
		return nil
	}
	reg := c.opts.UDFs()
	var out []deparse.Function
	for _, name := range reg.Names() {
		for _, s := range reg.Scalars(name) {
			f := deparse.Function{Schema: fluss.DefaultDatabase, Name: name, Args: s.Args, Ret: s.Returns, ArgNames: s.ArgNames}
			if sf := s.SQL; sf != nil {
				if sf.SetOf {
					continue // not a plain scalar call
				}
				f.Variadic = sf.Variadic
				for i := len(sf.Defaults) - 1; i >= 0 && sf.Defaults[i] != ""; i-- {
					f.Defaults++
				}
				if sf.Params != nil {
					// the IN and INOUT parameters' names, as Args
					f.ArgNames = nil
					for _, p := range sf.Params {
						if p.Mode != 'o' {
							f.ArgNames = append(f.ArgNames, p.Name)
						}
					}
				}
			}
			if len(f.ArgNames) != len(f.Args) || !slices.ContainsFunc(f.ArgNames, func(n string) bool { return n != "" }) {
				f.ArgNames = nil
			}
			out = append(out, f)
		}
	}
	return out
}

// sessionScope is sc printed under the search path of the session in ctx
// (pg_get_expr and pg_get_constraintdef qualify the types and relations
// outside it, as PostgreSQL's do): unchanged without one.
func sessionScope(ctx context.Context, sc deparse.Scope) deparse.Scope {
	path, ok := functions.SearchPathOf(ctx)
	if !ok {
		return sc
	}
	sc.Visible = func(schema string) bool {
		for _, s := range path {
			if s == schema {
				return true
			}
		}
		return false
	}
	return sc
}

// checkText is pg_get_constraintdef of a table's CHECK (in the session's
// search path when ctx carries one).
func (c *Catalog) checkText(ctx context.Context, t fluss.TableInfo, ch fluss.CheckConstraint, pretty bool) string {
	if out, err := deparse.Check(ch.Expr, sessionScope(ctx, c.tableScope(t)), ch.NotValid, pretty); err == nil {
		return out
	}
	def := "CHECK (" + ch.Expr + ")"
	if ch.NotValid {
		def += " NOT VALID"
	}
	return def
}

// domainCheckText is pg_get_constraintdef of a domain's CHECK, VALUE of
// its base type (ok false when the deparser does not reproduce it).
func domainCheckText(base types.T, expr string, notValid, pretty bool) (string, bool) {
	out, err := deparse.Check(expr, deparse.Scope{Value: &base}, notValid, pretty)
	return out, err == nil
}

// ExprDef implements functions.ExprDefs: pg_get_expr of an adbin or
// conbin of the relation with OID relid.
func (c *Catalog) ExprDef(ctx context.Context, expr string, relid uint32, pretty bool) (string, bool, error) {
	if text, ok := strings.CutPrefix(expr, domainDefaultPrefix); ok && relid == pgTypeOID {
		return strings.TrimSuffix(text, "}"), true, nil // domains.go
	}
	if text, ok := parseArgDefaultsNode(expr); ok {
		return text, true, nil // a user function's proargdefaults
	}
	if strings.HasPrefix(expr, "({") {
		// a built-in's proargdefaults (PostgreSQL's node tree, pgprocrows.go)
		if text, ok := pgproc.ArgDefaultsText(expr); ok {
			return text, true, nil
		}
	}
	t, index, sp, ok, err := c.relation(ctx, relid)
	if err != nil || !ok || index || sp != nil {
		return "", false, err
	}
	if attnum, text, isDefault := parseAdbin(expr); isDefault {
		if attnum < 1 || attnum > len(t.Descriptor.Schema.Columns) {
			return text, true, nil
		}
		return defaultText(sessionScope(ctx, c.tableScope(t)), attnum-1, text, pretty), true, nil
	}
	out, err := deparse.Expr(expr, sessionScope(ctx, c.tableScope(t)), pretty)
	if err != nil {
		return "", false, nil
	}
	return out, true, nil
}

// infoCheckConstraintRows are information_schema.check_constraints: the
// tables' and domains' CHECKs, check_clause pg_get_constraintdef's text
// after "CHECK " (PostgreSQL's view takes substring(.. from 7)), and a
// row per NOT NULL column (x IS NOT NULL, named as table_constraints
// names it).
func (c *Catalog) infoCheckConstraintRows(_ context.Context, s *snapshot) ([]row, error) {
	var rows []row
	mk := func(schema, name, def string) row {
		return row{"constraint_catalog": c.opts.Database, "constraint_schema": schema, "constraint_name": name,
			"check_clause": strings.TrimPrefix(def, "CHECK ")}
	}
	for _, t := range s.tables {
		for _, ch := range fluss.MetaOf(t.Descriptor).Checks {
			rows = append(rows, mk(t.Path.Database, ch.Name, c.checkText(context.Background(), t, ch, false)))
		}
		for i, col := range t.Descriptor.Schema.Columns {
			if col.Type.NotNull {
				name := strconv.FormatUint(uint64(namespaceOID(t.Path.Database)), 10) + "_" + strconv.FormatUint(uint64(RelationOID(t.TableID)), 10) +
					"_" + strconv.Itoa(i+1) + "_not_null"
				rows = append(rows, mk(t.Path.Database, name, "CHECK "+col.Name+" IS NOT NULL"))
			}
		}
	}
	for _, d := range c.domainList() {
		for _, ch := range d.Checks {
			if def, ok := c.domainConstraintDef(ch.OID, false); ok {
				rows = append(rows, mk(d.Schema, ch.Name, def))
			}
		}
	}
	return rows, nil
}
