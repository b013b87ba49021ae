package sql

import (
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// SUBSCRIBE (Materialize's statement, over Fluss's changelog), intercepted
// before TiDB like the cursor statements: Kind Subscribe, details in
// Statement.DDL.Subscribe. It also stands as the query of COPY (SUBSCRIBE
// ...) TO STDOUT and of DECLARE c CURSOR FOR SUBSCRIBE ..., which the
// engine parses again from their query text.
//
//	SUBSCRIBE [TO] table | (SELECT ...)
//	    [WITH (SNAPSHOT [=] true|false, PROGRESS [=] true|false)]
//	    [FROM EARLIEST | LATEST | OFFSETS '{bucket:offset,...}' | TIMESTAMP 'ts']

// SubscribeStart says where a subscription starts reading the changelog.
type SubscribeStart int

// The starts; SubscribeDefault is a snapshot and the changes after it,
// or (SNAPSHOT = false) the changes committed from now on.
const (
	SubscribeDefault SubscribeStart = iota
	SubscribeEarliest
	SubscribeLatest
	SubscribeOffsets
	SubscribeTimestamp
)

// SubscribeStmt is SUBSCRIBE.
type SubscribeStmt struct {
	// Table names the table of SUBSCRIBE [TO] table; Query is the text of
	// SUBSCRIBE [TO] (query) otherwise.
	Table ObjectName
	Query string
	// Snapshot is the SNAPSHOT option (nil: not given); Progress the
	// PROGRESS option.
	Snapshot *bool
	Progress bool
	// Start and its argument: Offsets (bucket -> first offset to read)
	// or Timestamp (the literal's text, a timestamptz).
	Start     SubscribeStart
	Offsets   map[int]int64
	Timestamp string
}

// parseSubscribe handles SUBSCRIBE and reports whether it did.
func parseSubscribe(src string, toks []token, st *Statement) (bool, error) {
	p := &sessionParser{src: src, toks: toks}
	if p.word(0) != "SUBSCRIBE" {
		return false, nil
	}
	p.pos = 1
	s := &SubscribeStmt{}
	st.Kind, st.DDL = Subscribe, &DDLStmt{Subscribe: s}
	return true, p.subscribe(s)
}

func (p *sessionParser) subscribe(s *SubscribeStmt) error {
	p.accept("TO")
	if p.pos < len(p.toks) && p.toks[p.pos].isPunct(p.src, "(") {
		open, depth := p.pos, 0
		for i := open; i < len(p.toks); i++ {
			if p.toks[i].isPunct(p.src, "(") {
				depth++
			} else if p.toks[i].isPunct(p.src, ")") {
				if depth--; depth == 0 {
					if i == open+1 {
						p.pos = i
						return p.err()
					}
					s.Query = p.src[p.toks[open+1].start:p.toks[i-1].end]
					p.pos = i + 1
					break
				}
			}
		}
		if s.Query == "" {
			p.pos = len(p.toks)
			return p.err()
		}
	} else {
		n, err := p.objectName()
		if err != nil {
			return err
		}
		s.Table = n
	}
	if p.accept("WITH") {
		if err := p.subscribeOptions(s); err != nil {
			return err
		}
	}
	if p.accept("FROM") {
		if err := p.subscribeStart(s); err != nil {
			return err
		}
	}
	return p.done()
}

// subscribeOptions reads ( name [=] value, ... ).
func (p *sessionParser) subscribeOptions(s *SubscribeStmt) error {
	if !p.punct("(") {
		return p.err()
	}
	seen := map[string]bool{}
	for {
		name := p.word(0)
		if name != "SNAPSHOT" && name != "PROGRESS" {
			return p.err()
		}
		if seen[name] {
			return sqlerr.New(sqlerr.SyntaxError, "option %s specified more than once", name)
		}
		seen[name] = true
		p.pos++
		p.punct("=")
		v := true
		switch {
		case p.accept("TRUE"), p.accept("ON"):
		case p.accept("FALSE"), p.accept("OFF"):
			v = false
		default:
			if p.pos < len(p.toks) && p.toks[p.pos].kind == tkString {
				b, ok := parseBoolWord(unquoteString(p.toks[p.pos].text(p.src)))
				if !ok {
					return sqlerr.New(sqlerr.InvalidParameterValue, "%s requires a Boolean value", name)
				}
				v = b
				p.pos++
			} else if !(p.pos < len(p.toks) && (p.toks[p.pos].isPunct(p.src, ",") || p.toks[p.pos].isPunct(p.src, ")"))) {
				return sqlerr.New(sqlerr.InvalidParameterValue, "%s requires a Boolean value", name)
			}
		}
		if name == "SNAPSHOT" {
			s.Snapshot = &v
		} else {
			s.Progress = v
		}
		if p.punct(")") {
			return nil
		}
		if !p.punct(",") {
			return p.err()
		}
	}
}

func parseBoolWord(w string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(w)) {
	case "t", "true", "on", "yes", "y", "1":
		return true, true
	case "f", "false", "off", "no", "n", "0":
		return false, true
	}
	return false, false
}

