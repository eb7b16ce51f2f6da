package infile

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// within fails the test if f takes longer than a few seconds (a FIFO's open
// waiting for a writer) instead of hanging it.
func within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("still blocked after 10 s")
	}
}

// A FIFO without a writer, a device and a directory are refused at once,
// as what they are; a symbolic link to a regular file is read.
func TestOpenRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, []byte("data"), 0o644))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(file, link))
	cases := map[string]string{fifo: "a FIFO", dir: "a directory"}
	if _, err := os.Stat("/dev/zero"); err == nil {
		cases["/dev/zero"] = "a character device"
	}
	for path, kind := range cases {
		within(t, func() {
			_, err := Open(path)
			require.ErrorIs(t, err, ErrNotRegular, path)
			assert.Equal(t, path+" is "+kind+", not a regular file", err.Error())
			_, err = ReadAll(path, "a test file", 1<<20)
			assert.ErrorIs(t, err, ErrNotRegular, path)
		})
	}
	b, err := ReadAll(link, "a test file", 4)
	require.NoError(t, err)
	assert.Equal(t, "data", string(b))
}

// A path that becomes a FIFO after the check is not waited for either: the
// open itself does not block.
func TestOpenNoWaitOnFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	within(t, func() {
		f, err := openNoWait(fifo)
		require.NoError(t, err)
		f.Close()
	})
}

// A file over the bound is refused before it is read, naming what it
// should have been; one at the bound is read whole.
func TestReadAllBound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "order")
	require.NoError(t, os.WriteFile(path, []byte(strings.Repeat("x", 100)), 0o644))
	b, err := ReadAll(path, "an order file", 100)
	require.NoError(t, err)
	assert.Len(t, b, 100)
	_, err = ReadAll(path, "an order file", 99)
	require.ErrorIs(t, err, ErrTooBig)
	assert.Equal(t, path+": too big for an order file (more than 99 bytes)", err.Error())
	empty := filepath.Join(t.TempDir(), "empty")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	b, err = ReadAll(empty, "an order file", 10)
	require.NoError(t, err)
	assert.Empty(t, b)
}

// A file that says it is empty (as /proc's do) is read to its end within
// the bound and refused past it.
func TestReadAllSizeIsOnlyAHint(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc here")
	}
	b, err := ReadAll("/proc/self/status", "a status file", 1<<20)
	require.NoError(t, err)
	assert.Contains(t, string(b), "VmRSS")
	_, err = ReadAll("/proc/self/status", "a status file", 10)
	assert.ErrorIs(t, err, ErrTooBig)
}

// A stream that never ends is read up to the bound, not into all memory.
func TestReadAllFromEndless(t *testing.T) {
	_, err := ReadAllFrom(endless{}, "stdin", "a record", 1<<20)
	require.ErrorIs(t, err, ErrTooBig)
	assert.Equal(t, "stdin: too big for a record (more than 1 MiB)", err.Error())
	b, err := ReadAllFrom(io.LimitReader(endless{}, 3<<10), "s", "a record", 3<<10)
	require.NoError(t, err)
	assert.Len(t, b, 3<<10)
}

type endless struct{}

func (endless) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func TestSize(t *testing.T) {
	assert.Equal(t, "300 bytes", Size(300))
	assert.Equal(t, "64 KiB", Size(64<<10))
	assert.Equal(t, "256 MiB", Size(256<<20))
	assert.Equal(t, "2 GiB", Size(2<<30))
	assert.Equal(t, "1025 bytes", Size(1025))
}
