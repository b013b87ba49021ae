package metrics

import "strings"

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

// Kind is a statement's kind for the metrics' labels: its first keyword,
// in lower case, after blanks, comments and opening parentheses; "other"
// for a keyword outside a fixed list, "empty" for none.
func Kind(sql string) string {
	s := skipNoise(sql)
	end := 0
	for end < len(s) && (s[end] >= 'a' && s[end] <= 'z' || s[end] >= 'A' && s[end] <= 'Z' || s[end] == '_') {
		end++
	}
	if end == 0 {
		return "empty"
	}
	if end > 12 {
		return "other"
	}
	w := strings.ToLower(s[:end])
	if kinds[w] {
		return w
	}
	return "other"
}

// skipNoise drops leading blanks, comments and parentheses.
func skipNoise(s string) string {
	for {
		s = strings.TrimLeft(s, " \t\r\n\f(")
		switch {
		case strings.HasPrefix(s, "--"):
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return ""
			}
			s = s[i+1:]
		case strings.HasPrefix(s, "/*"):
			i := strings.Index(s, "*/")
			if i < 0 {
				return ""
			}
			s = s[i+2:]
		default:
			return s
		}
	}
}

// isCopyFrom reports whether a COPY statement reads into a table (COPY t
// FROM ...), by its words: a COPY (query) TO has no FROM before TO at
// the top level, and a table COPY names FROM or TO right after the table.
func isCopyFrom(sql string) bool {
	s := strings.ToLower(skipNoise(sql))
	if strings.HasPrefix(s, "copy") {
		s = strings.TrimLeft(s[4:], " \t\r\n")
		if strings.HasPrefix(s, "(") {
			return false // COPY (query) TO
		}
	}
	for _, f := range strings.Fields(s) {
		switch f {
		case "from":
			return true
		case "to":
			return false
		}
	}
	return false
}
