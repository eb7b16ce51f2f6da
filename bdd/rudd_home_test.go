package bdd

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rudd has one home, bdd/rudd.go: Rudd clears the finalizer of every node
// rudd returns (see Rudd), and a node got from rudd anywhere else would race
// with rudd's collector. No other Go file of the module (tests and the nested
// cluster module included) imports rudd.
func TestRuddOneHome(t *testing.T) {
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	importPath := "github.com/dalzilio/" + "rudd" // split: this file is not a user
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		files++
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if filepath.ToSlash(rel) != "bdd/rudd.go" {
			assert.NotContains(t, string(b), `"`+importPath+`"`, "%s imports rudd itself (use bdd.Rudd)", rel)
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, files, 100, "the walk did not start at the module's root")
}
