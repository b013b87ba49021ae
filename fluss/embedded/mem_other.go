//go:build !linux

package embedded

// physicalMemory is unknown here: the block cache gets its minimum.
func physicalMemory() int64 { return 0 }
