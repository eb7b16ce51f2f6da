//go:build !unix

package gapset

import "time"

func cpuTime() time.Duration { return 0 }
