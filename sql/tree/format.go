package tree

import (
	"encoding/hex"
	"strconv"
	"strings"
)

// Format writes e as PostgreSQL text that reads back as the same tree:
// every operator parenthesised, names double-quoted, literals in their
// standard spelling. sub writes a subquery (the tree does not hold the
// query's own nodes yet); nil writes "(SELECT 1)".
func Format(e Expr, sub func(*Subquery) string) string {
	f := formatter{sub: sub}
	f.expr(e)
	return f.String()
}

type formatter struct {
	strings.Builder
	sub func(*Subquery) string
}

var binaryText = [...]string{Add: "+", Sub: "-", Mul: "*", Div: "/", IntDiv: "DIV", Mod: "%", Pow: "^",
	Eq: "=", Ne: "<>", Lt: "<", Le: "<=", Gt: ">", Ge: ">=", And: "AND", Or: "OR", Xor: "XOR",
	BitAnd: "&", BitOr: "|", BitXor: "#", Shl: "<<", Shr: ">>", NotDistinct: "IS NOT DISTINCT FROM"}

// String spells a binary operator as written in SQL.
func (o BinaryOp) String() string {
	if int(o) < len(binaryText) && binaryText[o] != "" {
		return binaryText[o]
	}
	return "?op"
}

// QuoteIdent double-quotes a name, doubling quotes inside.
func QuoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// plainFieldWord reports whether an EXTRACT field can be written as a bare
// word: lower-case letters and underscores only.
func plainFieldWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'a' || c > 'z') && c != '_' {
			return false
		}
	}
	return true
}

// QuoteString writes a standard string literal.
func QuoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func (f *formatter) list(es []Expr) {
	for i, e := range es {
		if i > 0 {
			f.WriteString(", ")
		}
		f.expr(e)
	}
}

func (f *formatter) query(q *Subquery) {
	if f.sub != nil {
		f.WriteString(f.sub(q))
		return
	}
	f.WriteString("(SELECT 1)")
}

