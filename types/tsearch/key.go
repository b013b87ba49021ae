package tsearch

import (
	"encoding/binary"
	"hash/crc32"
)

// Ordering keys: tsvector and tsquery values are kept as their text, whose
// byte order is not PostgreSQL's. PostgreSQL orders them by their stored
// form (tsvector_cmp, tsquery_cmp): first by the size of that form, then
// field by field. A key here is bytes that compare, byte by byte, as
// those functions compare their values; every field is fixed-width or
// NUL-terminated (lexemes hold no NUL), so a field's end never depends on
// what follows it. "Greater sorts first" fields are stored inverted.

// Key is v's ordering key (silly_cmp_tsvector): the stored size, the
// lexeme count, then per lexeme whether it has positions (with positions
// first), the lexeme, and its positions (more positions first, then
// each position and weight, greater first).
func (v Vector) Key() []byte {
	key := binary.BigEndian.AppendUint32(nil, uint32(v.storedSize()))
	key = binary.BigEndian.AppendUint32(key, uint32(len(v)))
	for _, l := range v {
		if len(l.Pos) > 0 {
			key = append(key, 0)
		} else {
			key = append(key, 1)
		}
		key = append(key, l.Word...)
		key = append(key, 0)
		if len(l.Pos) == 0 {
			continue
		}
		key = binary.BigEndian.AppendUint16(key, ^uint16(len(l.Pos)))
		for _, p := range l.Pos {
			key = binary.BigEndian.AppendUint16(key, ^uint16(p.Position()))
			key = append(key, ^byte(p.Weight()))
		}
	}
	return key
}

// storedSize is the size of v's stored form (VARSIZE of a TSVector): the
// header, one 4-byte entry per lexeme, and the lexemes, each followed,
// when it has positions, by a 2-byte-aligned count and the positions.
func (v Vector) storedSize() int {
	const header, entry = 8, 4
	data := 0
	for _, l := range v {
		data += len(l.Word)
		if len(l.Pos) > 0 {
			data += data & 1 // SHORTALIGN
			data += 2 + 2*len(l.Pos)
		}
	}
	return header + entry*len(v) + data
}

// Key is q's ordering key (CompareTSQ): the item count, the stored size,
// then the tree from the root, each operator's right operand before its
// left (PostgreSQL's polish order): a node's type (operators first), an
// operator's number and child count (greater first), its children, and a
// phrase's distance (greater first); an operand's CRC of its text
// (greater first, as a signed number) and its text. Weights and prefix
// marks are not compared, as PostgreSQL does not compare them: 'a:A' and
// 'a' are equal tsqueries.
func (q Query) Key() []byte {
	size, text := q.Size(), 0
	for _, n := range q.Operands() {
		text += len(n.Word) + 1
	}
	const header, item = 8, 12
	key := binary.BigEndian.AppendUint32(nil, uint32(size))
	key = binary.BigEndian.AppendUint32(key, uint32(header+item*size+text))
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.Op == 0 {
			key = append(key, ^byte(1)) // QI_VAL
			crc := int32(legacyCRC32(n.Word))
			key = binary.BigEndian.AppendUint32(key, ^(uint32(crc) ^ 1<<31))
			key = append(key, n.Word...)
			key = append(key, 0)
			return
		}
		children := 2
		if n.Op == OpNot {
			children = 1
		}
		key = append(key, ^byte(2), ^byte(n.Op), ^byte(children)) // QI_OPR
		walk(n.R)
		if n.L != nil {
			walk(n.L)
		}
		if n.Op == OpPhrase {
			key = binary.BigEndian.AppendUint16(key, ^uint16(n.Dist))
		}
	}
	if q.Root != nil {
		walk(q.Root)
	}
	return key
}

// legacyCRC32 is PostgreSQL's "legacy" CRC-32 of s (tsquery's valcrc): the
// reflected CRC-32 table driven most-significant-bit first, as pg_crc.h's
// COMP_LEGACY_CRC32 computes it.
func legacyCRC32(s string) uint32 {
	crc := ^uint32(0)
	for i := 0; i < len(s); i++ {
		crc = crc32.IEEETable[byte(crc>>24)^s[i]] ^ crc<<8
	}
	return ^crc
}
