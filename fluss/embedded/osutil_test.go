package embedded

import (
	"os"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"testing"
)

func openForRead(t testing.TB, p string) *os.File {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func nilAlloc() memory.Allocator { return memory.DefaultAllocator }
