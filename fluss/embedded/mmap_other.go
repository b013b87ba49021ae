//go:build !linux

package embedded

import "os"

// mapFile does not map on this platform: scans read with pread.
func mapFile(*os.File, int64) []byte { return nil }

func retireMapping([]byte) {}

func reserveRegion(int64) []byte { return nil }

func mapFileInto(*os.File, []byte) bool { return false }

func dropPages([]byte) {}
