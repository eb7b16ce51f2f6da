package bench

import "syscall"

// rusageThread is Linux's RUSAGE_THREAD (absent from package syscall).
const rusageThread = 1

// threadCPU returns the CPU time the calling OS thread has used, in seconds.
// On a shared machine it measures a search far more steadily than the wall
// clock, which also counts the time other processes hold the core.
func threadCPU() (float64, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6, true
}