func (f *formatter) expr(e Expr) {
	switch n := e.(type) {
	case nil:
		f.WriteString("NULL")
	case *ColumnRef:
		for _, p := range []string{n.Schema, n.Table} {
			if p != "" {
				f.WriteString(QuoteIdent(p) + ".")
			}
		}
		f.WriteString(QuoteIdent(n.Name))
	case *Literal:
		f.literal(n)
	case *Param:
		f.WriteString("$" + strconv.Itoa(n.Order+1))
	case *Unary:
		f.WriteString(map[UnaryOp]string{UPlus: "(+", UMinus: "(-", UNot: "(NOT "}[n.Op])
		f.expr(n.X)
		f.WriteString(")")
	case *Binary:
		f.WriteString("(")
		f.expr(n.L)
		f.WriteString(" " + n.Op.String() + " ")
		f.expr(n.R)
		f.WriteString(")")
	case *Operator:
		f.WriteString("(")
		if n.L != nil {
			f.expr(n.L)
			f.WriteString(" ")
		}
		f.WriteString(n.Op + " ")
		f.expr(n.R)
		f.WriteString(")")
	case *Cast:
		f.WriteString("CAST(")
		f.expr(n.X)
		f.WriteString(" AS " + n.Type + ")")
	case *IsNull:
		f.WriteString("(")
		f.expr(n.X)
		f.WriteString(map[bool]string{false: " IS NULL)", true: " IS NOT NULL)"}[n.Not])
	case *IsBool:
		f.WriteString("(")
		f.expr(n.X)
		f.WriteString(" " + n.Clause() + ")")
	case *Between:
		f.WriteString("(")
		f.expr(n.X)
		f.not(n.Not)
		f.WriteString(" BETWEEN ")
		if n.Symmetric {
			f.WriteString("SYMMETRIC ")
		}
		f.expr(n.Lo)
		f.WriteString(" AND ")
		f.expr(n.Hi)
		f.WriteString(")")
	case *InList:
		f.WriteString("(")
		f.expr(n.X)
		f.not(n.Not)
		f.WriteString(" IN (")
		f.list(n.List)
		f.WriteString("))")
	case *InSubquery:
		f.WriteString("(")
		f.expr(n.X)
		f.not(n.Not)
		f.WriteString(" IN ")
		f.query(n.Query)
		f.WriteString(")")
	case *Like:
		f.WriteString("(")
		f.expr(n.X)
		f.not(n.Not)
		f.WriteString(map[bool]string{false: " LIKE ", true: " ILIKE "}[n.ILike])
		f.expr(n.Pattern)
		if n.Escape != '\\' {
			f.WriteString(" ESCAPE " + QuoteString(string(rune(n.Escape))))
		}
		f.WriteString(")")
	case *Regexp:
		f.WriteString("(")
		f.expr(n.X)
		op := "~"
		if n.Not {
			op = "!~"
		}
		if n.IgnoreCase {
			op += "*"
		}
		f.WriteString(" " + op + " ")
		f.expr(n.Pattern)
		f.WriteString(")")
	case *Case:
		f.WriteString("CASE")
		if n.Operand != nil {
			f.WriteString(" ")
			f.expr(n.Operand)
		}
		for _, w := range n.Whens {
			f.WriteString(" WHEN ")
			f.expr(w.Cond)
			f.WriteString(" THEN ")
			f.expr(w.Result)
		}
		if n.Else != nil {
			f.WriteString(" ELSE ")
			f.expr(n.Else)
		}
		f.WriteString(" END")
	case *Subquery:
		f.query(n)
	case *Exists:
		if n.Not {
			f.WriteString("(NOT EXISTS ")
		} else {
			f.WriteString("(EXISTS ")
		}
		f.query(n.Query)
		f.WriteString(")")
	case *Quantified:
		f.WriteString("(")
		f.expr(n.X)
		f.WriteString(" " + n.Op + map[bool]string{false: " ANY ", true: " ALL "}[n.All])
		if q, ok := n.Right.(*Subquery); ok {
			f.query(q)
		} else {
			f.WriteString("(")
			f.expr(n.Right)
			f.WriteString(")")
		}
		f.WriteString(")")
	case *ArraySubquery:
		f.WriteString("ARRAY")
		f.query(n.Query)
	case *Array:
		f.WriteString("ARRAY[")
		f.list(n.Elems)
		f.WriteString("]")
	case *Subscript:
		f.subscripted(n.X, n.Chained)
		f.subscriptBody(n)
		f.WriteString("]")
	case *Slice:
		f.subscripted(n.X, n.Chained)
		f.subscriptBody(n)
		f.WriteString("]")
	case *SubscriptedValue:
		f.expr(n.Value) // a VALUES cell: what was written there
	case *Row:
		if n.Explicit {
			f.WriteString("ROW")
		}
		f.WriteString("(")
		f.list(n.Fields)
		f.WriteString(")")
	case *Map:
		f.WriteString("MAP[")
		f.list(n.KeysValues)
		f.WriteString("]")
	case *Collate:
		f.WriteString("(")
		f.expr(n.X)
		f.WriteString(") COLLATE ")
		for i, p := range n.Name {
			if i > 0 {
				f.WriteString(".")
			}
			f.WriteString(QuoteIdent(p))
		}
	case *FieldSelect:
		f.WriteString("(")
		f.expr(n.X)
		f.WriteString(").")
		if n.Field == "*" {
			f.WriteString("*")
		} else {
			f.WriteString(QuoteIdent(n.Field))
		}
	case *Extract:
		// a field that is not a plain word (written as a string, 'Day ')
		// goes back as a string, so that the text reads back the same
		field := n.Field
		if !plainFieldWord(field) {
			field = QuoteString(field)
		}
		f.WriteString("EXTRACT(" + field + " FROM ")
		f.expr(n.X)
		f.WriteString(")")
	case *AtTimeZone:
		f.WriteString("(")
		f.expr(n.X)
		f.WriteString(" AT TIME ZONE ")
		f.expr(n.Zone)
		f.WriteString(")")
	case *Position:
		f.WriteString("position(")
		f.expr(n.Sub)
		f.WriteString(" IN ")
		f.expr(n.Str)
		f.WriteString(")")
	case *Trim:
		f.WriteString("trim(" + map[TrimDir]string{TrimBoth: "BOTH ", TrimLeading: "LEADING ", TrimTrailing: "TRAILING "}[n.Dir])
		if n.Chars != nil {
			f.expr(n.Chars)
			f.WriteString(" ")
		}
		f.WriteString("FROM ")
		f.expr(n.X)
		f.WriteString(")")
	case *Default:
		f.WriteString("DEFAULT")
	case *Excluded:
		f.WriteString("EXCLUDED." + QuoteIdent(n.Column)) // PostgreSQL's spelling, which the rewrite makes VALUES(x)
	case *TimeUnit:
		f.WriteString(n.Unit)
	case *Ordinal:
		if n.Param != nil {
			f.expr(n.Param)
		} else {
			f.WriteString(strconv.Itoa(n.N))
		}
	case *FuncCall:
		f.call(n)
	case *Star:
		f.star(n)
	case *GroupingSet:
		f.WriteString(map[GroupingKind]string{Rollup: "ROLLUP (", Cube: "CUBE (", GroupingSets: "GROUPING SETS (", EmptySet: "("}[n.Kind])
		f.list(n.Items)
		f.WriteString(")")
	default:
		f.WriteString("?expr")
	}
}

