package sql

import "strings"

// NotifyStmt is LISTEN channel, UNLISTEN channel | *, or NOTIFY channel
// [, 'payload'] (Kinds Listen, Unlisten, Notify), which TiDB's grammar
// has none of.
type NotifyStmt struct {
	// Channel is the channel name (an identifier: unquoted names folded
	// to lower case); "" for UNLISTEN *.
	Channel string
	// Payload is NOTIFY's payload ("" when none was given).
	Payload string
}

// parseNotify parses LISTEN, UNLISTEN and NOTIFY as PostgreSQL 15's
// grammar does: the channel is a ColId (an identifier, or a keyword that
// is neither reserved nor a type or function name), the payload a string
// constant only (NOTIFY c, 'a' || 'b' is a syntax error; pg_notify takes
// expressions). It reports whether the statement was one of them.
func parseNotify(src string, toks []token, st *Statement) (bool, error) {
	if len(toks) == 0 || toks[0].kind != tkIdent {
		return false, nil
	}
	p := &sessionParser{src: src, toks: toks, pos: 1}
	n := &NotifyStmt{}
	switch toks[0].word(src) {
	case "LISTEN":
		st.Kind = Listen
	case "UNLISTEN":
		st.Kind = Unlisten
		if p.pos < len(toks) && toks[p.pos].kind == tkOp && toks[p.pos].text(src) == "*" {
			p.pos++
			st.Notify = n
			return true, p.done()
		}
	case "NOTIFY":
		st.Kind = Notify
	default:
		return false, nil
	}
	st.Notify = n
	c, err := p.colID()
	if err != nil {
		return true, err
	}
	n.Channel = c
	if st.Kind == Notify && p.punct(",") {
		if p.pos >= len(toks) {
			return true, p.err()
		}
		switch toks[p.pos].kind {
		case tkString, tkEString, tkDollar:
			if n.Payload, err = p.value(); err != nil {
				return true, err
			}
		default:
			return true, p.err()
		}
	}
	return true, p.done()
}

// colID reads PostgreSQL's ColId: an identifier or a keyword of the
// unreserved or column-name categories, truncated to 63 bytes as
// PostgreSQL's scanner truncates identifiers.
func (p *sessionParser) colID() (string, error) {
	if p.pos >= len(p.toks) {
		return "", p.err()
	}
	t := p.toks[p.pos]
	if t.kind == tkIdent {
		if kw, ok := pgKeywords[strings.ToUpper(t.text(p.src))]; ok && kw.cat != kwUnreserved && kw.cat != kwColName {
			return "", p.err()
		}
	}
	name, err := p.ident()
	if err != nil {
		return "", err
	}
	return truncateIdentifier(name), nil
}

// truncateIdentifier cuts name to PostgreSQL's NAMEDATALEN - 1 = 63 bytes,
// at a character boundary.
func truncateIdentifier(name string) string {
	const max = 63
	if len(name) <= max {
		return name
	}
	cut := max
	for cut > 0 && name[cut]&0xC0 == 0x80 {
		cut--
	}
	return name[:cut]
}
