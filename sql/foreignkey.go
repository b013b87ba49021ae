package sql

import (
	"github.com/sqlgate/sqlgate/sqlerr"
)

// FOREIGN KEY constraints: a column's REFERENCES clause and a table's
// FOREIGN KEY (cols) REFERENCES ..., read here with PostgreSQL's grammar
// and taken out of the text TiDB parses (as CHECK constraints are,
// coldefs.go): the binder resolves them against the referenced table and
// the engine keeps and enforces them (engine/fk*.go).

// ForeignKeyClause is one FOREIGN KEY constraint as written.
type ForeignKeyClause struct {
	// Name is CONSTRAINT name's ("" when not named).
	Name string
	// Columns are the referencing columns: the column a column constraint
	// is written on, or the table constraint's list.
	Columns []string
	// RefSchema and RefTable name the referenced table; RefColumns its
	// columns (nil when omitted: its primary key).
	RefSchema, RefTable string
	RefColumns          []string
	// Match is pg_constraint.confmatchtype: 's' SIMPLE, 'f' FULL, 'p'
	// PARTIAL.
	Match byte
	// OnDelete and OnUpdate are confdeltype / confupdtype: 'a' NO ACTION,
	// 'r' RESTRICT, 'c' CASCADE, 'n' SET NULL, 'd' SET DEFAULT.
	OnDelete, OnUpdate byte
	// DeleteSetColumns is ON DELETE SET NULL | DEFAULT (cols).
	DeleteSetColumns []string
	// Deferrable and Deferred are [NOT] DEFERRABLE and INITIALLY DEFERRED.
	Deferrable, Deferred bool
	// NotValid is ALTER TABLE's NOT VALID.
	NotValid bool
	// Pos is the 1-based character position of FOREIGN or REFERENCES.
	Pos int
}

// foreignKeyClause reads a foreign key at toks[i]: FOREIGN KEY (cols)
// REFERENCES ... when column is "" (a table constraint), else REFERENCES
// ... of column. It returns the index after it.
func foreignKeyClause(src string, toks []token, i int, column, name string) (ForeignKeyClause, int, error) {
	p := &fkParser{sessionParser{src: src, toks: toks, pos: i}}
	fk := ForeignKeyClause{Name: name, Match: 's', OnDelete: 'a', OnUpdate: 'a', Pos: charPos(src, toks[i].start)}
	if column == "" {
		if !p.accept("FOREIGN") || !p.accept("KEY") {
			return fk, 0, p.err()
		}
		cols, err := p.columnList()
		if err != nil {
			return fk, 0, err
		}
		fk.Columns = cols
	} else {
		fk.Columns = []string{column}
	}
	if !p.accept("REFERENCES") {
		return fk, 0, p.err()
	}
	n, err := p.ident()
	if err != nil {
		return fk, 0, err
	}
	fk.RefTable = n
	if p.pos < len(toks) && toks[p.pos].isPunct(src, ".") {
		p.pos++
		if fk.RefTable, err = p.ident(); err != nil {
			return fk, 0, err
		}
		fk.RefSchema = n
	}
	if p.pos < len(toks) && toks[p.pos].isPunct(src, "(") {
		if fk.RefColumns, err = p.columnList(); err != nil {
			return fk, 0, err
		}
	}
	if err := p.actions(&fk); err != nil {
		return fk, 0, err
	}
	if err := p.attributes(&fk); err != nil {
		return fk, 0, err
	}
	return fk, p.pos, nil
}

// fkParser walks the tokens of one foreign key clause: a sessionParser
// (its err and ident) whose accept and at match a word token for token.
type fkParser struct{ sessionParser }

// accept consumes the bare word w when it is next.
func (p *fkParser) accept(w string) bool {
	if p.pos < len(p.toks) && p.toks[p.pos].is(p.src, w) {
		p.pos++
		return true
	}
	return false
}

// at reports whether the words ws come next.
func (p *fkParser) at(ws ...string) bool {
	for k, w := range ws {
		if p.pos+k >= len(p.toks) || !p.toks[p.pos+k].is(p.src, w) {
			return false
		}
	}
	return true
}

// columnList reads ( name [, ...] ).
func (p *fkParser) columnList() ([]string, error) {
	if p.pos >= len(p.toks) || !p.toks[p.pos].isPunct(p.src, "(") {
		return nil, p.err()
	}
	p.pos++
	var out []string
	for {
		n, err := p.ident()
		if err != nil {
			return nil, err
		}
		out = append(out, n)
		if p.pos < len(p.toks) && p.toks[p.pos].isPunct(p.src, ",") {
			p.pos++
			continue
		}
		if p.pos < len(p.toks) && p.toks[p.pos].isPunct(p.src, ")") {
			p.pos++
			return out, nil
		}
		return nil, p.err()
	}
}

