package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
)

// A rename that rewrites stored texts (ALTER TYPE / DOMAIN / FUNCTION /
// SEQUENCE ... RENAME TO, ALTER SEQUENCE ... SET SCHEMA, ALTER TABLE of a
// sequence) changes two stores: sqlgate's metadata (the type, the views,
// the functions and domains, whose texts move in its one commit) and the
// store's tables (their column defaults, generated columns and CHECKs,
// kept in each table's properties), and a sequence's rename the store's
// sequences too. No single write spans them, so the metadata commit that
// renames also records what is left to do in the store
// (meta.Tx.FollowUps): the sequence to move, and each table's properties
// from their old texts to their new. The statement then carries the
// record out (carryFollowUps) and clears it in a second commit. A crash,
// or an error, in between leaves the record, and the next start
// (Engine.finishFollowUps) or the next rename (under the DDL lock, before
// its own plan) carries it out first: the type is never renamed with a
// table still naming its old name once the server runs again. Each step
// names its target state and changes only what still holds the old one,
// so running the record twice changes nothing more.

// followUps is the record (JSON in meta.Tx.FollowUps).
type followUps struct {
	// Sequence is a sequence to move (ALTER SEQUENCE ... RENAME TO / SET
	// SCHEMA), nil for none.
	Sequence *sequenceMove `json:"sequence,omitempty"`
	// Tables are the tables whose texts follow.
	Tables []tableTexts `json:"tables,omitempty"`
}

// sequenceMove is the sequence ID, at From, moving to To.
type sequenceMove struct {
	ID   int64           `json:"id"`
	From fluss.TablePath `json:"from"`
	To   fluss.TablePath `json:"to"`
}

// tableTexts are a table's properties that change: each key's old and
// new value ("" new: the property goes).
type tableTexts struct {
	Path  fluss.TablePath      `json:"path"`
	ID    int64                `json:"id"`
	Props map[string][2]string `json:"props"`
}

// Follow-up steps a test fails or kills the server at (Engine.rewriteStep).
const (
	stepFollowRecorded = "follow-ups recorded"
	stepFollowSequence = "sequence moved"
	stepFollowTable    = "a table's texts followed"
	stepFollowFinished = "follow-ups cleared"
)

// followUpsMeta is the metadata that keeps a record (meta.Store).
type followUpsMeta interface{ FollowUps() string }

// tableFollowUps are edits as the record's tables.
func tableFollowUps(edits []tableEdit) []tableTexts {
	out := make([]tableTexts, 0, len(edits))
	for _, e := range edits {
		t := tableTexts{Path: e.info.Path, ID: e.info.TableID, Props: map[string][2]string{}}
		old := e.info.Descriptor.CustomProperties
		for k, v := range e.desc.CustomProperties {
			if old[k] != v {
				t.Props[k] = [2]string{old[k], v}
			}
		}
		for k, v := range old {
			if _, ok := e.desc.CustomProperties[k]; !ok {
				t.Props[k] = [2]string{v, ""}
			}
		}
		if len(t.Props) > 0 {
			out = append(out, t)
		}
	}
	return out
}

// record puts f into tx, the commit that renames.
func (f followUps) record(tx *meta.Tx) error {
	if f.Sequence == nil && len(f.Tables) == 0 {
		return nil
	}
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	tx.FollowUps = string(b)
	return nil
}

// carryFollowUps carries out the record the metadata holds, if any, and
// clears it. The caller holds the DDL lock (or runs before any session).
func (s *session) carryFollowUps(ctx context.Context) error {
	fm, ok := s.eng.meta.(followUpsMeta)
	if !ok || fm.FollowUps() == "" {
		return nil
	}
	var f followUps
	if err := json.Unmarshal([]byte(fm.FollowUps()), &f); err != nil {
		return fmt.Errorf("reading the metadata's follow-ups: %w", err)
	}
	s.eng.catalog.Add(1)
	if m := f.Sequence; m != nil {
		if err := s.moveSequence(ctx, *m); err != nil {
			return err
		}
		s.eng.step(stepFollowSequence)
	}
	alt, canAlter := s.eng.store.(fluss.TableAlterer)
	for _, t := range f.Tables {
		info, err := s.eng.store.GetTable(ctx, t.Path)
		if err != nil || info.TableID != t.ID || !canAlter {
			// dropped (or replaced) since: nothing of it names the old name
			s.eng.log.Warn("a table a rename's texts were to follow is gone", "table", t.Path.String())
			continue
		}
		var changes []fluss.TableChange
		for k, v := range t.Props {
			if info.Descriptor.CustomProperties[k] != v[0] || v[0] == v[1] {
				continue // done, or changed by something else since
			}
			if v[1] == "" {
				changes = append(changes, fluss.TableChange{Kind: fluss.ChangeResetProperty, Key: k})
			} else {
				changes = append(changes, fluss.TableChange{Kind: fluss.ChangeSetProperty, Key: k, Value: v[1]})
			}
		}
		if len(changes) > 0 {
			if _, err := alt.AlterTable(ctx, t.Path, changes); err != nil {
				return err
			}
		}
		s.eng.step(stepFollowTable)
	}
	err := s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		tx.FollowUps = ""
		return nil
	})
	if err == nil {
		s.eng.step(stepFollowFinished)
	}
	return err
}

// moveSequence moves m's sequence unless it moved already.
func (s *session) moveSequence(ctx context.Context, m sequenceMove) error {
	q, err := s.sequenceStore()
	if err != nil {
		return err
	}
	cur, err := q.GetSequence(ctx, m.From)
	if err != nil || cur.ID != m.ID {
		return nil // moved already (or dropped since)
	}
	r, ok := q.(fluss.SequenceRenamer)
	if !ok {
		return noSequenceRename()
	}
	return r.RenameSequence(ctx, m.From, m.To)
}

// finishFollowUps carries out, when the server starts, the record a crash
// left (above), before any session. Only on a store this server is alone
// on, as finishRewrites; a failure is logged, and the record stays for the
// next start or rename.
func (e *Engine) finishFollowUps() {
	if !e.singleServer() {
		return
	}
	s := &session{eng: e}
	s.usableFn = s.schemaUsable
	if err := s.carryFollowUps(context.Background()); err != nil {
		e.log.Error("finishing a rename a crash interrupted", "error", err)
	}
}
