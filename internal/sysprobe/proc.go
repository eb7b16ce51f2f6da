package sysprobe

import "errors"

// Identity tells a process from every other: a PID names a live process
// only within one PID namespace of one boot, and is given again once its
// process is gone, so the boot, the namespace and the process's start
// time go with it. Two processes with one Identity are one process.
type Identity struct {
	Boot  string // the kernel's boot id
	PIDNS string // the PID namespace (device:inode of its /proc/self/ns/pid)
	PID   int    // as seen in that namespace
	Start uint64 // start time, in clock ticks after the boot
}

// ProcessInfo is what the system says of a live (or zombie) process.
type ProcessInfo struct {
	Start uint64 // start time, in clock ticks after the boot
	State byte   // 'R', 'S', 'D', ...; 'Z' or 'X': exited, not yet torn down
}

// Exited reports whether the process has exited and only waits to be torn
// down (a zombie): a process killed with SIGKILL stays one while the
// kernel frees its memory, which for a large run takes seconds.
func (p ProcessInfo) Exited() bool { return p.State == 'Z' || p.State == 'X' }

// ErrNoProcess is Process's answer for a PID no process of this namespace
// has.
var ErrNoProcess = errors.New("no such process")
