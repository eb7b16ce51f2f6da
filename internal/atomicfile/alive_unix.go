//go:build unix

package atomicfile

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// processAlive reports whether a process with this PID exists and can still
// write (signal 0 checks without sending; EPERM means it exists under
// another user). A zombie counts as gone: a process killed with SIGKILL
// stays one while the kernel frees its memory, which for a large run takes
// long enough for the next run to start and find it.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	if err != nil && err != syscall.EPERM {
		return false
	}
	return !zombie(pid)
}

// zombie reads the state in /proc/PID/stat where there is one (Linux):
// "PID (COMM) S ...", COMM possibly holding spaces and parentheses.
func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 >= len(b) {
		return false
	}
	s := b[i+2]
	return s == 'Z' || s == 'X'
}
