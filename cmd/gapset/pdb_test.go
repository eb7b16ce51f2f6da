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

// pdb build --blank prints what it takes first, writes the -blank.pdb
// files beside the others, and solve reads them with pdbb; --blank with
// --compact is refused.
func TestPDBBuildBlank(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	code, out, errOut := runCmd(t, "", "pdb", "build", "--rows", "2", "--cols", "4", "--partition", "1-4/5-7", "--blank", "--out", dir)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, errOut, "gapset: 2 files, 0.00 GiB on disk; 0.00 GiB of memory at the peak")
	assert.Contains(t, out, filepath.Join(dir, "2x4-1-2-3-4-blank.pdb")+": 6720 entries")
	assert.Contains(t, out, "step 1")

	length := func(out string) string { // the length column of solve's CSV row
		lines := strings.Split(strings.TrimSpace(out), "\n")
		return strings.Split(lines[len(lines)-1], ",")[2]
	}
	code, out, errOut = runCmd(t, "", "solve", "-q", "--rows", "2", "--cols", "4", "-H", "pdbb:1-4/5-7", "--pdb", dir, "--format", "csv", "0 7 6 5 4 3 2 1")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "pdbb:1-4/5-7")
	code, want, errOut := runCmd(t, "", "solve", "-q", "--rows", "2", "--cols", "4", "-H", "md", "--format", "csv", "0 7 6 5 4 3 2 1")
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, length(want), length(out), "the optimum Manhattan distance's search finds")

	code, _, errOut = runCmd(t, "", "pdb", "build", "--rows", "2", "--cols", "4", "--partition", "1-4/5-7", "--blank", "--compact", "--out", dir)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "leave out --compact")
}
