package atomicfile

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Before stop a commit under an Interruptible context renames; after it,
// under the context or one derived from it, nothing takes its name and no
// temporary is left.
func TestInterruptibleStopRefusesLaterCommits(t *testing.T) {
	dir := t.TempDir()
	ctx, stop := Interruptible(context.Background())
	child, cancel := context.WithCancel(ctx)
	defer cancel()
	require.NoError(t, WriteFileContext(child, filepath.Join(dir, "before"), []byte("x")))
	f, err := Create(filepath.Join(dir, "after"))
	require.NoError(t, err)
	_, err = f.Write([]byte("y"))
	require.NoError(t, err)
	stop()
	assert.ErrorIs(t, f.CommitContext(child), context.Canceled)
	assert.ErrorIs(t, WriteFileContext(ctx, filepath.Join(dir, "after2"), []byte("z")), context.Canceled)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, "before", entries[0].Name())
	// a plain Commit knows no interrupt
	require.NoError(t, WriteFile(filepath.Join(dir, "plain"), nil))
}

// stop waits for a rename under way, and no rename starts after it: the
// interrupt falls wholly before or wholly after each commit.
func TestInterruptibleStopWaitsForARename(t *testing.T) {
	ctx, stop := Interruptible(context.Background())
	renaming, release := make(chan struct{}), make(chan struct{})
	committed := make(chan error, 1)
	go func() {
		committed <- commitUnder(ctx, func() error {
			close(renaming)
			<-release
			return nil
		})
	}()
	<-renaming
	stopped := make(chan struct{})
	go func() {
		stop()
		close(stopped)
	}()
	select {
	case <-stopped:
		t.Fatal("stop returned while a rename was under way")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	<-stopped
	require.NoError(t, <-committed, "a rename under way completes")
	ran := false
	err := commitUnder(ctx, func() error { ran = true; return nil })
	assert.ErrorIs(t, err, context.Canceled)
	assert.False(t, ran, "a rename after stop")
}
