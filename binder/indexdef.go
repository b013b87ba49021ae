package binder

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// CheckIndex checks CREATE INDEX's definition d over the table info as
// PostgreSQL 15 does before it builds anything, in its order:
// transformIndexStmt transforms the WHERE predicate, then each expression
// element (a column that does not exist, a subquery, an aggregate, a
// window function, a set-returning function or a parameter is an error
// at its place in the statement; the predicate must be boolean);
// DefineIndex then refuses a predicate that calls a function not
// IMMUTABLE (CheckPredicate), and ComputeIndexAttrs goes through the
// elements in order: a plain column must exist (no position), an
// expression must call immutable functions only; then the INCLUDE
// columns. sqlgate keeps no secondary index, but the statement's answer
// is PostgreSQL's.
func CheckIndex(ctx context.Context, cat Catalog, info fluss.TableInfo, d *sql.DDLStmt) error {
	return CheckIndexWith(ctx, cat, info, d, nil)
}

// CheckIndexWith is CheckIndex with params, the check of the storage
// parameters (WITH), run where DefineIndex checks them: after the access
// method's capabilities, before the predicate's functions and the
// columns.
func CheckIndexWith(ctx context.Context, cat Catalog, info fluss.TableInfo, d *sql.DDLStmt, params func() error) error {
	b := &binder{ctx: ctx, cat: cat}
	cols := info.Descriptor.Schema.Columns
	table := info.Path.Table
	var pred Expr
	if d.IndexWhere != "" {
		e, err := b.bindIndexText(d.IndexWhere, d.IndexWhereAt, table, cols, "index predicate")
		if err != nil {
			return err
		}
		if t := e.Type(); t.Kind != types.Bool && t.Kind != types.Null && !isUnknown(t) {
			return sqlerr.New(sqlerr.DatatypeMismatch, "argument of WHERE must be type boolean, not type %s", t.PGName()).WithPosition(d.IndexWhereAt)
		}
		pred = e
	}
	exprs := make([]Expr, len(d.IndexColumns))
	columns := make([]string, len(d.IndexColumns))
	for i, text := range d.IndexColumns {
		expr, column := indexElement(text)
		if expr == "" {
			columns[i] = column
			continue
		}
		at := 0
		if i < len(d.IndexColumnAt) {
			at = d.IndexColumnAt[i]
		}
		e, err := b.bindIndexText(expr, at, table, cols, "index expression")
		if err != nil {
			return err
		}
		exprs[i] = e
	}
	switch strings.ToLower(d.IndexMethod) {
	case "", "btree", "hash", "gist", "gin", "spgist", "brin":
	default:
		return sqlerr.New(sqlerr.UndefinedObject, "access method \"%s\" does not exist", d.IndexMethod)
	}
	if err := methodCapabilities(d.IndexMethod, len(d.IndexColumns), len(d.IndexInclude)); err != nil { // indexelem.go
		return err
	}
	if params != nil {
		if err := params(); err != nil {
			return err
		}
	}
	if pred != nil && !immutable(pred) {
		return sqlerr.New(sqlerr.InvalidObjectDefinition, "functions in index predicate must be marked IMMUTABLE")
	}
	column := func(name string) (fluss.Column, bool) {
		for _, c := range cols {
			if c.Name == name {
				return c, true
			}
		}
		return fluss.Column{}, false
	}
	for i, e := range exprs {
		var t types.T
		if e == nil {
			c, ok := column(columns[i])
			if !ok {
				return sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" does not exist", columns[i])
			}
			t = c.Type
		} else {
			if _, isCol := e.(*ColumnRef); !isCol && !immutable(e) {
				return sqlerr.New(sqlerr.InvalidObjectDefinition, "functions in index expression must be marked IMMUTABLE")
			}
			t = e.Type()
		}
		if err := defaultOpclass(t, d.IndexMethod); err != nil {
			return err
		}
		e, err := ParseIndexElem(d.IndexColumns[i]) // indexelem.go
		if err != nil {
			return err
		}
		if err := elemOptions(e, t, d.IndexMethod); err != nil {
			return err
		}
	}
	for _, text := range d.IndexInclude {
		if _, name := indexElement(text); name != "" {
			if _, ok := column(name); !ok {
				return sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" does not exist", name)
			}
		}
	}
	return nil
}

