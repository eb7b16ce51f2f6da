//go:build !linux

package sysprobe

import "time"

// ThreadCPU has no per-thread clock here: false.
func ThreadCPU() (time.Duration, bool) { return 0, false }