// actions reads [MATCH FULL | PARTIAL | SIMPLE] and the ON DELETE / ON
// UPDATE actions, in any order (PostgreSQL's key_actions; each at most
// once).
func (p *fkParser) actions(fk *ForeignKeyClause) error {
	var sawMatch, sawDelete, sawUpdate bool
	for {
		switch {
		case p.at("MATCH") && !sawMatch:
			p.pos++
			switch {
			case p.accept("FULL"):
				fk.Match = 'f'
			case p.at("PARTIAL"):
				return sqlerr.New(sqlerr.FeatureNotSupported, "MATCH PARTIAL not yet implemented").WithPosition(charPos(p.src, p.toks[p.pos-1].start))
			case p.accept("SIMPLE"):
				fk.Match = 's'
			default:
				return p.err()
			}
			sawMatch = true
		case p.at("ON", "DELETE") && !sawDelete:
			p.pos += 2
			a, cols, err := p.action(true)
			if err != nil {
				return err
			}
			fk.OnDelete, fk.DeleteSetColumns, sawDelete = a, cols, true
		case p.at("ON", "UPDATE") && !sawUpdate:
			p.pos += 2
			a, _, err := p.action(false)
			if err != nil {
				return err
			}
			fk.OnUpdate, sawUpdate = a, true
		default:
			return nil
		}
	}
}

// action reads one referential action; a column list after SET NULL or
// SET DEFAULT is ON DELETE's only (PostgreSQL: 0A000 for ON UPDATE).
func (p *fkParser) action(onDelete bool) (byte, []string, error) {
	switch {
	case p.accept("CASCADE"):
		return 'c', nil, nil
	case p.accept("RESTRICT"):
		return 'r', nil, nil
	case p.at("NO", "ACTION"):
		p.pos += 2
		return 'a', nil, nil
	case p.at("SET", "NULL") || p.at("SET", "DEFAULT"):
		a := byte('n')
		if p.toks[p.pos+1].is(p.src, "DEFAULT") {
			a = 'd'
		}
		p.pos += 2
		if p.pos < len(p.toks) && p.toks[p.pos].isPunct(p.src, "(") {
			at := charPos(p.src, p.toks[p.pos].start)
			cols, err := p.columnList()
			if err != nil {
				return 0, nil, err
			}
			if !onDelete {
				return 0, nil, sqlerr.New(sqlerr.FeatureNotSupported, "a column list with %s is only supported for ON DELETE actions", map[byte]string{'n': "SET NULL", 'd': "SET DEFAULT"}[a]).WithPosition(at)
			}
			return a, cols, nil
		}
		return a, nil, nil
	}
	return 0, nil, p.err()
}

// attributes reads the constraint attributes after a foreign key: [NOT]
// DEFERRABLE, INITIALLY DEFERRED | IMMEDIATE, NOT VALID, with
// PostgreSQL's errors for conflicting ones.
func (p *fkParser) attributes(fk *ForeignKeyClause) error {
	var sawDeferrable, sawInitially bool
	for {
		at := p.pos
		switch {
		case p.at("NOT", "DEFERRABLE") || p.at("DEFERRABLE"):
			not := p.accept("NOT")
			p.pos++
			if sawDeferrable {
				return sqlerr.New(sqlerr.SyntaxError, "multiple DEFERRABLE/NOT DEFERRABLE clauses not allowed").WithPosition(charPos(p.src, p.toks[at].start))
			}
			if not && fk.Deferred {
				return sqlerr.New(sqlerr.SyntaxError, "constraint declared INITIALLY DEFERRED must be DEFERRABLE").WithPosition(charPos(p.src, p.toks[at].start))
			}
			fk.Deferrable, sawDeferrable = !not, true
		case p.at("INITIALLY", "DEFERRED") || p.at("INITIALLY", "IMMEDIATE"):
			deferred := p.toks[p.pos+1].is(p.src, "DEFERRED")
			p.pos += 2
			if sawInitially {
				return sqlerr.New(sqlerr.SyntaxError, "multiple INITIALLY IMMEDIATE/DEFERRED clauses not allowed").WithPosition(charPos(p.src, p.toks[at].start))
			}
			if deferred && sawDeferrable && !fk.Deferrable {
				return sqlerr.New(sqlerr.SyntaxError, "constraint declared INITIALLY DEFERRED must be DEFERRABLE").WithPosition(charPos(p.src, p.toks[at].start))
			}
			fk.Deferred, sawInitially = deferred, true
			if deferred {
				fk.Deferrable = true // INITIALLY DEFERRED implies DEFERRABLE
			}
		case p.at("NOT", "VALID"):
			p.pos += 2
			fk.NotValid = true
		default:
			return nil
		}
	}
}

// setConstraints reads the rest of SET CONSTRAINTS { ALL | name [, ...] }
// { DEFERRED | IMMEDIATE }.
func (p *sessionParser) setConstraints(s *SetStmt) error {
	c := &SetConstraints{}
	s.Constraints = c
	if !p.accept("ALL") {
		for {
			n, err := p.objectName()
			if err != nil {
				return err
			}
			c.Names = append(c.Names, n.Name)
			if !p.punct(",") {
				break
			}
		}
	}
	switch {
	case p.accept("DEFERRED"):
		c.Deferred = true
	case p.accept("IMMEDIATE"):
	default:
		return p.err()
	}
	return p.done()
}