// bindIndexText binds an index expression or predicate (kind, PostgreSQL's
// ParseExprKindName less its plural) written at 1-based character
// position at of the statement over the table's columns; its errors point
// into the statement.
func (b *binder) bindIndexText(text string, at int, table string, cols []fluss.Column, kind string) (Expr, error) {
	// the expression is parsed as "SELECT <text>": a position past
	// those 7 characters is one in text
	place := func(err error) error {
		se := sqlerr.As(err)
		if se == nil || se.Position <= len("SELECT ") || at <= 0 {
			return withoutPosition(err)
		}
		return se.WithPosition(se.Position - len("SELECT ") + at - 1)
	}
	x, err := parseExprText(text)
	if err != nil {
		return nil, place(err)
	}
	sub := &binder{ctx: b.ctx, cat: b.cat, stmt: x.st, funcUses: b.funcUses}
	// a subquery or a parameter is refused where the walk meets it;
	// an error binding reports what it met first (an earlier place)
	var refused *sqlerr.Error
	pt.Walk(x.tree, func(n pt.Expr) bool {
		if refused != nil {
			return false
		}
		switch n := n.(type) {
		case *pt.Subquery, *pt.Exists:
			refused = sub.errAt(n, sqlerr.New(sqlerr.FeatureNotSupported, "cannot use subquery in %s", kind))
		case *pt.InSubquery: // x [NOT] IN (query) points at its operator
			refused = sub.errAt(n.Query, sqlerr.New(sqlerr.FeatureNotSupported, "cannot use subquery in %s", kind))
			if at := inOperatorAt("SELECT "+text, refused.Position); at > 0 {
				refused = refused.WithPosition(at)
			}
		case *pt.Param:
			refused = sub.errAt(n, sqlerr.New(sqlerr.UndefinedParameter, "there is no parameter $%d", n.Order+1))
		}
		return refused == nil
	})
	restoreSRF := sub.refuseSetCalls(kind + "s")
	restoreAgg := sub.refuseAggregates(kind + "s")
	e, err := sub.bindTree(sub.tableScope(table, cols), x.tree)
	restoreAgg()
	restoreSRF()
	if err != nil {
		err = sub.argumentsFirst(x, text, cols, err)
	}
	if refused != nil {
		if se := sqlerr.As(err); se == nil || se.Position == 0 || refused.Position > 0 && refused.Position <= se.Position {
			return nil, place(refused)
		}
	}
	if err != nil {
		return nil, place(err)
	}
	if kind == "index predicate" && isUnknown(e.Type()) {
		// a literal predicate is read as a boolean ('x' is 22P02 there)
		if e, err = sub.coerceUnknown(x.tree, e, types.BoolType); err != nil {
			return nil, place(err)
		}
	}
	return e, nil
}

// indexElement splits an element of CREATE INDEX's column list as written
// (PostgreSQL's index_elem): a parenthesised expression or a function
// call is expr (its text, without the COLLATE, operator class and
// ordering after it); else the element is a column, named as the grammar
// folds it.
func indexElement(text string) (expr, column string) {
	expr, column, _ = indexElementRest(text)
	return expr, column
}