func (f *formatter) not(not bool) {
	if not {
		f.WriteString(" NOT")
	}
}

func (f *formatter) literal(n *Literal) {
	switch n.Kind {
	case LitNull:
		f.WriteString("NULL")
	case LitBool:
		f.WriteString(map[bool]string{false: "FALSE", true: "TRUE"}[n.Int != 0])
	case LitInt:
		f.WriteString(strconv.FormatInt(n.Int, 10))
	case LitUint:
		f.WriteString(strconv.FormatUint(n.Uint, 10))
	case LitFloat:
		f.WriteString(strconv.FormatFloat(n.Float, 'e', -1, 64))
	case LitDecimal:
		f.WriteString(n.Text)
	case LitString:
		f.WriteString(QuoteString(n.Text))
	case LitBytes:
		f.WriteString("X'" + hex.EncodeToString(n.Bytes) + "'")
	}
}

// typeKeywordNames are PostgreSQL's keywords that name types (its
// ConstTypename), which a call's name can only be quoted: "numeric"(x)
// is a cast, numeric(x) a syntax error.
var typeKeywordNames = map[string]bool{
	"int": true, "integer": true, "smallint": true, "bigint": true, "real": true, "float": true, "double": true,
	"numeric": true, "decimal": true, "dec": true, "boolean": true, "varchar": true, "char": true, "character": true,
	"nchar": true, "national": true, "time": true, "timestamp": true, "interval": true, "bit": true,
}

// niladicKeywords are the SQL value functions PostgreSQL's grammar writes
// without parentheses (current_date() is its syntax error at the "(").
var niladicKeywords = map[string]bool{
	"current_date": true, "current_user": true, "current_role": true, "session_user": true,
	"user": true, "current_catalog": true,
}

