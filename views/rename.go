package views

import (
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Rename moves the view at from to the name to (ALTER VIEW ... RENAME TO),
// keeping its id (so its owner and grants, keyed by id) and definition:
// 42P01 when there is no view at from, 42P07 when a view is at to. The
// caller refuses the rename of a relation that other views name (their
// definitions are kept as written, and would still name from).
func (s *Store) Rename(from, to fluss.TablePath) (View, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.views[from]
	if !ok {
		return View{}, sqlerr.New(sqlerr.UndefinedTable, "view \"%s\" does not exist", from.Table)
	}
	if _, taken := s.views[to]; taken {
		return View{}, sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists", to.Table)
	}
	renamed := v
	renamed.Path = to
	delete(s.views, from)
	s.views[to] = renamed
	if err := s.save(); err != nil {
		delete(s.views, to)
		s.views[from] = v
		return View{}, err
	}
	return renamed, nil
}
