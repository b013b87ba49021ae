package sql

import (
	"strconv"
	"strings"
)

// SearchCycle is the SEARCH and/or CYCLE clause of one WITH item
// (PostgreSQL 14+), which TiDB's grammar does not have:
//
//	name [(cols)] AS (query) SEARCH {DEPTH | BREADTH} FIRST BY col, ... SET seqcol
//	name [(cols)] AS (query) CYCLE col, ... SET markcol [TO value DEFAULT default] USING pathcol
//
// The rewrite removes the clauses and marks the item by an extra column
// alias, the quoted identifier SearchCycleMarker + its index in
// Statement.SearchCycle; the binder takes the marker out of the alias
// list and adds the clauses' columns (binder/recursive.go).
type SearchCycle struct {
	Search       bool
	BreadthFirst bool
	SearchBy     []string
	SearchSet    string

	Cycle     bool
	CycleCols []string
	CycleMark string
	CyclePath string
	MarkValue string // the TO value's SQL text ("" when not written: true)
	MarkDflt  string // the DEFAULT value's SQL text ("" when not written: false)
	ClausePos int    // 1-based character position of the first clause, for errors
}

// SearchCycleMarker prefixes the column alias that marks a WITH item with
// a SEARCH or CYCLE clause.
const SearchCycleMarker = "pg__search_cycle_"

// rewriteSearchCycle finds the SEARCH and CYCLE clauses after WITH items'
// queries, records them in st.SearchCycle and returns the tokens without
// them and with each item's marker (toks itself when there are none).
func rewriteSearchCycle(src string, toks []token, st *Statement) ([]token, error) {
	var out []token
	copied := 0 // toks[:copied] are in out
	for i := 1; i < len(toks); i++ {
		t := toks[i]
		if t.kind != tkIdent || !toks[i-1].isPunct(src, ")") || !(t.is(src, "SEARCH") || t.is(src, "CYCLE")) {
			continue
		}
		if t.is(src, "SEARCH") && !(i+1 < len(toks) && (toks[i+1].is(src, "DEPTH") || toks[i+1].is(src, "BREADTH"))) {
			continue
		}
		// the item's header: name [(cols)] AS [[NOT] MATERIALIZED] ( query )
		open := matchingOpen(src, toks, i-1)
		if open < 2 {
			continue
		}
		h := open - 1
		for h > 0 && (toks[h].is(src, "MATERIALIZED") || toks[h].is(src, "NOT")) {
			h--
		}
		if !toks[h].is(src, "AS") {
			continue
		}
		sc := SearchCycle{ClausePos: charPos(src, t.start)}
		end, err := parseSearchCycle(src, toks, i, &sc)
		if err != nil {
			return nil, err
		}
		// insert the marker into the alias list (or make one)
		at, ins := aliasMarker(src, toks, h, SearchCycleMarker+strconv.Itoa(len(st.SearchCycle)))
		st.SearchCycle = append(st.SearchCycle, sc)
		if out == nil {
			out = make([]token, 0, len(toks)+3)
		}
		out = append(out, toks[copied:at]...)
		out = append(out, ins...)
		out = append(out, toks[at:i]...)
		copied = end
		i = end - 1
	}
	if out == nil {
		return toks, nil
	}
	return append(out, toks[copied:]...), nil
}

// Materialization of a WITH item, written [NOT] MATERIALIZED after its AS
// (PostgreSQL 12+), which TiDB's grammar does not have. The rewrite drops
// the words and marks the item by an extra column alias, as SEARCH/CYCLE
// (the binder takes it out again: binder/cte.go).
const (
	MaterializedMarker    = "pg__materialized"
	NotMaterializedMarker = "pg__not_materialized"
)

// rewriteMaterialized turns "name [(cols)] AS [NOT] MATERIALIZED (" into
// "name (cols, marker) AS (". The words can stand nowhere else before a
// "(" after AS: a type or alias named materialized is not followed by one.
func rewriteMaterialized(src string, toks []token) []token {
	var out []token
	copied := 0
	for i := 1; i+1 < len(toks); i++ {
		t := toks[i]
		if !t.is(src, "MATERIALIZED") || !toks[i+1].isPunct(src, "(") {
			continue
		}
		as, marker := i-1, MaterializedMarker
		if toks[as].is(src, "NOT") {
			as, marker = as-1, NotMaterializedMarker
		}
		if as < 1 || !toks[as].is(src, "AS") {
			continue
		}
		at, ins := aliasMarker(src, toks, as, marker)
		if out == nil {
			out = make([]token, 0, len(toks)+2)
		}
		out = append(out, toks[copied:at]...)
		out = append(out, ins...)
		out = append(out, toks[at:as+1]...) // the list's ")" if any, and AS
		copied = i + 1                      // the "(" of the query is copied next
	}
	if out == nil {
		return toks
	}
	return append(out, toks[copied:]...)
}

