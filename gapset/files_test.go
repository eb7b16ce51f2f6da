package gapset

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
