//go:build unix

package atomicfile

import "syscall"

// signalable reports whether a process with this PID exists (signal 0
// checks without sending; EPERM means it exists under another user).
func signalable(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
