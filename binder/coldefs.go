package binder

import (
	"cmp"
	"context"
	"fmt"
	"github.com/sqlgate/sqlgate/pgtypes"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Column defaults, identity and SERIAL columns and CHECK constraints of
// CREATE TABLE: bound here with PostgreSQL's rules and errors, kept in the
// table's metadata (fluss.TableMeta) as PostgreSQL text, and bound again
// from that text by every INSERT, COPY and UPDATE that needs them.

// NewSequence is a sequence CREATE TABLE creates for a SERIAL or identity
// column before it creates the table.
type NewSequence struct {
	Path fluss.TablePath
	Def  fluss.SequenceDef
	// Column is the column (its index) whose values the sequence gives.
	Column int
}

// serialTypes are the SERIAL pseudo-types and the integer each stands for.
var serialTypes = map[string]types.T{
	"smallserial": types.Int16Type, "serial2": types.Int16Type,
	"serial": types.Int32Type, "serial4": types.Int32Type,
	"bigserial": types.Int64Type, "serial8": types.Int64Type,
}

// sequenceTypeName is the sequence data type of an integer column.
func sequenceTypeName(t types.T) (string, bool) {
	switch t.Kind {
	case types.Int16:
		return "smallint", true
	case types.Int32:
		return "integer", true
	case types.Int64:
		return "bigint", true
	}
	return "", false
}

// bindColumnMeta completes desc (whose columns are bound) with the
// statement's DEFAULT clauses, SERIAL and identity columns and CHECK
// constraints, with the CHECK constraints and identity columns LIKE
// copied (like, createlike.go), and returns the sequences those columns
// need.
func (b *binder) bindColumnMeta(path fluss.TablePath, desc *fluss.TableDescriptor, serial map[string]bool, unconstrained map[int]bool, like *likeExtras) ([]NewSequence, error) {
	st := b.stmt
	if len(st.ColumnDefaults) == 0 && len(st.Identity) == 0 && len(st.Checks) == 0 && len(serial) == 0 && len(unconstrained) == 0 && len(st.Generated) == 0 && like.empty() {
		return nil, nil
	}
	table := path.Table
	cols := desc.Schema.Columns
	meta := fluss.MetaOf(*desc)
	var seqs []NewSequence
	for i := range cols {
		c := &cols[i]
		m := &meta.Columns[i]
		if unconstrained[i] && m.PGType == "" { // (a domain's column keeps its domain: noteDomainColumns)
			m.PGType = "numeric"
		}
		id := st.Identity[c.Name]
		def, hasDefault := st.ColumnDefaults[c.Name]
		var likeID fluss.SequenceDef
		isLikeID := false
		if like != nil {
			likeID, isLikeID = like.identity[i]
		}
		switch {
		case isLikeID:
			// LIKE ... INCLUDING IDENTITY: a sequence of its own with the
			// source's options (its identity kind came with the column).
			likeID.OwnedBy, likeID.OwnedColumn, likeID.Identity = path, c.Name, true
			name := sequenceName(table, c.Name)
			m.Sequence = name
			seqs = append(seqs, NewSequence{Path: fluss.TablePath{Database: path.Database, Table: name}, Def: likeID, Column: i})
		case st.Generated[c.Name] != nil:
			if serial[c.Name] {
				return nil, errDefaultAndGenerated(c.Name, table, st.Generated[c.Name].At)
			}
			text, err := b.bindGeneratedColumn(st.Generated[c.Name], table, cols, i, meta) // generated.go
			if err != nil {
				return nil, err
			}
			m.Generated = text
		case serial[c.Name]:
			if hasDefault {
				return nil, sqlerr.New(sqlerr.SyntaxError, "multiple default values specified for column \"%s\" of table \"%s\"", c.Name, table)
			}
			if id != nil {
				return nil, sqlerr.New(sqlerr.SyntaxError, "both default and identity specified for column \"%s\" of table \"%s\"", c.Name, table)
			}
			name := sequenceName(table, c.Name)
			typ, _ := sequenceTypeName(c.Type)
			sd, _, err := ResolveSequence(name, nil, sql.SequenceOptions{Type: typ})
			if err != nil {
				return nil, err
			}
			sd.OwnedBy, sd.OwnedColumn = path, c.Name
			c.Type.NotNull = true
			m.Sequence = name
			m.Default = nextvalIn(path.Database, name)
			seqs = append(seqs, NewSequence{Path: fluss.TablePath{Database: path.Database, Table: name}, Def: sd, Column: i})
		case id != nil:
			if hasDefault {
				return nil, sqlerr.New(sqlerr.SyntaxError, "both default and identity specified for column \"%s\" of table \"%s\"", c.Name, table).WithPosition(def.Pos)
			}
			seq, err := IdentitySequence(path, *c, i, id)
			if err != nil {
				return nil, err
			}
			c.Type.NotNull = true
			m.Identity = 'd'
			if id.Always {
				m.Identity = 'a'
			}
			m.Sequence = seq.Path.Table
			seqs = append(seqs, seq)
		case hasDefault:
			e, err := b.bindDefaultText(def.Expr, *c, table, "")
			if lengthAtUse(err) {
				m.Default = keptExprText(def.Expr)
				break
			}
			if err != nil {
				if se := sqlerr.As(err); se != nil && se.Position == 0 {
					return nil, se.WithPosition(def.Pos)
				}
				return nil, err
			}
			if k, ok := e.(*Const); ok && k.Value == nil && !nullDefaultKept(c.Type, *m) {
				break // PostgreSQL keeps no default for DEFAULT NULL
			}
			m.Default = qualifyRegNames(b.ctx, keptExprText(def.Expr), path.Database, b.regNames) // reglit.go
		}
	}
	var copied []fluss.CheckConstraint
	if like != nil {
		copied = like.checks
	}
	checks, err := b.bindChecks(path, cols, copied, st.Checks)
	if err != nil {
		return nil, err
	}
	meta.Checks = checks
	fluss.SetTableMeta(desc, meta)
	return seqs, nil
}

// sequenceName is the name PostgreSQL gives a SERIAL or identity column's
// sequence: table_column_seq, shortened as makeObjectName does
// (objectName, fkeys.go).
// IdentitySequence is the sequence an identity column (column i of the
// table at path, c) draws from, as GENERATED ... AS IDENTITY's options
// define it: CREATE TABLE's and ALTER TABLE ... ADD GENERATED's. Its
// schema is the table's unless SEQUENCE NAME says another.
func IdentitySequence(path fluss.TablePath, c fluss.Column, i int, id *sql.IdentityClause) (NewSequence, error) {
	typ, ok := sequenceTypeName(c.Type)
	if !ok {
		return NewSequence{}, sqlerr.New(sqlerr.InvalidParameterValue, "identity column type must be smallint, integer, or bigint")
	}
	opts := id.Options
	if opts.Type != "" {
		return NewSequence{}, sqlerr.New(sqlerr.SyntaxError, "AS type is not allowed in an identity column's sequence options")
	}
	opts.Type = typ
	seqPath := fluss.TablePath{Database: path.Database, Table: sequenceName(path.Table, c.Name)}
	if n := opts.SequenceName; n != nil {
		seqPath.Table = n.Name
		if n.Schema != "" {
			seqPath.Database = n.Schema
		}
	}
	sd, _, err := ResolveSequence(seqPath.Table, nil, opts)
	if err != nil {
		return NewSequence{}, err
	}
	sd.OwnedBy, sd.OwnedColumn, sd.Identity = path, c.Name, true
	return NewSequence{Path: seqPath, Def: sd, Column: i}, nil
}

func sequenceName(table, column string) string {
	return objectName(table, column, "seq")
}

// NextvalText is the default of a SERIAL column drawing from seq, as
// PostgreSQL prints it.
func NextvalText(seq string) string {
	return "nextval(" + quoteLiteral(quoteIdentIfNeeded(seq)) + "::regclass)"
}

// nextvalIn is the default drawing from sequence name of schema: bare in
// public, schema-qualified elsewhere (each part quoted where it must be),
// so that it finds the sequence whatever the search path.
func nextvalIn(schema, name string) string {
	if schema == "" || schema == fluss.DefaultDatabase {
		return NextvalText(name)
	}
	return "nextval(" + quoteLiteral(quoteIdentIfNeeded(schema)+"."+quoteIdentIfNeeded(name)) + "::regclass)"
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// quoteIdentIfNeeded quotes a name that is not a plain lower-case
// identifier, as quote_ident does.
func quoteIdentIfNeeded(s string) string {
	plain := s != ""
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r == '_' || i > 0 && (r >= '0' && r <= '9' || r == '$')) {
			plain = false
		}
	}
	if plain {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// exprRefusal finds what an expression of the given kind ("DEFAULT",
// "check constraint") may not contain, with PostgreSQL's error (walking
// the tree with visit).
type exprRefusal struct {
	what     string
	allowCol bool
	err      error
}

// visit is the refusal's tree.Walk function: the first construct refused
// sets err.
func (v *exprRefusal) visit(n pt.Expr) bool {
	if v.err != nil {
		return false
	}
	switch n := n.(type) {
	case *pt.ColumnRef:
		if !v.allowCol {
			v.err = sqlerr.New(sqlerr.FeatureNotSupported, "cannot use column reference in %s expression", v.what)
		}
	case *pt.Subquery:
		v.err = sqlerr.New(sqlerr.FeatureNotSupported, "cannot use subquery in %s", v.what+" expression")
		if v.what == "check constraint" || v.what == executeParameter {
			v.err = sqlerr.New(sqlerr.FeatureNotSupported, "cannot use subquery in %s", v.what)
		}
	case *pt.FuncCall:
		switch {
		case n.Over != nil:
			v.err = sqlerr.New(sqlerr.WindowingError, "window functions are not allowed in %s", v.plural())
		case n.Aggregate:
			v.err = sqlerr.New(sqlerr.GroupingError, "aggregate functions are not allowed in %s", v.plural())
		}
	case *pt.Param:
		v.err = sqlerr.New(sqlerr.UndefinedParameter, "there is no parameter $%d", 1)
	}
	return v.err == nil
}

// plural is PostgreSQL's ParseExprKindName of the expression kind.
func (v *exprRefusal) plural() string {
	if v.what == "DEFAULT" {
		return "DEFAULT expressions"
	}
	if v.what == executeParameter {
		return "EXECUTE parameters"
	}
	return "check constraints"
}

// bindDefaultText binds a column's DEFAULT expression (stored or as
// written) and converts it to the column's type with assignment rules.
// storedIn is "" for a DEFAULT as written, which gets PostgreSQL's
// CREATE-time checks (no column references, subqueries, aggregates ...)
// and its type-mismatch message; for a stored one, the schema of its
// table.
func (b *binder) bindDefaultText(text string, col fluss.Column, table, storedIn string) (Expr, error) {
	creating := storedIn == ""
	x, err := parseExprText(text) // exprbind.go
	if err != nil {
		return nil, err
	}
	v := &exprRefusal{what: "DEFAULT"}
	pt.Walk(x.tree, v.visit)
	if v.err != nil {
		return nil, v.err
	}
	sub := &binder{ctx: b.ctx, cat: b.cat, stmt: x.st, funcUses: b.funcUses, storedIn: storedIn}
	if creating {
		sub.regNames = map[string]uint32{}
		b.regNames = sub.regNames // the caller's, for qualifyRegNames
	}
	e, err := sub.bindTree(nil, x.tree)
	if err != nil {
		return nil, withoutPosition(err)
	}
	out, err := sub.assign(nil, e, col.Name, col.Type.Nullable(), table)
	if err != nil {
		if creating && sqlerr.CodeOf(err) == sqlerr.DatatypeMismatch {
			return nil, sqlerr.New(sqlerr.DatatypeMismatch, "column \"%s\" is of type %s but default expression is of type %s", col.Name, col.Type.Nullable().PGName(), e.Type().PGName()).
				WithHint("You will need to rewrite or cast the expression.")
		}
		return nil, withoutPosition(err)
	}
	return out, nil
}

// lengthAtUse reports whether err, binding a DEFAULT at CREATE TABLE or
// ALTER COLUMN SET DEFAULT, is a value too long for the column's length
// (varchar(3) DEFAULT 'abcd'): PostgreSQL reads the literal without the
// length there and applies the length where the default is used, so the
// declaration stands and the INSERT that takes the default fails.
func lengthAtUse(err error) bool {
	return err != nil && sqlerr.CodeOf(err) == sqlerr.StringDataRightTruncation
}

// withoutPosition drops an error's position: it points into the text of
// a stored expression, not into the statement the client sent.
func withoutPosition(err error) error {
	if se := sqlerr.As(err); se != nil && se.Position != 0 {
		return se.WithPosition(0)
	}
	return err
}

// defaultDisplay is the text kept for a DEFAULT, close to what
// PostgreSQL's deparser prints for it (pg_get_expr), and bindable again:
// a string literal carries its column's type ('x'::text), a negative
// number is quoted and cast ('-1'::integer), SQL-standard value keywords
// are upper case; anything else is kept as written.
func defaultDisplay(text string, e Expr, t types.T) string {
	trimmed := strings.TrimSpace(text)
	if k, ok := e.(*Const); ok {
		// a quoted literal becomes a constant of the column's type, which
		// PostgreSQL's deparser prints bare for integer and boolean
		switch v := k.Value.(type) {
		case int64:
			if t.Kind == types.Int32 && v >= 0 && strings.HasPrefix(trimmed, "'") {
				return strconv.FormatInt(v, 10)
			}
		case bool:
			if strings.HasPrefix(trimmed, "'") {
				return strconv.FormatBool(v)
			}
		}
		if inner := strings.Trim(trimmed, "'"); t.Kind == types.Decimal && strings.HasPrefix(trimmed, "'") && plainDecimal.MatchString(inner) {
			// a numeric constant, which the deparser prints bare unless
			// negative
			return inner
		}
		if strings.HasPrefix(trimmed, "'") && strings.HasSuffix(trimmed, "'") && strings.Count(trimmed, "'")%2 == 0 && !strings.Contains(trimmed[1:len(trimmed)-1], "'") {
			return trimmed + "::" + typeDisplayName(t)
		}
		if m := castLiteral.FindStringSubmatch(trimmed); m != nil && t.IsEnum() {
			// an enum label cast to its type, however the type was named
			// ('new'::public.status): the deparser names the type as
			// format_type does, qualified outside public
			return m[1] + "::" + typeDisplayName(t)
		}
	}
	if n, err := strconv.ParseInt(trimmed, 10, 64); err == nil && n > math.MaxInt32 && trimmed[0] != '+' {
		return "'" + trimmed + "'::bigint" // an int8 constant, which the deparser casts
	}
	if n := strings.TrimPrefix(trimmed, "-"); n != trimmed && isNumberText(n) {
		typ := "integer"
		switch {
		case strings.ContainsAny(n, ".eE"):
			typ = "numeric"
		case len(n) > 9:
			typ = "bigint"
		}
		return "'" + trimmed + "'::" + typ
	}
	if m := nextvalCall.FindStringSubmatch(trimmed); m != nil {
		return "nextval(" + m[1] + "::regclass)" // the deparser shows the argument's regclass cast
	}
	switch lower := strings.ToLower(trimmed); lower {
	case "current_timestamp", "current_date", "current_time", "localtimestamp", "localtime", "current_user", "session_user", "current_role":
		return strings.ToUpper(lower)
	case "true", "false":
		return lower
	}
	return trimmed
}

// plainDecimal is a non-negative decimal number as numeric's output
// prints it (no exponent, no leading zeros).
var plainDecimal = regexp.MustCompile(`^(0|[1-9][0-9]*)(\.[0-9]+)?$`)

// castLiteral is a string literal cast to a type ('x'::s.t).
var castLiteral = regexp.MustCompile(`^('(?:[^']|'')*')::[A-Za-z_][\w."]*$`)

// nextvalCall is nextval('name') as written in a DEFAULT.
var nextvalCall = regexp.MustCompile(`(?i)^nextval\(\s*('(?:[^']|'')*')\s*\)$`)

func isNumberText(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r == '.' || r == 'e' || r == 'E') {
			return false
		}
	}
	return true
}

