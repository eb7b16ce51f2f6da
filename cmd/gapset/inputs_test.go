package main

import (
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every command that reads files refuses one that cannot be read with
// exit 2 and the same line (the flag it came from, the path, the system's
// reason): a symbolic link loop, a directory, a missing file, a path
// through a file; a pattern database directory that is a loop, a file or
// under a file (a missing one is a database not built yet: pdb_test.go).
func TestUnreadableInputs(t *testing.T) {
	keys, _, _ := files3x3(t)
	t.Chdir(t.TempDir()) // short relative paths, quoted whole in the lines
	require.NoError(t, os.WriteFile("in.txt", []byte(boards3x3), 0o644))
	require.NoError(t, os.WriteFile("file", []byte("x"), 0o644))
	require.NoError(t, os.Mkdir("dir", 0o755))
	require.NoError(t, os.Symlink("loop2", "loop"))
	require.NoError(t, os.Symlink("loop", "loop2"))
	files := map[string]syscall.Errno{"loop": syscall.ELOOP, "dir": syscall.EISDIR, "missing": syscall.ENOENT, "file/x": syscall.ENOTDIR}
	dirs := map[string]syscall.Errno{"loop": syscall.ELOOP, "file": syscall.ENOTDIR, "file/x": syscall.ENOTDIR}
	s33 := []string{"--rows", "3", "--cols", "3"}
	cases := []struct {
		flag string // "" for an argument
		dir  bool
		args func(p string) []string
	}{
		{"", false, func(p string) []string { return []string{"count", p} }},
		{"", false, func(p string) []string { return []string{"verify", p} }},
		{"", false, func(p string) []string { return []string{"report", p} }},
		{"", false, func(p string) []string { return []string{"report", "--verify", p} }},
		{"", false, func(p string) []string { return []string{"zdd", "-q", p} }},
		{"--keys", false, func(p string) []string {
			return append([]string{"solve", "-q", "-H", "gap0", "--keys", p, board3x3}, s33...)
		}},
		{"--bdd", false, func(p string) []string {
			return append([]string{"solve", "-q", "-H", "gap0", "--bdd", p, board3x3}, s33...)
		}},
		{"--pdb", true, func(p string) []string {
			return append([]string{"solve", "-q", "-H", "pdb44", "--pdb", p, board3x3}, s33...)
		}},
		{"--input", false, func(p string) []string { return append([]string{"solve", "-q", "-i", p}, s33...) }},
		{"--input", false, func(p string) []string { return append([]string{"bench", "-q", "-i", p, "--out", "b"}, s33...) }},
		{"--include", false, func(p string) []string {
			return append([]string{"bench", "-q", "-i", "in.txt", "-H", "", "--include", p, "--out", "b"}, s33...)
		}},
		{"--keys", false, func(p string) []string {
			return append([]string{"bench", "-q", "-i", "in.txt", "-H", "gap0", "--keys", p, "--out", "b"}, s33...)
		}},
		{"--keys", false, func(p string) []string { return []string{"build", "-q", "--keys", p, "--out", "o.bdd"} }},
		{"--order", false, func(p string) []string {
			return []string{"build", "-q", "--rows", "2", "--cols", "2", "--gap", "0", "--cells", "4", "--order", "@" + p, "--out", "o.bdd"}
		}},
		{"--keys", false, func(p string) []string { return []string{"order", "-q", "--keys", p, "--out", "o.order"} }},
		{"--bdd", false, func(p string) []string { return []string{"order", "-q", "--bdd", p, "--out", "o.order"} }},
		{"--start", false, func(p string) []string {
			return []string{"order", "-q", "--keys", keys, "--start", "@" + p, "--out", "o.order"}
		}},
		{"--exact", false, func(p string) []string {
			return append([]string{"approx", "-q", "--cells", "6", "--exact", p, "--out-dir", "."}, s33...)
		}},
	}
	for _, c := range cases {
		paths := files
		if c.dir {
			paths = dirs
		}
		for p, reason := range paths {
			args := c.args(p)
			name := strings.Join(args, " ")
			code, out, errs := runCmd(t, "", args...)
			want := "cannot read \"" + p + "\": " + reason.Error() + "\n"
			if c.flag != "" {
				want = c.flag + ": " + want
			}
			assert.Equal(t, 2, code, "%s: %s", name, errs)
			assert.Equal(t, "gapset: "+want, errs, name)
			assert.Empty(t, out, name)
		}
	}
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	assert.Len(t, entries, 5, "nothing written")
}
