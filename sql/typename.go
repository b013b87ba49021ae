package sql

import (
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TypeName is a parsed type spelling, from a CREATE TABLE column, a ::cast
// or a CAST(... AS ...). It is syntax only: the binder maps it to types.T.
//
// Name is lower-case and canonical across spellings: bool, tinyint, int2,
// int4, int8, float4, float8, float (FLOAT without a precision: PostgreSQL
// reads it as float8, Fluss DDL as a 32-bit FLOAT; the binder decides by
// context), numeric, bpchar (BPCHAR), char (CHAR/CHARACTER), varchar,
// text, string, bytea, bytes (BYTES/BLOB/VARBINARY), binary, date, time,
// timetz, timestamp (also DATETIME), timestamptz, timestamp_ltz, interval,
// array, map, row; any other name is kept lower-cased (regclass, oid, name,
// json, uuid, ...). A schema prefix (pg_catalog.) is dropped. A quoted name
// keeps its case; PostgreSQL's one-byte "char" type is the Name `"char"`
// (with the quotes), distinct from CHAR(n).
type TypeName struct {
	Name string
	// Schema is the schema a user-defined type's name was qualified with
	// (app.mood, "My Schema".t); "" when unqualified or pg_catalog's.
	Schema string
	// Args are the type modifiers: varchar(20) -> [20], numeric(10,2) -> [10 2].
	Args []int
	// Elem is the element type of an array (ARRAY<T>, T[]).
	Elem *TypeName
	// Key and Value are the MAP<K,V> types.
	Key, Value *TypeName
	// Fields are the ROW<name T, ...> fields.
	Fields []RowField
	// NotNull is set for NOT NULL written inside ARRAY<..>, MAP<..> or ROW<..>.
	NotNull bool
	// IntervalFields are the fields of INTERVAL DAY, INTERVAL DAY TO SECOND
	// (lower-case, space-separated: "day to second"); "" when not given.
	IntervalFields string
	// ArrayDims is the number of [] suffixes of a T[] array (0 for ARRAY<T>);
	// T[][] is an array of arrays, the outer node has ArrayDims 2.
	ArrayDims int
}

// RowField is one field of a ROW type.
type RowField struct {
	Name string
	Type *TypeName
}

// String renders the type in a canonical spelling (for messages and tests).
func (t *TypeName) String() string {
	if t == nil {
		return "<nil>"
	}
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t *TypeName) write(b *strings.Builder) {
	switch t.Name {
	case "array":
		if t.ArrayDims > 0 && t.Elem != nil {
			t.Elem.write(b)
			b.WriteString("[]")
		} else {
			b.WriteString("array<")
			if t.Elem != nil {
				t.Elem.write(b)
			}
			b.WriteString(">")
		}
	case "map":
		b.WriteString("map<")
		if t.Key != nil {
			t.Key.write(b)
		}
		b.WriteString(",")
		if t.Value != nil {
			t.Value.write(b)
		}
		b.WriteString(">")
	case "row":
		b.WriteString("row<")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(f.Name)
			b.WriteString(" ")
			f.Type.write(b)
		}
		b.WriteString(">")
	default:
		if t.Schema != "" { // quoted when it must be, so that the text parses back
			if strings.Trim(t.Schema, "abcdefghijklmnopqrstuvwxyz0123456789_") != "" {
				b.WriteString(quoteIdent(t.Schema) + ".")
			} else {
				b.WriteString(t.Schema + ".")
			}
		}
		b.WriteString(t.Name)
		if len(t.Args) > 0 {
			b.WriteString("(")
			for i, a := range t.Args {
				if i > 0 {
					b.WriteString(",")
				}
				b.WriteString(strconv.Itoa(a))
			}
			b.WriteString(")")
		}
	}
	if t.IntervalFields != "" {
		b.WriteString(" " + t.IntervalFields)
	}
	if t.NotNull {
		b.WriteString(" not null")
	}
}

