package tsearch

import (
	"math"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// ts_headline: the text's tokens (every one, spaces and tags included)
// as hlparsetext makes them, the default parser's headline selection
// (wparser_def.c's prsd_headline: hlCover, mark_hl_words and
// mark_hl_fragments) and generateHeadline's output, step for step so
// that the text is PostgreSQL's byte for byte.

// HeadlineOption is one name = value of ts_headline's options text.
type HeadlineOption struct{ Name, Value string }

// ParseHeadlineOptions reads ts_headline's options (deserialize_deflist):
// name = value pairs, separated by commas or spaces, a name or value
// quoted with " or ' (E'...' too) when it holds either.
func ParseHeadlineOptions(s string) ([]HeadlineOption, error) {
	const (
		waitKey = iota
		inKey
		inQKey
		waitEq
		waitValue
		inSQValue
		inDQValue
		inWValue
	)
	bad := func() error {
		return sqlerr.New(sqlerr.SyntaxError, "invalid parameter list format: \"%s\"", s)
	}
	isSpace := func(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
	var out []HeadlineOption
	var key, val []byte
	state := waitKey
	emit := func() {
		out = append(out, HeadlineOption{string(key), string(val)})
		state = waitKey
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch state {
		case waitKey:
			if isSpace(c) || c == ',' {
				continue
			}
			key, val = key[:0], nil
			if c == '"' {
				state = inQKey
			} else {
				key = append(key, c)
				state = inKey
			}
		case inKey:
			switch {
			case isSpace(c):
				state = waitEq
			case c == '=':
				state = waitValue
			default:
				key = append(key, c)
			}
		case inQKey:
			if c == '"' {
				if i+1 < len(s) && s[i+1] == '"' {
					key = append(key, c)
					i++
				} else {
					state = waitEq
				}
			} else {
				key = append(key, c)
			}
		case waitEq:
			if c == '=' {
				state = waitValue
			} else if !isSpace(c) {
				return nil, bad()
			}
		case waitValue:
			val = []byte{}
			switch {
			case c == '\'':
				state = inSQValue
			case c == 'E' && i+1 < len(s) && s[i+1] == '\'':
				i++
				state = inSQValue
			case c == '"':
				state = inDQValue
			case !isSpace(c):
				val = append(val, c)
				state = inWValue
			}
		case inSQValue:
			switch {
			case c == '\'':
				if i+1 < len(s) && s[i+1] == '\'' {
					val = append(val, c)
					i++
				} else {
					emit()
				}
			case c == '\\':
				if i+1 < len(s) && s[i+1] == '\\' {
					i++
				}
				val = append(val, c)
			default:
				val = append(val, c)
			}
		case inDQValue:
			if c == '"' {
				if i+1 < len(s) && s[i+1] == '"' {
					val = append(val, c)
					i++
				} else {
					emit()
				}
			} else {
				val = append(val, c)
			}
		case inWValue:
			if c == ',' || isSpace(c) {
				emit()
			} else {
				val = append(val, c)
			}
		}
	}
	if state == inWValue {
		emit()
	} else if state != waitKey {
		return nil, bad()
	}
	return out, nil
}

// hlWord is a HeadlineWordEntry: one token of the text, the query
// operand its lexeme satisfies (a repeated copy for each further one)
// and what the selection marked.
type hlWord struct {
	typ      int
	text     string
	pos      int
	item     *Node
	repeated bool
	selected bool
	in       bool
	replace  bool
	skip     bool
}

// hlParse is hlparsetext: every token of text; indexed ones numbered as
// to_tsvector numbers them and matched against q's operands.
func (c *Config) hlParse(text string, q Query) []hlWord {
	items := rankOrder(q)
	var words []hlWord
	pos := 0
	for _, t := range Parse(text) {
		if len(t.Text) >= maxStrLen {
			continue // "word is too long to be indexed": left out
		}
		words = append(words, hlWord{typ: t.Type, text: t.Text})
		lex, stop, ok := c.lexize(t.Type, t.Text)
		if !ok {
			continue
		}
		pos++
		if stop {
			continue
		}
		w := &words[len(words)-1]
		w.pos = min(pos, maxEntryPos-1)
		base := len(words) - 1
		for _, it := range items {
			if it.Word == lex || it.Prefix && strings.HasPrefix(lex, it.Word) {
				if words[base].item != nil {
					cp := words[base]
					cp.item, cp.repeated = it, true
					words = append(words, cp)
				} else {
					words[base].item = it
				}
			}
		}
	}
	return words
}

// Token classes of the headline selection (wparser_def.c's macros).
func nonWordToken(t int) bool {
	return t == TokBlank || t == TokTag || t == TokURL || t == TokNumHWord || t == TokAsciiHWord || t == TokHWord
}

func noEndToken(t int) bool {
	return nonWordToken(t) || t == TokSFloat || t == TokVersion || t == TokFloat || t == TokInt ||
		t == TokUint || t == TokProtocol || t == TokEntity
}

func hlSkip(t int) bool {
	return t == TokURL || t == TokNumHWord || t == TokAsciiHWord || t == TokHWord
}

type headline struct {
	words     []hlWord
	q         Query
	shortword int
}

func (h *headline) interesting(j int) bool { return h.words[j].item != nil && !h.words[j].repeated }

func (h *headline) badEndpoint(j int) bool {
	return (noEndToken(h.words[j].typ) || len(h.words[j].text) <= h.shortword) && !h.interesting(j)
}

// check is checkcondition_HL over words[from:to]: the operand's
// positions among them.
func (h *headline) checker(from, to int) func(n *Node, data *phraseData) ternary {
	return func(n *Node, data *phraseData) ternary {
		found := false
		for i := from; i < to; i++ {
			if h.words[i].item != n {
				continue
			}
			if data == nil {
				return tsYes
			}
			found = true
			if p := h.words[i].pos; len(data.pos) == 0 || data.pos[len(data.pos)-1] < p {
				data.pos = append(data.pos, p)
			}
		}
		if found {
			return tsYes
		}
		return tsNo
	}
}

func (h *headline) firstIndex(pos int) int {
	for i := pos; i < len(h.words); i++ {
		if h.words[i].item != nil {
			return i
		}
	}
	return -1
}

// cover is hlCover: the earliest, shortest run of words from p on (at
// most maxCover long) that satisfies the query, both ends query words.
func (h *headline) cover(maxCover int, p int) (int, int, bool) {
	if h.q.Root == nil {
		return 0, 0, false
	}
	pmin := h.firstIndex(p)
	for pmin >= 0 {
		nextpmin := -1
		pmax := pmin
		for {
			if (executor{check: h.checker(pmin, pmax+1)}).matches(h.q) {
				return pmin, pmax, true
			}
			nextpmax := h.firstIndex(pmax + 1)
			if pmax == pmin {
				nextpmin = nextpmax
			}
			pmax = nextpmax
			if pmax < 0 || pmax-pmin >= maxCover {
				break
			}
		}
		pmin = nextpmin
	}
	return 0, 0, false
}

func (h *headline) markFragment(highlightAll bool, start, end int) {
	for i := start; i <= end; i++ {
		w := &h.words[i]
		if w.item != nil {
			w.selected = true
		}
		if !highlightAll {
			if w.typ == TokTag {
				w.replace = true
			} else if hlSkip(w.typ) {
				w.skip = true
			}
		} else if hlSkip(w.typ) {
			w.skip = true
		}
		w.in = !w.repeated
	}
}

func (h *headline) nonWord(i int) bool { return nonWordToken(h.words[i].typ) }

// nextFragment is get_next_fragment.
func (h *headline) nextFragment(startpos, endpos *int, maxWords int) (curlen, poslen int) {
	for i := *startpos; i <= *endpos; i++ {
		*startpos = i
		if h.interesting(i) {
			break
		}
	}
	i := *startpos
	for ; i <= *endpos && curlen < maxWords; i++ {
		if !h.nonWord(i) {
			curlen++
		}
		if h.interesting(i) {
			poslen++
		}
	}
	if *endpos > i {
		*endpos = i
		for i = *endpos; i >= *startpos; i-- {
			*endpos = i
			if h.interesting(i) {
				break
			}
			if !h.nonWord(i) {
				curlen--
			}
		}
	}
	return curlen, poslen
}

type coverPos struct {
	startpos, endpos, poslen, curlen int
	chosen, excluded                 bool
}

// markFragments is mark_hl_fragments (MaxFragments > 0).
func (h *headline) markFragments(highlightAll bool, minWords, maxWords, maxFragments, maxCover int) {
	var covers []coverPos
	p := 0
	for {
		pp, q, ok := h.cover(maxCover, p)
		if !ok {
			break
		}
		p = pp
		startpos, endpos := p, q
		for startpos <= endpos {
			curlen, poslen := h.nextFragment(&startpos, &endpos, maxWords)
			covers = append(covers, coverPos{startpos: startpos, endpos: endpos, curlen: curlen, poslen: poslen})
			startpos = endpos + 1
			endpos = q
		}
		p++
	}
	numF := 0
	for f := 0; f < maxFragments; f++ {
		maxitems, minwords, minI := 0, math.MaxInt32, -1
		for i := range covers {
			c := &covers[i]
			if !c.chosen && !c.excluded && (maxitems < c.poslen || maxitems == c.poslen && minwords > c.curlen) {
				maxitems, minwords, minI = c.poslen, c.curlen, i
			}
		}
		if minI < 0 {
			break
		}
		c := &covers[minI]
		c.chosen = true
		startpos, endpos, curlen := c.startpos, c.endpos, c.curlen
		if curlen < maxWords {
			maxstretch := (maxWords - curlen) / 2
			stretch := 0
			posmarker := startpos
			for i := startpos - 1; i >= 0 && stretch < maxstretch && !h.words[i].in; i-- {
				if !h.nonWord(i) {
					curlen++
					stretch++
				}
				posmarker = i
			}
			i := posmarker
			for ; i < startpos && h.badEndpoint(i); i++ {
				if !h.nonWord(i) {
					curlen--
				}
			}
			startpos = i
			posmarker = endpos
			for i = endpos + 1; i < len(h.words) && curlen < maxWords && !h.words[i].in; i++ {
				if !h.nonWord(i) {
					curlen++
				}
				posmarker = i
			}
			for i = posmarker; i > endpos && h.badEndpoint(i); i-- {
				if !h.nonWord(i) {
					curlen--
				}
			}
			endpos = i
		}
		c.startpos, c.endpos, c.curlen = startpos, endpos, curlen
		h.markFragment(highlightAll, startpos, endpos)
		numF++
		for i := range covers {
			o := &covers[i]
			if i != minI && (o.startpos >= startpos && o.startpos <= endpos ||
				o.endpos >= startpos && o.endpos <= endpos ||
				o.startpos < startpos && o.endpos > endpos) {
				o.excluded = true
			}
		}
	}
	if numF <= 0 {
		// nothing when MinWords is 0 or the text empty (endpos -1)
		endpos, curlen := -1, 0
		for i := 0; i < len(h.words) && curlen < minWords; i++ {
			if !h.nonWord(i) {
				curlen++
			}
			endpos = i
		}
		h.markFragment(highlightAll, 0, endpos)
	}
}

// markWords is mark_hl_words (MaxFragments = 0).
func (h *headline) markWords(highlightAll bool, minWords, maxWords, maxCover int) {
	bestb, beste, bestlen := -1, -1, -1
	bestcover := false
	if highlightAll {
		h.markFragment(highlightAll, 0, len(h.words)-1)
		return
	}
	p := 0
	for {
		pp, q, ok := h.cover(maxCover, p)
		if !ok {
			break
		}
		p = pp
		curlen, poslen := 0, 0
		posb, pose := p, p
		i := p
		for ; i <= q && curlen < maxWords; i++ {
			if !h.nonWord(i) {
				curlen++
			}
			if h.interesting(i) {
				poslen++
			}
			pose = i
		}
		if curlen < maxWords {
			for i = i - 1; i < len(h.words) && curlen < maxWords; i++ {
				if i > q {
					if !h.nonWord(i) {
						curlen++
					}
					if h.interesting(i) {
						poslen++
					}
				}
				pose = i
				if h.badEndpoint(i) {
					continue
				}
				if curlen >= minWords {
					break
				}
			}
			if curlen < minWords {
				for i = p - 1; i >= 0; i-- {
					if !h.nonWord(i) {
						curlen++
					}
					if h.interesting(i) {
						poslen++
					}
					if curlen >= maxWords {
						break
					}
					if h.badEndpoint(i) {
						continue
					}
					if curlen >= minWords {
						break
					}
				}
				posb = max(i, 0)
			}
		} else {
			if i > q {
				i = q
			}
			for ; curlen > minWords; i-- {
				if !h.badEndpoint(i) {
					break
				}
				if !h.nonWord(i) {
					curlen--
				}
				if h.interesting(i) {
					poslen--
				}
				pose = i - 1
			}
		}
		poscover := posb <= p && pose >= q
		better := poscover && !bestcover ||
			poscover == bestcover && poslen > bestlen ||
			poscover == bestcover && poslen == bestlen && !h.badEndpoint(pose) && beste >= 0 && h.badEndpoint(beste)
		if better {
			bestb, beste, bestlen, bestcover = posb, pose, poslen, poscover
		}
		p++
	}
	if bestlen < 0 {
		curlen, pose := 0, -1
		for i := 0; i < len(h.words) && curlen < minWords; i++ {
			if !h.nonWord(i) {
				curlen++
			}
			pose = i
		}
		bestb, beste = 0, pose
	}
	h.markFragment(highlightAll, bestb, beste)
}

// optionInt reads an integer option as pg_strtoint32.
func optionInt(s string) (int, error) {
	t := strings.TrimRight(strings.TrimLeft(s, " \t\n\v\f\r"), " \t\n\v\f\r")
	digits := strings.TrimLeft(t, "+-")
	if len(t)-len(digits) > 1 || digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return 0, sqlerr.New(sqlerr.InvalidTextRepresentation, "invalid input syntax for type integer: \"%s\"", s)
	}
	n, err := strconv.ParseInt(t, 10, 32)
	if err != nil {
		return 0, sqlerr.New(sqlerr.NumericValueOutOfRange, "value \"%s\" is out of range for type integer", s)
	}
	return int(n), nil
}

// Headline is ts_headline(c, text, q, options) (prsd_headline and
// generateHeadline).
func (c *Config) Headline(text string, q Query, opts []HeadlineOption) (string, error) {
	h := &headline{words: c.hlParse(text, q), q: q, shortword: 3}
	minWords, maxWords, maxFragments := 15, 35, 0
	highlightAll := false
	startSel, stopSel, fragDelim := "<b>", "</b>", " ... "
	for _, o := range opts {
		var err error
		switch strings.ToLower(o.Name) {
		case "maxwords":
			maxWords, err = optionInt(o.Value)
		case "minwords":
			minWords, err = optionInt(o.Value)
		case "shortword":
			h.shortword, err = optionInt(o.Value)
		case "maxfragments":
			maxFragments, err = optionInt(o.Value)
		case "startsel":
			startSel = o.Value
		case "stopsel":
			stopSel = o.Value
		case "fragmentdelimiter":
			fragDelim = o.Value
		case "highlightall":
			switch strings.ToLower(o.Value) {
			case "1", "on", "true", "t", "y", "yes":
				highlightAll = true
			default:
				highlightAll = false
			}
		default:
			return "", sqlerr.New(sqlerr.InvalidParameterValue, "unrecognized headline parameter: \"%s\"", o.Name)
		}
		if err != nil {
			return "", err
		}
	}
	maxCover := max(maxWords*10, 100)
	if maxFragments > 0 {
		maxCover *= maxFragments
	}
	if !highlightAll {
		switch {
		case minWords >= maxWords:
			return "", sqlerr.New(sqlerr.InvalidParameterValue, "MinWords should be less than MaxWords")
		case minWords <= 0:
			return "", sqlerr.New(sqlerr.InvalidParameterValue, "MinWords should be positive")
		case h.shortword < 0:
			return "", sqlerr.New(sqlerr.InvalidParameterValue, "ShortWord should be >= 0")
		case maxFragments < 0:
			return "", sqlerr.New(sqlerr.InvalidParameterValue, "MaxFragments should be >= 0")
		}
	}
	if maxFragments == 0 {
		h.markWords(highlightAll, minWords, maxWords, maxCover)
	} else {
		h.markFragments(highlightAll, minWords, maxWords, maxFragments, maxCover)
	}
	var b strings.Builder
	infrag := false
	fragments := 0
	for _, w := range h.words {
		switch {
		case w.in && !w.repeated:
			if !infrag {
				infrag = true
				fragments++
				if fragments > 1 {
					b.WriteString(fragDelim)
				}
			}
			if w.replace {
				b.WriteByte(' ')
			} else if !w.skip {
				if w.selected {
					b.WriteString(startSel)
				}
				b.WriteString(w.text)
				if w.selected {
					b.WriteString(stopSel)
				}
			}
		case !w.repeated:
			infrag = false
		}
	}
	return b.String(), nil
}
