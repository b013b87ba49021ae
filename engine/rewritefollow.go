package engine

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/views"
)

// What a table rewrite (rewrite.go) changes outside the table itself
// cannot join the swap's catalog write: other tables' foreign keys (their
// referenced columns are positions, which a dropped column moves, or
// which DROP COLUMN ... CASCADE drops), the sequences the table's columns
// own (sequences.json: renamed, retyped or dropped with their column;
// fluss/embedded makes them follow the new table id), the views CASCADE
// took (meta.json),
// and the old table's unique index tables. So the swap records them:
// planFollowUps computes them under the DDL lock, the swap's own catalog
// write puts the record on the new table (fluss.RewritePendingProperty),
// finishFollowUps carries them out and resets the property. Each step
// names its target state (a foreign key's columns from the old positions
// to the new, a sequence's whole definition, a view by id) and does
// nothing where it finds that state or no object: run twice, it changes
// nothing more. A crash anywhere in between leaves the property, and the
// next start (Engine.finishRewrites) runs the record again before any
// session: the table is wholly old (no record: the swap did not happen)
// or wholly new with everything that follows it. The grants and the views'
// dependencies, also moved here, are besides mended by meta.Reconcile
// (fluss.GrantsFromProperty), and the owned sequences keep following the
// table's id across a crash (fluss/embedded settleSequences).

// rewriteFollowUps is the record (JSON in fluss.RewritePendingProperty).
type rewriteFollowUps struct {
	// OldID is the replaced table's id (its grants and views move to the
	// new one).
	OldID int64 `json:"old_id"`
	// OldIndexes are the replaced table's unique index tables.
	OldIndexes []fluss.TablePath `json:"old_indexes,omitempty"`
	// DropViews are the views DROP COLUMN ... CASCADE took.
	DropViews []followView `json:"drop_views,omitempty"`
	// DropKeys are other tables' foreign keys CASCADE took.
	DropKeys []followKey `json:"drop_keys,omitempty"`
	// MoveKeys are other tables' foreign keys whose referenced columns
	// moved.
	MoveKeys []followKey `json:"move_keys,omitempty"`
	// Sequences are the sequences the table owns, as they become.
	Sequences []followSequence `json:"sequences,omitempty"`
	// Columns maps each old column's name to its new one (a dropped
	// column has none): CREATE INDEX's indexes follow them (ddlindex.go).
	Columns map[string]string `json:"columns,omitempty"`
}

type followView struct {
	ID   int64           `json:"id"`
	Path fluss.TablePath `json:"path"`
}

type followKey struct {
	Child fluss.TablePath `json:"child"`
	Name  string          `json:"name"`
	// From and To are the referenced columns' positions before and after
	// (MoveKeys).
	From []int `json:"from,omitempty"`
	To   []int `json:"to,omitempty"`
}

type followSequence struct {
	Path fluss.TablePath `json:"path"`
	// Drop: the sequence of a dropped column; else Def is what it
	// becomes.
	Drop bool              `json:"drop,omitempty"`
	Def  fluss.SequenceDef `json:"def"`
}

// Rewrite steps a test kills the server at (Engine.rewriteStep), in order.
const (
	stepSwapped   = "swapped"
	stepIndexes   = "old indexes dropped"
	stepMeta      = "metadata moved"
	stepKeys      = "foreign keys followed"
	stepSequences = "sequences followed"
	stepFinished  = "record reset"
)

// step runs the test hook of a rewrite step.
func (e *Engine) step(name string) {
	if e.rewriteStep != nil {
		e.rewriteStep(name)
	}
}