// indexElementRest is indexElement and the text written after the
// expression or column (COLLATE, operator class, ordering).
func indexElementRest(text string) (expr, column, rest string) {
	t := strings.TrimSpace(text)
	if t == "" {
		return "", "", ""
	}
	if t[0] == '(' {
		end := closingParen(t, 0) + 1
		return t[:end], "", t[end:]
	}
	// a name, possibly qualified: a call when "(" follows it
	i := 0
	for i < len(t) {
		if t[i] == '"' {
			j := i + 1
			for j < len(t) && (t[j] != '"' || j+1 < len(t) && t[j+1] == '"') {
				if t[j] == '"' {
					j++
				}
				j++
			}
			i = j + 1
		} else {
			for i < len(t) && !strings.ContainsRune(" \t\r\n(.\"", rune(t[i])) {
				i++
			}
		}
		if i < len(t) && t[i] == '.' {
			i++
			continue
		}
		break
	}
	rest = strings.TrimLeft(t[min(i, len(t)):], " \t\r\n")
	if strings.HasPrefix(rest, "(") {
		open := len(t) - len(rest)
		end := closingParen(t, open) + 1
		return t[:end], "", t[end:]
	}
	name := t[:min(i, len(t))]
	if strings.HasPrefix(name, `"`) {
		return "", strings.ReplaceAll(strings.Trim(name, `"`), `""`, `"`), rest
	}
	return "", strings.ToLower(name), rest
}

// closingParen is the offset of the parenthesis closing the one at open in
// t (quotes skipped), or t's last offset.
func closingParen(t string, open int) int {
	if i := scanParens(t, open, func(i, depth int) bool { return t[i] == ')' && depth == 0 }); i >= 0 {
		return i
	}
	return len(t) - 1
}

// defaultOpclass is 42704 for a key of type t that the access method
// (btree when not written; hash alike) has no default operator class for:
// json, which has no equality (GetDefaultOpClass's error).
func defaultOpclass(t types.T, method string) error {
	m := strings.ToLower(method)
	if m == "" {
		m = "btree"
	}
	if m != "btree" && m != "hash" || t.Nullable().PGName() != "json" {
		return nil
	}
	return sqlerr.New(sqlerr.UndefinedObject, "data type json has no default operator class for access method \"%s\"", m).
		WithHint("You must specify an operator class for the index or define a default operator class for the data type.")
}

// argumentsFirst is err, a refusal of an aggregate, window or
// set-returning call in the index expression x, or the error of a column
// its arguments name that the table lacks: PostgreSQL transforms a call's
// arguments before it checks where the call stands, so sum(nope) is 42703
// at nope. Only a column inside the refused call's parentheses counts.
func (sub *binder) argumentsFirst(x exprText, text string, cols []fluss.Column, err error) error {
	se := sqlerr.As(err)
	if se == nil || se.Position <= 0 || se.Code != sqlerr.GroupingError && se.Code != sqlerr.WindowingError && se.Code != sqlerr.FeatureNotSupported {
		return err
	}
	// positions are in "SELECT " + text, in characters
	src := "SELECT " + text
	runes := []rune(src)
	open := se.Position - 1
	for open < len(runes) && runes[open] != '(' {
		open++
	}
	if open >= len(runes) {
		return err
	}
	end := len([]rune(src[:closingParen(src, len(string(runes[:open])))+1]))
	var missing *sqlerr.Error
	pt.Walk(x.tree, func(n pt.Expr) bool {
		if missing != nil {
			return false
		}
		c, ok := n.(*pt.ColumnRef)
		if !ok || c.Schema != "" || c.Table != "" || slices.ContainsFunc(cols, func(col fluss.Column) bool { return col.Name == c.Name }) {
			return true
		}
		if e := sub.errAt(c, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" does not exist", c.Name)); e.Position > se.Position && e.Position <= end {
			missing = e
		}
		return missing == nil
	})
	if missing != nil {
		return missing
	}
	return err
}

// inOperatorAt is the 1-based position of the IN (or the NOT of NOT IN)
// before the subquery at 1-based position query in text, 0 when the text
// does not read so.
func inOperatorAt(text string, query int) int {
	r := []rune(text)
	i := query - 2
	skip := func() {
		for i >= 0 && (r[i] == ' ' || r[i] == '\t' || r[i] == '\n' || r[i] == '\r') {
			i--
		}
	}
	skip()
	if i < 1 || !strings.EqualFold(string(r[i-1:i+1]), "in") {
		return 0
	}
	at := i // 1-based position of I
	i -= 2
	skip()
	if i >= 2 && strings.EqualFold(string(r[i-2:i+1]), "not") {
		return i - 1
	}
	return at
}

