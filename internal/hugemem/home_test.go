package hugemem

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Huge pages have one home: no Go file of the module (the nested cluster
// module included) outside this package advises the kernel about pages.
func TestOneHome(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	here, err := filepath.Abs(".")
	require.NoError(t, err)
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == here || strings.HasPrefix(d.Name(), ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, word := range []string{"MADV_HUGEPAGE", "Madvise("} {
			assert.NotContains(t, string(b), word, "%s advises the kernel itself (use internal/hugemem)", path)
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, files, 100, "the module's files were not found from %s", root)
}
