package sql

import (
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// SetStmt is SET / RESET / SET TRANSACTION, intercepted before TiDB.
type SetStmt struct {
	// Name is the lower-case parameter name ("timezone" for SET TIME ZONE,
	// "client_encoding" for SET NAMES, "search_path" for SET SCHEMA).
	// Empty for SET [SESSION CHARACTERISTICS AS] TRANSACTION.
	Name string
	// Values are the values as PostgreSQL passes them to the parameter:
	// string literals unquoted, identifiers lower-cased, numbers as written.
	Values []string
	// IsLocal is SET LOCAL (for this transaction only).
	IsLocal bool
	// Raw marks a value given as the setting's text itself (set_config's),
	// not as SET's list of values: Values holds that one text.
	Raw bool
	// Default is SET x TO DEFAULT / SET TIME ZONE LOCAL|DEFAULT.
	Default bool
	// Interval is SET TIME ZONE INTERVAL 'v' [fields | (p)]: Values holds
	// v, which the setting reads as an interval of this qualifier.
	Interval *IntervalQualifier
	// Reset is RESET x; ResetAll is RESET ALL.
	Reset, ResetAll bool
	// Tx holds the modes of SET TRANSACTION ... and SET SESSION
	// CHARACTERISTICS AS TRANSACTION ... (SessionDefaults set for the latter).
	Tx              *TxStmt
	SessionDefaults bool
	// Constraints is SET CONSTRAINTS { ALL | name [, ...] } { DEFERRED |
	// IMMEDIATE } (Name is then empty).
	Constraints *SetConstraints
}

// SetConstraints is SET CONSTRAINTS: Names nil for ALL (a qualified
// name's schema is dropped: constraint names are looked up by name).
type SetConstraints struct {
	Names    []string
	Deferred bool
}

// ShowStmt is SHOW x, intercepted before TiDB.
type ShowStmt struct {
	// Name is lower-case: "all", "transaction_isolation" (SHOW TRANSACTION
	// ISOLATION LEVEL), "timezone" (SHOW TIME ZONE), or the parameter name.
	Name string
}

// TxStmt carries transaction modes and options.
type TxStmt struct {
	// Isolation is "" (not given), "serializable", "repeatable read",
	// "read committed" or "read uncommitted".
	Isolation string
	// ReadOnly / ReadWrite are READ ONLY / READ WRITE (both false: not given).
	ReadOnly, ReadWrite bool
	// Deferrable is DEFERRABLE; NotDeferrable NOT DEFERRABLE.
	Deferrable, NotDeferrable bool
	// Chain is COMMIT/ROLLBACK AND CHAIN.
	Chain bool
	// Savepoint is the name in SAVEPOINT x, RELEASE x, ROLLBACK TO x.
	Savepoint string
	// GID is the transaction identifier of PREPARE TRANSACTION, COMMIT
	// PREPARED and ROLLBACK PREPARED (a string literal).
	GID string
}

// DeallocateStmt is DEALLOCATE [PREPARE] name | ALL.
type DeallocateStmt struct {
	Name string
	All  bool
}

// sessionParser parses the statements PostgreSQL clients send that TiDB
// cannot (or parses with MySQL meaning).
type sessionParser struct {
	src  string
	toks []token
	pos  int
}

func (p *sessionParser) err() error { return syntaxErrorAt(p.src, p.toks, p.pos) }

func (p *sessionParser) word(k int) string {
	if p.pos+k < len(p.toks) {
		return p.toks[p.pos+k].word(p.src)
	}
	return ""
}

func (p *sessionParser) accept(words ...string) bool {
	for k, w := range words {
		if p.word(k) != w {
			return false
		}
	}
	p.pos += len(words)
	return true
}

func (p *sessionParser) done() error {
	if p.pos < len(p.toks) {
		return p.err()
	}
	return nil
}

// name reads a (possibly dotted) parameter name.
func (p *sessionParser) name() (string, error) {
	var parts []string
	for {
		if p.pos >= len(p.toks) {
			return "", p.err()
		}
		t := p.toks[p.pos]
		n, ok := identName(p.src, t)
		// each part is PostgreSQL's ColId: a reserved or type/function-name
		// keyword is its syntax error there (SET my.end = 1)
		if !ok || t.kind == tkIdent && !nameWords[t.word(p.src)].colID() {
			return "", p.err()
		}
		parts = append(parts, n)
		p.pos++
		if p.pos+1 < len(p.toks) && p.toks[p.pos].isPunct(p.src, ".") {
			p.pos++
			continue
		}
		return strings.Join(parts, "."), nil
	}
}

// value reads one SET value.
func (p *sessionParser) value() (string, error) {
	if p.pos >= len(p.toks) {
		return "", p.err()
	}
	t := p.toks[p.pos]
	text := t.text(p.src)
	p.pos++
	switch t.kind {
	case tkString:
		if text[0] != '\'' {
			return "", syntaxErrorAt(p.src, p.toks, p.pos-1)
		}
		return unquoteString(text), nil
	case tkEString:
		v, err := decodeEStringAt(p.src, t)
		if err != nil {
			return "", err
		}
		return v, nil
	case tkDollar:
		return dollarBody(text), nil
	case tkNumber:
		return text, nil
	case tkIdent:
		return strings.ToLower(text), nil
	case tkQIdent:
		return unquoteIdent(text), nil
	case tkOp:
		if (text == "-" || text == "+") && p.pos < len(p.toks) && p.toks[p.pos].kind == tkNumber {
			n := p.toks[p.pos].text(p.src)
			p.pos++
			if text == "-" {
				return "-" + n, nil
			}
			return n, nil
		}
	}
	return "", syntaxErrorAt(p.src, p.toks, p.pos-1)
}

// savepointWord skips the optional SAVEPOINT of ROLLBACK TO / RELEASE
// [SAVEPOINT] name: when nothing follows it, SAVEPOINT (an unreserved
// keyword) is the name, as in PostgreSQL's grammar.
func (p *sessionParser) savepointWord() {
	if p.word(0) == "SAVEPOINT" && p.pos+1 < len(p.toks) {
		p.pos++
	}
}

// gid reads the transaction identifier that ends PREPARE TRANSACTION,
// COMMIT PREPARED and ROLLBACK PREPARED: a string constant (PostgreSQL's
// Sconst), at most 199 bytes (GIDSIZE), as PostgreSQL refuses longer ones.
func (p *sessionParser) gid(tx *TxStmt) error {
	if p.pos >= len(p.toks) || (p.toks[p.pos].kind != tkString && p.toks[p.pos].kind != tkEString && p.toks[p.pos].kind != tkDollar) {
		return p.err()
	}
	v, err := p.value()
	if err != nil {
		return err
	}
	if len(v) >= 200 {
		return sqlerr.New(sqlerr.InvalidParameterValue, "transaction identifier \"%s\" is too long", v)
	}
	tx.GID = v
	return p.done()
}

// paramName reads the parameter SHOW and RESET name, lower-case: a name
// (ALL is a name to SHOW), or the grammar's TIME ZONE (timezone),
// TRANSACTION ISOLATION LEVEL (transaction_isolation) and SESSION
// AUTHORIZATION (session_authorization), as PostgreSQL's reset_rest and
// SHOW take them.
func (p *sessionParser) paramName() (string, error) {
	switch {
	case p.accept("TRANSACTION", "ISOLATION", "LEVEL"):
		return "transaction_isolation", nil
	case p.accept("TIME", "ZONE"):
		return "timezone", nil
	case p.accept("SESSION", "AUTHORIZATION"):
		return "session_authorization", nil
	case p.accept("ALL"):
		// SHOW ALL; ALL is reserved, no name's first part (SHOW all.x)
		return "all", p.done()
	}
	return p.name()
}

// txModes reads ISOLATION LEVEL ..., READ ONLY|WRITE, [NOT] DEFERRABLE.
func (p *sessionParser) txModes(tx *TxStmt, required bool) error {
	n := 0
	for p.pos < len(p.toks) {
		if n > 0 && p.toks[p.pos].isPunct(p.src, ",") {
			p.pos++
		}
		switch {
		case p.accept("ISOLATION", "LEVEL"):
			switch {
			case p.accept("SERIALIZABLE"):
				tx.Isolation = "serializable"
			case p.accept("REPEATABLE", "READ"):
				tx.Isolation = "repeatable read"
			case p.accept("READ", "COMMITTED"):
				tx.Isolation = "read committed"
			case p.accept("READ", "UNCOMMITTED"):
				tx.Isolation = "read uncommitted"
			default:
				return p.err()
			}
		case p.accept("READ", "ONLY"):
			tx.ReadOnly, tx.ReadWrite = true, false
		case p.accept("READ", "WRITE"):
			tx.ReadWrite, tx.ReadOnly = true, false
		case p.accept("NOT", "DEFERRABLE"):
			tx.NotDeferrable, tx.Deferrable = true, false
		case p.accept("DEFERRABLE"):
			tx.Deferrable, tx.NotDeferrable = true, false
		default:
			return p.err()
		}
		n++
	}
	if required && n == 0 {
		return p.err()
	}
	return nil
}

// parseSession handles the statement if it is a session statement and
// reports whether it did.
func parseSession(src string, toks []token, st *Statement) (bool, error) {
	if ok, err := parseDDL(src, toks, st); ok {
		return true, err
	}
	if ok, err := parseNotify(src, toks, st); ok { // notify.go
		return true, err
	}
	if ok, err := parseLock(src, toks, st); ok { // lock.go
		return true, err
	}
	p := &sessionParser{src: src, toks: toks}
	if p.isRoleStatement() {
		return true, p.parseRole(st)
	}
	switch p.word(0) {
	case "GRANT", "REVOKE":
		return true, p.parseGrant(st)
	case "SET":
		p.pos++
		return true, p.parseSet(st)
	case "RESET":
		p.pos++
		st.Kind = Reset
		s := &SetStmt{Reset: true}
		st.Set = s
		if p.accept("ALL") {
			s.ResetAll = true
			return true, p.done()
		}
		n, err := p.paramName()
		if err != nil {
			return true, err
		}
		s.Name = n
		return true, p.done()
	case "SHOW":
		p.pos++
		st.Kind = Show
		s := &ShowStmt{}
		st.Show = s
		n, err := p.paramName()
		if err != nil {
			return true, err
		}
		s.Name = n
		return true, p.done()
	case "BEGIN", "START":
		if p.word(0) == "START" {
			if !p.accept("START", "TRANSACTION") {
				p.pos++
				return true, p.err()
			}
		} else {
			p.pos++
			if !p.accept("TRANSACTION") {
				p.accept("WORK")
			}
		}
		st.Kind = Begin
		st.Tx = &TxStmt{}
		return true, p.txModes(st.Tx, false)
	case "COMMIT", "END", "ROLLBACK", "ABORT":
		w := p.word(0)
		p.pos++
		st.Kind = Commit
		if w == "ROLLBACK" || w == "ABORT" {
			st.Kind = Rollback
		}
		st.Tx = &TxStmt{}
		if (w == "COMMIT" || w == "ROLLBACK") && p.accept("PREPARED") {
			st.Kind = CommitPrepared
			if w == "ROLLBACK" {
				st.Kind = RollbackPrepared
			}
			return true, p.gid(st.Tx)
		}
		if !p.accept("TRANSACTION") {
			p.accept("WORK")
		}
		if w == "ROLLBACK" && p.accept("TO") {
			p.savepointWord()
			n, err := p.name()
			if err != nil {
				return true, err
			}
			st.Kind = RollbackToSavepoint
			st.Tx.Savepoint = n
			return true, p.done()
		}
		if p.accept("AND", "CHAIN") {
			st.Tx.Chain = true
		} else {
			p.accept("AND", "NO", "CHAIN")
		}
		return true, p.done()
	case "PREPARE":
		if p.word(1) != "TRANSACTION" {
			return false, nil // PREPARE name AS ... (ddlstmts.go)
		}
		p.pos += 2
		st.Kind = PrepareTransaction
		st.Tx = &TxStmt{}
		return true, p.gid(st.Tx)
	case "SAVEPOINT", "RELEASE":
		st.Kind = Savepoint
		if p.word(0) == "RELEASE" {
			st.Kind = ReleaseSavepoint
			p.pos++
			p.savepointWord()
		} else {
			p.pos++
		}
		n, err := p.name()
		if err != nil {
			return true, err
		}
		st.Tx = &TxStmt{Savepoint: n}
		return true, p.done()
	case "DISCARD":
		p.pos++
		st.Kind = Discard
		switch w := p.word(0); w {
		case "ALL", "PLANS", "SEQUENCES", "TEMP", "TEMPORARY":
			p.pos++
			if w == "TEMPORARY" {
				w = "TEMP"
			}
			st.Discard = strings.ToLower(w)
		default:
			return true, p.err()
		}
		return true, p.done()
	case "DEALLOCATE":
		p.pos++
		st.Kind = Deallocate
		p.accept("PREPARE")
		d := &DeallocateStmt{}
		st.Deallocate = d
		if p.accept("ALL") {
			d.All = true
		} else {
			if p.pos >= len(p.toks) {
				return true, p.err()
			}
			n, ok := identName(src, p.toks[p.pos])
			if !ok {
				return true, p.err()
			}
			p.pos++
			d.Name = n
		}
		return true, p.done()
	case "COPY":
		return true, parseCopy(src, toks, st)
	}
	return false, nil
}

// IntervalQualifier is an interval type's field qualifier (lower-case
// words as TypeName.IntervalFields holds them, "" for none) and its
// fractional-seconds precision (-1 for none).
type IntervalQualifier struct {
	Fields    string
	Precision int
}

// zoneInterval reads the rest of SET TIME ZONE INTERVAL: gram.y's
// zone_value forms ConstInterval Sconst opt_interval and ConstInterval
// '(' Iconst ')' Sconst.
func (p *sessionParser) zoneInterval(s *SetStmt) error {
	q := &IntervalQualifier{Precision: -1}
	if p.pos+2 < len(p.toks) && p.toks[p.pos].isPunct(p.src, "(") && p.toks[p.pos+1].kind == tkNumber && p.toks[p.pos+2].isPunct(p.src, ")") {
		n, err := strconv.Atoi(p.toks[p.pos+1].text(p.src))
		if err != nil {
			return p.err()
		}
		q.Precision = n
		p.pos += 3
	}
	if p.pos >= len(p.toks) || (p.toks[p.pos].kind != tkString && p.toks[p.pos].kind != tkEString) {
		return p.err()
	}
	v, err := p.value()
	if err != nil {
		return err
	}
	if q.Precision < 0 {
		var words []string
		for p.pos < len(p.toks) && p.toks[p.pos].kind == tkIdent {
			words = append(words, strings.ToLower(p.toks[p.pos].text(p.src)))
			p.pos++
		}
		q.Fields = strings.Join(words, " ")
		if len(words) > 0 && words[len(words)-1] == "second" && p.pos+2 < len(p.toks) && p.toks[p.pos].isPunct(p.src, "(") &&
			p.toks[p.pos+1].kind == tkNumber && p.toks[p.pos+2].isPunct(p.src, ")") {
			n, err := strconv.Atoi(p.toks[p.pos+1].text(p.src))
			if err != nil {
				return p.err()
			}
			q.Precision = n
			p.pos += 3
		}
	}
	s.Values, s.Interval = []string{v}, q
	return p.done()
}

func (p *sessionParser) parseSet(st *Statement) error {
	st.Kind = Set
	s := &SetStmt{}
	st.Set = s
	quotedNext := p.pos+1 < len(p.toks) && p.toks[p.pos+1].kind == tkQIdent // SET CONSTRAINTS "Name" ...
	if p.word(0) == "CONSTRAINTS" && (p.word(1) != "" || quotedNext) && !(p.pos+1 < len(p.toks) && p.toks[p.pos+1].isPunct(p.src, "=")) && p.word(1) != "TO" {
		p.pos++
		return p.setConstraints(s)
	}
	if p.accept("SESSION", "CHARACTERISTICS", "AS", "TRANSACTION") {
		s.SessionDefaults = true
		s.Tx = &TxStmt{}
		return p.txModes(s.Tx, true)
	}
	if p.accept("LOCAL") {
		s.IsLocal = true
	} else if p.word(0) == "SESSION" && p.word(1) != "AUTHORIZATION" && p.word(1) != "" &&
		!(p.pos+1 < len(p.toks) && (p.toks[p.pos+1].isPunct(p.src, "=") || p.toks[p.pos+1].is(p.src, "TO"))) {
		p.pos++
	}
	switch {
	case p.accept("TRANSACTION"):
		s.Tx = &TxStmt{}
		return p.txModes(s.Tx, true)
	case p.accept("TIME", "ZONE"):
		s.Name = "timezone"
		if p.accept("LOCAL") || p.accept("DEFAULT") {
			s.Default = true
			return p.done()
		}
		if p.accept("INTERVAL") {
			return p.zoneInterval(s)
		}
		v, err := p.value()
		if err != nil {
			return err
		}
		s.Values = []string{v}
		return p.done()
	case p.accept("XML", "OPTION"):
		// SET XML OPTION { DOCUMENT | CONTENT }: the xmloption setting
		s.Name = "xmloption"
		if !p.accept("DOCUMENT") && !p.accept("CONTENT") {
			return p.err()
		}
		s.Values = []string{strings.ToLower(p.word(-1))}
		return p.done()
	case p.accept("NAMES"):
		s.Name = "client_encoding"
	case p.accept("SCHEMA"):
		s.Name = "search_path"
	case p.accept("SESSION", "AUTHORIZATION"):
		s.Name = "session_authorization"
	case p.accept("ROLE"):
		s.Name = "role"
	default:
		n, err := p.name()
		if err != nil {
			return err
		}
		s.Name = n
		if p.pos < len(p.toks) && (p.toks[p.pos].isPunct(p.src, "=") || p.toks[p.pos].is(p.src, "TO")) {
			p.pos++
		} else {
			return p.err()
		}
	}
	if p.accept("DEFAULT") {
		s.Default = true
		return p.done()
	}
	for {
		v, err := p.value()
		if err != nil {
			return err
		}
		s.Values = append(s.Values, v)
		if p.pos < len(p.toks) && p.toks[p.pos].isPunct(p.src, ",") {
			p.pos++
			continue
		}
		return p.done()
	}
}
