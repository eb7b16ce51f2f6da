package tamper

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Run runs an enumerate command on a 3x3 board up to gap 2 with --out-dir
// out (and --fresh), returning its exit status and stderr.
type Run func(t *testing.T, out string, fresh bool) (code int, stderr string)

// RefusesForeign checks that a command refuses its state path (name, in
// its output directory) when it is a symlink to a directory or to a file,
// a directory without the marker, an empty directory or a regular file:
// exit 2 and one line naming it, with and without --fresh, nothing in it
// (or behind it) removed, replaced or added, and no key-set file written.
func RefusesForeign(t *testing.T, name string, run Run) {
	t.Helper()
	theirs := func(t *testing.T) string {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "precious.txt"), []byte("mine\n"), 0o644))
		require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "more.txt"), []byte("mine too\n"), 0o644))
		return dir
	}
	for _, c := range []struct {
		name string
		make func(t *testing.T, path string) (look string)
	}{
		{"symlink to a directory", func(t *testing.T, path string) string {
			other := theirs(t)
			require.NoError(t, os.Symlink(other, path))
			return other
		}},
		{"directory without marker", func(t *testing.T, path string) string {
			require.NoError(t, os.CopyFS(path, os.DirFS(theirs(t))))
			return path
		}},
		{"empty directory", func(t *testing.T, path string) string {
			require.NoError(t, os.Mkdir(path, 0o755))
			return path
		}},
		{"regular file", func(t *testing.T, path string) string {
			require.NoError(t, os.WriteFile(path, []byte("mine\n"), 0o644))
			return path
		}},
		{"symlink to a file", func(t *testing.T, path string) string {
			other := filepath.Join(t.TempDir(), "file")
			require.NoError(t, os.WriteFile(other, []byte("mine\n"), 0o644))
			require.NoError(t, os.Symlink(other, path))
			return other
		}},
	} {
		for _, fresh := range []bool{false, true} {
			out := t.TempDir()
			look := c.make(t, filepath.Join(out, name))
			before := tree(t, look)
			code, errs := run(t, out, fresh)
			assert.Equal(t, 2, code, "%s fresh %v: %s", c.name, fresh, errs)
			assert.Equal(t, 1, strings.Count(errs, "\n"), errs)
			assert.Contains(t, errs, name, c.name)
			assert.Equal(t, before, tree(t, look), "%s fresh %v: contents changed", c.name, fresh)
			assert.NoFileExists(t, filepath.Join(out, "Gap2.keys"), c.name)
		}
	}
}

// tree lists a path's names, recursively.
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
