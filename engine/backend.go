package engine

import (
	"slices"
	"strings"

	"github.com/sqlgate/sqlgate/exec"
	"github.com/sqlgate/sqlgate/lower"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// backendSetting is the session setting choosing the kernel backend.
const backendSetting = "sqlgate.backend"

// backend is the kernel backend request of one execution of ps: the
// backend hint in its text (looked for once, not at every execution),
// else the session's sqlgate.backend setting, written in dst (the
// execution's, so that a point lookup allocates nothing for it).
func (ps *statement) backend(dst *exec.BackendRequest) (*exec.BackendRequest, error) {
	if !ps.hintDone {
		ps.hint, ps.hasHint, ps.hintErr = backendHint(ps.parsed.Text)
		ps.hintDone = true
	}
	if ps.hasHint || ps.hintErr != nil {
		return &ps.hint, ps.hintErr
	}
	b, err := ps.sess.backendSeen.parse(ps.sess.setting(backendSetting))
	*dst = exec.BackendRequest{Default: b}
	return dst, err
}

// parsedBackend is the backend setting as last parsed: every Execute read
// it, and parsed it again.
type parsedBackend struct {
	text string
	done bool
	b    exec.Backend
}

// parse is exec.ParseBackend(text), parsed again only when text changed
// (or was refused: its error is made afresh each time).
func (p *parsedBackend) parse(text string) (exec.Backend, error) {
	if !p.done || p.text != text {
		b, err := exec.ParseBackend(text)
		if err != nil {
			return b, err
		}
		p.b, p.text, p.done = b, text, true
	}
	return p.b, nil
}

// backendHint finds a hint comment /*+ backend(...) */ in a statement's
// text: backend(name) asks name of every kernel, and entries target=name
// after it (or alone) ask name of the kernels of one family or of the
// nodes of one kind: /*+ backend(native, filter=arrow, int_cmp=arrow) */
// (exec.BackendRequest says which entry wins). The statement splitter drops comments before the first keyword,
// so the hint goes after it, as optimizer hints do in MySQL, TiDB and
// Oracle: SELECT /*+ backend(arrow) */ ..., or EXPLAIN /*+ backend(arrow) */
// SELECT .... Text inside string literals, quoted identifiers, dollar
// quotes and ordinary comments is skipped; other hints in the comment are
// ignored.
func backendHint(text string) (exec.BackendRequest, bool, error) {
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
					return exec.BackendRequest{}, false, nil
				}
			}
		case c == '-' && strings.HasPrefix(text[i:], "--"):
			if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
				i += j
			} else {
				return exec.BackendRequest{}, false, nil
			}
		case c == '/' && strings.HasPrefix(text[i:], "/*"):
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				return exec.BackendRequest{}, false, nil
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
	return exec.BackendRequest{}, false, nil
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

// parseHint reads backend(...) among the hints of one hint comment.
func parseHint(body string) (exec.BackendRequest, bool, error) {
	lower := strings.ToLower(body)
	i := strings.Index(lower, "backend")
	for i >= 0 {
		rest := strings.TrimLeft(lower[i+len("backend"):], " \t\n")
		if (i == 0 || !isTag(lower[i-1:i])) && strings.HasPrefix(rest, "(") {
			end := strings.IndexByte(rest, ')')
			if end < 0 {
				return exec.BackendRequest{}, false, sqlerr.New(sqlerr.SyntaxError, "unterminated backend hint")
			}
			r, err := parseBackendEntries(rest[1:end])
			return r, err == nil, err
		}
		j := strings.Index(lower[i+1:], "backend")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return exec.BackendRequest{}, false, nil
}

// parseBackendEntries reads the comma-separated entries of backend(...):
// at most one bare backend name (the default; auto without one), then
// family=name or node_kind=name.
func parseBackendEntries(list string) (exec.BackendRequest, error) {
	var r exec.BackendRequest
	bare := false
	for _, entry := range strings.Split(list, ",") {
		target, name, named := strings.Cut(entry, "=")
		if !named {
			if bare {
				return r, sqlerr.New(sqlerr.InvalidParameterValue, "backend hint names two default backends: %q", list)
			}
			b, err := exec.ParseBackend(entry)
			if err != nil {
				return r, err
			}
			r.Default, bare = b, true
			continue
		}
		target = strings.TrimSpace(target)
		b, err := exec.ParseBackend(name)
		if err != nil {
			return r, err
		}
		switch {
		case slices.Contains(lower.HintNodeKinds, target):
			// a node kind first: "filter" is also the family of the
			// filter nodes' mask kernel, which the node's entry covers
			if r.Nodes == nil {
				r.Nodes = map[string]exec.Backend{}
			}
			r.Nodes[target] = b
		case slices.Contains(exec.Families(), exec.Family(target)):
			if r.Families == nil {
				r.Families = map[exec.Family]exec.Backend{}
			}
			r.Families[exec.Family(target)] = b
		default:
			fams := make([]string, 0, len(exec.Families()))
			for _, f := range exec.Families() {
				fams = append(fams, string(f))
			}
			return r, sqlerr.New(sqlerr.InvalidParameterValue, "unknown backend hint target %q", target).
				WithHint("A target is a kernel family (%s) or a node kind (%s).", strings.Join(fams, ", "), strings.Join(lower.HintNodeKinds, ", "))
		}
	}
	return r, nil
}
