package pgcatalog

import (
	"context"

	"github.com/sqlgate/sqlgate/functions"
)

// cursorRows is pg_cursors: the asking session's open cursors
// (functions.Session.Cursors), as PostgreSQL 15 lists them.
func cursorRows(ctx context.Context, _ *snapshot) ([]row, error) {
	s := functions.CurrentSession(ctx)
	if s.Cursors == nil {
		return nil, nil
	}
	var rows []row
	for _, c := range s.Cursors() {
		rows = append(rows, row{"name": c.Name, "statement": c.Statement, "is_holdable": c.IsHoldable,
			"is_binary": c.IsBinary, "is_scrollable": c.IsScrollable, "creation_time": c.CreationTime})
	}
	return rows, nil
}
