package remote

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
)

// V0 log batch header fields an idempotent Writer stamps (fluss.md §5;
// fluss/format writes the batch with writer id and sequence -1 and has no
// setter for them yet: this folds onto one when it does).
const (
	logOffMagic    = 12
	logOffCRC      = 21
	logOffSchemaID = 25
	logOffWriterID = 32
	logOffSequence = 40
	logHeaderV0    = 48
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// stampLog sets a V0 log record batch's writer id and batch sequence and its
// CRC (which covers both).
func stampLog(b []byte, writer int64, seq int32) error {
	if len(b) < logHeaderV0 || b[logOffMagic] != 0 {
		return fmt.Errorf("not a log record batch of magic 0")
	}
	le := binary.LittleEndian
	le.PutUint64(b[logOffWriterID:], uint64(writer))
	le.PutUint32(b[logOffSequence:], uint32(seq))
	le.PutUint32(b[logOffCRC:], crc32.Checksum(b[logOffSchemaID:], castagnoli))
	return nil
}