// subscribeStart reads what follows FROM.
func (p *sessionParser) subscribeStart(s *SubscribeStmt) error {
	switch {
	case p.accept("EARLIEST"):
		s.Start = SubscribeEarliest
	case p.accept("LATEST"):
		s.Start = SubscribeLatest
	case p.accept("OFFSETS"):
		if p.pos >= len(p.toks) || p.toks[p.pos].kind != tkString {
			return p.err()
		}
		m, err := ParseBucketOffsets(unquoteString(p.toks[p.pos].text(p.src)))
		if err != nil {
			return err
		}
		p.pos++
		s.Start, s.Offsets = SubscribeOffsets, m
	case p.accept("TIMESTAMP"):
		if p.pos >= len(p.toks) || p.toks[p.pos].kind != tkString {
			return p.err()
		}
		s.Start, s.Timestamp = SubscribeTimestamp, unquoteString(p.toks[p.pos].text(p.src))
		p.pos++
	default:
		return p.err()
	}
	return nil
}

// ParseBucketOffsets reads '{bucket:offset, ...}' (JSON-like: keys may be
// quoted), the per-bucket offsets a subscriber stored.
func ParseBucketOffsets(text string) (map[int]int64, error) {
	bad := func() error {
		return sqlerr.New(sqlerr.InvalidParameterValue, "invalid OFFSETS value %s", strconv.Quote(text)).
			WithHint("Write the first offset to read per bucket, for example '{0:42, 1:17}'.")
	}
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "{") || !strings.HasSuffix(t, "}") {
		return nil, bad()
	}
	t = strings.TrimSpace(t[1 : len(t)-1])
	out := map[int]int64{}
	if t == "" {
		return out, nil
	}
	for _, item := range strings.Split(t, ",") {
		k, v, ok := strings.Cut(item, ":")
		if !ok {
			return nil, bad()
		}
		b, err1 := strconv.Atoi(strings.Trim(strings.TrimSpace(k), `"`))
		o, err2 := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err1 != nil || err2 != nil || b < 0 || o < 0 {
			return nil, bad()
		}
		if _, dup := out[b]; dup {
			return nil, sqlerr.New(sqlerr.InvalidParameterValue, "bucket %d appears twice in OFFSETS", b)
		}
		out[b] = o
	}
	return out, nil
}

// fetchTimeout reads FETCH's ( timeout [=] 'interval' ) after WITH.
func (p *sessionParser) fetchTimeout() (string, error) {
	if !p.punct("(") || p.word(0) != "TIMEOUT" {
		return "", p.err()
	}
	p.pos++
	p.punct("=")
	if p.pos >= len(p.toks) || (p.toks[p.pos].kind != tkString && p.toks[p.pos].kind != tkNumber) {
		return "", p.err()
	}
	v := p.toks[p.pos].text(p.src)
	if p.toks[p.pos].kind == tkString {
		v = unquoteString(v)
	}
	p.pos++
	if !p.punct(")") {
		return "", p.err()
	}
	return v, nil
}
