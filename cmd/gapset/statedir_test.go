package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gapset/gapset/gapset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// foreignDir is a directory of someone else's: a file and a subdirectory.
func foreignDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "precious.txt"), []byte("mine\n"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "more.txt"), []byte("mine too\n"), 0o644))
	return dir
}

// entries lists a directory's names, recursively.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	require.NoError(t, filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		rel, _ := filepath.Rel(dir, p)
		names = append(names, rel)
		return err
	}))
	return names
}

// A checkpoint path that is a symlink, a file or a directory the run did
// not make is refused with exit 2 and one line, with and without --fresh,
// and nothing in it (or behind it) is removed, replaced or added.
func TestEnumerateRefusesForeignCheckpoint(t *testing.T) {
	for _, c := range []struct {
		name string
		make func(t *testing.T, cp string) (look string)
	}{
		{"symlink to a directory", func(t *testing.T, cp string) string {
			other := foreignDir(t)
			require.NoError(t, os.Symlink(other, cp))
			return other
		}},
		{"directory without marker", func(t *testing.T, cp string) string {
			require.NoError(t, os.CopyFS(cp, os.DirFS(foreignDir(t))))
			return cp
		}},
		{"empty directory", func(t *testing.T, cp string) string {
			require.NoError(t, os.Mkdir(cp, 0o755))
			return cp
		}},
		{"regular file", func(t *testing.T, cp string) string {
			require.NoError(t, os.WriteFile(cp, []byte("mine\n"), 0o644))
			return cp
		}},
		{"symlink to a file", func(t *testing.T, cp string) string {
			other := filepath.Join(t.TempDir(), "file")
			require.NoError(t, os.WriteFile(other, []byte("mine\n"), 0o644))
			require.NoError(t, os.Symlink(other, cp))
			return other
		}},
	} {
		for _, fresh := range []bool{false, true} {
			out := t.TempDir()
			cp := filepath.Join(out, gapset.CheckpointName)
			look := c.make(t, cp)
			before := entries(t, look)
			args := []string{"enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", "2", "--out-dir", out}
			if fresh {
				args = append(args, "--fresh")
			}
			code, _, errs := runCmd(t, "", args...)
			assert.Equal(t, 2, code, "%s fresh %v: %s", c.name, fresh, errs)
			assert.Equal(t, 1, strings.Count(errs, "\n"), errs)
			assert.Contains(t, errs, gapset.CheckpointName, c.name)
			assert.Equal(t, before, entries(t, look), "%s fresh %v: contents changed", c.name, fresh)
			assert.NoFileExists(t, filepath.Join(out, "Gap2.keys"), c.name)
		}
	}
}
