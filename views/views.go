package views

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/internal/atomicfile"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Column is one output column of a view.
type Column struct {
	Name string  `json:"name"`
	Type types.T `json:"type"`
	// TypeText is storedTypeText(Type) when the view was stored: the file
	// keeps types.T's kinds by number, and Open refuses a file whose
	// numbers no longer print the same type, rather than misread it.
	TypeText string `json:"type_text"`
	// Updatable: a write through the view may set the column (a plain
	// column of its base relation in an automatically updatable view).
	Updatable bool `json:"updatable,omitempty"`
}

// Relation is a table or view a view's definition names directly.
type Relation struct {
	Path fluss.TablePath `json:"path"`
	// TableID is the Fluss table id of a table, 0 for a view.
	TableID int64 `json:"table_id,omitempty"`
	// ViewID is the id of a view, 0 for a table.
	ViewID int64 `json:"view_id,omitempty"`
}

// View is one stored view.
type View struct {
	ID   int64           `json:"id"`
	Path fluss.TablePath `json:"path"`
	// Definition is the SELECT (or set operation, or WITH query) as written.
	Definition string `json:"definition"`
	// Pretty and Plain are the definition as PostgreSQL prints it
	// (pg_get_viewdef(v, true) and pg_get_viewdef(v)), when the engine
	// could print it so; "" otherwise.
	Pretty string `json:"pretty,omitempty"`
	Plain  string `json:"plain,omitempty"`
	// ColumnNames is the explicit column list of CREATE VIEW v (a, b), nil
	// when none was given.
	ColumnNames []string   `json:"column_names,omitempty"`
	Columns     []Column   `json:"columns"`
	Uses        []Relation `json:"uses,omitempty"`
	// Functions are the signatures of the functions (CREATE FUNCTION's)
	// the definition calls directly: DROP FUNCTION of one refuses, or
	// drops the view with CASCADE.
	Functions []string `json:"functions,omitempty"`
	// CreatedAt is the creation time in Unix milliseconds.
	CreatedAt int64 `json:"created_at"`
	// AutoUpdatable: the view is automatically updatable, as PostgreSQL
	// 15 defines it when it was created (binder/viewwrite.go); a view
	// stored before this was recorded reads as not updatable.
	AutoUpdatable bool `json:"auto_updatable,omitempty"`
	// Options are the view's options as pg_class.reloptions shows them
	// ("check_option=local", "security_barrier=true"; options.go).
	Options []string `json:"options,omitempty"`
	// Matview is set on a materialized view (matview.go).
	Matview *Matview `json:"matview,omitempty"`
	// Partition is set on a partition of a PostgreSQL-partitioned table
	// (CREATE TABLE p PARTITION OF t FOR VALUES IN (v)): a Fluss partition
	// of t, which sqlgate names p; its definition selects t's rows of v.
	Partition *Partition `json:"partition,omitempty"`
}

// Partition is the Fluss partition a partition relation names (the
// Fluss partitions, for the DEFAULT partition).
type Partition struct {
	// Parent is the partitioned table, ParentID its Fluss table id.
	Parent   fluss.TablePath `json:"parent"`
	ParentID int64           `json:"parent_id"`
	// Values are the partition's values as Fluss names them (in partition
	// key order), Bound its bound as pg_get_expr shows relpartbound
	// ("FOR VALUES IN ('x')").
	Values []string `json:"values"`
	Bound  string   `json:"bound"`
	// Default is set on the DEFAULT partition (Values nil, Bound
	// "DEFAULT"): the rows whose value no other partition holds, each
	// value's in a Fluss partition no partition relation names. Others
	// are the other partitions' values (Fluss's names) when its
	// definition was last bound; it is bound again whenever they change.
	Default bool     `json:"default,omitempty"`
	Others  []string `json:"others,omitempty"`
}

// Literal is the partition's value as the SQL literal its bound shows
// ('x', 1, true).
func (p *Partition) Literal() string {
	if p.Default {
		return ""
	}
	return strings.TrimSuffix(strings.TrimPrefix(p.Bound, "FOR VALUES IN ("), ")")
}

// IsPartition reports whether v names a partition of a partitioned table.
func (v View) IsPartition() bool { return v.Partition != nil }

// ACLKey is the view's key in access.Store, which keys tables by their
// (positive) Fluss table id.
func (v View) ACLKey() int64 { return -v.ID }

