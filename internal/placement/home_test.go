package placement

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// copies matches what a second home of the ranking would write: a digit
// counted among the used (or left) values, or a function named as the
// copies that this package replaced were.
var copies = regexp.MustCompile(`OnesCount32\((used|left|after|placed)\s*&|` +
	`func (\([^)]*\) )?(rank|unrank|selectFree|selectBit|rankDigit|rankedBytes|RankedBytes|odometer)\(|` +
	`type (ranker|prefix|odometer) struct`)

// The placement ranking has one home: no Go file of the module (the nested
// cluster module included) outside this package ranks placements itself.
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
		for i, line := range strings.Split(string(b), "\n") {
			assert.False(t, copies.MatchString(line), "%s:%d ranks placements itself (use internal/placement): %s", path, i+1, strings.TrimSpace(line))
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, files, 100, "the module's files were not found from %s", root)
}
