package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every subcommand that takes --rows and --cols refuses a hostile size with
// exit 2 and one line, before any work: huge sizes, products that wrap
// around in int64 (2^62 x 4, 2^32 x 2^32, MaxInt x MaxInt, MinInt x -1) or
// in int32 (65536 x 65536), negative factors whose product is a valid cell
// count (-4 x -4), zero and 1x1.
func TestHostileBoardSizes(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	require.NoError(t, os.WriteFile(in, []byte(boards3x3), 0o644))
	sizes := [][2]string{
		{"4611686018427387904", "4"}, {"4", "4611686018427387904"}, {"4294967296", "4294967296"},
		{"9223372036854775807", "9223372036854775807"}, {"-9223372036854775808", "-1"},
		{"65536", "65536"}, {"-4", "-4"}, {"0", "0"}, {"1", "1"}, {"5", "4"},
	}
	commands := [][]string{
		{"gen", "-n", "1"},
		{"solve", "-q", "1 2 3"},
		{"bench", "-q", "-i", in, "--out", filepath.Join(dir, "bench")},
		{"enumerate", "-q", "--out-dir", dir},
		{"approx", "-q", "--out-dir", dir},
		{"build", "-q", "--gap", "0", "--cells", "4", "--out", filepath.Join(dir, "x.bdd")},
		{"pdb", "build", "-q", "--partition", "4-4", "--out", filepath.Join(dir, "pdb")},
		{"slide", "farthest"},
		{"slide", "solve", "1 2 3"},
		{"slide", "bidir", "1 2 3"},
		{"slide", "ida", "1 2 3"},
	}
	for _, cmd := range commands {
		for _, s := range sizes {
			// the size flags go right after the command's name (slide's
			// are its own, not its subcommands')
			n := 1
			if cmd[0] == "pdb" {
				n = 2
			}
			args := append(append(append([]string{}, cmd[:n]...), "--rows", s[0], "--cols", s[1]), cmd[n:]...)
			name := strings.Join(args, " ")
			code, out, errs := runCmd(t, "", args...)
			assert.Equal(t, 2, code, "%s: %s", name, errs)
			assert.Equal(t, 1, strings.Count(errs, "\n"), "%s: one line: %s", name, errs)
			assert.Contains(t, errs, "unsupported board size: "+s[0]+"x"+s[1], name)
			assert.Empty(t, out, name)
		}
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "nothing written but the instance file")
}
