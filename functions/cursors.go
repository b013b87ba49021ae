package functions

import "time"

// Cursor is one row of pg_cursors: a cursor the session opened with SQL's
// DECLARE, as PostgreSQL 15 describes it.
type Cursor struct {
	Name string
	// Statement is the query string the DECLARE came from.
	Statement                          string
	IsHoldable, IsBinary, IsScrollable bool
	CreationTime                       time.Time
}
