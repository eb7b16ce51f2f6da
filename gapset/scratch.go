package gapset

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ScratchPrefix names the enumerator's scratch directories (sorted runs);
// the writer's PID and a random suffix follow it, so that a later run can
// tell the scratch of a dead process from a live one's.
const ScratchPrefix = ".gapset-runs-"

// ScratchDir is the directory the scratch directory goes into: TempDir, or
// the output directory.
func (c Config) ScratchDir() string {
	if c.TempDir != "" {
		return c.TempDir
	}
	if c.Dir == "" {
		return "."
	}
	return c.Dir
}

// scratchPattern names this process's scratch directories (os.MkdirTemp
// replaces the star).
func scratchPattern() string { return fmt.Sprintf("%s%d-*", ScratchPrefix, os.Getpid()) }

// ScratchGlob matches the scratch directories this process makes in dir.
func ScratchGlob(dir string) string { return filepath.Join(dir, scratchPattern()) }

// RemoveStaleScratch removes the scratch directories in dir left by
// processes that are gone (a kill -9, a crash) and calls removed for each.
// Scratch without a PID (an older run) or of a live process stays.
func RemoveStaleScratch(dir string, removed func(path string, pid int)) {
	matches, _ := filepath.Glob(filepath.Join(dir, ScratchPrefix+"*"))
	for _, m := range matches {
		pidText, _, ok := strings.Cut(strings.TrimPrefix(filepath.Base(m), ScratchPrefix), "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid <= 0 || processAlive(pid) {
			continue // not ours to remove
		}
		if err := os.RemoveAll(m); err == nil {
			removed(m, pid)
		}
	}
}
