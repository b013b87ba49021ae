package tsearch

import (
	_ "embed"
	"strings"

	"github.com/kljensen/snowball/english"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// englishStop is PostgreSQL 15's english stop word list
// (src/backend/snowball/stopwords/english.stop, installed as
// tsearch_data/english.stop), one word a line.
//
//go:embed english.stop
var englishStop string

// stopWords is englishStop as a set; read once, never changed.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(englishStop) {
		m[w] = true
	}
	return m
}()

// Config is a text search configuration: which dictionary each token
// type goes to (none: the token is skipped).
type Config struct {
	Name string
	dict [TokEntity + 1]dictionary
}

type dictionary uint8

const (
	dictNone dictionary = iota
	dictSimple
	dictEnglishStem
)

// The token types both stock configurations index: all but blank, tag,
// protocol and entity.
var indexed = []int{TokAsciiWord, TokWord, TokNumWord, TokAsciiHWord, TokHWord, TokNumHWord,
	TokHWordAsciiPart, TokHWordPart, TokHWordNumPart, TokEmail, TokURL, TokHost, TokURLPath,
	TokFile, TokSFloat, TokFloat, TokInt, TokUint, TokVersion}

func newConfig(name string, letters dictionary) *Config {
	c := &Config{Name: name}
	for _, t := range indexed {
		c.dict[t] = dictSimple
	}
	for _, t := range []int{TokAsciiWord, TokWord, TokAsciiHWord, TokHWord, TokHWordAsciiPart, TokHWordPart} {
		c.dict[t] = letters
	}
	return c
}

var configs = map[string]*Config{
	"simple":  newConfig("simple", dictSimple),
	"english": newConfig("english", dictEnglishStem),
}

// ConfigOIDs are the stock configurations' OIDs in a PostgreSQL 15
// cluster (simple's is fixed, english's what initdb gives it).
var ConfigOIDs = map[string]uint32{"simple": 3748, "english": 13164}

// catalogName is a reg* input's object name as the text search
// catalogs are searched (quotes removed, else case folded, without an
// optional pg_catalog. qualification) and as its error prints it
// (unquoted or case folded, the qualification kept).
func catalogName(name string) (lookup, printed string) {
	n := name
	if strings.HasPrefix(n, "\"") && strings.HasSuffix(n, "\"") && len(n) >= 2 {
		n = n[1 : len(n)-1]
	} else {
		n = strings.ToLower(n)
	}
	return strings.TrimPrefix(n, "pg_catalog."), n
}

// LookupConfig finds a configuration by name, as regconfig's input does
// (an optional pg_catalog. qualification, case folded when unquoted).
func LookupConfig(name string) (*Config, error) {
	n, qualified := catalogName(name)
	if c, ok := configs[n]; ok {
		return c, nil
	}
	return nil, sqlerr.New(sqlerr.UndefinedObject, "text search configuration \"%s\" does not exist", qualified)
}

// lexize is what the token's dictionary makes of it: a lexeme, or
// stop true for a stop word; ok false when no dictionary takes the type.
func (c *Config) lexize(typ int, tok string) (lexeme string, stop, ok bool) {
	switch c.dict[typ] {
	case dictSimple:
		return strings.ToLower(tok), false, true
	case dictEnglishStem:
		w := strings.ToLower(tok)
		if len(w) > 1000 {
			return w, false, true // not passed to the stemmer (dict_snowball.c)
		}
		if w == "" || stopWords[w] {
			return "", true, true
		}
		return english.Stem(w, true), false, true
	}
	return "", false, false
}

// parsedWord is one lexeme of parsed text and its position.
type parsedWord struct {
	word string
	pos  int
}

// parseText is parsetext: the text's tokens through c, numbered from 1
// (a stop word takes a position, skipped tokens do not); words too long
// to index are left out.
func (c *Config) parseText(text string) (words []parsedWord, stops []int) {
	pos := 0
	for _, t := range Parse(text) {
		if len(t.Text) >= maxStrLen {
			continue
		}
		lex, stop, ok := c.lexize(t.Type, t.Text)
		if !ok {
			continue
		}
		pos++
		if stop {
			stops = append(stops, pos)
			continue
		}
		words = append(words, parsedWord{lex, pos})
	}
	return words, stops
}

// ToVector is to_tsvector(c, text).
func (c *Config) ToVector(text string) Vector {
	words, _ := c.parseText(text)
	v := make(Vector, 0, len(words))
	for _, w := range words {
		v = append(v, Lexeme{Word: w.word, Pos: []Pos{makePos(w.pos, 0)}})
	}
	return normalise(v)
}

// ToVectorParts is to_tsvector over a JSON document's values, in
// document order (add_to_tsvector): each value's lexemes numbered on
// from the last value's, one position left empty after a value that gave
// any (a stop word alone takes a position but leaves no gap), so that a
// phrase does not run from one value into the next.
func (c *Config) ToVectorParts(parts []string) Vector {
	var v Vector
	offset := 0
	for _, p := range parts {
		words, stops := c.parseText(p)
		last := 0
		if len(words) > 0 {
			last = words[len(words)-1].pos
		}
		if len(stops) > 0 && stops[len(stops)-1] > last {
			last = stops[len(stops)-1]
		}
		for _, w := range words {
			v = append(v, Lexeme{Word: w.word, Pos: []Pos{makePos(offset+w.pos, 0)}})
		}
		offset += last
		if len(words) > 0 {
			offset++
		}
	}
	return normalise(v)
}

// morph is pushval_morph: one operand of query text through c, its
// lexemes joined by op (<-> with their distance, or &), stop words held
// by placeholders.
func (c *Config) morph(op int) pushVal {
	return func(word string, weight int, prefix bool) *Node {
		words, stops := c.parseText(word)
		if len(words) == 0 {
			return &Node{stop: true}
		}
		isStop := map[int]bool{}
		for _, s := range stops {
			isStop[s] = true
		}
		var root *Node
		pos := 0
		join := func(n *Node) {
			if root == nil {
				root = n
				return
			}
			root = &Node{Op: op, Dist: 1, L: root, R: n}
		}
		for _, w := range words {
			if pos > 0 {
				for pos+1 < w.pos {
					join(&Node{stop: true})
					pos++
				}
			}
			pos = w.pos
			join(&Node{Word: w.word, Weight: weight, Prefix: prefix})
		}
		if op != OpPhrase {
			for _, n := range []*Node{root} {
				setDist(n)
			}
		}
		return root
	}
}

// setDist clears the distance of non-phrase operators.
func setDist(n *Node) {
	if n == nil || n.Op == 0 {
		return
	}
	if n.Op != OpPhrase {
		n.Dist = 0
	}
	setDist(n.L)
	setDist(n.R)
}

// ToQuery is to_tsquery(c, text).
func (c *Config) ToQuery(text string) (Query, error) {
	return parseQuery(text, c.morph(OpPhrase))
}

// PlainToQuery is plainto_tsquery(c, text): the text's lexemes joined
// by &.
func (c *Config) PlainToQuery(text string) Query {
	n := c.morph(OpAnd)(text, 0, false)
	var l, r int
	return Query{Root: cleanStop(n, &l, &r)}
}

// PhraseToQuery is phraseto_tsquery(c, text): the lexemes joined by <->.
func (c *Config) PhraseToQuery(text string) Query {
	n := c.morph(OpPhrase)(text, 0, false)
	var l, r int
	return Query{Root: cleanStop(n, &l, &r)}
}
