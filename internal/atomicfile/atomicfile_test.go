package atomicfile

import (
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// specials makes one of each kind of non-regular entry in dir.
func specials(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	out["FIFO"] = fifo
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	out["socket"] = sock
	target := filepath.Join(dir, "target")
	require.NoError(t, os.WriteFile(target, []byte("keep"), 0o644))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(target, link))
	out["symbolic link"] = link
	sub := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	out["directory"] = sub
	return out
}

func TestSpecialTargetsRefusedAndUntouched(t *testing.T) {
	dir := t.TempDir()
	for kind, path := range specials(t, dir) {
		before, err := os.Lstat(path)
		require.NoError(t, err)
		err = Check(path)
		require.ErrorIs(t, err, ErrNotRegular, kind)
		assert.Contains(t, err.Error(), kind)
		_, err = Create(path)
		assert.ErrorIs(t, err, ErrNotRegular, kind)
		assert.ErrorIs(t, WriteFile(path, []byte("x")), ErrNotRegular, kind)
		after, err := os.Lstat(path)
		require.NoError(t, err)
		assert.Equal(t, before.Mode(), after.Mode(), kind)
	}
	got, err := os.ReadFile(filepath.Join(dir, "target"))
	require.NoError(t, err)
	assert.Equal(t, "keep", string(got), "a symlink's target is never written")
	left, _ := filepath.Glob(filepath.Join(dir, ".*"))
	assert.Empty(t, left, "no temporary is left")
}

// A device is only ever checked, never written, so that no test can replace
// a real one.
func TestDeviceRefusedByCheck(t *testing.T) {
	if _, err := os.Stat("/dev/null"); err != nil {
		t.Skip("no /dev/null here")
	}
	err := Check("/dev/null")
	require.ErrorIs(t, err, ErrNotRegular)
	assert.Contains(t, err.Error(), "character device")
}

func TestWriteFileReplacesRegularFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	require.NoError(t, Check(path), "an absent target is fine")
	require.NoError(t, WriteFile(path, []byte("one")))
	require.NoError(t, WriteFile(path, []byte("two")))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "two", string(got))
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), st.Mode().Perm())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "the temporary is gone")
}

// A target that turns into a special file while the output is written is
// refused at the rename; the temporary goes and the special file stays.
func TestCommitChecksTargetAgain(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	f, err := Create(path)
	require.NoError(t, err)
	_, err = f.WriteString("data")
	require.NoError(t, err)
	require.NoError(t, syscall.Mkfifo(path, 0o644))
	require.ErrorIs(t, f.Commit(), ErrNotRegular)
	st, err := os.Lstat(path)
	require.NoError(t, err)
	assert.NotZero(t, st.Mode()&os.ModeNamedPipe, "still a FIFO")
	matches, _ := filepath.Glob(Glob(path))
	assert.Empty(t, matches)
}

func TestAbortLeavesTargetAlone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	f, err := Create(path)
	require.NoError(t, err)
	matches, _ := filepath.Glob(Glob(path))
	require.Equal(t, []string{f.Name()}, matches, "Glob finds this process's temporary")
	_, err = f.WriteString("new")
	require.NoError(t, err)
	f.Abort()
	f.Abort() // twice is harmless
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "old", string(got))
	matches, _ = filepath.Glob(Glob(path))
	assert.Empty(t, matches)
	assert.Error(t, f.Commit(), "no commit after abort")
}

// deadPID returns the PID of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())
	pid := cmd.Process.Pid
	if processAlive(pid) {
		t.Skip("the PID was taken again at once")
	}
	return pid
}

func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	dead := strconv.Itoa(deadPID(t))
	stale := []string{".Gap6_8.keys.tmp-" + dead + "-123", ".gapset-runs.tmp-" + dead + "-9"}
	keep := []string{
		".Gap6_8.keys.tmp-" + strconv.Itoa(os.Getpid()) + "-5", // this process's own
		".Gap6_8.keys.tmp-1-5",                                 // init is alive
		"Gap6_8.keys",                                          // an output
		".gapset-checkpoint",                                   // a checkpoint
		".notes.tmp-abc-1",                                     // not a PID
	}
	for _, n := range append(stale, keep...) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, n), nil, 0o644))
	}
	require.NoError(t, os.Remove(filepath.Join(dir, stale[1])))
	require.NoError(t, os.Mkdir(filepath.Join(dir, stale[1]), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, stale[1], "run-0"), nil, 0o644))

	var removed []string
	RemoveStale(dir, func(path string, pid int) {
		assert.Equal(t, dead, strconv.Itoa(pid))
		removed = append(removed, filepath.Base(path))
	})
	assert.ElementsMatch(t, stale, removed)
	for _, n := range keep {
		_, err := os.Lstat(filepath.Join(dir, n))
		assert.NoError(t, err, n)
	}
	for _, n := range stale {
		_, err := os.Lstat(filepath.Join(dir, n))
		assert.True(t, errors.Is(err, os.ErrNotExist), n)
	}
}

func TestMkdirTempIsFoundByDirGlobAndOwner(t *testing.T) {
	dir := t.TempDir()
	d, err := MkdirTemp(dir, "gapset-runs")
	require.NoError(t, err)
	matches, _ := filepath.Glob(DirGlob(dir, "gapset-runs"))
	assert.Equal(t, []string{d}, matches)
	pid, ok := Owner(d)
	assert.True(t, ok)
	assert.Equal(t, os.Getpid(), pid)
	_, ok = Owner(filepath.Join(dir, "Gap2_8.keys"))
	assert.False(t, ok)
}

// A child that has exited but is not yet waited for is a zombie: gone for
// RemoveStale, though signal 0 still finds it.
func TestZombieIsGone(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc here")
	}
	cmd := exec.Command("true")
	require.NoError(t, cmd.Start())
	pid := cmd.Process.Pid
	deadline := time.Now().Add(10 * time.Second)
	for !zombie(pid) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	require.True(t, zombie(pid), "the child exited and was not waited for")
	assert.NoError(t, syscall.Kill(pid, 0), "signal 0 still finds a zombie")
	assert.False(t, processAlive(pid))
	assert.True(t, processAlive(os.Getpid()))
	require.NoError(t, cmd.Wait())
}

// Retire takes a directory away whole and leaves nothing beside it.
func TestRetire(t *testing.T) {
	dir := t.TempDir()
	cp := filepath.Join(dir, "gapset-checkpoint")
	require.NoError(t, os.MkdirAll(filepath.Join(cp, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(cp, "manifest.json"), []byte("{}"), 0o644))
	require.NoError(t, Retire(cp))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries)
	assert.Error(t, Retire(cp), "nothing left to retire")
	entries, _ = os.ReadDir(dir)
	assert.Empty(t, entries, "a failed retire leaves no temporary")
}
