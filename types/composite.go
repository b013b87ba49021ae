package types

import (
	"strings"
	"time"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Composite types: a table's own row type and CREATE TYPE name AS (f
// type, ...). A value of one is a Row marked AnonRecord (it prints,
// compares and travels as PostgreSQL's record_out / record_send write
// it) whose TypeOID is the composite's pg_type OID: RowDescription and
// pg_typeof name the type, not record (2249).

// CompositeType is one version of a user-defined composite type (CREATE
// TYPE ... AS (...)) or of a table's row type: its attributes in order.
// A definition is never changed once published: ALTER TYPE publishes a
// new one under the same OID.
type CompositeType struct {
	// OID is pg_type.oid; ArrayOID the OID of its array type; RelOID
	// the pg_class row of its attributes (pg_type.typrelid).
	OID, ArrayOID, RelOID uint32
	Schema, Name          string
	Fields                []Field
	// reg is the registry that published the definition (nil before).
	reg *Registry
}

// QualifiedName is the name PostgreSQL prints for the type:
// schema-qualified outside public.
func (c *CompositeType) QualifiedName() string {
	if c.Schema == "" || c.Schema == "public" {
		return c.Name
	}
	return c.Schema + "." + c.Name
}

// T is the SQL type of the composite's values.
func (c *CompositeType) T() T {
	return T{Kind: Row, Variant: AnonRecord, TypeOID: c.OID, Fields: c.Fields, reg: c.reg}
}

// IsComposite reports whether t is a named composite type (a table's row
// type or CREATE TYPE's), not the anonymous record.
func (t T) IsComposite() bool { return t.Kind == Row && t.Variant == AnonRecord && t.TypeOID != 0 }

// PublishComposites makes defs the definitions of their OIDs in r and
// forgets the OIDs in gone. Each definition becomes r's: its T, and the
// types of its fields, carry r. A nil r (a catalog without a registry)
// keeps none.
func (r *Registry) PublishComposites(defs []*CompositeType, gone []uint32) {
	if r == nil {
		return
	}
	for _, d := range defs {
		r.own(d)
	}
	r.composites.publish(defs, func(d *CompositeType) uint32 { return d.OID }, gone)
}

// own makes d, not yet published, r's.
func (r *Registry) own(d *CompositeType) {
	d.reg = r
	for i := range d.Fields {
		d.Fields[i].Type = r.Bind(d.Fields[i].Type)
	}
}

// PublishComposite publishes one definition unless r holds an equal one
// already (a table's row type, published by every statement that names
// it: most find it there), and returns r's definition.
func (r *Registry) PublishComposite(d *CompositeType) *CompositeType {
	if cur := r.Composite(d.OID); cur != nil && sameComposite(cur, d) {
		return cur
	}
	r.PublishComposites([]*CompositeType{d}, nil)
	return d
}

// sameComposite reports whether a and b define the same type.
func sameComposite(a, b *CompositeType) bool {
	if a.Name != b.Name || a.Schema != b.Schema || a.RelOID != b.RelOID || a.ArrayOID != b.ArrayOID {
		return false
	}
	return a.T().Equal(b.T())
}

// Composite is r's definition of the composite type oid, nil when there
// is none.
func (r *Registry) Composite(oid uint32) *CompositeType {
	if r == nil {
		return nil
	}
	return r.composites.get(oid)
}

// CompositeName is the composite type's name as PostgreSQL prints it;
// "record" when r does not know it.
func (r *Registry) CompositeName(oid uint32) string {
	if c := r.Composite(oid); c != nil {
		return c.QualifiedName()
	}
	return "record"
}

// CompositeDef is the definition of t's composite type in the registry
// that resolved it, nil when t is no composite or it is unknown.
func (t T) CompositeDef() *CompositeType {
	if !t.IsComposite() {
		return nil
	}
	return t.reg.Composite(t.TypeOID)
}

// CompositeArrayOID is the OID of the array type of the composite type
// oid: a table's row type's (TableRowArrayOID), else the one after it,
// as CREATE TYPE numbers them (engine/compositetypes.go).
func CompositeArrayOID(oid uint32) uint32 {
	if oid >= firstUserOID+oidStride && oid < firstUserOID+2*oidStride {
		return TableRowArrayOID(int64(oid - firstUserOID - oidStride))
	}
	return oid + 1
}

// Table row types have OIDs derived from their table's ID, as pgcatalog
// numbers its relations: a table's pg_class OID is firstUserOID + ID, its
// row type's one stride above (pg_class.reltype, pg_type.oid).
const (
	firstUserOID = 16384
	oidStride    = 1 << 22
)

// FirstUserOID is the first OID of a user object (PostgreSQL's
// FirstNormalObjectId): a table's pg_class OID is FirstUserOID + its ID.
const FirstUserOID = firstUserOID

// TableRowTypeOfRelation is the row type of the table whose pg_class OID
// is rel; false when rel is no table's (an index, a view, a catalog).
func TableRowTypeOfRelation(rel uint32) (uint32, bool) {
	if rel < firstUserOID || rel >= firstUserOID+oidStride {
		return 0, false
	}
	return rel + oidStride, true
}

// TableRowTypeOID is the OID of the row type of table tableID.
func TableRowTypeOID(tableID int64) uint32 { return uint32(firstUserOID+tableID) + oidStride }

// tableRowArrayBase is where the OIDs of the tables' row types' array
// types ("_t") start, past the strides pgcatalog numbers its objects in.
const tableRowArrayBase = firstUserOID + 12*oidStride

// TableRowArrayOID is the OID of the array type of table tableID's row
// type.
func TableRowArrayOID(tableID int64) uint32 { return uint32(tableRowArrayBase + tableID) }

// TableRowTypeOfArray is the row type whose array type is oid, when oid
// is a table row type's array type.
func TableRowTypeOfArray(oid uint32) (uint32, bool) {
	if oid < tableRowArrayBase || oid >= tableRowArrayBase+oidStride {
		return 0, false
	}
	return TableRowTypeOID(int64(oid - tableRowArrayBase)), true
}

// TableRowType is the row type of a table (ID, schema, name, columns).
// Its fields are the columns, nullable: a composite's attributes carry
// no NOT NULL. It keeps fs, the caller's fresh copy of the columns, and
// makes its types nullable in place.
func TableRowType(tableID int64, schema, name string, fs []Field) *CompositeType {
	for i := range fs {
		fs[i].Type = fs[i].Type.Nullable()
	}
	return &CompositeType{OID: TableRowTypeOID(tableID), ArrayOID: TableRowArrayOID(tableID), RelOID: uint32(firstUserOID + tableID),
		Schema: schema, Name: name, Fields: fs}
}

// malformedRecord is record_in's error for text s.
func malformedRecord(s, detail string) *sqlerr.Error {
	return sqlerr.New(sqlerr.InvalidTextRepresentation, "malformed record literal: \"%s\"", s).WithDetail("%s", detail)
}

// ParseRecord is record_in: text s as a value of the composite t, "(1,x)"
// with PostgreSQL's rules. White space may surround the parentheses; a
// field with nothing between its delimiters is NULL; double quotes
// protect delimiters ("" inside them is one quote), a backslash takes the
// next character as it is. Each field's text, unquoted, goes to its
// type's input as it stands (white space kept).
func ParseRecord(s string, t T, loc *time.Location) (any, error) {
	return parseRecord(s, t, loc, OrderMDY)
}

// parseRecord is ParseRecord reading date fields in DateStyle's order.
func parseRecord(s string, t T, loc *time.Location, order DateOrder) (any, error) {
	i := 0
	skipSpace := func() {
		for i < len(s) && isRecordSpace(s[i]) {
			i++
		}
	}
	skipSpace()
	if i >= len(s) || s[i] != '(' {
		return nil, malformedRecord(s, "Missing left parenthesis.")
	}
	i++
	out := make([]any, len(t.Fields))
	for k, f := range t.Fields {
		if k > 0 {
			// the previous field ended at a comma or a right parenthesis
			if s[i] == ')' {
				return nil, malformedRecord(s, "Too few columns.")
			}
			i++
		}
		if i < len(s) && (s[i] == ',' || s[i] == ')') {
			continue // NULL
		}
		var b strings.Builder
		inQuote := false
		for {
			if i >= len(s) {
				return nil, malformedRecord(s, "Unexpected end of input.")
			}
			c := s[i]
			i++
			switch {
			case c == '\\':
				if i >= len(s) {
					return nil, malformedRecord(s, "Unexpected end of input.")
				}
				b.WriteByte(s[i])
				i++
				continue
			case c == '"' && !inQuote:
				inQuote = true
				continue
			case c == '"' && inQuote:
				if i < len(s) && s[i] == '"' {
					b.WriteByte('"')
					i++
					continue
				}
				inQuote = false
				continue
			case !inQuote && (c == ',' || c == ')'):
				i--
			default:
				b.WriteByte(c)
				continue
			}
			break
		}
		v, err := parseRecordField(b.String(), f.Type, loc, order)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	if len(t.Fields) > 0 {
		if i >= len(s) {
			return nil, malformedRecord(s, "Unexpected end of input.")
		}
		if s[i] != ')' {
			return nil, malformedRecord(s, "Too many columns.")
		}
	} else if i >= len(s) || s[i] != ')' {
		return nil, malformedRecord(s, "Too many columns.")
	}
	i++
	skipSpace()
	if i < len(s) {
		return nil, malformedRecord(s, "Junk after right parenthesis.")
	}
	return out, nil
}

// parseRecordField reads one field's text as its type: a nested
// composite by record_in again, anything else by its own input.
func parseRecordField(s string, t T, loc *time.Location, order DateOrder) (any, error) {
	if t.IsComposite() {
		return parseRecord(s, t, loc, order)
	}
	if t.Kind == Array && ArrayInput != nil {
		return ArrayInput(s, t, loc, order)
	}
	return ParseTextOrder(s, t, loc, time.Now(), order)
}

// ArrayInput is array_in ("{1,2}"), for a record's array fields (date
// elements in DateStyle's order): the functions package, which owns
// PostgreSQL's array text, sets it once in its init (functions/arrays.go)
// and nothing changes it after, so it is a hook, not state; types cannot
// import functions, which imports types.
var ArrayInput func(s string, t T, loc *time.Location, order DateOrder) (any, error)

// isRecordSpace is PostgreSQL's scanner_isspace, which record_in skips
// around the parentheses.
func isRecordSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
