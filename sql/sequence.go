package sql

import (
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// SequenceOp is what a sequence statement does.
type SequenceOp int

// The sequence statements.
const (
	CreateSequence SequenceOp = iota + 1
	AlterSequence
	DropSequence
)

// ObjectName is a possibly schema-qualified name.
type ObjectName struct {
	Schema string // "" when not written
	Name   string
}

// SequenceStmt is CREATE / ALTER / DROP SEQUENCE (Statement.Sequence; Kind
// Other, AST nil).
type SequenceStmt struct {
	Op SequenceOp
	// Names is the sequence (several for DROP).
	Names                 []ObjectName
	IfNotExists, IfExists bool
	// Cascade is DROP ... CASCADE.
	Cascade bool
	Options SequenceOptions
	// RenameTo is ALTER SEQUENCE ... RENAME TO's new name, SetSchema SET
	// SCHEMA's schema ("" when not that form; the options are then none).
	RenameTo, SetSchema string
}

// SequenceOptions are CREATE / ALTER SEQUENCE's options, and those of
// GENERATED ... AS IDENTITY ( ... ). A nil pointer is an option not given.
type SequenceOptions struct {
	// Type is AS's type name as written (smallint, int4 ...), "" if none.
	Type                   string
	Increment              *int64
	MinValue, MaxValue     *int64
	NoMinValue, NoMaxValue bool
	Start                  *int64
	Cache                  *int64
	Cycle                  *bool
	// Restart is ALTER's RESTART [WITH n]: Restart set, RestartWith the
	// value (nil: the start value).
	Restart     bool
	RestartWith *int64
	// OwnedBy is OWNED BY [schema.]table.column (Table, Column); OwnedByNone
	// is OWNED BY NONE.
	OwnedBy     *ObjectName
	OwnedColumn string
	OwnedByNone bool
	// SequenceName is SEQUENCE NAME n, allowed in identity options only.
	SequenceName *ObjectName
}

// parseSequence intercepts CREATE [TEMP] SEQUENCE, ALTER SEQUENCE and
// DROP SEQUENCE, which TiDB's grammar reads with MySQL's meaning or not
// at all.
func parseSequence(src string, toks []token, st *Statement) (bool, error) {
	p := &sessionParser{src: src, toks: toks}
	s := &SequenceStmt{}
	switch {
	case p.accept("CREATE", "SEQUENCE"):
		s.Op = CreateSequence
	case p.accept("CREATE", "TEMP", "SEQUENCE"), p.accept("CREATE", "TEMPORARY", "SEQUENCE"):
		return true, sqlerr.NotSupported("temporary sequences")
	case p.accept("CREATE", "UNLOGGED", "SEQUENCE"):
		return true, sqlerr.NotSupported("unlogged sequences")
	case p.accept("ALTER", "SEQUENCE"):
		s.Op = AlterSequence
	case p.accept("DROP", "SEQUENCE"):
		s.Op = DropSequence
	default:
		return false, nil
	}
	st.Sequence = s
	switch s.Op {
	case CreateSequence:
		s.IfNotExists = p.accept("IF", "NOT", "EXISTS")
	case AlterSequence, DropSequence:
		s.IfExists = p.accept("IF", "EXISTS")
	}
	for {
		n, err := p.objectName()
		if err != nil {
			return true, err
		}
		s.Names = append(s.Names, n)
		if s.Op != DropSequence || !p.punct(",") {
			break
		}
	}
	if s.Op == DropSequence {
		s.Cascade = p.dropBehavior()
		return true, p.done()
	}
	if s.Op == AlterSequence {
		// RENAME TO name | SET SCHEMA name: statements of their own in
		// PostgreSQL's grammar (RenameStmt, AlterObjectSchemaStmt)
		var err error
		switch {
		case p.accept("RENAME", "TO"):
			s.RenameTo, err = p.ident()
			if err == nil {
				err = p.done()
			}
			return true, err
		case p.accept("SET", "SCHEMA"):
			s.SetSchema, err = p.ident()
			if err == nil {
				err = p.done()
			}
			return true, err
		}
	}
	if err := p.sequenceOptions(&s.Options, s.Op == AlterSequence, false); err != nil {
		return true, err
	}
	return true, p.done()
}

// dropBehavior reads a DROP statement's optional CASCADE | RESTRICT and
// reports whether it was CASCADE (RESTRICT is the default).
func (p *sessionParser) dropBehavior() bool {
	if p.accept("CASCADE") {
		return true
	}
	p.accept("RESTRICT")
	return false
}

// objectName reads [schema.]name: PostgreSQL's qualified_name, whose
// first part is a ColId (a reserved or type/function-name keyword is its
// syntax error) and whose part after the dot is any word.
func (p *sessionParser) objectName() (ObjectName, error) {
	if p.pos < len(p.toks) && p.toks[p.pos].kind == tkIdent && !nameWords[p.word(0)].colID() {
		return ObjectName{}, p.err()
	}
	first, err := p.ident()
	if err != nil {
		return ObjectName{}, err
	}
	if p.punct(".") {
		second, err := p.ident()
		if err != nil {
			return ObjectName{}, err
		}
		return ObjectName{Schema: first, Name: second}, nil
	}
	return ObjectName{Name: first}, nil
}

// signedInt reads an optionally signed integer (PostgreSQL's NumericOnly).
func (p *sessionParser) signedInt() (int64, error) {
	neg := false
	if p.pos < len(p.toks) && p.toks[p.pos].kind == tkOp {
		switch p.toks[p.pos].text(p.src) {
		case "-":
			neg = true
			p.pos++
		case "+":
			p.pos++
		}
	}
	if p.pos >= len(p.toks) || p.toks[p.pos].kind != tkNumber {
		return 0, p.err()
	}
	text := p.toks[p.pos].text(p.src)
	if neg {
		text = "-" + text
	}
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		if strings.ContainsAny(text, ".eE") {
			// PostgreSQL: a sequence option takes an integer
			return 0, sqlerr.New(sqlerr.InvalidParameterValue, "invalid input syntax for type bigint: \"%s\"", text).WithPosition(charPos(p.src, p.toks[p.pos].start))
		}
		return 0, sqlerr.New(sqlerr.NumericValueOutOfRange, "value \"%s\" is out of range for type bigint", text).WithPosition(charPos(p.src, p.toks[p.pos].start))
	}
	p.pos++
	return v, nil
}