// aliasMarker returns the tokens that add the quoted column alias marker to
// the WITH item whose AS is toks[as], and the index they go before: into
// the item's alias list (", marker" before its ")"), or as a list of their
// own ("(marker)" before AS).
func aliasMarker(src string, toks []token, as int, marker string) (at int, ins []token) {
	at = as
	synth := func(kind tokKind, text string) token {
		return token{kind: kind, start: toks[at].start, end: toks[at].start, lead: toks[at].start, synth: text}
	}
	m := `"` + marker + `"`
	if toks[as-1].isPunct(src, ")") {
		at = as - 1
		return at, []token{synth(tkPunct, ","), synth(tkQIdent, m)}
	}
	return at, []token{synth(tkPunct, "("), synth(tkQIdent, m), synth(tkPunct, ")")}
}

// matchingOpen returns the index of the "(" that the ")" at close closes
// (-1 if none).
func matchingOpen(src string, toks []token, close int) int {
	depth := 0
	for k := close; k >= 0; k-- {
		switch {
		case toks[k].isPunct(src, ")"):
			depth++
		case toks[k].isPunct(src, "("):
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

// parseSearchCycle parses the clauses starting at toks[i] into sc and
// returns the index after them.
func parseSearchCycle(src string, toks []token, i int, sc *SearchCycle) (int, error) {
	bad := func(k int) error { return syntaxErrorAt(src, toks, min(k, len(toks)-1)) }
	ident := func(k int) (string, bool) {
		if k >= len(toks) {
			return "", false
		}
		switch toks[k].kind {
		case tkIdent:
			return strings.ToLower(toks[k].text(src)), true
		case tkQIdent:
			return unquoteIdent(toks[k].text(src)), true
		}
		return "", false
	}
	names := func(k int) ([]string, int, error) {
		var out []string
		for {
			n, ok := ident(k)
			if !ok {
				return nil, k, bad(k)
			}
			out = append(out, n)
			k++
			if k < len(toks) && toks[k].isPunct(src, ",") {
				k++
				continue
			}
			return out, k, nil
		}
	}
	// colsSet parses "col, ... SET name" from k
	colsSet := func(k int) ([]string, string, int, error) {
		cols, k, err := names(k)
		if err != nil {
			return nil, "", 0, err
		}
		if k >= len(toks) || !toks[k].is(src, "SET") {
			return nil, "", 0, bad(k)
		}
		n, ok := ident(k + 1)
		if !ok {
			return nil, "", 0, bad(k + 1)
		}
		return cols, n, k + 2, nil
	}
	k := i
	if toks[k].is(src, "SEARCH") {
		sc.Search = true
		sc.BreadthFirst = toks[k+1].is(src, "BREADTH")
		if k+3 >= len(toks) || !toks[k+2].is(src, "FIRST") || !toks[k+3].is(src, "BY") {
			return 0, bad(k + 2)
		}
		var err error
		if sc.SearchBy, sc.SearchSet, k, err = colsSet(k + 4); err != nil {
			return 0, err
		}
	}
	if k < len(toks) && toks[k].is(src, "CYCLE") {
		sc.Cycle = true
		var err error
		if sc.CycleCols, sc.CycleMark, k, err = colsSet(k + 1); err != nil {
			return 0, err
		}
		if k < len(toks) && toks[k].is(src, "TO") {
			// TO value DEFAULT default: constants, kept as their text
			v := k + 1
			for k = v; k < len(toks) && !toks[k].is(src, "DEFAULT"); k++ {
			}
			if k >= len(toks) || k == v {
				return 0, bad(k)
			}
			sc.MarkValue = src[toks[v].start:toks[k-1].end]
			d := k + 1
			for k = d; k < len(toks) && !toks[k].is(src, "USING"); k++ {
			}
			if k >= len(toks) || k == d {
				return 0, bad(k)
			}
			sc.MarkDflt = src[toks[d].start:toks[k-1].end]
		}
		if k >= len(toks) || !toks[k].is(src, "USING") {
			return 0, bad(k)
		}
		n, ok := ident(k + 1)
		if !ok {
			return 0, bad(k + 1)
		}
		sc.CyclePath = n
		k += 2
	}
	return k, nil
}
