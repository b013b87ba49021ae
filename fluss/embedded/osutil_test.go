package embedded

import (
	"github.com/apache/arrow-go/v18/arrow/memory"
)

func nilAlloc() memory.Allocator { return memory.DefaultAllocator }