// sequenceOptions reads sequence options until none follows. alter allows
// RESTART; identity allows SEQUENCE NAME. A repeated option is 42601
// "conflicting or redundant options", as in PostgreSQL.
func (p *sessionParser) sequenceOptions(o *SequenceOptions, alter, identity bool) error {
	seen := map[string]bool{}
	once := func(name string, at int) error {
		if seen[name] {
			return sqlerr.New(sqlerr.SyntaxError, "conflicting or redundant options").WithPosition(charPos(p.src, p.toks[at].start))
		}
		seen[name] = true
		return nil
	}
	num := func() (*int64, error) {
		v, err := p.signedInt()
		return &v, err
	}
	for p.pos < len(p.toks) {
		at := p.pos
		var err error
		switch {
		case p.accept("AS"):
			if err = once("as", at); err == nil {
				var n string
				if n, err = p.ident(); err == nil {
					o.Type = n
					if n == "double" && p.accept("PRECISION") {
						o.Type = "double precision"
					}
				}
			}
		case p.accept("INCREMENT"):
			p.accept("BY")
			if err = once("increment", at); err == nil {
				o.Increment, err = num()
			}
		case p.accept("MINVALUE"):
			if err = once("minvalue", at); err == nil {
				o.MinValue, err = num()
			}
		case p.accept("MAXVALUE"):
			if err = once("maxvalue", at); err == nil {
				o.MaxValue, err = num()
			}
		case p.accept("NO", "MINVALUE"):
			if err = once("minvalue", at); err == nil {
				o.NoMinValue = true
			}
		case p.accept("NO", "MAXVALUE"):
			if err = once("maxvalue", at); err == nil {
				o.NoMaxValue = true
			}
		case p.accept("NO", "CYCLE"):
			if err = once("cycle", at); err == nil {
				f := false
				o.Cycle = &f
			}
		case p.accept("CYCLE"):
			if err = once("cycle", at); err == nil {
				t := true
				o.Cycle = &t
			}
		case p.accept("START"):
			p.accept("WITH")
			if err = once("start", at); err == nil {
				o.Start, err = num()
			}
		case p.accept("CACHE"):
			if err = once("cache", at); err == nil {
				o.Cache, err = num()
			}
		case alter && p.accept("RESTART"):
			if err = once("restart", at); err == nil {
				o.Restart = true
				if p.accept("WITH") || p.pos < len(p.toks) && (p.toks[p.pos].kind == tkNumber || p.toks[p.pos].kind == tkOp) {
					o.RestartWith, err = num()
				}
			}
		case p.accept("OWNED", "BY"):
			if err = once("owned_by", at); err == nil {
				if p.accept("NONE") {
					o.OwnedByNone = true
					break
				}
				var parts []string
				for {
					var n string
					if n, err = p.ident(); err != nil {
						break
					}
					parts = append(parts, n)
					if !p.punct(".") {
						break
					}
				}
				if err == nil {
					switch len(parts) {
					case 2:
						o.OwnedBy, o.OwnedColumn = &ObjectName{Name: parts[0]}, parts[1]
					case 3:
						o.OwnedBy, o.OwnedColumn = &ObjectName{Schema: parts[0], Name: parts[1]}, parts[2]
					default:
						err = sqlerr.New(sqlerr.SyntaxError, "invalid OWNED BY option").WithHint("Specify OWNED BY table.column or OWNED BY NONE.")
					}
				}
			}
		case identity && p.accept("SEQUENCE", "NAME"):
			if err = once("sequence_name", at); err == nil {
				var n ObjectName
				if n, err = p.objectName(); err == nil {
					o.SequenceName = &n
				}
			}
		default:
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// sequenceCallWords are PostgreSQL's sequence functions, which TiDB's
// grammar reads as its own NEXTVAL(table) forms, and convert(bytea, src,
// dst), which it reads as MySQL's CONVERT(x, type) and CONVERT(x USING
// charset) (PostgreSQL has neither): a call of one is passed to TiDB as a
// quoted name, an ordinary function call.
var sequenceCallWords = map[string]string{"NEXTVAL": `"nextval"`, "CURRVAL": `"currval"`, "SETVAL": `"setval"`, "LASTVAL": `"lastval"`,
	"CONVERT": `"convert"`}

// quoteSequenceCalls quotes the names of sequence function calls (and
// convert's).
func quoteSequenceCalls(src string, toks []token) []token {
	out := toks
	copied := false
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.kind != tkIdent || t.synth != "" || !toks[i+1].isPunct(src, "(") {
			continue
		}
		q, ok := sequenceCallWords[t.word(src)]
		if !ok || i > 0 && toks[i-1].isPunct(src, ".") {
			continue
		}
		if !copied {
			out = append([]token(nil), toks...)
			copied = true
		}
		out[i].kind, out[i].synth = tkQIdent, q
	}
	return out
}
