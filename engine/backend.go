package engine

import (
	"strings"

	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// backendSetting is the session setting choosing the kernel backend.
const backendSetting = "sqlgate.backend"

// requestedBackend is the kernel backend a statement asks for: its backend
// hint, else the session's sqlgate.backend setting.
func (s *session) requestedBackend(st *sql.Statement) (exec.Backend, error) {
	if st != nil {
		if b, ok, err := backendHint(st.Text); ok || err != nil {
			return b, err
		}
	}
	return exec.ParseBackend(s.settings[backendSetting])
}

// backend is the kernel backend of one execution of ps: what
// requestedBackend answers, with the statement's hint looked for in its
// text once rather than at every execution.
func (ps *statement) backend() (exec.Backend, error) {
	if !ps.hintDone {
		ps.hint, ps.hasHint, ps.hintErr = backendHint(ps.parsed.Text)
		ps.hintDone = true
	}
	if ps.hasHint || ps.hintErr != nil {
		return ps.hint, ps.hintErr
	}
	return exec.ParseBackend(ps.sess.settings[backendSetting])
}

// backendHint finds a hint comment /*+ backend(name) */ in a statement's
// text. The statement splitter drops comments before the first keyword,
// so the hint goes after it, as optimizer hints do in MySQL, TiDB and
// Oracle: SELECT /*+ backend(arrow) */ ..., or EXPLAIN /*+ backend(arrow) */
// SELECT .... Text inside string literals, quoted identifiers, dollar
// quotes and ordinary comments is skipped; other hints in the comment are
// ignored.
func backendHint(text string) (exec.Backend, bool, error) {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '\'' || c == '"':
			i = skipQuoted(text, i, c)
		case c == '$':
			if j := strings.IndexByte(text[i+1:], '$'); j >= 0 && isTag(text[i+1:i+1+j]) {
				tag := text[i : i+j+2]
				if k := strings.Index(text[i+len(tag):], tag); k >= 0 {
					i += len(tag) + k + len(tag) - 1
				} else {
					return 0, false, nil
				}
			}
		case c == '-' && strings.HasPrefix(text[i:], "--"):
			if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
				i += j
			} else {
				return 0, false, nil
			}
		case c == '/' && strings.HasPrefix(text[i:], "/*"):
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				return 0, false, nil
			}
			body := text[i+2 : i+2+end]
			i += 2 + end + 1
			if strings.HasPrefix(body, "+") {
				if b, ok, err := parseHint(body[1:]); ok || err != nil {
					return b, ok, err
				}
			}
		}
	}
	return 0, false, nil
}

func isTag(s string) bool {
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// skipQuoted returns the index of the quote closing the literal opened at
// i (a doubled quote is an escaped quote; a backslash escapes in E'...').
func skipQuoted(text string, i int, q byte) int {
	escapes := q == '\'' && i > 0 && (text[i-1] == 'E' || text[i-1] == 'e')
	for j := i + 1; j < len(text); j++ {
		switch {
		case escapes && text[j] == '\\':
			j++
		case text[j] == q:
			if j+1 < len(text) && text[j+1] == q {
				j++
				continue
			}
			return j
		}
	}
	return len(text)
}

// parseHint reads backend(name) among the hints of one hint comment.
func parseHint(body string) (exec.Backend, bool, error) {
	lower := strings.ToLower(body)
	i := strings.Index(lower, "backend")
	for i >= 0 {
		rest := strings.TrimLeft(lower[i+len("backend"):], " \t\n")
		if (i == 0 || !isTag(lower[i-1:i])) && strings.HasPrefix(rest, "(") {
			end := strings.IndexByte(rest, ')')
			if end < 0 {
				return 0, false, sqlerr.New(sqlerr.SyntaxError, "unterminated backend hint")
			}
			b, err := exec.ParseBackend(rest[1:end])
			return b, err == nil, err
		}
		j := strings.Index(lower[i+1:], "backend")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return 0, false, nil
}
