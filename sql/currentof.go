package sql

// UPDATE / DELETE ... WHERE CURRENT OF cursor (PostgreSQL 15). TiDB's
// grammar has no CURRENT OF, and the row it names is known only when the
// statement runs (the cursor moves between executions of a prepared one),
// so the parser takes the clause out: the statement is parsed with WHERE
// false in its place, for binding, its RETURNING columns and its errors,
// and Statement.CurrentOf keeps the cursor's name and the text around the
// clause, from which the engine builds the statement it runs (a WHERE on
// the primary key of the cursor's row).

// CurrentOf is the WHERE CURRENT OF clause of an UPDATE or DELETE.
type CurrentOf struct {
	// Cursor is the cursor's name.
	Cursor string
	// Before and After are the statement's text before and after the
	// clause; Before ends with "WHERE ".
	Before, After string
	orig          string // the statement's text
}

// Text is the statement with cond as its WHERE condition.
func (c *CurrentOf) Text(cond string) string { return c.Before + cond + c.After }

// splitCurrentOf finds WHERE CURRENT OF name at the top level of an UPDATE
// or DELETE (toks: its tokens in src) and returns the clause's parts.
func splitCurrentOf(src string, toks []token) *CurrentOf {
	if len(toks) < 5 || !toks[0].is(src, "UPDATE") && !toks[0].is(src, "DELETE") {
		return nil
	}
	depth := 0
	for i := 1; i+3 < len(toks); i++ {
		t := toks[i]
		switch {
		case t.isPunct(src, "("):
			depth++
		case t.isPunct(src, ")"):
			depth--
		case depth == 0 && t.is(src, "WHERE") && toks[i+1].is(src, "CURRENT") && toks[i+2].is(src, "OF"):
			name, ok := identName(src, toks[i+3])
			if !ok {
				return nil
			}
			stmtStart, end := toks[0].start, toks[len(toks)-1].end
			return &CurrentOf{Cursor: name, orig: src[stmtStart:end],
				Before: src[stmtStart:toks[i].end] + " ",
				After:  src[toks[i+3].end:end]}
		}
	}
	return nil
}

// parseCurrentOf parses an UPDATE / DELETE ... WHERE CURRENT OF with
// WHERE false in the clause's place.
func (p *Parser) parseCurrentOf(c *CurrentOf, terminated bool) (*Statement, error) {
	text := c.Text("false")
	toks, err := p.lex(text, nil)
	if err != nil {
		return nil, err
	}
	st, err := p.parseOne(text, toks, terminated)
	if err != nil {
		return nil, err
	}
	st.CurrentOf = c
	st.Text = c.orig
	return st, nil
}