// typeDisplayName is the type name PostgreSQL's deparser writes after ::
// (format_type without a type modifier for the string types).
func typeDisplayName(t types.T) string {
	t = t.Nullable()
	switch t.Kind {
	case types.String:
		if t.Variant == types.NoVariant {
			if t.Length > 0 {
				return "character varying"
			}
			return "text"
		}
	case types.Char:
		return "bpchar"
	}
	return t.PGName()
}

// ColumnDefault is the expression that gives column i of info its value
// when an INSERT or COPY omits it (or writes DEFAULT): its DEFAULT, the
// next value of its identity sequence, or NULL.
func (b *binder) columnDefault(info fluss.TableInfo, i int) (Expr, error) {
	c := info.Descriptor.Schema.Columns[i]
	m := fluss.MetaOf(info.Descriptor).Column(i)
	text := m.Default
	if m.Sequence != "" && (m.Identity != 0 || text == NextvalText(m.Sequence)) {
		// the column's own sequence is beside its table, whatever the
		// search path (a serial column made before its default was
		// written qualified has it unqualified)
		text = nextvalIn(info.Path.Database, m.Sequence)
	}
	if text == "" {
		text = domainDefault(b.registry(), m.PGType) // domains.go
	}
	if text == "" {
		return &Const{T: c.Type.Nullable()}, nil
	}
	return b.bindDefaultText(text, c, info.Path.Table, cmp.Or(info.Path.Database, fluss.DefaultDatabase))
}

