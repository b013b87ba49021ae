package types

import "strings"

// SplitIdentifierString cuts s into the names of a list separated by sep
// as PostgreSQL's SplitIdentifierString does (a GUC list value such as
// DateStyle's with ',', a qualified name given as text with '.'): each
// name trimmed of white space, a double-quoted one taken as written (""
// for a quote), an unquoted one a run of characters up to white space or
// sep, lower-cased. An empty name, an unterminated quote or anything but
// sep after a name is a syntax error (ok false). Text of white space only
// is the empty list.
func SplitIdentifierString(s string, sep byte) (words []string, ok bool) {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' }
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i == len(s) {
		return nil, true
	}
	for {
		var w string
		if s[i] == '"' {
			var b strings.Builder
			i++
			for {
				if i >= len(s) {
					return nil, false // unterminated quote
				}
				if s[i] == '"' {
					if i+1 < len(s) && s[i+1] == '"' {
						b.WriteByte('"')
						i += 2
						continue
					}
					i++
					break
				}
				b.WriteByte(s[i])
				i++
			}
			w = b.String()
		} else {
			start := i
			for i < len(s) && s[i] != sep && !isSpace(s[i]) {
				i++
			}
			if i == start {
				return nil, false // an empty name
			}
			w = strings.ToLower(s[start:i])
		}
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		words = append(words, w)
		if i == len(s) {
			return words, true
		}
		if s[i] != sep {
			return nil, false
		}
		i++
		for i < len(s) && isSpace(s[i]) {
			i++
		}
		if i == len(s) {
			return nil, false // a trailing separator
		}
	}
}
