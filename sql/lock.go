package sql

import "strings"

// LockStmt is LOCK [TABLE] [ONLY] name [*] [, ...] [IN mode MODE]
// [NOWAIT] (Kind LockTable, Statement.Lock), which TiDB's grammar has
// none of.
type LockStmt struct {
	Tables []ObjectName
	// Mode is the lock mode's words, upper case, one space apart
	// ("ACCESS EXCLUSIVE", the default, ... "ACCESS SHARE").
	Mode   string
	NoWait bool
}

// lockModes are PostgreSQL's lock_type words.
var lockModes = [][]string{
	{"ACCESS", "SHARE"}, {"ROW", "SHARE"}, {"ROW", "EXCLUSIVE"}, {"SHARE", "UPDATE", "EXCLUSIVE"},
	{"SHARE", "ROW", "EXCLUSIVE"}, {"SHARE"}, {"EXCLUSIVE"}, {"ACCESS", "EXCLUSIVE"},
}

// parseLock parses LOCK as PostgreSQL 15's grammar does (LockStmt), and
// reports whether the statement was one.
func parseLock(src string, toks []token, st *Statement) (bool, error) {
	if len(toks) == 0 || toks[0].kind != tkIdent || toks[0].word(src) != "LOCK" {
		return false, nil
	}
	p := &sessionParser{src: src, toks: toks, pos: 1}
	l := &LockStmt{Mode: "ACCESS EXCLUSIVE"}
	st.Kind, st.Lock = LockTable, l
	p.accept("TABLE")
	for {
		p.accept("ONLY")
		n, err := p.objectName()
		if err != nil {
			return true, err
		}
		if p.pos < len(p.toks) && p.toks[p.pos].kind == tkOp && p.toks[p.pos].text(p.src) == "*" {
			p.pos++ // name *: the table and its descendants (a Fluss table has none)
		}
		l.Tables = append(l.Tables, n)
		if !p.punct(",") {
			break
		}
	}
	if p.accept("IN") {
		found := false
		for _, m := range lockModes {
			if p.accept(m...) {
				l.Mode, found = strings.Join(m, " "), true
				break
			}
		}
		if !found || !p.accept("MODE") {
			return true, p.err()
		}
	}
	l.NoWait = p.accept("NOWAIT")
	return true, p.done()
}
