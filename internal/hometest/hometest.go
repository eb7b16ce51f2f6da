// Package hometest is the walk of the tests that keep a concept in one
// home (internal/placement, internal/hugemem, internal/statedir): every
// non-test Go file of the module, the nested cluster module included,
// outside the home. Tests only; it lives outside a _test file so that they
// share it.
package hometest

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gapset/gapset/internal/infile"
)

// Lines calls fn for every line of every non-test Go file below the
// module's root (two levels above the calling test's package, which lives
// in internal/NAME) outside the directories homes (relative to the root),
// with the file's path relative to the root and the line's number. It
// fails the test if the walk fails or finds fewer than 100 files (the
// root was not found).
func Lines(t testing.TB, fn func(path string, n int, line string), homes ...string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	skip := map[string]bool{}
	for _, h := range homes {
		skip[filepath.Join(root, filepath.FromSlash(h))] = true
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skip[path] || strings.HasPrefix(d.Name(), ".") && path != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		b, err := infile.ReadAll(path, "a Go file", 16<<20)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for i, line := range strings.Split(string(b), "\n") {
			fn(filepath.ToSlash(rel), i+1, line)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("only %d Go files found below %s: not the module's root", files, root)
	}
}
