package sysprobe

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID (absent from
// package syscall).
const clockThreadCPUTime = 3

// ThreadCPU returns the CPU time the calling OS thread has used, false
// where there is no per-thread clock; the caller locks its goroutine to the
// thread (runtime.LockOSThread) between two readings. On a shared machine
// it measures a search far more steadily than the wall clock, which also
// counts the time other processes hold the core. It reads the scheduler's
// clock to the nanosecond: getrusage's thread times advance only at ticks
// and context switches, so a search of a few milliseconds could read as
// none.
func ThreadCPU() (time.Duration, bool) {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
