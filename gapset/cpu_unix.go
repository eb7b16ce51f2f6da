//go:build unix

package gapset

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user + system) the process used so far:
// on a shared machine it says more about the work than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
