package sqllogictest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

type recordKind int

const (
	kindStatement recordKind = iota + 1
	kindQuery
	kindHashThreshold
	kindHalt
	kindSortMode   // control sortmode <mode>
	kindResultMode // control resultmode <layout>
	kindInclude
	// kindInvalid is a record the parser could not understand; it counts as
	// a failure (unless a condition skips it) so typos are never silent.
	kindInvalid
)

type sortMode int

const (
	noSort sortMode = iota
	rowSort
	valueSort
)

func (m sortMode) String() string {
	switch m {
	case rowSort:
		return "rowsort"
	case valueSort:
		return "valuesort"
	default:
		return "nosort"
	}
}

func parseSortMode(s string) (sortMode, bool) {
	switch s {
	case "nosort":
		return noSort, true
	case "rowsort":
		return rowSort, true
	case "valuesort":
		return valueSort, true
	}
	return noSort, false
}

type layout int

const (
	layoutAuto layout = iota
	layoutValuewise
	layoutRowwise
)

// condition is one skipif/onlyif line.
type condition struct {
	onlyIf bool
	engine string
}

// errorExpectation describes `statement error ...` / `query error ...`.
// With no field set, any error from the server passes.
type errorExpectation struct {
	sqlstate string         // "(42P01)" form: exact SQLSTATE
	pattern  *regexp.Regexp // searched in the error text
	message  string         // multi-line form after ----: exact after trimming
	hasMsg   bool
}

func (e *errorExpectation) String() string {
	switch {
	case e.sqlstate != "":
		return "an error with SQLSTATE " + e.sqlstate
	case e.pattern != nil:
		return fmt.Sprintf("an error matching /%s/", e.pattern)
	case e.hasMsg:
		return fmt.Sprintf("the error %q", e.message)
	}
	return "an error"
}

type record struct {
	file string
	line int // 1-based line of the record's header (statement/query/...)
	end  int // 0-based index of the line after the record (blank or EOF)
	// header is the header line as written (complete mode keeps it).
	header string
	kind   recordKind
	conds  []condition
	sql    string

	// statement and query
	expectErr *errorExpectation // nil: must succeed
	// statement count N
	expectCount int64
	hasCount    bool

	// query
	types         string
	sort          sortMode
	sortExplicit  bool
	label         string
	expected      []string // result lines after ----, comments removed
	expectedLines []int    // file line of each expected line

	// control records
	threshold int
	sortArg   sortMode
	layoutArg layout
	glob      string

	// kindInvalid
	problem string
}

var sqlstateForm = regexp.MustCompile(`^\(([0-9A-Za-z]{5})\)$`)

// parseScript splits a script into records. It never fails: problems become
// kindInvalid records that carry the line they were found on.
func parseScript(file, text string) []record {
	p := &parser{file: file, lines: splitLines(text)}
	var recs []record
	for {
		rec, ok := p.next()
		if !ok {
			return recs
		}
		rec.end = p.pos
		recs = append(recs, rec)
	}
}

