package embedded

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// TestFilledWAL: a WAL file opened through the store's file system keeps
// at least walFillAhead bytes of zeros past its writes (created, and
// recycled with an old length), and its content is the writes then zeros.
func TestFilledWAL(t *testing.T) {
	cases := []struct {
		name   string
		recycl int64 // length of the recycled file (0: created)
		writes []int
	}{
		{"created, small writes", 0, []int{10, 400, 1}},
		{"created, a write past the fill", 0, []int{100, walFillAhead + 7, 5}},
		{"recycled, inside its length", 3 << 20, []int{4096, 4096}},
		{"recycled, past its length", 5000, []int{4000, 4000}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			fs := syncFS{FS: vfs.Default, syncer: directSyncer{}}
			name := filepath.Join(dir, "000002.log")
			var f vfs.File
			var err error
			if c.recycl > 0 {
				old := filepath.Join(dir, "000001.log")
				if err := os.WriteFile(old, bytes.Repeat([]byte{0xee}, int(c.recycl)), 0o644); err != nil {
					t.Fatal(err)
				}
				f, err = fs.ReuseForWrite(old, name, walCategory)
			} else {
				f, err = fs.Create(name, walCategory)
			}
			if err != nil {
				t.Fatal(err)
			}
			var want []byte
			size := c.recycl // the file's length
			for i, n := range c.writes {
				p := bytes.Repeat([]byte{byte(i + 1)}, n)
				if _, err := f.Write(p); err != nil {
					t.Fatal(err)
				}
				want = append(want, p...)
				if err := f.SyncData(); err != nil {
					t.Fatal(err)
				}
				st, err := f.Stat()
				if err != nil {
					t.Fatal(err)
				}
				// A write that passes the file's end extends it with zeros
				// walFillAhead beyond itself; one inside it leaves it.
				want := int64(len(want))
				if size <= want {
					want += walFillAhead
				} else {
					want = size
				}
				if st.Size() < want {
					t.Fatalf("after write %d the file is %d bytes, want at least %d", i, st.Size(), want)
				}
				size = st.Size()
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got[:len(want)], want) {
				t.Fatal("the file does not start with the writes")
			}
			tail := got[len(want):]
			if c.recycl > int64(len(want)) {
				// A recycled file keeps its old bytes past the writes (pebble's
				// log number in each chunk tells them apart).
				tail = got[c.recycl:]
			}
			if len(tail) == 0 && c.recycl <= int64(len(want)) {
				t.Fatal("no zeros past the writes")
			}
			if i := bytes.IndexFunc(tail, func(r rune) bool { return r != 0 }); i >= 0 {
				t.Fatalf("byte %d past the writes is not zero", i)
			}
		})
	}
}
