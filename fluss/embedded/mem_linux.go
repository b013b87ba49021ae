package embedded

import "syscall"

// physicalMemory is the machine's memory in bytes (0 if unknown).
func physicalMemory() int64 {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0
	}
	return int64(si.Totalram) * int64(si.Unit)
}
