package sysprobe

import (
	"syscall"
	"time"
)

// rusageThread is Linux's RUSAGE_THREAD (absent from package syscall).
const rusageThread = 1

// ThreadCPU returns the CPU time (user + system) the calling OS thread has
// used, false where there is no per-thread clock; the caller locks its
// goroutine to the thread (runtime.LockOSThread) between two readings. On a
// shared machine it measures a search far more steadily than the wall
// clock, which also counts the time other processes hold the core.
func ThreadCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
