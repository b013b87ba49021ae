package sql

import (
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// CopyStmt is COPY, intercepted before TiDB (which cannot parse it): the
// STDIN / STDOUT forms, and COPY to or from a server-side file (File; the
// engine confines it to the directory of sqlgate serve --file-dir, see
// engine/copyfile.go). COPY to or from a program is refused.
type CopyStmt struct {
	// Schema and Table name the table (folded to lower case like every
	// identifier, see binder.ident); empty for COPY (query) TO.
	Schema, Table string
	// Columns is the optional column list, in the order given.
	Columns []string
	// Query is the text of the query of COPY (query) TO STDOUT; QueryOffset
	// is its byte offset in the statement's input.
	Query       string
	QueryOffset int
	// From is COPY ... FROM STDIN; false is COPY ... TO STDOUT.
	From bool
	// File is the server-side file of COPY ... FROM 'file' / TO 'file'
	// ("" for STDIN / STDOUT).
	File string
	// Format is "text", "csv" or "binary", or for a File also "parquet"
	// or "arrow" (package fileio). The options below hold their
	// effective values, defaults applied as PostgreSQL applies them.
	Format    string
	Delimiter string
	Null      string
	Quote     string
	Escape    string
	Header    bool
}

// copyParser reads a COPY statement from normalized tokens.
type copyParser struct {
	sessionParser
	st *CopyStmt
	// explicit options, to reject duplicates and mode mismatches
	seen map[string]bool
}

func parseCopy(src string, toks []token, st *Statement) error {
	p := &copyParser{sessionParser: sessionParser{src: src, toks: toks, pos: 1}, st: &CopyStmt{}, seen: map[string]bool{}}
	st.Kind = Copy
	st.Copy = p.st
	if p.accept("BINARY") { // pre-7.3 syntax: COPY BINARY t FROM STDIN
		if err := p.setOption("format", "binary"); err != nil {
			return err
		}
	}
	if p.pos < len(p.toks) && p.toks[p.pos].isPunct(src, "(") {
		if err := p.query(); err != nil {
			return err
		}
	} else if err := p.tableAndColumns(); err != nil {
		return err
	}
	switch {
	case p.accept("FROM"):
		p.st.From = true
		if p.st.Query != "" {
			return p.err() // COPY (query) FROM is a syntax error in PostgreSQL too
		}
		if !p.accept("STDIN") && !p.file() {
			return p.notStdio()
		}
	case p.accept("TO"):
		if !p.accept("STDOUT") && !p.file() {
			return p.notStdio()
		}
	default:
		return p.err()
	}
	if err := p.options(); err != nil {
		return err
	}
	if err := p.done(); err != nil {
		return err
	}
	return p.finish()
}

func (p *copyParser) notStdio() error {
	if p.word(0) == "PROGRAM" {
		return sqlerr.New(sqlerr.FeatureNotSupported, "COPY to or from a program is not supported").
			WithHint("Use COPY ... FROM STDIN / TO STDOUT, for example with psql's \\copy.")
	}
	return p.err()
}

// file reads the 'file name' of a server-side COPY.
func (p *copyParser) file() bool {
	if p.pos >= len(p.toks) || (p.toks[p.pos].kind != tkString && p.toks[p.pos].kind != tkEString) {
		return false
	}
	v, err := p.value()
	if err != nil {
		return false
	}
	p.st.File = v
	return true
}

// query reads "( query )" and records its text.
func (p *copyParser) query() error {
	open := p.pos
	depth := 0
	for i := open; i < len(p.toks); i++ {
		switch {
		case p.toks[i].isPunct(p.src, "("):
			depth++
		case p.toks[i].isPunct(p.src, ")"):
			depth--
			if depth == 0 {
				if i == open+1 {
					return syntaxErrorAt(p.src, p.toks, i)
				}
				first, last := p.toks[open+1], p.toks[i-1]
				p.st.Query = p.src[first.start:last.end]
				p.st.QueryOffset = first.start
				p.pos = i + 1
				return nil
			}
		}
	}
	return syntaxErrorAt(p.src, p.toks, len(p.toks))
}

func (p *copyParser) ident() (string, error) {
	if p.pos >= len(p.toks) {
		return "", p.err()
	}
	n, ok := identName(p.src, p.toks[p.pos])
	if !ok {
		return "", p.err()
	}
	p.pos++
	// Folded like binder.ident folds every identifier, so that COPY finds
	// the tables and columns CREATE TABLE made.
	return strings.ToLower(n), nil
}

func (p *copyParser) tableAndColumns() error {
	name, err := p.ident()
	if err != nil {
		return err
	}
	if p.pos < len(p.toks) && p.toks[p.pos].isPunct(p.src, ".") {
		p.pos++
		p.st.Schema = name
		if name, err = p.ident(); err != nil {
			return err
		}
	}
	p.st.Table = name
	if p.pos < len(p.toks) && p.toks[p.pos].isPunct(p.src, "(") {
		p.pos++
		for {
			col, err := p.ident()
			if err != nil {
				return err
			}
			for _, c := range p.st.Columns {
				if c == col {
					return sqlerr.New(sqlerr.DuplicateColumn, "column %q specified more than once", col)
				}
			}
			p.st.Columns = append(p.st.Columns, col)
			if p.pos < len(p.toks) && p.toks[p.pos].isPunct(p.src, ",") {
				p.pos++
				continue
			}
			if p.pos < len(p.toks) && p.toks[p.pos].isPunct(p.src, ")") {
				p.pos++
				return nil
			}
			return p.err()
		}
	}
	return nil
}

// options reads [WITH] ( option [, ...] ) or the pre-9.0 option words.
func (p *copyParser) options() error {
	p.accept("WITH")
	if p.pos < len(p.toks) && p.toks[p.pos].isPunct(p.src, "(") {
		p.pos++
		for {
			if p.pos >= len(p.toks) {
				return p.err()
			}
			name, ok := identName(p.src, p.toks[p.pos])
			if !ok {
				return p.err()
			}
			name = strings.ToLower(name)
			p.pos++
			value := ""
			hasValue := false
			if p.pos < len(p.toks) && !p.toks[p.pos].isPunct(p.src, ",") && !p.toks[p.pos].isPunct(p.src, ")") {
				if p.toks[p.pos].isPunct(p.src, "(") {
					return sqlerr.New(sqlerr.FeatureNotSupported, "COPY option %q is not supported", name)
				}
				v, err := p.value()
				if err != nil {
					return err
				}
				value, hasValue = v, true
			}
			if err := p.newOption(name, value, hasValue); err != nil {
				return err
			}
			if p.pos < len(p.toks) && p.toks[p.pos].isPunct(p.src, ",") {
				p.pos++
				continue
			}
			if p.pos < len(p.toks) && p.toks[p.pos].isPunct(p.src, ")") {
				p.pos++
				return nil
			}
			return p.err()
		}
	}
	for p.pos < len(p.toks) {
		var err error
		switch {
		case p.accept("BINARY"):
			err = p.setOption("format", "binary")
		case p.accept("CSV"):
			err = p.setOption("format", "csv")
		case p.accept("HEADER"):
			err = p.setOption("header", "true")
		case p.accept("DELIMITER"):
			err = p.oldValue("delimiter")
		case p.accept("NULL"):
			err = p.oldValue("null")
		case p.accept("QUOTE"):
			err = p.oldValue("quote")
		case p.accept("ESCAPE"):
			err = p.oldValue("escape")
		case p.word(0) == "FORCE" || p.word(0) == "OIDS":
			return sqlerr.New(sqlerr.FeatureNotSupported, "COPY option %s is not supported", p.word(0))
		default:
			return p.err()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// oldValue reads the [AS] 'string' after an old-style option word.
func (p *copyParser) oldValue(name string) error {
	p.accept("AS")
	if p.pos >= len(p.toks) || (p.toks[p.pos].kind != tkString && p.toks[p.pos].kind != tkEString) {
		return p.err()
	}
	v, err := p.value()
	if err != nil {
		return err
	}
	return p.setOption(name, v)
}

// newOption handles one option of the parenthesised list.
func (p *copyParser) newOption(name, value string, hasValue bool) error {
	switch name {
	case "format", "delimiter", "null", "quote", "escape":
		if !hasValue {
			return sqlerr.New(sqlerr.SyntaxError, "%s requires a parameter", name)
		}
		if name == "format" {
			value = strings.ToLower(value)
			if value != "text" && value != "csv" && value != "binary" && value != "parquet" && value != "arrow" {
				return sqlerr.New(sqlerr.InvalidParameterValue, "COPY format \"%s\" not recognized", value)
			}
		}
		return p.setOption(name, value)
	case "header":
		v := "true"
		if hasValue {
			switch strings.ToLower(value) {
			case "true", "on", "1", "yes":
			case "false", "off", "0", "no":
				v = "false"
			case "match":
				return sqlerr.New(sqlerr.FeatureNotSupported, "COPY HEADER MATCH is not supported")
			default:
				return sqlerr.New(sqlerr.InvalidParameterValue, "header requires a Boolean value or \"match\"")
			}
		}
		return p.setOption("header", v)
	case "encoding":
		if u := strings.ToUpper(strings.ReplaceAll(value, "-", "")); u != "UTF8" && u != "UNICODE" {
			return sqlerr.New(sqlerr.FeatureNotSupported, "COPY encoding %q is not supported; sqlgate speaks UTF8", value)
		}
		return nil
	case "freeze":
		return nil // every COPY is already one atomic write
	}
	return sqlerr.New(sqlerr.FeatureNotSupported, "COPY option %q is not supported", name)
}

func (p *copyParser) setOption(name, value string) error {
	if p.seen[name] {
		return sqlerr.New(sqlerr.SyntaxError, "conflicting or redundant options")
	}
	p.seen[name] = true
	switch name {
	case "format":
		p.st.Format = value
	case "delimiter":
		p.st.Delimiter = value
	case "null":
		p.st.Null = value
	case "quote":
		p.st.Quote = value
	case "escape":
		p.st.Escape = value
	case "header":
		p.st.Header = value == "true"
	}
	return nil
}

// finish applies defaults and PostgreSQL's checks (ProcessCopyOptions).
func (p *copyParser) finish() error {
	st := p.st
	if st.Format == "" {
		st.Format = "text"
	}
	csv := st.Format == "csv"
	columnar := st.Format == "parquet" || st.Format == "arrow"
	if columnar && st.File == "" {
		return sqlerr.New(sqlerr.FeatureNotSupported, "COPY format \"%s\" is only available for server-side files", st.Format).
			WithHint("Use COPY ... FROM 'file' / TO 'file' (sqlgate serve --file-dir), or sqlgate import / export from a client.")
	}
	if st.Format == "binary" || columnar {
		for _, o := range []string{"delimiter", "null", "header"} {
			if p.seen[o] {
				return sqlerr.New(sqlerr.SyntaxError, "cannot specify %s in %s mode", strings.ToUpper(o), strings.ToUpper(st.Format))
			}
		}
	}
	if !csv && p.seen["quote"] {
		return sqlerr.New(sqlerr.FeatureNotSupported, "COPY quote available only in CSV mode")
	}
	if !csv && p.seen["escape"] {
		return sqlerr.New(sqlerr.FeatureNotSupported, "COPY escape available only in CSV mode")
	}
	if st.Format == "binary" || columnar {
		return nil
	}
	if !p.seen["delimiter"] {
		st.Delimiter = "\t"
		if csv {
			st.Delimiter = ","
		}
	}
	if !p.seen["null"] {
		st.Null = `\N`
		if csv {
			st.Null = ""
		}
	}
	if csv {
		if !p.seen["quote"] {
			st.Quote = `"`
		}
		if !p.seen["escape"] {
			st.Escape = st.Quote
		}
	}
	if len(st.Delimiter) != 1 {
		return sqlerr.New(sqlerr.FeatureNotSupported, "COPY delimiter must be a single one-byte character")
	}
	if st.Delimiter == "\n" || st.Delimiter == "\r" {
		return sqlerr.New(sqlerr.InvalidParameterValue, "COPY delimiter cannot be newline or carriage return")
	}
	if strings.ContainsAny(st.Null, "\r\n") {
		return sqlerr.New(sqlerr.InvalidParameterValue, "COPY null representation cannot use newline or carriage return")
	}
	if !csv && strings.Contains(`\.abcdefghijklmnopqrstuvwxyz0123456789`, st.Delimiter) {
		return sqlerr.New(sqlerr.InvalidParameterValue, "COPY delimiter cannot be \"%s\"", st.Delimiter)
	}
	if csv {
		if len(st.Quote) != 1 {
			return sqlerr.New(sqlerr.FeatureNotSupported, "COPY quote must be a single one-byte character")
		}
		if st.Delimiter == st.Quote {
			return sqlerr.New(sqlerr.InvalidParameterValue, "COPY delimiter and quote must be different")
		}
		if len(st.Escape) != 1 {
			return sqlerr.New(sqlerr.FeatureNotSupported, "COPY escape must be a single one-byte character")
		}
	}
	if strings.Contains(st.Null, st.Delimiter) {
		return sqlerr.New(sqlerr.InvalidParameterValue, "COPY delimiter must not appear in the NULL specification")
	}
	if csv && strings.Contains(st.Null, st.Quote) {
		return sqlerr.New(sqlerr.InvalidParameterValue, "CSV quote character must not appear in the NULL specification")
	}
	return nil
}
