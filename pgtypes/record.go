package pgtypes

import (
	"encoding/binary"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/types"
)

// recordEncoder renders an anonymous record (types.AnonRecord: ROW(a, b)
// or (a, b)) as PostgreSQL's record, OID 2249. Text is record_out's
// "(1,a)": each field in its own text form, a NULL field empty, a field
// quoted by types.RecordFieldNeedsQuotes's rule. Binary is record_send's:
// the field count, then per field its type OID and its length-prefixed
// binary value (-1 for NULL).
type recordEncoder struct {
	mode    mode
	fields  []valueEncoder
	oids    []uint32
	arrs    []arrow.Array
	scratch []byte
}

func newRecordEncoder(t types.T, m mode, loc *time.Location, st types.Style) (valueEncoder, error) {
	e := &recordEncoder{mode: m, fields: make([]valueEncoder, len(t.Fields)), oids: make([]uint32, len(t.Fields))}
	for i, f := range t.Fields {
		fe, err := newEncoder(f.Type, m, loc, st)
		if err != nil {
			return nil, err
		}
		e.fields[i] = fe
		e.oids[i], _, _ = OIDOf(f.Type)
	}
	return e, nil
}

func (e *recordEncoder) reset(arr arrow.Array) error {
	var err error
	e.arrs, err = resetFields(arr, e.fields, e.arrs)
	return err
}

func (e *recordEncoder) appendValue(dst []byte, row int) []byte {
	if e.mode == modeBinary {
		dst = appendUint32(dst, uint32(len(e.fields)))
		for i, f := range e.fields {
			dst = appendUint32(dst, e.oids[i])
			if e.arrs[i].IsNull(row) {
				dst = appendUint32(dst, math.MaxUint32) // -1
				continue
			}
			at := len(dst)
			dst = appendUint32(dst, 0)
			dst = f.appendValue(dst, row)
			binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
		}
		return dst
	}
	dst = append(dst, '(')
	for i, f := range e.fields {
		if i > 0 {
			dst = append(dst, ',')
		}
		if e.arrs[i].IsNull(row) {
			continue
		}
		at := len(dst)
		dst = f.appendValue(dst, row)
		dst = e.quote(dst, at)
	}
	return append(dst, ')')
}

// quote quotes the field text at dst[at:] when record_out would.
func (e *recordEncoder) quote(dst []byte, at int) []byte {
	if !types.RecordFieldNeedsQuotes(string(dst[at:])) {
		return dst
	}
	e.scratch = append(e.scratch[:0], dst[at:]...)
	dst = append(dst[:at], '"')
	for _, c := range e.scratch {
		if c == '"' || c == '\\' {
			dst = append(dst, c)
		}
		dst = append(dst, c)
	}
	return append(dst, '"')
}
