package sql

import (
	"strings"
	"unicode/utf8"
)

// BodyPosition is where in the input passed to Parse a position in the
// body of s, a CREATE FUNCTION, lies: pos is a 1-based character position
// in the FunctionStmt's Body, the result one in the input (PostgreSQL's
// error position), 0 when the body cannot be found there. A RETURN or
// BEGIN ATOMIC body is part of the statement. A body written as a string
// is found as PostgreSQL's function_parse_error_transpose finds it: the
// input is searched for the body between dollar quotes or in a
// '...' literal (whose doubled quotes and backslashes shift the
// position), and a body found more than once is not placed.
func (s *Statement) BodyPosition(pos int) int {
	f := s.Function
	if f == nil || pos < 1 {
		return 0
	}
	if f.BodyAt > 0 {
		return charPos(s.input, f.BodyAt) + pos - 1
	}
	body, in := f.Body, s.input
	found := 0
	for at := 0; at < len(in)-len(body); at++ {
		p := 0
		switch {
		case in[at] == '$' && strings.HasPrefix(in[at+1:], body) && at+1+len(body) < len(in) && in[at+1+len(body)] == '$':
			p = utf8.RuneCountInString(in[:at+1]) + pos
		case in[at] == '\'':
			if shifted, ok := literalBodyPosition(body, in[at+1:], pos); ok {
				p = utf8.RuneCountInString(in[:at+1]) + shifted
			}
		}
		if p == 0 {
			continue
		}
		if found != 0 {
			return 0 // more than one match
		}
		found = p
	}
	return found
}

// literalBodyPosition matches body against the text of a '...' literal
// (lit, from after the opening quote) character by character, a doubled
// quote or a backslash in lit standing for the character after it, and
// shifts pos by the ones that come before it; ok is false unless the
// literal is exactly body.
func literalBodyPosition(body, lit string, pos int) (int, bool) {
	shifted, left := pos, pos
	for body != "" {
		left--
		switch {
		case lit != "" && lit[0] == '\\':
			lit = lit[1:]
			if left > 0 {
				shifted++
			}
		case lit != "" && lit[0] == '\'':
			if len(lit) < 2 || lit[1] != '\'' {
				return 0, false
			}
			lit = lit[1:]
			if left > 0 {
				shifted++
			}
		}
		_, n := utf8.DecodeRuneInString(body)
		if !strings.HasPrefix(lit, body[:n]) {
			return 0, false
		}
		body, lit = body[n:], lit[n:]
	}
	if lit != "" && lit[0] == '\'' && (len(lit) < 2 || lit[1] != '\'') {
		return shifted, true
	}
	return 0, false
}