// planFollowUps is what the swap of old's table by p leaves to do. The
// caller holds the DDL lock.
func (s *session) planFollowUps(ctx context.Context, old fluss.TableInfo, p *rewritePlan) (rewriteFollowUps, error) {
	f := rewriteFollowUps{OldID: old.TableID, OldIndexes: uniqueIndexPaths(old)} // rewriteunique.go
	for _, v := range p.cascadedViews() {
		f.DropViews = append(f.DropViews, followView{ID: v.ID, Path: v.Path})
	}
	type named struct {
		child fluss.TablePath
		name  string
	}
	dropped := map[named]bool{}
	for _, r := range p.dropRefs {
		dropped[named{r.child, r.fk.Name}] = true
		f.DropKeys = append(f.DropKeys, followKey{Child: r.child, Name: r.fk.Name})
	}
	pos := map[int]int{}
	f.Columns = map[string]string{}
	for i, c := range p.cols {
		pos[c.src] = i
		if c.src >= 0 && c.src < len(old.Descriptor.Schema.Columns) {
			f.Columns[old.Descriptor.Schema.Columns[c.src].Name] = c.col.Name
		}
	}
	refs, err := s.fkOthers(ctx, old.Path, nil) // fkddl.go
	if err != nil {
		return f, err
	}
	for _, r := range refs {
		if dropped[named{r.child, r.fk.Name}] {
			continue
		}
		if moved := remapColumns(r.fk.RefColumns, pos); !slices.Equal(moved, r.fk.RefColumns) {
			f.MoveKeys = append(f.MoveKeys, followKey{Child: r.child, Name: r.fk.Name, From: r.fk.RefColumns, To: moved})
		}
	}
	_, seqs, err := s.ownedSequences(ctx, map[fluss.TablePath]bool{old.Path: true}) // sequences.go
	if err != nil {
		return f, err
	}
	for _, sq := range seqs {
		def := p.followSequence(sq.Def)
		if slices.Contains(p.dropSeqs, sq.Path.Table) || def.OwnedColumn != "" && p.find(def.OwnedColumn) < 0 {
			// a dropped column's, its default's or OWNED BY's: PostgreSQL
			// drops a sequence with the column that owns it
			f.Sequences = append(f.Sequences, followSequence{Path: sq.Path, Drop: true})
			continue
		}
		if def != sq.Def { // (the store makes the rest follow the new table id)
			f.Sequences = append(f.Sequences, followSequence{Path: sq.Path, Def: def})
		}
	}
	return f, nil
}

// followSequence is def as the plan's renamed and retyped columns make
// it: a renamed column's sequence stays owned by it, and an identity
// column's takes its new integer type (the old type's bounds replaced by
// the new one's), as PostgreSQL's do.
func (p *rewritePlan) followSequence(def fluss.SequenceDef) fluss.SequenceDef {
	if to, ok := p.renamed[def.OwnedColumn]; ok {
		def.OwnedColumn = to
	}
	if t, ok := p.retyped[def.OwnedColumn]; ok && def.Identity {
		if typ := sequenceTypeOf(t); typ != "" && typ != def.Type {
			lo, hi := fluss.SequenceTypeRange(def.Type)
			nlo, nhi := fluss.SequenceTypeRange(typ)
			if def.Max == hi {
				def.Max = nhi
			}
			if def.Min == lo {
				def.Min = nlo
			}
			def.Type = typ
		}
	}
	return def
}

// property is the record as the swap writes it.
func (f rewriteFollowUps) property() (map[string]string, error) {
	b, err := json.Marshal(f)
	if err != nil {
		return nil, sqlerr.Wrap(err, sqlerr.InternalError, "encoding a rewrite's follow-ups: %v", err)
	}
	return map[string]string{fluss.RewritePendingProperty: string(b)}, nil
}

