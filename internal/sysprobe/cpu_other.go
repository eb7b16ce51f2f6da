//go:build !unix

package sysprobe

import "time"

// ProcessCPU has no figure here: 0.
func ProcessCPU() time.Duration { return 0 }
