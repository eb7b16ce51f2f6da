package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gapset/gapset/cluster/pipeline"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tree lists a directory's names, recursively.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	require.NoError(t, filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		rel, _ := filepath.Rel(dir, p)
		names = append(names, rel)
		return err
	}))
	return names
}

// A work directory path that is a symlink, a file or a directory the run
// did not make is refused with exit 2 and one line, with and without
// --fresh, and nothing in it (or behind it) is removed or added.
func TestRefusesForeignWorkDir(t *testing.T) {
	theirs := func(t *testing.T) string {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "precious.txt"), []byte("mine\n"), 0o644))
		require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
		return dir
	}
	for _, c := range []struct {
		name string
		make func(t *testing.T, work string) (look string)
	}{
		{"symlink", func(t *testing.T, work string) string {
			other := theirs(t)
			require.NoError(t, os.Symlink(other, work))
			return other
		}},
		{"directory without marker", func(t *testing.T, work string) string {
			require.NoError(t, os.CopyFS(work, os.DirFS(theirs(t))))
			return work
		}},
		{"regular file", func(t *testing.T, work string) string {
			require.NoError(t, os.WriteFile(work, []byte("mine\n"), 0o644))
			return work
		}},
	} {
		for _, fresh := range []bool{false, true} {
			out := t.TempDir()
			work := filepath.Join(out, pipeline.WorkName)
			look := c.make(t, work)
			before := tree(t, look)
			args := []string{"enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", "2", "--out-dir", out}
			if fresh {
				args = append(args, "--fresh")
			}
			_, stderr, code := command(t, nil, args...)
			assert.Equal(t, 2, code, "%s fresh %v: %s", c.name, fresh, stderr)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
			assert.Contains(t, stderr, pipeline.WorkName, c.name)
			assert.Equal(t, before, tree(t, look), "%s fresh %v: contents changed", c.name, fresh)
			assert.NoFileExists(t, filepath.Join(out, "Gap2.keys"), c.name)
		}
	}
}
