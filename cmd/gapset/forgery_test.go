package main

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forgePDB adds 2 to every non-zero entry of a byte-per-entry database file
// and recomputes its checksum: a table that passes the sampled load checks
// (same zero, same parities, Manhattan still below, the same moves between
// most neighbours) but overestimates.
func forgePDB(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	for i := 40; i < len(b); i++ {
		if b[i] != 0 {
			b[i] += 2
		}
	}
	c := crc32.MakeTable(crc32.Castagnoli)
	binary.LittleEndian.PutUint32(b[36:], crc32.Update(crc32.Checksum(b[:36], c), c, b[40:]))
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

// A forged database (2 added to every non-zero entry of one group, the
// checksum recomputed) is refused on load: before, solve printed 26 for a
// board of 24 moves and exited 0, and on a file of boards printed wrong
// rows before a later board failed.
func TestForgedDatabaseRefused(t *testing.T) {
	const board = "6 4 1 3 0 7 8 5 2" // 24 moves
	_, _, pdbDir := files3x3(t)
	solve := func(args ...string) (int, string, string) {
		return runCmd(t, "", append([]string{"solve", "-q", "--rows", "3", "--cols", "3", "-H", "pdb44", "--pdb", pdbDir, "--format", "csv"}, args...)...)
	}
	code, out, errs := solve(board)
	require.Equal(t, 0, code, errs)
	require.Contains(t, out, ",24,", "the optimum, before the forgery")

	for _, name := range []string{"3x3-1-2-3-4.pdb", "3x3-5-6-7-8.pdb"} {
		path := filepath.Join(pdbDir, name)
		good, err := os.ReadFile(path)
		require.NoError(t, err)
		forgePDB(t, path)
		code, out, errs = solve(board)
		assert.Equal(t, 2, code, "%s forged: %s", name, out)
		assert.Empty(t, out, name)
		assert.Contains(t, errs, "corrupt pattern database", name)
		assert.Contains(t, errs, name, name)
		assert.Equal(t, 1, strings.Count(errs, "\n"), errs)

		// a file of boards: refused before the first row
		var lines strings.Builder
		for i := 0; i < 30; i++ {
			lines.WriteString(board3x3 + "\n" + board + "\n")
		}
		boards := filepath.Join(t.TempDir(), "boards.txt")
		require.NoError(t, os.WriteFile(boards, []byte(lines.String()), 0o644))
		code, out, _ = solve("-i", boards)
		assert.Equal(t, 2, code, name)
		assert.Empty(t, out, "%s: no rows before the refusal", name)
		require.NoError(t, os.WriteFile(path, good, 0o644))
	}
}

// verify checks that a database file holds the group its name says, as a
// load does: a copy under another group's name is refused (before, verify
// accepted it while solve refused it).
func TestVerifyChecksDatabaseName(t *testing.T) {
	_, _, pdbDir := files3x3(t)
	src := filepath.Join(pdbDir, "3x3-1-2-3-4.pdb")
	b, err := os.ReadFile(src)
	require.NoError(t, err)
	dir := t.TempDir()
	for _, name := range []string{"3x3-5-6-7-8.pdb", "3x4-1-2-3-4.pdb", "3x3-1-2-3.pdb", "groups.pdb"} {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, b, 0o644))
		code, out, errs := runCmd(t, "", "verify", p)
		assert.Equal(t, 2, code, "%s: %s", name, out)
		assert.Contains(t, errs, name)
		assert.Equal(t, 1, strings.Count(errs, "\n"), errs)
	}
	code, out, errs := runCmd(t, "", "verify", src)
	assert.Equal(t, 0, code, errs)
	assert.Contains(t, out, "equal to the table built again")

	// solve refuses the same copy
	require.NoError(t, os.WriteFile(filepath.Join(dir, "3x3-1-2-3-4.pdb"), b, 0o644))
	code, _, errs = runCmd(t, "", "solve", "-q", "--rows", "3", "--cols", "3", "-H", "pdb44", "--pdb", dir, board3x3)
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "3x3-5-6-7-8.pdb")
}
