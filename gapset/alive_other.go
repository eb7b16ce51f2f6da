//go:build !unix

package gapset

// processAlive cannot tell here: every scratch directory is taken as live.
func processAlive(int) bool { return true }
