//go:build unix

package sysprobe

import (
	"syscall"
	"time"
)

// ProcessCPU returns the CPU time (user + system) the process has used so
// far, 0 where unknown: on a shared machine it says more about the work
// than the wall clock.
func ProcessCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