// finishFollowUps carries out f for the table created at its path and
// resets its record (when recorded). Each step may have run before (a
// crash after it: the next start runs them all again).
func (s *session) finishFollowUps(ctx context.Context, created fluss.TableInfo, f rewriteFollowUps, recorded bool) error {
	e := s.eng
	s.dropIndexTables(ctx, f.OldIndexes) // rewriteunique.go
	e.step(stepIndexes)
	var drop []views.View
	err := e.meta.Update(ctx, func(tx *meta.Tx) error {
		drop = drop[:0]
		for _, fv := range f.DropViews {
			if v, ok := tx.Views.Get(fv.Path); ok && v.ID == fv.ID {
				drop = append(drop, v)
			}
		}
		if err := tx.Access.Move(f.OldID, created.TableID); err != nil {
			return err
		}
		if err := dropViewsIn(tx, drop); err != nil { // cascade.go
			return err
		}
		followIndexes(tx, f.OldID, created.TableID, f.Columns) // ddlindex.go
		return retargetViews(tx, f.OldID, created.TableID)     // rewritecopy.go
	})
	if err != nil {
		return metaErr(err)
	}
	s.dropBackingHeld(ctx, drop) // matview.go
	e.step(stepMeta)
	for _, k := range f.DropKeys {
		if err := s.dropFKey(ctx, fkRef{child: k.Child, fk: fluss.ForeignKey{Name: k.Name}}); err != nil && sqlerr.CodeOf(err) != sqlerr.UndefinedTable { // fkddl.go
			return err
		}
	}
	for _, k := range f.MoveKeys {
		if err := s.moveReference(ctx, created.Path, k); err != nil {
			return err
		}
	}
	e.step(stepKeys)
	if q, ok := e.store.(fluss.SequenceStore); ok {
		for _, fs := range f.Sequences {
			var err error
			if fs.Drop {
				err = q.DropSequence(ctx, fs.Path, true)
			} else if err = q.AlterSequence(ctx, fs.Path, fs.Def, nil); sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
				err = nil // (gone: dropped with its table since)
			}
			if err != nil {
				return err
			}
		}
	}
	e.step(stepSequences)
	if !recorded {
		return nil
	}
	if alt, ok := e.store.(fluss.TableAlterer); ok {
		e.catalog.Add(1)
		if _, err := alt.AlterTable(ctx, created.Path, []fluss.TableChange{{Kind: fluss.ChangeResetProperty, Key: fluss.RewritePendingProperty}}); err != nil {
			return err
		}
	}
	e.step(stepFinished)
	return nil
}

// moveReference sets the referenced columns of child's foreign key k on
// the table at parent from k.From to k.To: only where they still are
// k.From (a second run finds k.To).
func (s *session) moveReference(ctx context.Context, parent fluss.TablePath, k followKey) error {
	alt, ok := s.eng.store.(fluss.TableAlterer)
	if !ok {
		return nil
	}
	info, err := s.eng.storeTable(ctx, k.Child)
	if sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
		return nil
	} else if err != nil {
		return err
	}
	fk, n, ok := fkNamed(info.Descriptor, k.Name) // fkddl.go
	if !ok || fk.RefTable != parent || !slices.Equal(fk.RefColumns, k.From) {
		return nil
	}
	fk.RefColumns = k.To
	key := fluss.FKeyKeyPrefix(n) + "refcols"
	s.eng.catalog.Add(1)
	_, err = alt.AlterTable(ctx, k.Child, []fluss.TableChange{{Kind: fluss.ChangeSetProperty, Key: key, Value: fluss.FKeyProperties(n, fk)[key]}})
	return err
}

// finishRewrites runs, when the server starts, the follow-ups a crash
// left recorded on rewritten tables (above), before any session. Only on
// a store this server is alone on (no other server's statement is
// between a swap and its follow-ups); a failure is logged, and the record
// stays for the next start.
func (e *Engine) finishRewrites() {
	if !e.singleServer() {
		return
	}
	ctx := context.Background()
	dbs, err := e.store.ListDatabases(ctx)
	if err != nil {
		e.log.Error("listing the schemas for unfinished table rewrites", "error", err)
		return
	}
	s := &session{eng: e}
	s.usableFn = s.schemaUsable // as NewSession's sessions have it
	for _, db := range dbs {
		ts, err := e.store.ListTables(ctx, db)
		if err != nil {
			e.log.Error("listing the tables for unfinished table rewrites", "schema", db, "error", err)
			continue
		}
		for _, t := range ts {
			text, ok := t.Descriptor.CustomProperties[fluss.RewritePendingProperty]
			if !ok {
				continue
			}
			var f rewriteFollowUps
			if err := json.Unmarshal([]byte(text), &f); err != nil {
				e.log.Error("reading an unfinished table rewrite's record", "table", t.Path.String(), "error", err)
				continue
			}
			if err := s.finishFollowUps(ctx, t, f, true); err != nil {
				e.log.Error("finishing a table rewrite a crash interrupted", "table", t.Path.String(), "error", err)
				continue
			}
			e.log.Info("finished a table rewrite a crash interrupted", "table", t.Path.String())
		}
		// a crash after a rewrite's swap may have left its partition
		// relations over the old columns (pgpartitions.go): bound again
		// once they follow the new table (finishFollowUps, above)
		for _, t := range ts {
			if err := s.refreshPartitionsOf(ctx, t); err != nil {
				e.log.Error("binding a rewritten table's partitions over its columns", "table", t.Path.String(), "error", err)
			}
		}
	}
}
