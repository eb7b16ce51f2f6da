package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A step directory that a failed job's last bundles are still writing
// into is removed once they stop (the failure seen: "unlinkat
// .../d000010: directory not empty").
func TestRemoveSettledWaitsForWriters(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "d000010")
	require.NoError(t, os.Mkdir(dir, 0o755))
	stop := time.Now().Add(300 * time.Millisecond)
	done := make(chan int)
	go func() { // a straggler: files until its time is up or the directory is gone
		n := 0
		for time.Now().Before(stop) {
			if os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%d", n)), []byte("x"), 0o644) != nil {
				break
			}
			n++
		}
		done <- n
	}()
	time.Sleep(20 * time.Millisecond)
	require.NoError(t, removeSettled(dir))
	assert.Positive(t, <-done)
	// the straggler may have made the directory's last file after the
	// removal only if the directory still existed: it must not
	_, err := os.Stat(dir)
	assert.ErrorIs(t, err, os.ErrNotExist)
}