// hasDefault reports whether column i of info gets a value when omitted.
func (b *binder) hasDefault(info fluss.TableInfo, i int) bool {
	m := fluss.MetaOf(info.Descriptor).Column(i)
	return m.Default != "" || m.Identity != 0 || domainDefault(b.registry(), m.PGType) != "" // domains.go
}

// ColumnDefaults binds the defaults of info's columns (nil where a column
// has none): what COPY fills omitted columns with. They are expressions
// without column references, evaluated once per row.
func ColumnDefaults(ctx context.Context, cat Catalog, info fluss.TableInfo) ([]Expr, error) {
	b := &binder{ctx: ctx, cat: cat}
	out := make([]Expr, len(info.Descriptor.Schema.Columns))
	for i := range out {
		if !b.hasDefault(info, i) {
			continue
		}
		e, err := b.columnDefault(info, i)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// checkName is the name PostgreSQL gives an unnamed CHECK constraint:
// table_column_check when it references one column, else table_check,
// with a number appended until it is unique among taken, shortened as
// makeObjectName does.
func checkName(table string, refs []string, taken map[string]bool) string {
	col := ""
	if len(refs) == 1 {
		col = refs[0]
	}
	name := objectName(table, col, "check") // ChooseConstraintName: shortened within 63 bytes
	for n := 1; taken[name]; n++ {
		name = objectName(table, col, fmt.Sprintf("check%d", n))
	}
	return name
}

// tableScope is the scope of a table's own columns, which CHECK
// constraints read. A descriptor names an enum column's type by OID
// alone: the catalog's registry resolves it (its labels, its name).
func (b *binder) tableScope(table string, cols []fluss.Column) *scope {
	sc := &scope{tables: map[string]bool{table: true}}
	reg := b.registry()
	for i, c := range cols {
		sc.cols = append(sc.cols, Column{Name: c.Name, T: reg.Bind(c.Type), Table: table, Ordinal: i + 1})
	}
	return sc
}

// bindCheckText binds a CHECK expression over the table's columns; it
// must be boolean.
func (b *binder) bindCheckText(text, table string, cols []fluss.Column) (Expr, error) {
	x, err := parseExprText(text) // exprbind.go
	if err != nil {
		return nil, err
	}
	v := &exprRefusal{what: "check constraint", allowCol: true}
	pt.Walk(x.tree, v.visit)
	if v.err != nil {
		return nil, v.err
	}
	sub := &binder{ctx: b.ctx, cat: b.cat, stmt: x.st, funcUses: b.funcUses}
	e, err := sub.bindTree(sub.tableScope(table, cols), x.tree)
	if err != nil {
		return nil, withoutPosition(err)
	}
	if t := e.Type(); isUnknown(t) {
		if e, err = sub.coerceUnknown(x.tree, e, types.BoolType); err != nil {
			return nil, withoutPosition(err)
		}
	} else if t.Kind != types.Bool && t.Kind != types.Null {
		return nil, sqlerr.New(sqlerr.DatatypeMismatch, "argument of CHECK must be type boolean, not type %s", t.PGName())
	}
	return e, nil
}

// bindChecks binds CREATE TABLE's CHECK constraints, after those its LIKE
// elements copied (copied), and names the unnamed ones as PostgreSQL
// does, clear of the copied names.
func (b *binder) bindChecks(path fluss.TablePath, cols []fluss.Column, copied []fluss.CheckConstraint, clauses []sql.CheckClause) ([]fluss.CheckConstraint, error) {
	taken := map[string]bool{}
	var out []fluss.CheckConstraint
	for _, c := range copied {
		if taken[c.Name] {
			// Two LIKE sources with a constraint of the same name: PostgreSQL
			// merges equal ones and refuses different ones (42710 either
			// way for differing expressions).
			if i := slices.IndexFunc(out, func(o fluss.CheckConstraint) bool { return o.Name == c.Name }); i >= 0 && out[i].Expr == c.Expr {
				continue
			}
			return nil, sqlerr.ConstraintExists(c.Name, path.Table)
		}
		if _, err := b.bindCheckText(c.Expr, path.Table, cols); err != nil {
			return nil, err
		}
		taken[c.Name] = true
		out = append(out, c)
	}
	named := map[string]bool{}
	for _, c := range clauses {
		if c.Name == "" {
			continue
		}
		if named[c.Name] {
			return nil, sqlerr.New(sqlerr.DuplicateObject, "check constraint \"%s\" already exists", c.Name)
		}
		if taken[c.Name] {
			return nil, sqlerr.ConstraintExists(c.Name, path.Table)
		}
		named[c.Name] = true
	}
	for n := range named {
		taken[n] = true
	}
	for _, c := range clauses {
		// NO INHERIT changes nothing: sqlgate has no table inheritance.
		e, err := b.bindCheckText(c.Expr, path.Table, cols)
		if err != nil {
			if se := sqlerr.As(err); se != nil && se.Position == 0 {
				return nil, se.WithPosition(c.Pos)
			}
			return nil, err
		}
		name := c.Name
		if name == "" {
			name = checkName(path.Table, columnsReferenced(e), taken)
			taken[name] = true
		}
		out = append(out, fluss.CheckConstraint{Name: name, Expr: strings.TrimSpace(c.Expr)})
	}
	return out, nil
}

// columnsReferenced lists the distinct column names e reads, in order.
func columnsReferenced(e Expr) []string {
	var names []string
	Walk(e, func(x Expr) {
		if r, ok := x.(*ColumnRef); ok && !slices.Contains(names, r.Name) {
			names = append(names, r.Name)
		}
	})
	return names
}

// Check is a table's CHECK constraint bound over its columns (a row
// passes unless Expr is false).
type Check struct {
	Name string
	Expr Expr
}

// TableChecks binds info's CHECK constraints, in the order of their names:
// what every write to the table evaluates over the rows it writes.
func TableChecks(ctx context.Context, cat Catalog, info fluss.TableInfo) ([]Check, error) {
	meta := fluss.MetaOf(info.Descriptor)
	if len(meta.Checks) == 0 {
		return nil, nil
	}
	b := &binder{ctx: ctx, cat: cat}
	out := make([]Check, 0, len(meta.Checks))
	for _, c := range meta.Checks {
		e, err := b.bindCheckText(c.Expr, info.Path.Table, info.Descriptor.Schema.Columns)
		if err != nil {
			return nil, err
		}
		out = append(out, Check{Name: c.Name, Expr: e})
	}
	// PostgreSQL fires a table's CHECK constraints in the order of their
	// names (CheckConstraintFetch sorts them with strcmp), so a row that
	// fails several is reported against the first name, not the first
	// constraint made.
	slices.SortStableFunc(out, func(a, b Check) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// columnType is the type of a CREATE TABLE column; SERIAL, BIGSERIAL and
// SMALLSERIAL are their integer types (isSerial), the rest typeFromName's.
func columnType(tn *sql.TypeName, ut TypeCatalog) (t types.T, isSerial bool, err error) {
	if st, ok := serialTypes[tn.Name]; ok && len(tn.Args) == 0 {
		return st, true, nil
	}
	if tn.Elem != nil {
		if _, ok := serialTypes[tn.Elem.Name]; ok {
			return t, false, sqlerr.New(sqlerr.FeatureNotSupported, "array of serial is not implemented")
		}
	}
	t, err = typeFromNameIn(tn, ut)
	return t, false, err
}

// RefuseUnlimitedChar refuses a column whose type holds bpchar without a
// length (at any nesting level): a Fluss CHAR needs one, and the table's
// type would come back as character(1), cutting what bpchar keeps whole.
func RefuseUnlimitedChar(column string, t types.T) error {
	if !hasUnlimitedChar(t) {
		return nil
	}
	return sqlerr.New(sqlerr.FeatureNotSupported, "column %q of type bpchar cannot be stored in a Fluss table", column).
		WithHint("A Fluss CHAR needs a length: declare character(n), or use text.")
}

func hasUnlimitedChar(t types.T) bool {
	switch t.Kind {
	case types.Char:
		return t.Length <= 0
	case types.Array:
		return t.Elem != nil && hasUnlimitedChar(*t.Elem)
	case types.Map:
		return t.Key != nil && hasUnlimitedChar(*t.Key) || t.Elem != nil && hasUnlimitedChar(*t.Elem)
	case types.Row:
		for _, f := range t.Fields {
			if hasUnlimitedChar(f.Type) {
				return true
			}
		}
	}
	return false
}

// refuseColumnOption is the error for a column constraint Fluss cannot
// hold (DEFAULT, CHECK and identity never reach here: coldefs.go).
func refuseColumnOption(opt pt.ColumnOption) *sqlerr.Error {
	switch opt.Kind {
	case pt.ColUnique:
		return errUnique()
	case pt.ColReferences:
		return errForeignKey()
	}
	return sqlerr.New(sqlerr.FeatureNotSupported, "column option %s is not supported", columnOptionName(opt))
}

// refuseTableConstraint is the error for a table constraint other than
// PRIMARY KEY (CHECK never reaches here: coldefs.go).
func refuseTableConstraint(c *pt.Constraint) *sqlerr.Error {
	switch c.Kind {
	case pt.ConUnique:
		return errUnique()
	case pt.ConForeignKey:
		return errForeignKey()
	}
	return sqlerr.NotSupported("table constraints other than PRIMARY KEY and CHECK")
}

func errUnique() *sqlerr.Error {
	return sqlerr.New(sqlerr.FeatureNotSupported, "UNIQUE constraints other than the primary key are not supported").
		WithDetail("A Fluss table has one unique key, its primary key, and no secondary unique index to enforce another.").
		WithHint("Make the columns the PRIMARY KEY, or drop the UNIQUE constraint.")
}

func errForeignKey() *sqlerr.Error {
	return sqlerr.New(sqlerr.FeatureNotSupported, "FOREIGN KEY constraints are not supported").
		WithDetail("Fluss tables have no referential constraints, and sqlgate cannot enforce one across writers.").
		WithHint("Drop the REFERENCES clause; check the reference in the application.")
}

// generatedAlwaysCode is PostgreSQL's generated_always (428C9).
const generatedAlwaysCode sqlerr.Code = "428C9"

// refuseIdentityUpdate is UPDATE's rule for a GENERATED ALWAYS identity
// column: only SET col = DEFAULT (428C9).
func refuseIdentityUpdate(info fluss.TableInfo, i int) error {
	if fluss.MetaOf(info.Descriptor).Column(i).Identity != 'a' {
		return nil
	}
	name := info.Descriptor.Schema.Columns[i].Name
	return sqlerr.New(generatedAlwaysCode, "column \"%s\" can only be updated to DEFAULT", name).
		WithDetail("Column \"%s\" is an identity column defined as GENERATED ALWAYS.", name)
}

// AlterColumnDefault binds ALTER TABLE ... ALTER COLUMN SET DEFAULT text
// (text "" for DROP DEFAULT) of column i of info's table as CREATE TABLE
// binds a DEFAULT, and returns the default as its metadata keeps it ("":
// none, which SET DEFAULT NULL is too, as PostgreSQL stores no default
// for a NULL constant - except under a type modifier's length coercion,
// nullDefaultKept). An identity or generated column's default is not
// ALTER COLUMN's to change (42601, PostgreSQL's ATExecColumnDefault).
// Its errors have no position, as PostgreSQL's have none there.
func AlterColumnDefault(ctx context.Context, cat Catalog, info fluss.TableInfo, i int, text string) (string, error) {
	c := info.Descriptor.Schema.Columns[i]
	m := fluss.MetaOf(info.Descriptor).Column(i)
	table := info.Path.Table
	switch {
	case m.Identity != 0:
		e := sqlerr.New(sqlerr.SyntaxError, "column \"%s\" of relation \"%s\" is an identity column", c.Name, table)
		if text == "" {
			e = e.WithHint("Use ALTER TABLE ... ALTER COLUMN ... DROP IDENTITY instead.")
		}
		return "", e
	case m.Generated != "":
		e := sqlerr.New(sqlerr.SyntaxError, "column \"%s\" of relation \"%s\" is a generated column", c.Name, table)
		if text == "" {
			e = e.WithHint("Use ALTER TABLE ... ALTER COLUMN ... DROP EXPRESSION instead.")
		}
		return "", e
	}
	if text == "" {
		return "", nil
	}
	b := &binder{ctx: ctx, cat: cat}
	e, err := b.bindDefaultText(text, c, table, "")
	if lengthAtUse(err) {
		return keptExprText(text), nil
	}
	if err != nil {
		return "", withoutPosition(err)
	}
	if k, ok := e.(*Const); ok && k.Value == nil && !nullDefaultKept(c.Type, m) {
		return "", nil
	}
	return qualifyRegNames(ctx, keptExprText(text), info.Path.Database, b.regNames), nil // reglit.go
}

// nullDefaultKept reports whether PostgreSQL keeps DEFAULT NULL for a
// column of type t: it drops a default that is a bare NULL constant, but
// for a type with a modifier (numeric(8,2), varchar(5), timestamp(3),
// bit(3); interval's is the constant's own) the NULL is under a length
// coercion, which it keeps and pg_get_expr shows (NULL::numeric). m is
// the column's metadata: an unconstrained numeric (stored as a DECIMAL,
// PGType "numeric") keeps none, a domain's column (not an array of one)
// every one; a variant's
// PGType (bit, recordVariants) is t's own and changes nothing. A TIME of
// precision 0 is taken for a bare time, which CREATE TABLE makes
// TIME(0) (ddlTimeDefaults) and PostgreSQL gives no modifier: the two
// cannot be told apart, and time(0) is the rarer.
func nullDefaultKept(t types.T, m fluss.ColumnMeta) bool {
	if _, array, domain := ParseDomainPGType(m.PGType); domain {
		return !array // the NULL under CoerceToDomain, which is no constant
	}
	if m.PGType == "numeric" {
		return false
	}
	if t.Kind == types.Time && t.Precision == 0 {
		return false
	}
	oid, mod, _ := pgtypes.OIDOf(t.Nullable())
	return mod >= 0 && oid != pgtypes.OIDInterval
}

// keptExprText is the text a table's DEFAULT or generation expression is
// kept as: as written, which the binder binds again for every write;
// the catalog prints it as PostgreSQL's deparser does (package deparse).
func keptExprText(text string) string { return strings.TrimSpace(text) }

// storedDefault is the text a domain's DEFAULT text, bound as e for a
// base type t, is kept and shown as (pg_type.typdefault):
// defaultDisplay's, in parentheses when it is an operator expression, as
// PostgreSQL's deparser brackets one.
func storedDefault(text string, e Expr, t types.T) string {
	out := defaultDisplay(text, e, t)
	if x, err := parseExprText(text); err == nil && x.operator {
		out = "(" + out + ")"
	}
	return out
}

// AddCheck binds ALTER TABLE ... ADD [CONSTRAINT name] CHECK (text) over
// info's table as CREATE TABLE binds a CHECK, names it as PostgreSQL would
// when name is "" (table_column_check, numbered past the names taken),
// and returns it with its bound expression (which the engine evaluates
// over the rows already stored). A name a constraint of the table has
// (its CHECKs', its primary key's table_pkey) is 42710. Errors in the
// expression have no position, as PostgreSQL's have none there.
func AddCheck(ctx context.Context, cat Catalog, info fluss.TableInfo, name, text string) (fluss.CheckConstraint, Expr, error) {
	table := info.Path.Table
	taken := map[string]bool{}
	for _, c := range fluss.MetaOf(info.Descriptor).Checks {
		taken[c.Name] = true
	}
	if info.HasPrimaryKey() {
		taken[fluss.PrimaryKeyName(table)] = true
	}
	if name != "" && taken[name] {
		return fluss.CheckConstraint{}, nil, sqlerr.ConstraintExists(name, table)
	}
	b := &binder{ctx: ctx, cat: cat}
	e, err := b.bindCheckText(text, table, info.Descriptor.Schema.Columns)
	if err != nil {
		return fluss.CheckConstraint{}, nil, withoutPosition(err)
	}
	if name == "" {
		name = checkName(table, columnsReferenced(e), taken)
	}
	return fluss.CheckConstraint{Name: name, Expr: strings.TrimSpace(text)}, e, nil
}

// BindCheck binds one of info's CHECK constraints (VALIDATE CONSTRAINT
// evaluates it over the rows stored).
func BindCheck(ctx context.Context, cat Catalog, info fluss.TableInfo, c fluss.CheckConstraint) (Expr, error) {
	b := &binder{ctx: ctx, cat: cat}
	return b.bindCheckText(c.Expr, info.Path.Table, info.Descriptor.Schema.Columns)
}
