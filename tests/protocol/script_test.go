package protocol

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// A script is a sequence of directives in the style of CockroachDB's pgwire
// testdata (github.com/cockroachdb/datadriven):
//
//	# a comment
//	command arg=value ...
//	input line
//	...
//	----
//	expected output line
//	...
//	<blank line ends the directive>
//
// The input section and the "----" line may be omitted when the directive
// has neither input nor output.

type directive struct {
	line     int // 1-based line of the command
	cmd      string
	args     map[string]string
	input    []string
	expected []string
	// expStart, expEnd delimit the expected lines in the file (0-based,
	// end exclusive), for -rewrite.
	expStart, expEnd int
	hasSep           bool
}

type script struct {
	path  string
	lines []string
	dirs  []*directive
}

func parseScript(path string) (*script, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s := &script{path: path}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		s.lines = append(s.lines, sc.Text())
	}
	i := 0
	for i < len(s.lines) {
		l := strings.TrimSpace(s.lines[i])
		if l == "" || strings.HasPrefix(l, "#") {
			i++
			continue
		}
		d := &directive{line: i + 1, args: map[string]string{}}
		fields := strings.Fields(l)
		d.cmd = fields[0]
		for _, f := range fields[1:] {
			k, v, _ := strings.Cut(f, "=")
			d.args[k] = v
		}
		i++
		for i < len(s.lines) && s.lines[i] != "----" && strings.TrimSpace(s.lines[i]) != "" {
			d.input = append(d.input, s.lines[i])
			i++
		}
		if i < len(s.lines) && s.lines[i] == "----" {
			d.hasSep = true
			i++
			d.expStart = i
			for i < len(s.lines) && strings.TrimSpace(s.lines[i]) != "" {
				d.expected = append(d.expected, s.lines[i])
				i++
			}
			d.expEnd = i
		}
		s.dirs = append(s.dirs, d)
	}
	return s, nil
}

// rewrite writes the script back with each directive's expected lines
// replaced by outputs[directive].
func (s *script) rewrite(outputs map[*directive][]string) error {
	var out []string
	prev := 0
	for _, d := range s.dirs {
		got, ok := outputs[d]
		if !ok || !d.hasSep {
			continue
		}
		out = append(out, s.lines[prev:d.expStart]...)
		out = append(out, got...)
		prev = d.expEnd
	}
	out = append(out, s.lines[prev:]...)
	return os.WriteFile(s.path, []byte(strings.Join(out, "\n")+"\n"), 0o644)
}

// anyValue in an expected line matches any value; inside a longer string it
// matches any run of characters. It is the only way a script tolerates a
// difference between servers, and is kept for values that legitimately
// differ (server_version, BackendKeyData, table OIDs, SCRAM nonces and
// salts).
const anyValue = "<any>"

// matchLine reports whether the rendered message got satisfies the
// expected line want.
func matchLine(want, got string) bool {
	if want == got {
		return true
	}
	if !strings.Contains(want, anyValue) {
		return false
	}
	var w, g any
	if decodeJSON(want, &w) != nil || decodeJSON(got, &g) != nil {
		return false
	}
	return matchValue(w, g)
}

func decodeJSON(s string, v any) error {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	return dec.Decode(v)
}

func matchValue(want, got any) bool {
	switch w := want.(type) {
	case string:
		if w == anyValue {
			return true
		}
		g, ok := got.(string)
		if !ok {
			return false
		}
		return globMatch(w, g)
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok || !matchValue(wv, gv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !matchValue(w[i], g[i]) {
				return false
			}
		}
		return true
	default:
		return fmt.Sprint(want) == fmt.Sprint(got)
	}
}

// globMatch matches s against pattern, where anyValue matches any run of
// characters.
func globMatch(pattern, s string) bool {
	parts := strings.Split(pattern, anyValue)
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return strings.HasSuffix(s, parts[len(parts)-1])
}
