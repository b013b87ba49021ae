package format

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/sqlgate/sqlgate/fluss/internal/fixture"
)

func TestTmpMutate(t *testing.T) {
	rec := fixture.Record(0, 4)
	defer rec.Release()
	b0, _ := EncodeBatch(rec, []ChangeType{Insert, UpdateBefore, UpdateAfter, Delete}, 1)
	dec := NewBatchDecoder(rec.Schema())
	r := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 300000; it++ {
		b := append([]byte(nil), b0...)
		for k := 0; k < 1+r.IntN(4); k++ {
			p := HeaderSize + 4 + r.IntN(len(b)-HeaderSize-4)
			b[p] = byte(r.Uint32())
		}
		binary.LittleEndian.PutUint32(b[offCRC:], crc32.Checksum(b[offSchemaID:], castagnoli))
		os.WriteFile("/tmp/lastinput", b, 0o644)
		fmt.Fprintf(os.Stderr, "")
		if got, err := dec.Decode(b); err == nil {
			got.Record.Release()
		}
	}
}
