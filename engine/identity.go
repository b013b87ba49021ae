package engine

import (
	"cmp"
	"context"
	"slices"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ALTER TABLE ... ALTER COLUMN c ADD GENERATED { ALWAYS | BY DEFAULT } AS
// IDENTITY [ ( options ) ], SET GENERATED and DROP IDENTITY [IF EXISTS]
// (sql/identity.go): an identity is sqlgate's metadata (the column's
// identity and sequence keys, fluss.ColumnMeta) and a sequence owned by
// the column, so the rows stay as they are. ADD makes the sequence first
// (a failure after leaves an unused sequence, which is dropped again),
// DROP drops it after the metadata no longer names it. PostgreSQL's rules:
// the column must be smallint, integer or bigint, NOT NULL, without a
// default and not yet an identity (55000).

// hasIdentityAction reports whether an ALTER TABLE has identity actions.
func hasIdentityAction(actions []sql.AlterAction) bool {
	return slices.ContainsFunc(actions, func(a sql.AlterAction) bool { return isIdentityAction(a.Kind) })
}

func isIdentityAction(k sql.AlterKind) bool {
	return k == sql.AlterAddIdentity || k == sql.AlterSetIdentity || k == sql.AlterDropIdentity
}

// alterIdentity runs an ALTER TABLE whose actions are identity actions.
func (s *session) alterIdentity(ctx context.Context, d *sql.DDLStmt) (pgwire.Result, error) {
	const tag = "ALTER TABLE"
	if slices.ContainsFunc(d.Actions, func(a sql.AlterAction) bool { return !isIdentityAction(a.Kind) }) {
		return nil, sqlerr.NotSupported("ALTER TABLE with identity actions and other actions together (run them as separate statements)")
	}
	info, err := s.resolveTable(ctx, d.Table)
	if err != nil {
		if d.IfExists && sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
			return noticeResult(tag, skipped("relation", d.Table.Name)), nil
		}
		return nil, err
	}
	if err := s.blockDDL(tag, pathIn([]fluss.TablePath{info.Path})); err != nil {
		return nil, err
	}
	if info, err = s.lockDDLTable(ctx, info.Path); err != nil { // ddllock.go
		return nil, err
	}
	if err := s.mayDrop(info); err != nil { // the owner alone alters
		return nil, err
	}
	m := fluss.MetaOf(info.Descriptor)
	var changes []fluss.TableChange
	var seqs []binder.NewSequence
	var drop []fluss.TablePath
	var notices []*sqlerr.Error
	for _, a := range d.Actions {
		i := info.ColumnIndex(a.Column)
		if i < 0 {
			return nil, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", a.Column, info.Path.Table)
		}
		c, cm := info.Descriptor.Schema.Columns[i], &m.Columns[i]
		idKey, seqKey := fluss.ColumnIdentityKeys(i + 1)
		state := func(what string) error {
			return sqlerr.New(sqlerr.ObjectNotInPrerequisiteState, "column \"%s\" of relation \"%s\" %s", a.Column, info.Path.Table, what)
		}
		switch a.Kind {
		case sql.AlterAddIdentity:
			switch {
			case !c.Type.NotNull && !cm.NotNull:
				return nil, state("must be declared NOT NULL before identity can be added")
			case cm.Identity != 0:
				return nil, state("is already an identity column")
			case cm.Default != "" || cm.Generated != "":
				return nil, state("already has a default value")
			}
			seq, err := binder.IdentitySequence(info.Path, c, i, a.Identity)
			if err != nil {
				return nil, err
			}
			if exists, err := s.relationAt(ctx, seq.Path); err != nil { // matview.go
				return nil, err
			} else if exists || slices.ContainsFunc(seqs, func(n binder.NewSequence) bool { return n.Path == seq.Path }) {
				return nil, sqlerr.RelationExists(seq.Path.Table)
			}
			seq.Def.Owner = cmp.Or(s.eng.meta.Access().Owner(info.TableID), s.info.User) // the table's, as in PostgreSQL
			cm.Identity, cm.Sequence = identityLetter(a.Identity.Always), seq.Path.Table
			seqs = append(seqs, seq)
			changes = append(changes,
				fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: idKey, Value: string(cm.Identity)},
				fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: seqKey, Value: seq.Path.Table})
		case sql.AlterSetIdentity:
			if cm.Identity == 0 {
				return nil, state("is not an identity column")
			}
			cm.Identity = identityLetter(a.Identity.Always)
			changes = append(changes, fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: idKey, Value: string(cm.Identity)})
		case sql.AlterDropIdentity:
			if cm.Identity == 0 {
				if a.IfNotExists {
					notices = append(notices, sqlerr.New(sqlerr.SuccessfulCompletion, "column \"%s\" of relation \"%s\" is not an identity column, skipping", a.Column, info.Path.Table))
					continue
				}
				return nil, state("is not an identity column")
			}
			if cm.Sequence != "" {
				drop = append(drop, fluss.TablePath{Database: info.Path.Database, Table: cm.Sequence})
			}
			cm.Identity, cm.Sequence = 0, ""
			changes = append(changes,
				fluss.TableChange{Kind: fluss.ChangeResetProperty, Key: idKey},
				fluss.TableChange{Kind: fluss.ChangeResetProperty, Key: seqKey})
		}
	}
	if len(changes) == 0 {
		return noticeResult(tag, notices...), nil
	}
	undo, err := s.createTableSequences(ctx, seqs) // sequences.go
	if err != nil {
		return nil, err
	}
	if _, err := s.applyTableChanges(ctx, info, changes); err != nil {
		undo()
		return nil, err
	}
	if len(drop) > 0 {
		q, err := s.sequenceStore()
		if err != nil {
			return nil, err
		}
		for _, p := range drop {
			if err := q.DropSequence(ctx, p, true); err != nil {
				return nil, err
			}
		}
	}
	s.seqs.newStatement()
	return noticeResult(tag, notices...), nil
}

// identityLetter is pg_attribute.attidentity of GENERATED ALWAYS ('a')
// or BY DEFAULT ('d').
func identityLetter(always bool) byte {
	if always {
		return 'a'
	}
	return 'd'
}
