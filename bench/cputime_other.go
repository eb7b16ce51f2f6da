//go:build !linux

package bench

// threadCPU is unavailable off Linux; records then carry no CPU time.
func threadCPU() (float64, bool) { return 0, false }