// columnTypeErr places err, CREATE TABLE's error for the type tn of column
// name: a type that does not exist points at the type's name, as
// PostgreSQL's typenameType reports it, and a schema-qualified one is
// named as written (3F000 when its schema does not exist); other errors
// at the column.
func (b *binder) columnTypeErr(cd sourceNode, name string, tn *sql.TypeName, err error) error {
	se := sqlerr.As(err)
	if se == nil || se.Code != sqlerr.UndefinedObject || b.stmt == nil {
		return b.errAt(cd, se)
	}
	if leaf, _ := typeLeaf(tn); leaf.Schema != "" {
		se = sqlerr.As(b.missingQualifiedType(tn))
	}
	if i := columnTypeIndex(b.stmt.Text, name); i > 0 {
		return se.WithPosition(b.stmt.Position(0) + i)
	}
	return b.errAt(cd, se)
}

// columnTypeIndex is the index, in characters, of the type of column name
// in CREATE TABLE's text: what follows the name where it starts an element
// of the first parenthesised list; 0 when the text does not read so.
func columnTypeIndex(text, name string) int {
	r := []rune(text)
	depth := 0
	elementStart := false
	space := func(c rune) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == '\'':
			for i++; i < len(r) && r[i] != '\''; i++ {
			}
			continue
		case c == '(':
			depth++
			elementStart = depth == 1
			continue
		case c == ')':
			depth--
			continue
		case c == ',' && depth == 1:
			elementStart = true
			continue
		case space(c):
			continue
		}
		if !elementStart || depth != 1 {
			continue
		}
		elementStart = false
		j := i
		var word string
		if c == '"' {
			for j = i + 1; j < len(r) && r[j] != '"'; j++ {
			}
			word = string(r[i+1 : min(j, len(r))])
			j++
		} else {
			for j < len(r) && !space(r[j]) && r[j] != ',' && r[j] != '(' && r[j] != ')' {
				j++
			}
			word = strings.ToLower(string(r[i:j]))
		}
		if word != name {
			i = j - 1
			continue
		}
		for j < len(r) && space(r[j]) {
			j++
		}
		return j
	}
	return 0
}

// IndexColumnNames are PostgreSQL's ChooseIndexColumnNames of CREATE
// INDEX's key elements and INCLUDE columns, as written: a column's name,
// an expression's FigureIndexColname (a call's function name, a cast's
// operand or type name ...) or "expr", a number after a name met before.
func IndexColumnNames(elems, include []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, text := range append(slices.Clone(elems), include...) {
		expr, name := indexElement(text)
		if expr != "" {
			name = ""
			if x, err := parseExprText(expr); err == nil {
				name, _ = (&binder{stmt: x.st}).figureColname(x.tree) // (isPipes reads the statement's text)
			}
			if name == "" {
				name = "expr"
			}
		}
		cur := name
		for n := 1; seen[cur]; n++ {
			suffix := strconv.Itoa(n)
			cur = name
			if len(cur) > 63-len(suffix) {
				cur = clipChars(cur, 63-len(suffix))
			}
			cur += suffix
		}
		seen[cur] = true
		out = append(out, cur)
	}
	return out
}

// IndexName is PostgreSQL's ChooseIndexName for an index that is not a
// constraint's: table_col1_col2_idx over IndexColumnNames, cut to 63
// bytes, a number after "idx" while the name is taken in the schema.
func IndexName(table string, colnames []string, taken func(string) bool) string {
	addition := strings.Join(colnames, "_")
	if len(addition) > 63 {
		addition = clipChars(addition, 63)
	}
	for n := 0; ; n++ {
		label := "idx"
		if n > 0 {
			label += strconv.Itoa(n)
		}
		if name := objectName(table, addition, label); !taken(name) {
			return name
		}
	}
}