// ParseTypeName parses a type spelling. Errors are *sqlerr.Error 42601
// with a position relative to text.
func ParseTypeName(text string) (*TypeName, error) {
	toks, err := lex(text)
	if err != nil {
		return nil, err
	}
	tp := &typeParser{src: text, toks: splitAngles(text, toks)}
	t, err := tp.parseType(false)
	if err != nil {
		return nil, err
	}
	if tp.pos < len(tp.toks) {
		return nil, tp.errAt(tp.pos)
	}
	return t, nil
}

// splitAngles splits operator tokens such as ">>" or ">=" that can close a
// nested ARRAY<ARRAY<INT>> into single-character tokens.
func splitAngles(src string, toks []token) []token {
	out := make([]token, 0, len(toks))
	for _, t := range toks {
		if t.kind == tkOp && t.end-t.start > 1 && (src[t.start] == '<' || src[t.start] == '>') {
			for k := t.start; k < t.end; k++ {
				out = append(out, token{kind: tkOp, start: k, end: k + 1, lead: k})
			}
			continue
		}
		out = append(out, t)
	}
	return out
}

type typeParser struct {
	src  string
	toks []token
	pos  int
}

func (p *typeParser) errAt(i int) error {
	if i >= len(p.toks) {
		return sqlerr.New(sqlerr.SyntaxError, "syntax error at end of input").WithPosition(charPos(p.src, len(p.src)))
	}
	t := p.toks[i]
	return sqlerr.New(sqlerr.SyntaxError, "syntax error at or near %s", quoteNear(t.text(p.src))).WithPosition(charPos(p.src, t.start))
}

func (p *typeParser) peekWord(k int) string {
	if p.pos+k < len(p.toks) {
		return p.toks[p.pos+k].word(p.src)
	}
	return ""
}

func (p *typeParser) peekPunct(s string) bool {
	return p.pos < len(p.toks) && p.toks[p.pos].isPunct(p.src, s)
}

func (p *typeParser) expectPunct(s string) error {
	if !p.peekPunct(s) {
		return p.errAt(p.pos)
	}
	p.pos++
	return nil
}

// parseType parses one type; nested says we are inside ARRAY<>/MAP<>/ROW<>
// where a trailing NOT NULL / NULL belongs to the type.
func (p *typeParser) parseType(nested bool) (*TypeName, error) {
	t, err := p.parseBase()
	if err != nil {
		return nil, err
	}
	// T[] / T[n] suffixes, and the SQL-standard T ARRAY[n].
	dims := 0
	for {
		if p.peekPunct("[") {
			p.pos++
			if p.pos < len(p.toks) && p.toks[p.pos].kind == tkNumber {
				p.pos++
			}
			if err := p.expectPunct("]"); err != nil {
				return nil, err
			}
			dims++
			continue
		}
		if p.peekWord(0) == "ARRAY" {
			p.pos++
			if p.peekPunct("[") {
				p.pos++
				if p.pos < len(p.toks) && p.toks[p.pos].kind == tkNumber {
					p.pos++
				}
				if err := p.expectPunct("]"); err != nil {
					return nil, err
				}
			}
			dims++
			continue
		}
		break
	}
	for d := 1; d <= dims; d++ {
		t = &TypeName{Name: "array", Elem: t, ArrayDims: d}
	}
	if nested {
		switch {
		case p.peekWord(0) == "NOT" && p.peekWord(1) == "NULL":
			p.pos += 2
			t.NotNull = true
		case p.peekWord(0) == "NULL":
			p.pos++
		}
	}
	return t, nil
}

