package sql

import (
	"sort"
	"strings"
)

//go:generate sh -c "cd .. && go run ./sql/internal/kwgen"

// kwCategory is PostgreSQL's keyword category (pg_get_keywords().catcode).
// Which grammar positions take a keyword as a name follows from it:
// unreserved and column-name keywords are identifiers (ColId) almost
// everywhere, type/function-name keywords only as function or type names,
// reserved ones only as labels after AS.
type kwCategory uint8

const (
	kwUnreserved   kwCategory = iota + 1 // U
	kwColName                            // C
	kwTypeFuncName                       // T
	kwReserved                           // R
)

// pgKeyword is one entry of PostgreSQL's keyword list.
type pgKeyword struct {
	cat kwCategory
	// bareLabel: the word may label a select-list item without AS
	// (PostgreSQL's BARE_LABEL).
	bareLabel bool
}

// Keyword is one of PostgreSQL's keywords, as pg_get_keywords() lists it.
type Keyword struct {
	Word      string // lower case
	Category  byte   // catcode: 'U' unreserved, 'C' column name, 'T' type/function name, 'R' reserved
	BareLabel bool
}

// Keywords returns PostgreSQL 15's keyword list in alphabetical order: the
// one table behind the rewrite's names, pg_get_keywords() and quote_ident.
func Keywords() []Keyword {
	out := make([]Keyword, 0, len(pgKeywords))
	for w, k := range pgKeywords {
		out = append(out, Keyword{Word: strings.ToLower(w), Category: " UCTR"[k.cat], BareLabel: k.bareLabel})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Word < out[j].Word })
	return out
}