// ACLKeyOf is ACLKey for a view id.
func ACLKeyOf(id int64) int64 { return -id }

// Store holds every view and persists each change before it returns. It is
// safe for concurrent use.
type Store struct {
	path string // "" = in memory only

	mu     sync.RWMutex
	nextID int64
	views  map[fluss.TablePath]View
}

type fileFormat struct {
	FormatVersion int    `json:"format_version"`
	NextID        int64  `json:"next_id"`
	Views         []View `json:"views"`
}

const formatVersion = 1

// Open reads the views file at path (a missing file is an empty store).
// path "" keeps the views in memory.
func Open(path string) (*Store, error) {
	s := &Store{path: path, nextID: 1, views: map[fluss.TablePath]View{}}
	if path == "" {
		return s, nil
	}
	var f fileFormat
	found, err := atomicfile.ReadJSON(path, "views file", &f)
	if err != nil {
		return nil, err
	}
	if !found {
		return s, nil
	}
	if f.FormatVersion != formatVersion {
		return nil, fmt.Errorf("views file %s: format version %d is not supported (want %d)", path, f.FormatVersion, formatVersion)
	}
	r, err := Restore(Snapshot{NextID: f.NextID, Views: f.Views}, "views file "+path)
	if err != nil {
		return nil, err
	}
	r.path = path
	return r, nil
}

// save writes the file atomically; the caller holds mu.
func (s *Store) save() error {
	if s.path == "" {
		return nil
	}
	f := fileFormat{FormatVersion: formatVersion, NextID: s.nextID, Views: s.sortedLocked("")}
	return atomicfile.WriteJSON(s.path, f)
}

// sortedLocked lists the views of database (every database when ""),
// sorted by database and name.
func (s *Store) sortedLocked(database string) []View {
	out := make([]View, 0, len(s.views))
	for p, v := range s.views {
		if database == "" || p.Database == database {
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path.Database != out[j].Path.Database {
			return out[i].Path.Database < out[j].Path.Database
		}
		return out[i].Path.Table < out[j].Path.Table
	})
	return out
}

// Get returns the view at path.
func (s *Store) Get(path fluss.TablePath) (View, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.views[path]
	return v, ok
}

// ByID returns the view with the given id.
func (s *Store) ByID(id int64) (View, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, v := range s.views {
		if v.ID == id {
			return v, true
		}
	}
	return View{}, false
}

// List lists the views of a database ("" = every database), sorted by name.
func (s *Store) List(database string) []View {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.sortedLocked(database)
}

// Create stores v (its ID and CreatedAt are assigned here). A view of that
// name that exists is an error (42P07) unless replace, in which case v
// replaces it under PostgreSQL's rule and keeps its id: v's columns must
// start with the old view's columns, same names and types (42P16).
func (s *Store) Create(v View, replace bool) (View, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v.Columns = append([]Column(nil), v.Columns...)
	for i := range v.Columns {
		v.Columns[i].TypeText = storedTypeText(v.Columns[i].Type)
	}
	old, exists := s.views[v.Path]
	if exists {
		if !replace {
			return View{}, sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists", v.Path.Table)
		}
		// (a partition's columns are its parent's, which ALTER TABLE of
		// the parent drops, renames and retypes: engine/pgpartitions.go)
		if old.Partition == nil {
			if err := CheckReplace(old, v); err != nil {
				return View{}, err
			}
		}
		v.ID, v.CreatedAt = old.ID, old.CreatedAt
	} else {
		v.ID = s.nextID
		s.nextID++
	}
	s.views[v.Path] = v
	if err := s.save(); err != nil {
		if exists {
			s.views[v.Path] = old
		} else {
			delete(s.views, v.Path)
			s.nextID--
		}
		return View{}, err
	}
	return v, nil
}

// CheckReplace applies PostgreSQL's CREATE OR REPLACE VIEW rule: the new
// query may add columns at the end, but must keep every existing column's
// name and type.
func CheckReplace(old, repl View) error {
	if len(repl.Columns) < len(old.Columns) {
		return sqlerr.New(sqlerr.InvalidTableDefinition, "cannot drop columns from view")
	}
	for i, o := range old.Columns {
		n := repl.Columns[i]
		if n.Name != o.Name {
			return sqlerr.New(sqlerr.InvalidTableDefinition, "cannot change name of view column \"%s\" to \"%s\"", o.Name, n.Name).
				WithHint("Use ALTER VIEW ... RENAME COLUMN ... to change name of view column instead.")
		}
		if !n.Type.Equal(o.Type) {
			return sqlerr.New(sqlerr.InvalidTableDefinition, "cannot change data type of view column \"%s\" from %s to %s", o.Name, o.Type.PGName(), n.Type.PGName())
		}
	}
	return nil
}

