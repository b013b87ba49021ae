package format

import (
	"encoding/binary"
	"math/bits"
)

// BucketOf returns the bucket of a key exactly as Fluss's
// FlussBucketingFunction does: MathUtils.murmurHash(MurmurHashUtils
// .hashUnsafeBytes(key, seed 42)) % numBuckets. key is the
// CompactedKeyEncoder encoding of the bucket-key columns. numBuckets must be
// positive; an empty key (which Fluss rejects) maps to bucket 0.
func BucketOf(key []byte, numBuckets int) int {
	if numBuckets <= 1 || len(key) == 0 {
		return 0
	}
	code := hashBytes(key, 42)
	return int(mixHash(code) % uint32(numBuckets))
}

func mixK(k uint32) uint32 {
	k *= 0xcc9e2d51
	k = bits.RotateLeft32(k, 15)
	return k * 0x1b873593
}

func mixH(h, k uint32) uint32 {
	h ^= k
	h = bits.RotateLeft32(h, 13)
	return h*5 + 0xe6546b64
}

func fmix(h uint32, length uint32) uint32 {
	h ^= length
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// hashBytes is Flink's MurmurHashUtils.hashUnsafeBytes: MurmurHash3_x86_32
// over little-endian words, except that each tail byte is sign-extended and
// mixed as a whole block.
func hashBytes(b []byte, seed uint32) uint32 {
	h := seed
	n := len(b) &^ 3
	for i := 0; i < n; i += 4 {
		h = mixH(h, mixK(binary.LittleEndian.Uint32(b[i:])))
	}
	for _, c := range b[n:] {
		h = mixH(h, mixK(uint32(int32(int8(c)))))
	}
	return fmix(h, uint32(len(b)))
}

// mixHash is MathUtils.murmurHash(int): one block, fmix, absolute value.
func mixHash(code uint32) uint32 {
	h := mixH(0, mixK(code))
	h = fmix(h, 4)
	v := int32(h)
	if v == -1<<31 {
		return 0
	}
	if v < 0 {
		v = -v
	}
	return uint32(v)
}