// canonicalTypeNames maps single-word spellings to canonical names.
var canonicalTypeNames = map[string]string{
	"BOOLEAN": "bool", "BOOL": "bool",
	"TINYINT":  "tinyint",
	"SMALLINT": "int2", "INT2": "int2",
	"INT": "int4", "INTEGER": "int4", "INT4": "int4",
	"BIGINT": "int8", "INT8": "int8",
	"REAL": "float4", "FLOAT4": "float4",
	"FLOAT8": "float8", "DOUBLE": "float8",
	"DECIMAL": "numeric", "NUMERIC": "numeric", "DEC": "numeric",
	"CHAR": "char", "CHARACTER": "char", "BPCHAR": "bpchar",
	"VARCHAR": "varchar", "TEXT": "text", "STRING": "string",
	"BYTEA": "bytea", "BYTES": "bytes", "BLOB": "bytes", "VARBINARY": "bytes",
	"BINARY": "binary",
	"DATE":   "date", "TIME": "time", "TIMETZ": "timetz",
	"TIMESTAMP": "timestamp", "DATETIME": "timestamp",
	"TIMESTAMPTZ": "timestamptz", "TIMESTAMP_LTZ": "timestamp_ltz",
	"INTERVAL": "interval",
}

func (p *typeParser) parseBase() (*TypeName, error) {
	if p.pos >= len(p.toks) {
		return nil, p.errAt(p.pos)
	}
	first := p.toks[p.pos]
	if first.kind != tkIdent && first.kind != tkQIdent {
		return nil, p.errAt(p.pos)
	}
	if w := first.word(p.src); w != "ARRAY" && nameWords[w].flags&wfPG != 0 && nameWords[w].cat == kwReserved {
		// a type's name (or its schema) is a type_function_name: no
		// reserved word (x::DISTINCT t); ARRAY<..> is sqlgate's own type
		return nil, p.errAt(p.pos)
	}
	// A schema prefix: dropped for pg_catalog.int4, "pg_catalog"."text";
	// kept for a user-defined type's (app.mood), whose schema tells it
	// from another of its name.
	schema := ""
	for p.pos+2 < len(p.toks) && p.toks[p.pos+1].isPunct(p.src, ".") &&
		(p.toks[p.pos+2].kind == tkIdent || p.toks[p.pos+2].kind == tkQIdent) {
		schema = p.toks[p.pos].text(p.src)
		if p.toks[p.pos].kind == tkQIdent {
			schema = unquoteIdent(schema)
		} else {
			schema = strings.ToLower(schema)
		}
		p.pos += 2
	}
	if schema == "pg_catalog" {
		schema = ""
	}
	t, err := p.parseBaseName()
	if t != nil && schema != "" && t.Name != "array" && t.Name != "map" && t.Name != "row" {
		t.Schema = schema
	}
	return t, err
}

