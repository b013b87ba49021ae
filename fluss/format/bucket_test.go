package format

import "testing"

func TestBucketOfFlussVectors(t *testing.T) {
	cases := []struct {
		key     []byte
		buckets int
		want    int
	}{
		{[]byte{0x00, 0x0a}, 7, 1},
		{[]byte{0x00, 0x0a, 0x0a, 0x0a}, 12, 0},
		{[]byte("2bb87d68-baf9-4e64-90f9-f80910419fa6"), 16, 6},
		{[]byte("The quick brown fox jumps over the lazy dog"), 8, 6},
	}
	for _, c := range cases {
		if got := BucketOf(c.key, c.buckets); got != c.want {
			t.Errorf("BucketOf(%x, %d) = %d, want %d", c.key, c.buckets, got, c.want)
		}
	}
}