// splitLines splits on \n and strips one trailing \r so CRLF files parse.
func splitLines(text string) []string {
	lines := strings.Split(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

func isBlank(line string) bool { return strings.TrimSpace(line) == "" }

func isComment(line string) bool { return strings.HasPrefix(line, "#") }

type parser struct {
	file  string
	lines []string
	pos   int // index of the next unread line
}

// recordLine returns the next non-comment line of the current record, or
// ok=false at a blank line or the end of the file (not consumed).
func (p *parser) recordLine() (line string, lineNo int, ok bool) {
	for p.pos < len(p.lines) {
		l := p.lines[p.pos]
		if isBlank(l) {
			return "", 0, false
		}
		p.pos++
		if isComment(l) {
			continue
		}
		return l, p.pos, true
	}
	return "", 0, false
}

// skipRecord consumes the rest of the current record.
func (p *parser) skipRecord() {
	for {
		if _, _, ok := p.recordLine(); !ok {
			return
		}
	}
}

// headerFields splits a header line into tokens, dropping a trailing
// "# comment".
func headerFields(line string) []string {
	fields := strings.Fields(line)
	for i, f := range fields {
		if strings.HasPrefix(f, "#") {
			return fields[:i]
		}
	}
	return fields
}

func (p *parser) next() (record, bool) {
	// Skip blank lines and comments between records.
	for p.pos < len(p.lines) && (isBlank(p.lines[p.pos]) || isComment(p.lines[p.pos])) {
		p.pos++
	}
	if p.pos >= len(p.lines) {
		return record{}, false
	}
	rec := record{file: p.file}
	for {
		line, lineNo, ok := p.recordLine()
		if !ok {
			// Only conditions and no record: report it (at the last
			// condition's line) rather than drop it.
			return invalid(rec, "condition without a record"), true
		}
		rec.line = lineNo
		fields := headerFields(line)
		if len(fields) == 0 {
			// "# ..." handled above; a header that is only a trailing comment
			// cannot happen, but stay safe.
			continue
		}
		switch strings.ToLower(fields[0]) {
		case "skipif", "onlyif":
			if len(fields) < 2 {
				p.skipRecord()
				return invalid(rec, fields[0]+" needs an engine name"), true
			}
			rec.conds = append(rec.conds, condition{onlyIf: strings.EqualFold(fields[0], "onlyif"), engine: fields[1]})
			continue
		case "statement":
			rec.header = line
			return p.statement(rec, line, fields), true
		case "query":
			rec.header = line
			return p.query(rec, line, fields), true
		case "hash-threshold":
			p.skipRecord()
			if len(fields) != 2 {
				return invalid(rec, "hash-threshold needs one number"), true
			}
			n, err := strconv.Atoi(fields[1])
			if err != nil || n < 0 {
				return invalid(rec, fmt.Sprintf("bad hash-threshold %q", fields[1])), true
			}
			rec.kind, rec.threshold = kindHashThreshold, n
			return rec, true
		case "halt":
			p.skipRecord()
			rec.kind = kindHalt
			return rec, true
		case "control":
			p.skipRecord()
			return control(rec, fields), true
		case "include":
			p.skipRecord()
			if len(fields) != 2 {
				return invalid(rec, "include needs one file name or glob"), true
			}
			rec.kind, rec.glob = kindInclude, fields[1]
			return rec, true
		default:
			p.skipRecord()
			return invalid(rec, fmt.Sprintf("unsupported record type %q", fields[0])), true
		}
	}
}

func invalid(rec record, problem string) record {
	rec.kind = kindInvalid
	rec.problem = problem
	return rec
}

func control(rec record, fields []string) record {
	if len(fields) != 3 {
		return invalid(rec, "control needs a setting and a value")
	}
	switch fields[1] {
	case "sortmode":
		m, ok := parseSortMode(fields[2])
		if !ok {
			return invalid(rec, fmt.Sprintf("unknown sort mode %q", fields[2]))
		}
		rec.kind, rec.sortArg = kindSortMode, m
		return rec
	case "resultmode":
		switch fields[2] {
		case "valuewise":
			rec.layoutArg = layoutValuewise
		case "rowwise":
			rec.layoutArg = layoutRowwise
		default:
			return invalid(rec, fmt.Sprintf("unknown result mode %q", fields[2]))
		}
		rec.kind = kindResultMode
		return rec
	}
	return invalid(rec, fmt.Sprintf("unsupported control %q", fields[1]))
}

// restAfter returns the text of line after its first n whitespace-separated
// tokens, trimmed; used for error regexes, which may contain spaces and '#'.
func restAfter(line string, n int) string {
	s := strings.TrimLeft(line, " \t")
	for i := 0; i < n; i++ {
		j := strings.IndexAny(s, " \t")
		if j < 0 {
			return ""
		}
		s = strings.TrimLeft(s[j:], " \t")
	}
	return strings.TrimSpace(s)
}

func parseErrorExpectation(spec string) (*errorExpectation, error) {
	if spec == "" {
		return &errorExpectation{}, nil
	}
	if m := sqlstateForm.FindStringSubmatch(spec); m != nil {
		return &errorExpectation{sqlstate: strings.ToUpper(m[1])}, nil
	}
	re, err := regexp.Compile(spec)
	if err != nil {
		return nil, fmt.Errorf("bad error regex %q: %v", spec, err)
	}
	return &errorExpectation{pattern: re}, nil
}

// sqlUntilSeparator reads SQL lines up to a "----" line (sawSeparator) or the
// end of the record.
func (p *parser) sqlUntilSeparator() (sql string, sawSeparator bool) {
	var b strings.Builder
	for {
		line, _, ok := p.recordLine()
		if !ok {
			return b.String(), false
		}
		if strings.TrimSpace(line) == "----" {
			return b.String(), true
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line)
	}
}

// multiLineError reads an expected error message after ----, ended by two
// consecutive blank lines or the end of the file (sqllogictest-rs).
func (p *parser) multiLineError() string {
	var msg []string
	blanks := 0
	for p.pos < len(p.lines) {
		l := p.lines[p.pos]
		p.pos++
		if isBlank(l) {
			blanks++
			if blanks == 2 {
				break
			}
			continue
		}
		for ; blanks > 0; blanks-- {
			msg = append(msg, "")
		}
		msg = append(msg, l)
	}
	return strings.TrimSpace(strings.Join(msg, "\n"))
}

func (p *parser) statement(rec record, line string, fields []string) record {
	rec.kind = kindStatement
	if len(fields) < 2 {
		p.skipRecord()
		return invalid(rec, "statement needs ok, error or count")
	}
	switch strings.ToLower(fields[1]) {
	case "ok":
	case "error":
		exp, err := parseErrorExpectation(restAfter(line, 2))
		if err != nil {
			p.skipRecord()
			return invalid(rec, err.Error())
		}
		rec.expectErr = exp
	case "count":
		if len(fields) != 3 {
			p.skipRecord()
			return invalid(rec, "statement count needs one number")
		}
		n, err := strconv.ParseInt(fields[2], 10, 64)
		if err != nil || n < 0 {
			p.skipRecord()
			return invalid(rec, fmt.Sprintf("bad statement count %q", fields[2]))
		}
		rec.expectCount, rec.hasCount = n, true
	default:
		p.skipRecord()
		return invalid(rec, fmt.Sprintf("unsupported statement kind %q", fields[1]))
	}
	sql, sep := p.sqlUntilSeparator()
	rec.sql = sql
	if sep {
		if rec.expectErr == nil || rec.expectErr.sqlstate != "" || rec.expectErr.pattern != nil {
			p.skipRecord()
			return invalid(rec, "---- after a statement is only allowed for `statement error` with a multi-line message")
		}
		rec.expectErr.message, rec.expectErr.hasMsg = p.multiLineError(), true
	}
	if strings.TrimSpace(rec.sql) == "" {
		return invalid(rec, "statement without SQL")
	}
	return rec
}

func (p *parser) query(rec record, line string, fields []string) record {
	rec.kind = kindQuery
	if len(fields) < 2 {
		p.skipRecord()
		return invalid(rec, "query needs type letters or error")
	}
	if strings.EqualFold(fields[1], "error") {
		exp, err := parseErrorExpectation(restAfter(line, 2))
		if err != nil {
			p.skipRecord()
			return invalid(rec, err.Error())
		}
		rec.expectErr = exp
		sql, sep := p.sqlUntilSeparator()
		rec.sql = sql
		if sep {
			if exp.sqlstate != "" || exp.pattern != nil {
				p.skipRecord()
				return invalid(rec, "query error with a regex or SQLSTATE takes no ---- block")
			}
			exp.message, exp.hasMsg = p.multiLineError(), true
		}
		if strings.TrimSpace(rec.sql) == "" {
			return invalid(rec, "query without SQL")
		}
		return rec
	}
	rec.types = fields[1]
	rest := fields[2:]
	if len(rest) > 0 {
		if m, ok := parseSortMode(rest[0]); ok {
			rec.sort, rec.sortExplicit = m, true
			rest = rest[1:]
		} else if len(rest) > 1 {
			p.skipRecord()
			return invalid(rec, fmt.Sprintf("unknown sort mode %q", rest[0]))
		}
	}
	if len(rest) > 0 {
		rec.label = rest[0]
	}
	if len(rest) > 1 {
		p.skipRecord()
		return invalid(rec, fmt.Sprintf("unexpected %q after the query label", strings.Join(rest[1:], " ")))
	}
	sql, sep := p.sqlUntilSeparator()
	rec.sql = sql
	if sep {
		for {
			l, n, ok := p.recordLine()
			if !ok {
				break
			}
			rec.expected = append(rec.expected, l)
			rec.expectedLines = append(rec.expectedLines, n)
		}
	}
	if strings.TrimSpace(rec.sql) == "" {
		return invalid(rec, "query without SQL")
	}
	return rec
}
