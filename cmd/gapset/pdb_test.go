package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPDBBuildAndSolve(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	board := "8 6 7 2 5 4 3 0 1" // 31 moves, one of the two hardest 3x3 boards

	// Missing database: one line saying how to build it, exit 2.
	code, _, errOut := runCmd(t, "", "solve", "-q", "--rows", "3", "--cols", "3", "-H", "pdb44", "--pdb", dir, board)
	assert.Equal(t, 2, code)
	assert.Equal(t, 1, strings.Count(strings.TrimSpace(errOut), "\n")+1, errOut)
	assert.Contains(t, errOut, "gapset pdb build --partition 4-4 --rows 3 --cols 3 --out "+dir)

	code, out, errOut := runCmd(t, "", "pdb", "build", "--partition", "4-4", "--rows", "3", "--cols", "3", "--out", dir)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "3x3-1-2-3-4.pdb: 3024 entries")
	assert.Contains(t, errOut, "group 1/2")

	code, out, errOut = runCmd(t, "", "solve", "-q", "--rows", "3", "--cols", "3", "-H", "pdb44", "--pdb", dir, "--format", "csv", board)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, ",31,")

	// Corrupt database: exit 2, says to rebuild.
	path := filepath.Join(dir, "3x3-5-6-7-8.pdb")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	data[len(data)-1] ^= 1
	require.NoError(t, os.WriteFile(path, data, 0o644))
	code, _, errOut = runCmd(t, "", "solve", "-q", "--rows", "3", "--cols", "3", "-H", "pdb44", "--pdb", dir, board)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "checksum")
	assert.Contains(t, errOut, "rebuild it with: gapset pdb build")

	code, _, errOut = runCmd(t, "", "pdb", "build", "--partition", "9-9", "--out", dir)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "unknown partition")
}
