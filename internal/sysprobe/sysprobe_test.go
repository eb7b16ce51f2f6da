package sysprobe

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spin burns about n multiply-adds of CPU and returns a value that depends
// on every one.
func spin(n int) uint64 {
	x := uint64(1)
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1
	}
	return x
}

func TestProcessCPUAdvances(t *testing.T) {
	a := ProcessCPU()
	if a == 0 {
		t.Skip("no process CPU clock on this system")
	}
	x := spin(50_000_000)
	assert.Greater(t, ProcessCPU(), a, "%d", x)
}

func TestThreadCPUAdvances(t *testing.T) {
	// the clock is per OS thread: without the lock the goroutine may read
	// two different threads' clocks
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	a, ok := ThreadCPU()
	if !ok {
		t.Skip("no per-thread CPU clock on this system")
	}
	x := spin(50_000_000)
	b, ok := ThreadCPU()
	require.True(t, ok)
	assert.Greater(t, b, a, "%d", x)
	// a sleeping thread uses (almost) no CPU
	time.Sleep(200 * time.Millisecond)
	c, _ := ThreadCPU()
	assert.Less(t, c-b, 100*time.Millisecond)
}

// Touching 64 MiB raises the resident memory by about that much, and the
// peak is never below the current figure.
// The machine has at least what this process holds, and no more available
// than in all.
func TestMachineMemory(t *testing.T) {
	total, avail := Machine()
	if total == 0 {
		t.Skip("no /proc/meminfo here")
	}
	rss, _ := Memory()
	assert.Greater(t, total, rss)
	assert.LessOrEqual(t, avail, total)
	assert.Positive(t, avail)
	x, y := readKB(filepath.Join(t.TempDir(), "none"), "A:", "B:")
	assert.Zero(t, x+y)
	path := filepath.Join(t.TempDir(), "meminfo")
	require.NoError(t, os.WriteFile(path, []byte("A: 3 kB\nC: 5 kB\nB: x kB\nB:\n"), 0o644))
	x, y = readKB(path, "A:", "B:")
	assert.Equal(t, uint64(3072), x)
	assert.Zero(t, y)
}

func TestMemoryFollowsTouchedPages(t *testing.T) {
	rss0, peak0 := Memory()
	if rss0 == 0 {
		t.Skip("no /proc/self/status here")
	}
	assert.GreaterOrEqual(t, peak0, rss0)
	buf := make([]byte, 64<<20)
	for i := 0; i < len(buf); i += 4096 {
		buf[i] = 1
	}
	rss1, peak1 := Memory()
	runtime.KeepAlive(buf)
	assert.Greater(t, rss1, rss0+32<<20)
	assert.GreaterOrEqual(t, peak1, rss1)
}

// The free space agrees with df's, a directory and its subdirectory share a
// file system, and a missing directory has no figure.
func TestFreeDisk(t *testing.T) {
	dir := t.TempDir()
	d, err := FreeDisk(dir)
	if err != nil && runtime.GOOS != "linux" {
		t.Skipf("no free-space figure here: %v", err)
	}
	require.NoError(t, err)
	assert.Greater(t, d.Free, int64(0))
	sub := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	s, err := FreeDisk(sub)
	require.NoError(t, err)
	assert.True(t, d.SameFS(s))
	// some kernels give virtual file systems a zero id: compare only real ids
	var none fsID
	if p, err := FreeDisk("/proc"); err == nil && p.fs != none && d.fs != none {
		assert.False(t, d.SameFS(p), "/proc is a file system of its own")
	}
	_, err = FreeDisk(filepath.Join(dir, "missing"))
	assert.Error(t, err)

	out, err := exec.Command("df", "-k", "--output=avail", dir).Output()
	if err != nil {
		t.Logf("no GNU df to compare with: %v", err)
		return
	}
	lines := strings.Fields(string(out))
	require.GreaterOrEqual(t, len(lines), 2, "%q", out)
	kib, err := strconv.ParseInt(lines[len(lines)-1], 10, 64)
	require.NoError(t, err)
	// other processes write meanwhile: agree within 256 MiB
	assert.InDelta(t, float64(kib<<10), float64(d.Free), 256<<20)
}

// The thread clock sees a short stretch of work: a clock that advanced
// only at the scheduler's ticks would read most of these as nothing.
func TestThreadCPUIsFine(t *testing.T) {
	if _, ok := ThreadCPU(); !ok {
		t.Skip("no thread CPU clock here")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for i := 0; i < 20; i++ {
		c0, _ := ThreadCPU()
		for start := time.Now(); time.Since(start) < 200*time.Microsecond; {
		}
		c1, _ := ThreadCPU()
		assert.Greater(t, c1, c0, "round %d", i)
	}
}