func (f *formatter) call(n *FuncCall) {
	if n.Schema != "" {
		f.WriteString(QuoteIdent(n.Schema) + ".")
	}
	if n.Schema == "" && niladicKeywords[n.Name] && len(n.Args) == 0 && n.Over == nil && n.Filter == nil {
		f.WriteString(n.Name)
		return
	}
	if n.Name == "normalize" && n.Schema == "" && len(n.Args) == 2 {
		// NORMALIZE(x, NFC): the form is a keyword in the grammar, no
		// expression; with another second argument it is the function
		// called by its quoted name
		if l, ok := n.Args[1].(*Literal); ok && l.Kind == LitString {
			switch form := strings.ToUpper(l.Text); form {
			case "NFC", "NFD", "NFKC", "NFKD":
				f.WriteString("normalize(")
				f.expr(n.Args[0])
				f.WriteString(", " + form + ")")
				return
			}
		}
		f.WriteString(`"normalize"(`)
		f.list(n.Args)
		f.WriteString(")")
		return
	}
	if typeKeywordNames[n.Name] {
		f.WriteString(`"` + n.Name + `"(`) // "numeric"(x): unquoted, the grammar's type keyword
	} else {
		f.WriteString(n.Name + "(")
	}
	if n.Distinct {
		f.WriteString("DISTINCT ")
	}
	if n.Star {
		f.WriteString("*")
	}
	f.list(n.Args)
	if len(n.OrderBy) > 0 && !n.WithinGroup {
		f.WriteString(" ORDER BY ")
		f.orderBy(n.OrderBy)
	} else if n.OrderedOver {
		// the keys are not kept (PostgreSQL never binds them: the call is
		// refused); any key reads back as the same tree
		f.WriteString(" ORDER BY NULL")
	}
	f.WriteString(")")
	if n.WithinGroup {
		f.WriteString(" WITHIN GROUP (ORDER BY ")
		f.orderBy(n.OrderBy)
		f.WriteString(")")
	}
	if n.Filter != nil {
		f.WriteString(" FILTER (WHERE ")
		f.expr(n.Filter)
		f.WriteString(")")
	}
	if n.IgnoreNulls {
		f.WriteString(" IGNORE NULLS")
	}
	if w := n.Over; w != nil {
		f.WriteString(" OVER ")
		f.window(w)
	}
}

func (f *formatter) orderBy(items []OrderItem) {
	for i, it := range items {
		if i > 0 {
			f.WriteString(", ")
		}
		f.expr(it.X)
		if it.Using != "" {
			f.WriteString(" USING " + it.Using)
		} else if it.Desc {
			f.WriteString(" DESC")
		}
		if it.Nulls != "" {
			f.WriteString(" NULLS " + strings.ToUpper(it.Nulls))
		}
	}
}

func (f *formatter) window(w *Window) {
	if w.OnlyName {
		f.WriteString(QuoteIdent(w.Name))
		return
	}
	f.WriteString("(")
	sep := ""
	if w.Ref != "" {
		f.WriteString(QuoteIdent(w.Ref))
		sep = " "
	}
	if len(w.PartitionBy) > 0 {
		f.WriteString(sep + "PARTITION BY ")
		f.list(w.PartitionBy)
		sep = " "
	}
	if len(w.OrderBy) > 0 {
		f.WriteString(sep + "ORDER BY ")
		f.orderBy(w.OrderBy)
		sep = " "
	}
	if fr := w.Frame; fr != nil {
		unit := map[bool]string{false: "RANGE", true: "ROWS"}[fr.Rows]
		if fr.Groups {
			unit = "GROUPS"
		}
		if fr.Single {
			f.WriteString(sep + unit + " ")
			f.bound(fr.Start)
		} else {
			f.WriteString(sep + unit + " BETWEEN ")
			f.bound(fr.Start)
			f.WriteString(" AND ")
			f.bound(fr.End)
		}
		if fr.Exclude != "" {
			f.WriteString(" EXCLUDE " + strings.ToUpper(fr.Exclude))
		}
	}
	f.WriteString(")")
}

func (f *formatter) bound(b FrameBound) {
	if b.Offset != nil {
		f.expr(b.Offset)
		f.WriteString(" ")
	}
	f.WriteString(strings.ToUpper(b.Kind))
}

// FormatStatement writes s as PostgreSQL text that reads back as the same
// tree (sub writes a statement's query, as for Format; nil writes "SELECT
// 1"). A CREATE TABLE column is written with the type text: column types
// are not the tree's (ColumnDef). The MySQL forms the binder refuses
// (Temporary, Partitioned, ColOther ...) are written as MySQL spells them.
func FormatStatement(s Statement, sub func(*Subquery) string) string {
	f := formatter{sub: sub}
	switch n := s.(type) {
	case *CreateTable:
		f.createTable(n)
	case *DropTable:
		f.WriteString("DROP ")
		f.WriteString(map[bool]string{false: "TABLE ", true: "VIEW "}[n.View])
		if n.IfExists {
			f.WriteString("IF EXISTS ")
		}
		for i, t := range n.Names {
			if i > 0 {
				f.WriteString(", ")
			}
			f.tableName(t)
		}
	case Query:
		return FormatQuery(n, sub)
	case *CreateView:
		f.WriteString("CREATE ")
		if n.OrReplace {
			f.WriteString("OR REPLACE ")
		}
		f.WriteString("VIEW ")
		f.tableName(n.Name)
		f.names(n.Columns)
		f.WriteString(" AS ")
		f.statementQuery(n.Query)
	case *Insert, *Update, *Delete:
		return formatWrite(n, sub) // formatdml.go
	}
	return f.String()
}

