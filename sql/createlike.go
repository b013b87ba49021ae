package sql

import (
	"fmt"
	"strings"
)

// LikeClause is a LIKE source_table [INCLUDING | EXCLUDING option ...]
// element of CREATE TABLE's column list: the binder copies the source's
// columns to its place, which the rewrite marks with a placeholder column
// named LikePlaceholder(i) (TiDB's grammar has no such element).
type LikeClause struct {
	// Table is the source's name as written: [schema.]table.
	Schema, Table string
	// Including holds the options in effect, lower case (comments,
	// constraints, defaults, indexes, ...): INCLUDING ALL sets every one,
	// a later EXCLUDING removes one, as PostgreSQL applies them in order.
	Including map[string]bool
	// Pos is the 1-based character position of the source's name (of
	// its schema when qualified).
	Pos int
}

// LikePlaceholder is the name of the column standing for st.CreateLike[i].
func LikePlaceholder(i int) string { return fmt.Sprintf("pg__like_%d", i) }

// likeOptions are the options of a LIKE element.
var likeOptions = map[string]bool{
	"COMMENTS": true, "COMPRESSION": true, "CONSTRAINTS": true, "DEFAULTS": true, "GENERATED": true,
	"IDENTITY": true, "INDEXES": true, "STATISTICS": true, "STORAGE": true, "ALL": true,
}

// likeElement reads the LIKE element at toks[i] (the word LIKE) into
// st.CreateLike and returns the placeholder column's tokens and the index
// of the token after the element (',' or ')').
func likeElement(src string, toks []token, i int, st *Statement) ([]token, int, error) {
	at := toks[i]
	i++
	first := i // a qualified name's position is its schema's, as PostgreSQL's RangeVar
	var parts []string
	for i < len(toks) {
		name, ok := identName(src, toks[i])
		if !ok {
			return nil, 0, syntaxErrorAt(src, toks, i)
		}
		parts = append(parts, name)
		i++
		if i < len(toks) && toks[i].isPunct(src, ".") {
			i++
			continue
		}
		break
	}
	if len(parts) == 0 || len(parts) > 2 {
		return nil, 0, syntaxErrorAt(src, toks, i)
	}
	lc := LikeClause{Table: parts[len(parts)-1], Including: map[string]bool{}, Pos: charPos(src, toks[first].start)}
	if len(parts) == 2 {
		lc.Schema = parts[0]
	}
	for i < len(toks) && (toks[i].is(src, "INCLUDING") || toks[i].is(src, "EXCLUDING")) {
		include := toks[i].is(src, "INCLUDING")
		if i+1 >= len(toks) || !likeOptions[toks[i+1].word(src)] {
			return nil, 0, syntaxErrorAt(src, toks, i+1)
		}
		opt := strings.ToLower(toks[i+1].word(src))
		if opt == "all" {
			for o := range likeOptions {
				if o != "ALL" {
					lc.Including[strings.ToLower(o)] = include
				}
			}
		} else {
			lc.Including[opt] = include
		}
		i += 2
	}
	if i >= len(toks) || !(toks[i].isPunct(src, ",") || toks[i].isPunct(src, ")")) {
		return nil, 0, syntaxErrorAt(src, toks, i)
	}
	st.CreateLike = append(st.CreateLike, lc)
	name := LikePlaceholder(len(st.CreateLike) - 1)
	return []token{
		{kind: tkQIdent, start: at.start, end: at.start, lead: at.lead, synth: `"` + name + `"`},
		{kind: tkIdent, start: at.start, end: at.start, lead: at.start, synth: "text"},
	}, i, nil
}
