package relop

// intTable maps int64 keys to int32 values with open addressing (linear
// probing, Fibonacci hashing, a power-of-two capacity at most half full).
// Grouping and join builds on one integer-like key use it instead of a Go
// map: a lookup touches one or two adjacent slots of two flat arrays, with
// no per-entry allocation and no hashing of the key's bytes.
//
// Slot vals hold value+1, so that 0 marks an empty slot and the table needs
// no sentinel key: every int64, MinInt64 included, is a valid key.
type intTable struct {
	keys  []int64
	vals  []int32
	shift uint // 64 - log2(capacity)
	n     int
}

const intTableMinCap = 16

func newIntTable() *intTable {
	t := &intTable{}
	t.alloc(intTableMinCap)
	return t
}

func (t *intTable) alloc(capacity int) {
	t.keys = make([]int64, capacity)
	t.vals = make([]int32, capacity)
	bits := uint(0)
	for 1<<bits < capacity {
		bits++
	}
	t.shift = 64 - bits
}

// bytes is the memory the table holds.
func (t *intTable) bytes() int64 { return int64(len(t.keys)) * 12 }

// slot is the first probe position of k.
func (t *intTable) slot(k int64) uint64 {
	return (uint64(k) * 0x9E3779B97F4A7C15) >> t.shift
}

// get returns k's value.
func (t *intTable) get(k int64) (int32, bool) {
	mask := uint64(len(t.keys) - 1)
	for s := t.slot(k); ; s = (s + 1) & mask {
		v := t.vals[s]
		if v == 0 {
			return 0, false
		}
		if t.keys[s] == k {
			return v - 1, true
		}
	}
}

// put sets k's value to v and returns the previous value (ok: k was present).
func (t *intTable) put(k int64, v int32) (old int32, ok bool) {
	if 2*(t.n+1) > len(t.keys) {
		t.rehash()
	}
	mask := uint64(len(t.keys) - 1)
	for s := t.slot(k); ; s = (s + 1) & mask {
		cur := t.vals[s]
		if cur == 0 {
			t.keys[s], t.vals[s] = k, v+1
			t.n++
			return 0, false
		}
		if t.keys[s] == k {
			t.vals[s] = v + 1
			return cur - 1, true
		}
	}
}

// getOrPut returns k's value, inserting v for an absent k (inserted: true).
func (t *intTable) getOrPut(k int64, v int32) (int32, bool) {
	if 2*(t.n+1) > len(t.keys) {
		t.rehash()
	}
	mask := uint64(len(t.keys) - 1)
	for s := t.slot(k); ; s = (s + 1) & mask {
		cur := t.vals[s]
		if cur == 0 {
			t.keys[s], t.vals[s] = k, v+1
			t.n++
			return v, true
		}
		if t.keys[s] == k {
			return cur - 1, false
		}
	}
}

func (t *intTable) rehash() {
	keys, vals := t.keys, t.vals
	t.alloc(2 * len(keys))
	mask := uint64(len(t.keys) - 1)
	for i, v := range vals {
		if v == 0 {
			continue
		}
		k := keys[i]
		s := t.slot(k)
		for t.vals[s] != 0 {
			s = (s + 1) & mask
		}
		t.keys[s], t.vals[s] = k, v
	}
}
