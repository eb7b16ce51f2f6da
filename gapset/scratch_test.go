package gapset

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckDisk(t *testing.T) {
	dir := t.TempDir()
	assert.NoError(t, Estimate{Known: true, OutputBytes: 1 << 20, ScratchBytes: 1 << 20}.CheckDisk(dir, dir))
	err := Estimate{Known: true, OutputBytes: 1e18, ScratchBytes: 1e18}.CheckDisk(dir, dir)
	assert.ErrorContains(t, err, "not enough disk")
}

func TestScratchDir(t *testing.T) {
	assert.Equal(t, ".", Config{}.ScratchDir())
	assert.Equal(t, "out", Config{Dir: "out"}.ScratchDir())
	assert.Equal(t, "tmp", Config{Dir: "out", TempDir: "tmp"}.ScratchDir())
}

// Scratch of a process that is gone is removed; a live process's scratch
// (this one's, matched by ScratchGlob) and scratch without a PID stay.
func TestRemoveStaleScratch(t *testing.T) {
	if !processAlive(os.Getpid()) {
		t.Skip("no process table here")
	}
	dead := exec.Command("true")
	require.NoError(t, dead.Run())
	dir := t.TempDir()
	stale := filepath.Join(dir, ScratchPrefix+strconv.Itoa(dead.Process.Pid)+"-x")
	require.NoError(t, os.MkdirAll(filepath.Join(stale, "runs"), 0o755))
	live, err := os.MkdirTemp(dir, scratchPattern())
	require.NoError(t, err)
	old := filepath.Join(dir, ScratchPrefix+"old")
	require.NoError(t, os.Mkdir(old, 0o755))
	var removed []string
	RemoveStaleScratch(dir, func(path string, pid int) {
		removed = append(removed, path)
		assert.Equal(t, dead.Process.Pid, pid)
	})
	assert.Equal(t, []string{stale}, removed)
	matches, _ := filepath.Glob(ScratchGlob(dir))
	assert.Equal(t, []string{live}, matches)
	assert.DirExists(t, old)
}
