package pgcatalog

import (
	"context"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
)

// seqRelationCols are the columns a sequence shows when it is read as a
// relation (SELECT last_value, is_called FROM s, which pg_dump sends for
// every sequence): PostgreSQL 15's one row of the sequence's state.
var seqRelationCols = []col{{"last_value", tInt8}, {"log_cnt", tInt8}, {"is_called", tBool}}

// sequenceRelation is sequence schema.name as a read-only relation of one
// row, its state when it is scanned (a sequence is not transactional:
// every snapshot reads its current value, as on PostgreSQL). log_cnt is 0:
// sqlgate logs no values ahead. ok is false when there is no such
// sequence.
func (c *Catalog) sequenceRelation(ctx context.Context, schema, name string) (fluss.Table, bool) {
	seqs, err := c.listSequences(ctx)
	if err != nil {
		return nil, false
	}
	for _, q := range seqs {
		if q.Path.Database != schema || q.Path.Table != name {
			continue
		}
		id := q.ID
		spec := &relSpec{schema: schema, name: name, oid: SequenceOID(id), kind: 'S', cols: seqRelationCols}
		rows := func(ctx context.Context, s *snapshot) ([]row, error) {
			for _, q := range s.sequences {
				if q.ID == id {
					return []row{{"last_value": int(q.Last), "log_cnt": 0, "is_called": q.Called}}, nil
				}
			}
			return nil, nil
		}
		t := newVirtualTable(c, spec, rows)
		t.session, t.hasSession = functions.SessionIn(ctx)
		return t, true
	}
	return nil, false
}
