package metrics

import (
	"strings"

	"github.com/sqlgate/sqlgate/pgwire"
)

// kinds are the statement kinds with a label value of their own; any other
// first keyword counts as "other", so that the label's values stay few
// whatever clients send.
var kinds = map[string]bool{
	"select": true, "insert": true, "update": true, "delete": true, "merge": true, "copy": true, "with": true,
	"values": true, "table": true, "begin": true, "start": true, "commit": true, "end": true, "rollback": true,
	"abort": true, "savepoint": true, "release": true, "create": true, "alter": true, "drop": true,
	"truncate": true, "set": true, "show": true, "reset": true, "explain": true, "prepare": true,
	"execute": true, "deallocate": true, "declare": true, "fetch": true, "move": true, "close": true,
	"grant": true, "revoke": true, "comment": true, "discard": true, "lock": true, "analyze": true, "vacuum": true,
	"listen": true, "unlisten": true, "notify": true, "subscribe": true,
}

// Kind is a statement's kind for the metrics' labels: its first keyword
// (pgwire.FirstKeyword), in lower case; "other" for a keyword outside a
// fixed list, "empty" for none.
func Kind(sql string) string {
	w, _ := pgwire.FirstKeyword(sql)
	switch {
	case w == "":
		return "empty"
	case len(w) > 12:
		return "other"
	}
	w = strings.ToLower(w)
	if kinds[w] {
		return w
	}
	return "other"
}

// isCopyFrom reports whether a COPY statement reads into a table (COPY t
// FROM ...), by its words: a COPY (query) TO has no FROM before TO at
// the top level, and a table COPY names FROM or TO right after the table.
func isCopyFrom(sql string) bool {
	w, rest := pgwire.FirstKeyword(sql)
	if !strings.EqualFold(w, "copy") || strings.HasPrefix(strings.TrimLeft(rest, " \t\r\n"), "(") {
		return false // not a COPY, or COPY (query) TO
	}
	for _, f := range strings.Fields(strings.ToLower(rest)) {
		switch f {
		case "from":
			return true
		case "to":
			return false
		}
	}
	return false
}
