package types

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types/tsearch"
)

// parseTextSearch is the text input of tsvector, tsquery and regconfig:
// the value as PostgreSQL prints it back (regconfig: the configuration's
// name, 42704 for one there is not). A regconfig of digits is that OID,
// whether a configuration has it or not, and "-" is InvalidOid, as
// regconfigin reads them.
func parseTextSearch(s string, v Variant) (string, error) {
	switch v {
	case TSVector:
		return tsearch.Normalize(s)
	case TSQuery:
		return tsearch.NormalizeQuery(s)
	}
	if s == "-" {
		return s, nil // InvalidOid
	}
	if s != "" && strings.Trim(s, "0123456789") == "" {
		n, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return "", sqlerr.New(sqlerr.NumericValueOutOfRange, "value \"%s\" is out of range for type oid", s)
		}
		return RegConfigOfOID(uint32(n)), nil
	}
	c, err := tsearch.LookupConfig(s)
	if err != nil {
		return "", err
	}
	return c.Name, nil
}

// IsTextSearch reports whether v is tsvector, tsquery or regconfig.
func (v Variant) IsTextSearch() bool { return v == TSVector || v == TSQuery || v == RegConfig }

// IsTextSearch reports whether t is tsvector, tsquery or regconfig.
func (t T) IsTextSearch() bool { return t.Kind == String && t.Variant.IsTextSearch() }

// TSVectorBytes is tsvector's binary form (tsvectorsend) of its text.
func TSVectorBytes(s string) ([]byte, error) {
	v, err := tsearch.ParseVector(s)
	if err != nil {
		return nil, err
	}
	return v.Bytes(), nil
}

// TSQueryBytes is tsquery's binary form (tsquerysend) of its text.
func TSQueryBytes(s string) ([]byte, error) {
	q, err := tsearch.ParseQuery(s)
	if err != nil {
		return nil, err
	}
	return q.Bytes(), nil
}

// RegConfigBytes is regconfig's binary form: the configuration's OID.
func RegConfigBytes(s string) ([]byte, error) {
	c, err := tsearch.LookupConfig(s)
	if err != nil {
		return nil, err
	}
	oid := tsearch.ConfigOIDs[c.Name]
	return []byte{byte(oid >> 24), byte(oid >> 16), byte(oid >> 8), byte(oid)}, nil
}

// TSVectorFromBytes reads tsvector's binary form as its text.
func TSVectorFromBytes(b []byte) (string, error) {
	v, err := tsearch.VectorFromBytes(b)
	if err != nil {
		return "", err
	}
	return v.String(), nil
}

// TSQueryFromBytes reads tsquery's binary form as its text.
func TSQueryFromBytes(b []byte) (string, error) {
	q, err := tsearch.QueryFromBytes(b)
	if err != nil {
		return "", err
	}
	return q.String(), nil
}

// RegConfigFromBytes reads regconfig's binary form (an OID) as the
// configuration's name.
func RegConfigFromBytes(b []byte) (string, error) {
	if len(b) != 4 {
		return "", sqlerr.New(sqlerr.InvalidBinaryRepresentation, "insufficient data left in message")
	}
	oid := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
	for name, o := range tsearch.ConfigOIDs {
		if o == oid {
			return name, nil
		}
	}
	return "", sqlerr.New(sqlerr.UndefinedObject, "text search configuration with OID %d does not exist", oid)
}

// TSVectorKey is the ordering key of a tsvector's text (tsearch's
// Vector.Key, hex-encoded so that it is text whose byte order is
// tsvector_cmp's).
func TSVectorKey(s string) (string, error) {
	v, err := tsearch.ParseVector(s)
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(v.Key()), nil
}

// TSQueryKey is the ordering key of a tsquery's text (tsquery_cmp's
// order; equal keys for tsqueries PostgreSQL calls equal).
func TSQueryKey(s string) (string, error) {
	q, err := tsearch.ParseQuery(s)
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(q.Key()), nil
}

// RegConfigOID is the OID of the regconfig value s: its configuration's
// (tsearch.ConfigOIDs), or the number s is when it is the digits an OID
// no configuration has prints as (regconfigout).
func RegConfigOID(s string) (uint32, error) {
	if s == "-" {
		return 0, nil // InvalidOid, as regconfigout prints it
	}
	if n, err := strconv.ParseUint(s, 10, 32); err == nil {
		return uint32(n), nil
	}
	c, err := tsearch.LookupConfig(s)
	if err != nil {
		return 0, err
	}
	return tsearch.ConfigOIDs[c.Name], nil
}

// RegConfigKey is the ordering key of a regconfig value: its OID as eight
// hexadecimal digits, as PostgreSQL orders regconfig (by oid's operators,
// to which it converts binary-coercibly), not by the configuration's name.
func RegConfigKey(s string) (string, error) {
	oid, err := RegConfigOID(s)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%08x", oid), nil
}

// RegConfigOfOID is the regconfig value of oid, as regconfigout prints
// it: its configuration's name, else the OID's digits.
func RegConfigOfOID(oid uint32) string {
	if oid == 0 {
		return "-" // InvalidOid
	}
	for name, o := range tsearch.ConfigOIDs {
		if o == oid {
			return name
		}
	}
	return strconv.FormatUint(uint64(oid), 10)
}
