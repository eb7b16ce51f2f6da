// Package sysprobe asks the operating system about the running process and
// the disks: CPU time of the process and of the calling thread, resident
// memory, free disk space. Each probe says when it has no figure (a zero or
// false, or an error), so that callers measure or check what they can and
// let the work go on otherwise.
package sysprobe

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// Memory returns the process's resident memory now and at its peak (VmRSS
// and VmHWM from /proc/self/status), in bytes; zeros where unavailable.
func Memory() (rss, peak uint64) {
	return readKB("/proc/self/status", "VmRSS:", "VmHWM:")
}

// Machine returns the machine's memory: all of it and what is available
// to start new work without swapping (MemTotal and MemAvailable from
// /proc/meminfo), in bytes; zeros where unavailable.
func Machine() (total, available uint64) {
	return readKB("/proc/meminfo", "MemTotal:", "MemAvailable:")
}

// readKB reads two "Name: N kB" fields of a /proc file, in bytes.
func readKB(path, a, b string) (x, y uint64) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var dst *uint64
		switch {
		case strings.HasPrefix(line, a):
			dst = &x
		case strings.HasPrefix(line, b):
			dst = &y
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
	return x, y
}

// Disk is the free space of the file system holding a directory.
type Disk struct {
	Free int64 // bytes an unprivileged user may still write
	fs   fsID
}

// SameFS reports whether two readings are of one file system (whose free
// space the two directories then share).
func (d Disk) SameFS(o Disk) bool { return d.fs == o.fs }
