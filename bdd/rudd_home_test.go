package bdd

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goFiles calls fn with every Go file of the module (tests and the nested
// cluster module included), its path relative to the root given with
// slashes.
func goFiles(t *testing.T, fn func(rel, path string)) {
	t.Helper()
	root, err := filepath.Abs("..")
	require.NoError(t, err)
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
		if strings.HasSuffix(path, ".go") {
			files++
			rel, _ := filepath.Rel(root, path)
			fn(filepath.ToSlash(rel), path)
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, files, 100, "the walk did not start at the module's root")
}

// rudd has one home, bdd/rudd.go: Rudd clears the finalizer of every node
// rudd returns (see Rudd), and a node got from rudd anywhere else would race
// with rudd's collector. No other Go file of the module imports rudd.
func TestRuddOneHome(t *testing.T) {
	importPath := `"github.com/dalzilio/` + `rudd"` // split: this file is not a user
	goFiles(t, func(rel, path string) {
		if rel == "bdd/rudd.go" {
			return
		}
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.NotContains(t, string(b), importPath, "%s imports rudd itself (use bdd.Rudd)", rel)
	})
}

// Tests that name "--rudd" only in flags refused before any build.
var ruddRefusedOnly = map[string]bool{"cmd/gapset.TestBuildOutOfCoreSameFile": true}

// Every test that goes through rudd (calls BuildRudd, buildRudd, ToRudd or
// CheckRudd, sets KeysBuild.Rudd, passes --rudd, or calls a helper of its
// package that does) runs under the race detector in .ci/run: a line
// "GOGC=2 go test -race -run 'RE' ./DIR/" whose RE matches its name.
func TestRuddTestsRunUnderRace(t *testing.T) {
	ci, err := os.ReadFile("../.ci/run")
	require.NoError(t, err)
	runs := map[string]*regexp.Regexp{}
	for _, m := range regexp.MustCompile(`(?m)^GOGC=2 go test -race -run '([^']+)' \./(\S+)/$`).FindAllStringSubmatch(string(ci), -1) {
		runs[m[2]] = regexp.MustCompile(m[1])
	}
	require.Contains(t, runs, "bdd", ".ci/run has no race line for bdd")

	users := map[string][]string{} // package directory -> its tests through rudd
	funcs := map[string][]*ast.FuncDecl{}
	goFiles(t, func(rel, path string) {
		if !strings.HasSuffix(rel, "_test.go") {
			return
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		require.NoError(t, err, rel)
		dir := filepath.ToSlash(filepath.Dir(rel))
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				funcs[dir] = append(funcs[dir], fd)
			}
		}
	})
	for dir, fds := range funcs {
		uses := map[string]bool{}
		for changed := true; changed; { // until no helper adds a user
			changed = false
			for _, fd := range fds {
				if !uses[fd.Name.Name] && goesThroughRudd(fd, uses) {
					uses[fd.Name.Name], changed = true, true
				}
			}
		}
		for _, fd := range fds {
			name := fd.Name.Name
			if fd.Recv == nil && strings.HasPrefix(name, "Test") && uses[name] && !ruddRefusedOnly[dir+"."+name] {
				users[dir] = append(users[dir], name)
			}
		}
	}
	require.Contains(t, users["bdd"], "TestRuddAgreesWithOwnBuilder", "the scan finds rudd's tests")
	require.Contains(t, users["cmd/gapset"], "TestBuildAndReport3x3", "the scan finds rudd's tests")
	for dir, tests := range users {
		slices.Sort(tests)
		for _, name := range tests {
			run := runs[dir]
			assert.True(t, run != nil && run.MatchString(name), "%s: %s goes through rudd: add it to the race lines of .ci/run", dir, name)
		}
	}
}

// goesThroughRudd reports whether fd's body reaches rudd directly or calls
// a function of uses.
func goesThroughRudd(fd *ast.FuncDecl, uses map[string]bool) bool {
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			switch n.Name {
			case "BuildRudd", "buildRudd", "ToRudd", "CheckRudd":
				found = true
			}
		case *ast.CallExpr:
			var name string
			switch f := n.Fun.(type) {
			case *ast.Ident:
				name = f.Name
			case *ast.SelectorExpr:
				name = f.Sel.Name
			}
			found = found || uses[name]
		case *ast.KeyValueExpr:
			if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Rudd" {
				v, isIdent := n.Value.(*ast.Ident)
				found = found || !isIdent || v.Name != "false"
			}
		case *ast.BasicLit:
			found = found || n.Kind == token.STRING && strings.HasPrefix(n.Value, `"--rudd`)
		}
		return !found
	})
	return found
}
