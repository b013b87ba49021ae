package sql

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