func (f *formatter) tableName(t *TableName) {
	if t.Schema != "" {
		f.WriteString(QuoteIdent(t.Schema) + ".")
	}
	f.WriteString(QuoteIdent(t.Name))
}

// names writes " (a, b)" (nothing for none).
func (f *formatter) names(ns []string) {
	if len(ns) == 0 {
		return
	}
	f.WriteString(" (")
	for i, n := range ns {
		if i > 0 {
			f.WriteString(", ")
		}
		f.WriteString(QuoteIdent(n))
	}
	f.WriteString(")")
}

// statementQuery writes a statement's query bare (a query as a value is
// parenthesised: Format's query).
func (f *formatter) statementQuery(q *Subquery) {
	if f.sub != nil {
		f.WriteString(f.sub(q))
		return
	}
	f.WriteString("SELECT 1")
}

var columnOptionText = [...]string{ColNotNull: "NOT NULL", ColNull: "NULL", ColPrimaryKey: "PRIMARY KEY",
	ColDefault: "DEFAULT NULL", ColUnique: "UNIQUE", ColAutoIncrement: "AUTO_INCREMENT", ColCheck: "CHECK (TRUE)",
	ColReferences: `REFERENCES "t" ("c")`, ColGenerated: "AS (1)", ColCollate: `COLLATE "C"`, ColOther: "STORAGE DISK"}

func (f *formatter) createTable(n *CreateTable) {
	f.WriteString("CREATE ")
	if n.Temporary {
		f.WriteString("TEMPORARY ")
	}
	f.WriteString("TABLE ")
	if n.IfNotExists {
		f.WriteString("IF NOT EXISTS ")
	}
	f.tableName(n.Name)
	if n.Like != nil {
		f.WriteString(" LIKE ")
		f.tableName(n.Like)
		return
	}
	if n.Query != nil {
		names := make([]string, len(n.Columns))
		for i, c := range n.Columns {
			names[i] = c.Name
		}
		f.names(names)
		f.WriteString(" AS ")
		f.statementQuery(n.Query)
		return
	}
	f.WriteString(" (")
	for i, c := range n.Columns {
		if i > 0 {
			f.WriteString(", ")
		}
		f.WriteString(QuoteIdent(c.Name) + " text")
		for _, o := range c.Options {
			f.WriteString(" ")
			if o.Kind == ColComment {
				f.WriteString("COMMENT " + QuoteString(o.Comment))
			} else if int(o.Kind) < len(columnOptionText) {
				f.WriteString(columnOptionText[o.Kind])
			}
		}
	}
	for _, c := range n.Constraints {
		f.WriteString(", ")
		switch c.Kind {
		case ConPrimaryKey:
			f.WriteString("PRIMARY KEY")
		case ConUnique:
			f.WriteString("UNIQUE")
		case ConForeignKey:
			f.WriteString("FOREIGN KEY")
		default:
			f.WriteString("KEY")
		}
		f.WriteString(" (")
		for i, k := range c.Keys {
			if i > 0 {
				f.WriteString(", ")
			}
			if k == "" && c.KeyExpr {
				f.WriteString("(1)") // an expression key part
				continue
			}
			f.WriteString(QuoteIdent(k))
		}
		f.WriteString(")")
		if c.Kind == ConForeignKey {
			f.WriteString(` REFERENCES "t" ("c")`)
		}
	}
	f.WriteString(")")
	if n.HasComment {
		f.WriteString(" COMMENT = " + QuoteString(n.Comment))
	}
	if n.Partitioned {
		f.WriteString(" PARTITION BY HASH (1) PARTITIONS 1")
	}
}