// Drop removes the view at path; 42P01 if there is none.
func (s *Store) Drop(path fluss.TablePath) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, ok := s.views[path]
	if !ok {
		return sqlerr.New(sqlerr.UndefinedTable, "view \"%s\" does not exist", path.Table)
	}
	delete(s.views, path)
	if err := s.save(); err != nil {
		s.views[path] = old
		return err
	}
	return nil
}

// FunctionDependents lists the views whose definitions call the function
// of signature sig directly, oldest first.
func (s *Store) FunctionDependents(sig string) []View {
	return s.dependents(func(v View) bool { return slices.Contains(v.Functions, sig) })
}

// Dependents lists the views whose definitions name the relation at path
// directly, oldest first (PostgreSQL lists dependents in OID order).
func (s *Store) Dependents(path fluss.TablePath) []View {
	return s.dependents(func(v View) bool {
		return slices.ContainsFunc(v.Uses, func(r Relation) bool { return r.Path == path })
	})
}

// dependents lists the views uses holds for, oldest first.
func (s *Store) dependents(uses func(View) bool) []View {
	s.mu.RLock()
	defer s.mu.RUnlock()
	all := s.sortedLocked("")
	sort.SliceStable(all, func(i, j int) bool { return all[i].ID < all[j].ID })
	var out []View
	for _, v := range all {
		if uses(v) {
			out = append(out, v)
		}
	}
	return out
}

// Snapshot is a Store's content: what the metadata store (package meta)
// persists and what Restore reads back.
type Snapshot struct {
	NextID int64  `json:"next_id"`
	Views  []View `json:"views"`
}

// Snapshot copies the store's content, views sorted by database and name.
// A View's slices are never changed once stored, so they are shared.
func (s *Store) Snapshot() Snapshot {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return Snapshot{NextID: s.nextID, Views: s.sortedLocked("")}
}

// Restore is an in-memory store holding sn, checked as Open checks a file
// (where names it in errors).
func Restore(sn Snapshot, where string) (*Store, error) {
	s := &Store{nextID: max(sn.NextID, 1), views: map[fluss.TablePath]View{}}
	for _, v := range sn.Views {
		for _, c := range v.Columns {
			if !typeTextMatches(c.Type, c.TypeText) {
				return nil, fmt.Errorf("%s: view %s column %s: stored type %q reads back as %q", where, v.Path, c.Name, c.TypeText, storedTypeText(c.Type))
			}
		}
		if v.ID <= 0 || v.ID >= s.nextID {
			return nil, fmt.Errorf("%s: view %s has id %d outside 1..%d", where, v.Path, v.ID, s.nextID-1)
		}
		s.views[v.Path] = v
	}
	return s, nil
}

// Clone is an in-memory copy of the store, for a change that replaces the
// store only once it is committed.
func (s *Store) Clone() *Store {
	c, _ := Restore(s.Snapshot(), "") // checked when it was stored
	return c
}

// storedTypeText prints t without its registry: an enum type as
// enum(OID). A T read back from the file has no registry (the catalog's
// types are published after the metadata is read), so a name printed
// through one could never be compared, and an enum renamed since the view
// was stored keeps its OID.
func storedTypeText(t types.T) string {
	var unbound *types.Registry
	return unbound.Bind(t).String()
}

// enumInText is an enum type as storedTypeText prints it.
var enumInText = regexp.MustCompile(`enum\(\d+\)`)

// typeTextMatches reports whether text, a column's stored TypeText, prints
// t. Files written before storedTypeText printed an enum type by its name
// (which the OID no longer tells without the catalog), so there an enum
// matches any type name (identifier characters, dots, quoted parts) and
// the rest of the type must print the same.
func typeTextMatches(t types.T, text string) bool {
	want := storedTypeText(t)
	if text == want {
		return true
	}
	parts := enumInText.Split(want, -1)
	if len(parts) == 1 {
		return false
	}
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	named, err := regexp.Compile("^" + strings.Join(parts, `(?:"(?:[^"]|"")*"|[\pL\pN_$.])+`) + "$")
	return err == nil && named.MatchString(text)
}
