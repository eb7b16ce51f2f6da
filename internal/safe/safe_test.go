package safe

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// caught runs f and returns what it panicked with (nil: no panic).
func caught(f func()) (v any) {
	defer func() { v = recover() }()
	f()
	return nil
}

func explode() { panic("worker exploded") }

// Without a panic Wait returns once every goroutine is done.
func TestGroupWaits(t *testing.T) {
	var g Group
	var n atomic.Int64
	for range 8 {
		g.Go(func() { n.Add(1) })
	}
	require.Nil(t, caught(g.Wait))
	assert.Equal(t, int64(8), n.Load())
}

// A panic in a goroutine reaches the waiter as a *Panic with its value and
// the stack of the goroutine where it happened; the other goroutines run to
// their end, and OnPanic runs once however many panic.
func TestGroupCarriesPanic(t *testing.T) {
	var calls, done atomic.Int64
	g := Group{OnPanic: func() { calls.Add(1) }}
	for i := range 6 {
		g.Go(func() {
			if i%2 == 0 {
				explode()
			}
			done.Add(1)
		})
	}
	v := caught(g.Wait)
	p, ok := v.(*Panic)
	require.True(t, ok, "%T %v", v, v)
	assert.Equal(t, "worker exploded", p.Value)
	assert.Equal(t, "worker exploded", p.String())
	assert.Contains(t, string(p.Stack), "safe.explode")
	assert.Equal(t, int64(1), calls.Load())
	assert.Equal(t, int64(3), done.Load())
}

// A panic climbs through nested groups unchanged: the outer waiter gets
// the inner goroutine's *Panic, with its stack, not a re-wrapped one.
func TestGroupNested(t *testing.T) {
	var outer Group
	outer.Go(func() {
		var inner Group
		inner.Go(explode)
		inner.Wait()
	})
	p, ok := caught(outer.Wait).(*Panic)
	require.True(t, ok)
	assert.Equal(t, "worker exploded", p.Value)
	assert.Contains(t, string(p.Stack), "safe.explode")
	assert.Same(t, p, Recovered(p), "a carried panic keeps its origin")
}

// Every goroutine of the module starts through Group.Go, so that its
// panics reach the command's handler: no go statement and no
// sync.WaitGroup (whose Go method starts goroutines) in non-test code
// outside this package. The one exception is RunWithSignals' goroutine: it
// runs the command's whole run, whose cmdline.Run recovers; a Group there
// would leave the signal select waiting for a result that never comes.
func TestEveryGoroutineIsSafe(t *testing.T) {
	root := filepath.Join("..", "..")
	allowed := map[string]int{filepath.Join("internal", "cmdline", "cleanup.go"): 1}
	found := map[string]int{}
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == filepath.Join("internal", "safe") || strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				found[rel]++
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Name == "sync" && n.Sel.Name == "WaitGroup" {
					t.Errorf("%s: sync.WaitGroup: use safe.Group", rel)
				}
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, checked, 100, "the walk reached the module's files")
	for rel, n := range found {
		if n != allowed[rel] {
			t.Errorf("%s: %d go statements: start goroutines with safe.Group.Go", rel, n)
		}
	}
	for rel := range allowed {
		assert.Equal(t, allowed[rel], found[rel], "%s: the exception is still needed", rel)
	}
}

// A Pending is not done until its function returns, then gives its error;
// a panic in it is raised by Wait.
func TestPending(t *testing.T) {
	release := make(chan struct{})
	p := Start(func() error { <-release; return errors.New("late") })
	assert.False(t, p.Done())
	close(release)
	assert.EqualError(t, p.Wait(), "late")
	assert.True(t, p.Done())
	q := Start(func() error { panic("boom") })
	assert.PanicsWithValue(t, "boom", func() {
		defer func() {
			if v := recover(); v != nil {
				panic(v.(*Panic).Value)
			}
		}()
		_ = q.Wait()
	})
	assert.True(t, q.Done())
}