// parseBaseName is parseBase after a schema prefix.
func (p *typeParser) parseBaseName() (*TypeName, error) {
	cur := p.toks[p.pos]
	p.pos++
	if cur.kind == tkQIdent {
		name := unquoteIdent(cur.text(p.src))
		if name == "char" {
			name = "\"char\""
		}
		t := &TypeName{Name: name}
		return t, p.parseArgs(t)
	}
	w := cur.word(p.src)
	switch w {
	case "ARRAY":
		if p.peekPunct("<") {
			p.pos++
			elem, err := p.parseType(true)
			if err != nil {
				return nil, err
			}
			if err := p.expectPunct(">"); err != nil {
				return nil, err
			}
			return &TypeName{Name: "array", Elem: elem}, nil
		}
		return nil, p.errAt(p.pos)
	case "MAP":
		if err := p.expectPunct("<"); err != nil {
			return nil, err
		}
		k, err := p.parseType(true)
		if err != nil {
			return nil, err
		}
		if err := p.expectPunct(","); err != nil {
			return nil, err
		}
		v, err := p.parseType(true)
		if err != nil {
			return nil, err
		}
		if err := p.expectPunct(">"); err != nil {
			return nil, err
		}
		return &TypeName{Name: "map", Key: k, Value: v}, nil
	case "ROW":
		closer := ">"
		if p.peekPunct("(") {
			closer = ")"
		} else if !p.peekPunct("<") {
			return nil, p.errAt(p.pos)
		}
		p.pos++
		t := &TypeName{Name: "row"}
		for {
			if p.pos >= len(p.toks) {
				return nil, p.errAt(p.pos)
			}
			nt := p.toks[p.pos]
			var fname string
			switch nt.kind {
			case tkIdent:
				fname = strings.ToLower(nt.text(p.src))
			case tkQIdent:
				fname = unquoteIdent(nt.text(p.src))
			default:
				return nil, p.errAt(p.pos)
			}
			p.pos++
			ft, err := p.parseType(true)
			if err != nil {
				return nil, err
			}
			t.Fields = append(t.Fields, RowField{Name: fname, Type: ft})
			if p.peekPunct(",") {
				p.pos++
				continue
			}
			if err := p.expectPunct(closer); err != nil {
				return nil, err
			}
			return t, nil
		}
	case "DOUBLE":
		if p.peekWord(0) == "PRECISION" {
			p.pos++
		}
		return &TypeName{Name: "float8"}, nil
	case "FLOAT":
		t := &TypeName{Name: "float"}
		if err := p.parseArgs(t); err != nil {
			return nil, err
		}
		if len(t.Args) == 1 {
			// PostgreSQL: float(1..24) is float4, float(25..53) float8.
			if t.Args[0] <= 24 {
				t.Name = "float4"
			} else {
				t.Name = "float8"
			}
			t.Args = nil
		}
		return t, nil
	case "NATIONAL":
		if w2 := p.peekWord(0); w2 == "CHARACTER" || w2 == "CHAR" {
			p.pos++
			w = w2
		} else {
			return nil, p.errAt(p.pos)
		}
	case "NCHAR": // NATIONAL CHARACTER, as PostgreSQL's grammar reads it
		w = "CHARACTER"
	case "BIT":
		name := "bit"
		if p.peekWord(0) == "VARYING" {
			p.pos++
			name = "varbit"
		}
		t := &TypeName{Name: name}
		return t, p.parseArgs(t)
	}
	name, ok := canonicalTypeNames[w]
	if !ok {
		name = strings.ToLower(cur.text(p.src))
	}
	if (w == "CHARACTER" || w == "CHAR") && p.peekWord(0) == "VARYING" {
		p.pos++
		name = "varchar"
	}
	t := &TypeName{Name: name}
	if err := p.parseArgs(t); err != nil {
		return nil, err
	}
	if w == "TIME" || w == "TIMESTAMP" {
		if (p.peekWord(0) == "WITH" || p.peekWord(0) == "WITHOUT") && p.peekWord(1) == "TIME" && p.peekWord(2) == "ZONE" {
			if p.peekWord(0) == "WITH" {
				t.Name += "tz"
			}
			p.pos += 3
		}
	}
	if w == "INTERVAL" {
		// interval fields (YEAR, DAY TO SECOND, ...) are accepted and ignored.
		var fields []string
		for isIntervalField(p.peekWord(0)) || (p.peekWord(0) == "TO" && isIntervalField(p.peekWord(1))) {
			fields = append(fields, strings.ToLower(p.peekWord(0)))
			p.pos++
		}
		t.IntervalFields = strings.Join(fields, " ")
		if len(t.Args) == 0 {
			if err := p.parseArgs(t); err != nil {
				return nil, err
			}
		}
	}
	return t, nil
}

func isIntervalField(w string) bool {
	switch w {
	case "YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND":
		return true
	}
	return false
}

// parseArgs parses an optional (n[, m ...]) type-modifier list.
func (p *typeParser) parseArgs(t *TypeName) error {
	if !p.peekPunct("(") {
		return nil
	}
	p.pos++
	for {
		neg := false
		if p.pos < len(p.toks) && p.toks[p.pos].isPunct(p.src, "-") {
			neg = true
			p.pos++
		}
		if p.pos >= len(p.toks) || p.toks[p.pos].kind != tkNumber {
			return p.errAt(p.pos)
		}
		n, err := strconv.Atoi(p.toks[p.pos].text(p.src))
		if err != nil {
			return p.errAt(p.pos)
		}
		if neg {
			n = -n
		}
		t.Args = append(t.Args, n)
		p.pos++
		if p.peekPunct(",") {
			p.pos++
			continue
		}
		return p.expectPunct(")")
	}
}
