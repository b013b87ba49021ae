package engine

import (
	"context"
	"maps"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ALTER SEQUENCE [IF EXISTS] s RENAME TO n | SET SCHEMA r, and ALTER TABLE
// s RENAME TO n of a sequence. PostgreSQL's defaults, checks, views and
// SQL function bodies hold the sequence's OID (nextval('s') is
// nextval('s'::regclass), a constant resolved when the text is parsed),
// so they keep drawing from it and print its new name. sqlgate keeps them
// as text, so the move rewrites every such constant naming the sequence
// (sql.RenameRelationInRegclass) and the SERIAL or identity column's
// record of its sequence (fluss.ColumnMeta.Sequence), as a type's rename
// rewrites the type's name (typerename.go): the metadata's texts in the
// commit that records the move, the sequence itself and the tables'
// texts after it (followups.go, which a crash leaves to the next start).
// The sequence keeps its id, so its OID, values and owner.

// noSequenceRename is the 0A000 of a store that cannot move a sequence.
func noSequenceRename() *sqlerr.Error {
	return sqlerr.New(sqlerr.FeatureNotSupported, "ALTER SEQUENCE ... RENAME TO and SET SCHEMA are not supported on a Fluss cluster: its sequences' log has no move").
		WithHint("Create a sequence under the new name: CREATE SEQUENCE new START WITH (SELECT last_value + 1 FROM old).")
}

// moveSequenceStmt runs ALTER SEQUENCE ... RENAME TO / SET SCHEMA (st)
// under tag; the caller holds the DDL lock.
func (s *session) moveSequenceStmt(ctx context.Context, q fluss.SequenceStore, st *sql.SequenceStmt, tag string) (pgwire.Result, error) {
	from := sequencePath(st.Names[0])
	cur, err := q.GetSequence(ctx, from)
	if err != nil {
		if sqlerr.CodeOf(err) != sqlerr.UndefinedTable {
			return nil, err
		}
		if s.relationAtPath(ctx, from) { // a table or view: IF EXISTS does not skip it
			return nil, notA("sequence", from.Table)
		}
		if st.IfExists {
			return noticeResult(tag, skipped("relation", from.Table)), nil
		}
		return nil, err
	}
	if err := s.mayOwnSequence(cur); err != nil {
		return nil, err
	}
	to := fluss.TablePath{Database: from.Database, Table: st.RenameTo}
	if st.SetSchema != "" {
		// PostgreSQL's order: an owned sequence is refused first, even
		// into its own schema or a missing one
		if cur.Def.OwnedBy != (fluss.TablePath{}) {
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "cannot move an owned sequence into another schema").
				WithDetail("Sequence \"%s\" is linked to table \"%s\".", from.Table, cur.Def.OwnedBy.Table)
		}
		to = fluss.TablePath{Database: st.SetSchema, Table: from.Table}
		if err := s.schemaExists(ctx, st.SetSchema); err != nil {
			return nil, err
		}
		if to == from {
			return tagOnly(tag), nil // PostgreSQL: nothing to do
		}
	}
	if s.relationAtPath(ctx, to) {
		if st.SetSchema != "" {
			return nil, sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists in schema \"%s\"", to.Table, to.Database)
		}
		return nil, sqlerr.RelationExists(to.Table)
	}
	if _, ok := q.(fluss.SequenceRenamer); !ok {
		return nil, noSequenceRename()
	}
	r := typeRename{schema: from.Database, from: from.Table, to: to.Table, kind: "sequence",
		rewrite: func(text string) (string, bool) {
			out, _, ok := sql.RenameRelationInRegclass(text, fluss.DefaultDatabase, from.Database, from.Table, to.Database, to.Table)
			return out, ok
		}}
	edits, err := s.planTableTexts(ctx, r.text, r.refuse) // typerename.go
	if err != nil {
		return nil, err
	}
	if edits, err = s.followColumnSequences(ctx, edits, from, to); err != nil {
		return nil, err
	}
	move := followUps{Sequence: &sequenceMove{ID: cur.ID, From: from, To: to}, Tables: tableFollowUps(edits)}
	err = s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		if err := r.inMeta(tx); err != nil {
			return err
		}
		return move.record(tx)
	})
	if err != nil {
		return nil, metaErr(err)
	}
	s.eng.step(stepFollowRecorded)
	if err := s.carryFollowUps(ctx); err != nil { // followups.go
		return nil, err
	}
	return tagOnly(tag), nil
}

// followColumnSequences adds to edits the SERIAL and identity columns
// whose sequence (fluss.ColumnMeta.Sequence, a name in the table's
// schema) moves from from to to. A column's sequence cannot leave its
// table's schema: that move is 0A000 (PostgreSQL refuses it for the
// sequence its column owns; one made no one's by OWNED BY NONE it moves).
func (s *session) followColumnSequences(ctx context.Context, edits []tableEdit, from, to fluss.TablePath) ([]tableEdit, error) {
	ts, err := s.userTables(ctx)
	if err != nil {
		return nil, err
	}
	for _, t := range ts {
		if t.Path.Database != from.Database {
			continue
		}
		k := -1
		for i, e := range edits {
			if e.info.TableID == t.TableID {
				k = i
			}
		}
		desc := t.Descriptor
		if k >= 0 {
			desc = edits[k].desc
		}
		m := fluss.MetaOf(desc)
		changed := false
		for i := range m.Columns {
			if m.Columns[i].Sequence != from.Table {
				continue
			}
			if to.Database != from.Database {
				return nil, sqlerr.New(sqlerr.FeatureNotSupported, "cannot move sequence \"%s\" into another schema: column %s of table %s draws from it", from.Table, t.Descriptor.Schema.Columns[i].Name, t.Path.Table).
					WithHint("sqlgate keeps a SERIAL or identity column's sequence in its table's schema.")
			}
			m.Columns[i].Sequence, changed = to.Table, true
		}
		if !changed {
			continue
		}
		desc.CustomProperties = maps.Clone(desc.CustomProperties)
		fluss.SetTableMeta(&desc, m)
		if k >= 0 {
			edits[k].desc = desc
		} else {
			edits = append(edits, tableEdit{info: t, desc: desc})
		}
	}
	return edits, nil
}
