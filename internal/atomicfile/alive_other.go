//go:build !unix

package atomicfile

// processAlive cannot tell here: every temporary is taken as live.
func processAlive(int) bool { return true }
