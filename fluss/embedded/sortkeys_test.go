package embedded

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortKeys: sortKeys orders rows as a stable sort of their whole keys
// does, for loads in key order, in random order, with equal keys, keys
// shorter and longer than its 16-byte prefixes, few and many buckets.
func TestSortKeys(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	key := func(bucket int, id uint64, tail []byte) []byte {
		k := bucketKey(prefixData, 42, bucket)
		k = binary.BigEndian.AppendUint64(k, id)
		return append(k, tail...)
	}
	for _, c := range []struct {
		name string
		rows func() []pkRow
	}{
		{"ordered load, 16 buckets", func() []pkRow {
			var rows []pkRow
			for id := range uint64(5000) {
				b := int(id*2654435761) % 16
				rows = append(rows, pkRow{bucket: b, key: key(b, id, nil)})
			}
			return rows
		}},
		{"random order with duplicates", func() []pkRow {
			var rows []pkRow
			for range 5000 {
				id := rng.Uint64N(3000)
				b := int(id % 8)
				rows = append(rows, pkRow{bucket: b, key: key(b, id, nil)})
			}
			return rows
		}},
		{"long keys equal in their first 12 bytes", func() []pkRow {
			var rows []pkRow
			for range 3000 {
				tail := []byte{byte(rng.IntN(4)), byte(rng.IntN(256))}
				rows = append(rows, pkRow{bucket: 1, key: key(1, 7, tail)})
			}
			return rows
		}},
		{"short keys", func() []pkRow {
			var rows []pkRow
			for range 2000 {
				k := bucketKey(prefixData, 42, 3)
				rows = append(rows, pkRow{bucket: 3, key: append(k, byte(rng.IntN(50)))})
			}
			return rows
		}},
		{"many buckets", func() []pkRow {
			var rows []pkRow
			for id := range uint64(3000) {
				b := int(rng.Uint32() >> 8)
				rows = append(rows, pkRow{bucket: b, key: key(b, id, nil)})
			}
			return rows
		}},
		{"many VLQ keys", func() []pkRow {
			var rows []pkRow
			for range 70000 {
				id := rng.Uint64N(1 << 20)
				b := int(id % 16)
				rows = append(rows, pkRow{bucket: b, key: binary.AppendUvarint(bucketKey(prefixData, 42, b), id)})
			}
			return rows
		}},
		{"few rows", func() []pkRow {
			var rows []pkRow
			for id := range uint64(100) {
				b := int(99-id) % 3
				rows = append(rows, pkRow{bucket: b, key: key(b, id, nil)})
			}
			return rows
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rows := c.rows()
			want := make([]int32, len(rows))
			for i := range want {
				want[i] = int32(i)
			}
			slices.SortStableFunc(want, func(a, b int32) int { return bytes.Compare(rows[a].key, rows[b].key) })
			if got := sortKeys(rows); !slices.Equal(got, want) {
				t.Fatalf("sortKeys differs from a stable sort of the keys")
			}
		})
	}
}

// BenchmarkSortKeys sorts the keys of million-row loads over 16 buckets:
// BIGINT ids in order (their VLQ key bytes are not in order), and keys
// whose bytes follow the load order.
func BenchmarkSortKeys(b *testing.B) {
	for _, c := range []struct {
		name string
		enc  func([]byte, uint64) []byte
	}{
		{"bigint", func(k []byte, id uint64) []byte { return binary.AppendUvarint(k, id) }},
		{"ordered bytes", func(k []byte, id uint64) []byte { return binary.BigEndian.AppendUint64(k, id) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			var rows []pkRow
			for id := range uint64(1_000_000) {
				bucket := int(id*2654435761>>7) % 16
				rows = append(rows, pkRow{bucket: bucket, key: c.enc(bucketKey(prefixData, 42, bucket), id)})
			}
			for b.Loop() {
				sortKeys(rows)
			}
		})
	}
}

// TestSortEntries: sortEntries orders entries by key and keeps the last
// written of equal keys, whether they come sorted, as a sorted run and a
// tail, or in any order.
func TestSortEntries(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	k := func(i int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(i)) }
	for _, c := range []struct {
		name string
		keys []int
	}{
		{"empty", nil},
		{"sorted", []int{1, 2, 3, 5, 8}},
		{"sorted run and tail", []int{10, 20, 30, 40, 0, 25, 45, 20, 99}},
		{"tail repeats a key twice", []int{1, 2, 3, 2, 2, 0}},
		{"run ends on a repeat", []int{1, 2, 2, 3, 1}},
		{"random", func() []int {
			var ks []int
			for range 500 {
				ks = append(ks, rng.IntN(100))
			}
			return ks
		}()},
	} {
		t.Run(c.name, func(t *testing.T) {
			var entries []kvEntry
			last := map[int]int{} // key -> index of its last write
			for i, key := range c.keys {
				entries = append(entries, kvEntry{key: k(key), value: []byte{byte(i)}, del: i%7 == 3})
				last[key] = i
			}
			got := sortEntries(slices.Clone(entries))
			var want []kvEntry
			var keys []int
			for key := range last {
				keys = append(keys, key)
			}
			slices.Sort(keys)
			for _, key := range keys {
				want = append(want, entries[last[key]])
			}
			if len(got) != len(want) {
				t.Fatalf("%d entries, want %d", len(got), len(want))
			}
			for i := range want {
				if !bytes.Equal(got[i].key, want[i].key) || !bytes.Equal(got[i].value, want[i].value) || got[i].del != want[i].del {
					t.Fatalf("entry %d: %v, want %v", i, got[i], want[i])
				}
			}
		})
	}
}
