package gapset

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// memUsage returns the process's resident memory now and at its peak (VmRSS
// and VmHWM from /proc/self/status), in bytes; zeros where unavailable.
func memUsage() (rss, peak uint64) {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var dst *uint64
		switch {
		case strings.HasPrefix(line, "VmRSS:"):
			dst = &rss
		case strings.HasPrefix(line, "VmHWM:"):
			dst = &peak
		default:
			continue
		}
		fields := strings.Fields(line)
		if len(fields) >= 2 {
			if v, err := strconv.ParseUint(fields[1], 10, 64); err == nil {
				*dst = v * 1024 // kB
			}
		}
	}
	return rss, peak
}

// SoftMemoryLimit is the Go memory limit (debug.SetMemoryLimit) for an
// Enumerate run with this budget. The buffers grow by doubling and hold no
// pointers: a soft limit a little above the budget makes the collector
// free the old copies cheaply (a gap <= 4 run with a budget of 8 GiB
// reached 17 GiB without it).
func (c Config) SoftMemoryLimit() int64 { return c.Memory + c.Memory/4 + 1<<30 }
