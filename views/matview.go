package views

import (
	"fmt"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Matview is what a materialized view keeps beyond a view's definition:
// where its rows are. The rows are a Fluss log table of their own (the
// backing table, named with BackingPrefix in the view's schema when it
// was filled); REFRESH fills a new backing table and then points the view
// at it in one metadata commit (SetMatview), so that readers and a crash
// see the old rows or the new, never a mix. The previous backing table is
// kept until the next refresh, for the readers that bound it before the
// switch.
type Matview struct {
	// Backing holds the rows; its Table is "" while the view is not
	// populated (WITH NO DATA).
	Backing fluss.TablePath `json:"backing"`
	// Previous is the backing table replaced by the last refresh ("" when
	// none), dropped by the next one.
	Previous fluss.TablePath `json:"previous,omitempty"`
	// Indexes are the indexes created on the view (CREATE INDEX): names,
	// uniqueness and key columns, which REFRESH ... CONCURRENTLY consults.
	Indexes []Index `json:"indexes,omitempty"`
}

// Index is an index of a materialized view.
type Index struct {
	Name    string   `json:"name"`
	Unique  bool     `json:"unique,omitempty"`
	Columns []string `json:"columns"`
}

// BackingPrefix starts the name of every backing table: the catalog
// (pgcatalog) hides the tables named so. Not "__...": a Fluss cluster
// keeps names starting with two underscores for its own tables.
const BackingPrefix = "sqlgate__mv_"

// IsBacking reports whether a table name is a backing table's.
func IsBacking(table string) bool { return strings.HasPrefix(table, BackingPrefix) }

// BackingName names a new backing table of view id: unique stamp (a clock
// reading) keeps the names of a view's successive tables apart, also
// across a crash that left one behind.
func BackingName(id int64, stamp int64) string {
	return fmt.Sprintf("%s%d_%d", BackingPrefix, id, stamp)
}

// Materialized reports whether v is a materialized view.
func (v View) Materialized() bool { return v.Matview != nil }

// Populated reports whether a materialized view holds rows to read.
func (v View) Populated() bool { return v.Matview != nil && v.Matview.Backing.Table != "" }

// SetMatview replaces the materialized view's Matview at path in one save:
// the switch to new rows that REFRESH makes. 42P01 when no materialized
// view is there.
func (s *Store) SetMatview(path fluss.TablePath, m Matview) (View, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, ok := s.views[path]
	if !ok || old.Matview == nil {
		return View{}, sqlerr.New(sqlerr.UndefinedTable, "materialized view \"%s\" does not exist", path.Table)
	}
	v := old
	v.Matview = &m
	s.views[path] = v
	if err := s.save(); err != nil {
		s.views[path] = old
		return View{}, err
	}
	return v, nil
}

// Replace stores v in place of the view with v's id at v.Path (ALTER
// MATERIALIZED VIEW ... RENAME COLUMN: new column names and printed
// definitions). 42P01 when no such view is there.
func (s *Store) Replace(v View) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, ok := s.views[v.Path]
	if !ok || old.ID != v.ID {
		return sqlerr.New(sqlerr.UndefinedTable, "relation \"%s\" does not exist", v.Path.Table)
	}
	v.Columns = append([]Column(nil), v.Columns...)
	for i := range v.Columns {
		v.Columns[i].TypeText = storedTypeText(v.Columns[i].Type)
	}
	s.views[v.Path] = v
	if err := s.save(); err != nil {
		s.views[v.Path] = old
		return err
	}
	return nil
}

// BackingTables lists the backing tables the materialized views hold (the
// current and previous of each): a table named with BackingPrefix that is
// not among them was left by a CREATE or REFRESH that failed or crashed.
func (s *Store) BackingTables() map[fluss.TablePath]bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := map[fluss.TablePath]bool{}
	for _, v := range s.views {
		if m := v.Matview; m != nil {
			for _, p := range []fluss.TablePath{m.Backing, m.Previous} {
				if p.Table != "" {
					out[p] = true
				}
			}
		}
	}
	return out
}
