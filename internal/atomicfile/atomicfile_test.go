package atomicfile

import (
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gapset/gapset/internal/sysprobe"

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
	require.Equal(t, []string{filepath.Dir(f.Name())}, matches, "Glob finds this process's temporary")
	assert.True(t, Mine(matches[0]))
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
	if Alive(pid) {
		t.Skip("the PID was taken again at once")
	}
	return pid
}

// linux skips a test of the markers' proof, which needs /proc.
func linux(t *testing.T) sysprobe.Identity {
	t.Helper()
	me, ok := sysprobe.Self()
	if !ok {
		t.Skip("no /proc of this PID namespace here: nothing proves a writer gone")
	}
	return me
}

// temp makes, in dir, a temporary of name as process id would have made
// it: a scratch directory named for its PID holding its marker and a file.
func temp(t *testing.T, dir, name string, id sysprobe.Identity) string {
	t.Helper()
	path := filepath.Join(dir, "."+name+".tmp-"+strconv.Itoa(id.PID)+"-1")
	require.NoError(t, os.Mkdir(path, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(path, markerName), []byte(writer{id, true}.String()), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(path, name), []byte("data"), 0o644))
	return path
}

// The sweep removes a temporary only when its marker proves it gapset's
// and its writer gone (no such process, the PID given again, a zombie);
// it leaves, naming why, what is only named like one (the reproduction of
// issue 54: a user's directory .important.tmp-999999-1) and what a writer
// it cannot see made (another PID namespace, another boot or machine);
// this process's own and a live writer's stay without a word.
func TestRemoveStaleNeedsProof(t *testing.T) {
	me := linux(t)
	dir := t.TempDir()
	dead := deadPID(t)
	sleeper := exec.Command("sleep", "60")
	require.NoError(t, sleeper.Start())
	t.Cleanup(func() { sleeper.Process.Kill(); sleeper.Wait() })
	running, err := sysprobe.Process(sleeper.Process.Pid)
	require.NoError(t, err)
	zombie := exec.Command("true")
	require.NoError(t, zombie.Start())
	t.Cleanup(func() { zombie.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if p, err := sysprobe.Process(zombie.Process.Pid); err != nil || p.Exited() || time.Now().After(deadline) {
			break
		}
	}
	zp, err := sysprobe.Process(zombie.Process.Pid)
	require.NoError(t, err)
	require.True(t, zp.Exited(), "a zombie until waited for")

	at := func(pid int, start uint64) sysprobe.Identity {
		return sysprobe.Identity{Boot: me.Boot, PIDNS: me.PIDNS, PID: pid, Start: start}
	}
	stale := []string{
		temp(t, dir, "a.keys", at(dead, 1)),                              // no such process
		temp(t, dir, "b.keys", at(sleeper.Process.Pid, running.Start+1)), // the PID given again
		temp(t, dir, "c.keys", at(zombie.Process.Pid, zp.Start)),         // a zombie
		temp(t, dir, "d.keys", at(me.PID, me.Start+1)),                   // an earlier process with this PID
	}
	other := at(dead, 1)
	other.PIDNS = "0:1"
	reboot := at(dead, 1)
	reboot.Boot = "00000000-0000-0000-0000-000000000000"
	doubtful := map[string]string{
		temp(t, dir, "e.keys", other):  "its writer ran in another PID namespace",
		temp(t, dir, "f.keys", reboot): "its writer ran on another machine or before this machine's last start",
	}
	important := filepath.Join(dir, ".important.tmp-999999-1")
	require.NoError(t, os.Mkdir(important, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(important, "c"), []byte("x\n"), 0o644))
	doubtful[important] = "it holds no marker of a gapset writer"
	plain := filepath.Join(dir, ".g.keys.tmp-"+strconv.Itoa(dead)+"-2") // a file: no marker
	require.NoError(t, os.WriteFile(plain, nil, 0o644))
	doubtful[plain] = "it holds no marker of a gapset writer"
	link := filepath.Join(dir, ".h.keys.tmp-"+strconv.Itoa(dead)+"-3") // a link to a marked directory
	require.NoError(t, os.Symlink(stale[0], link))
	doubtful[link] = "it holds no marker of a gapset writer"
	renamed := filepath.Join(dir, ".i.keys.tmp-"+strconv.Itoa(dead+1)+"-4")
	require.NoError(t, os.Rename(temp(t, dir, "i.keys", at(dead, 1)), renamed))
	doubtful[renamed] = "its marker names another process than its name"

	own, err := MkdirTemp(dir, "gapset-runs")
	require.NoError(t, err)
	keep := []string{
		own,
		temp(t, dir, "j.keys", at(sleeper.Process.Pid, running.Start)), // a live writer
		filepath.Join(dir, "Gap6_8.keys"),                              // an output
	}
	require.NoError(t, os.WriteFile(keep[2], nil, 0o644))

	removed, left := RemoveStale(dir)
	var gone []string
	for _, r := range removed {
		gone = append(gone, r.Path)
	}
	assert.ElementsMatch(t, stale, gone)
	why := map[string]string{}
	for _, l := range left {
		why[l.Path] = l.Why
	}
	assert.Equal(t, doubtful, why)
	for _, p := range stale {
		assert.NoFileExists(t, p)
		assert.NoDirExists(t, p)
	}
	for p := range doubtful {
		_, err := os.Lstat(p)
		assert.NoError(t, err, "%s stays", p)
	}
	for _, p := range keep {
		_, err := os.Lstat(p)
		assert.NoError(t, err, "%s stays", p)
	}
	b, err := os.ReadFile(filepath.Join(important, "c"))
	require.NoError(t, err)
	assert.Equal(t, "x\n", string(b), "the user's directory is whole")
}

// A marker is this process's when it names this process, and a damaged
// or foreign one is no proof.
func TestMarkers(t *testing.T) {
	me := linux(t)
	dir := t.TempDir()
	own, err := MkdirTemp(dir, "gapset-runs")
	require.NoError(t, err)
	assert.True(t, Mine(own))
	w, err := readMarker(own)
	require.NoError(t, err)
	assert.Equal(t, writer{me, true}, w)
	matches, _ := filepath.Glob(DirGlob(dir, "gapset-runs"))
	assert.Equal(t, []string{own}, matches)

	other := me
	other.Start++
	assert.False(t, Mine(temp(t, dir, "x", other)))
	for name, body := range map[string]string{
		"empty":      "",
		"head only":  markerHead + "\n",
		"other head": "gapset temporary\npid 1\n",
		"bad pid":    markerHead + "\npid -1\n",
		"pid twice":  markerHead + "\npid 1\npid 1\n",
		"no start":   markerHead + "\nboot b\npidns n\npid 1\n",
		"bad start":  markerHead + "\nboot b\npidns n\npid 1\nstart x\n",
		"unknown":    markerHead + "\nboot b\npidns n\npid 1\nuser 0\n",
		"too long":   markerHead + "\npid 1\n" + strings.Repeat("#", 2000),
	} {
		d := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		require.NoError(t, os.Mkdir(d, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(d, markerName), []byte(body), 0o644))
		_, err := readMarker(d)
		assert.ErrorIs(t, err, errNoMarker, name)
	}
	d := filepath.Join(dir, "no-identity")
	require.NoError(t, os.Mkdir(d, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(d, markerName), []byte(markerHead+"\npid 7\n"), 0o644))
	w, err = readMarker(d)
	require.NoError(t, err)
	assert.Equal(t, writer{sysprobe.Identity{PID: 7}, false}, w)
	v, why := judge(d, 7, writer{me, true})
	assert.Equal(t, doubted, v)
	assert.Equal(t, "this system does not tell whether its writer is gone", why)
}

// A killed child is a zombie until waited for: gone for Alive, though
// signal 0 still finds it.
func TestZombieIsGone(t *testing.T) {
	linux(t)
	cmd := exec.Command("true")
	require.NoError(t, cmd.Start())
	pid := cmd.Process.Pid
	deadline := time.Now().Add(10 * time.Second)
	for Alive(pid) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	assert.False(t, Alive(pid))
	assert.NoError(t, syscall.Kill(pid, 0), "signal 0 still finds a zombie")
	assert.True(t, Alive(os.Getpid()))
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

// writerEnv makes the test binary a writer that leaves a temporary file
// and a scratch directory in the directory it names, then waits to be
// killed (TestKilledWritersTemporariesRemoved).
const writerEnv = "ATOMICFILE_TEST_WRITER_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(writerEnv); dir != "" {
		f, err := Create(filepath.Join(dir, "out.keys"))
		if err == nil {
			_, err = MkdirTemp(dir, "gapset-runs")
		}
		if err != nil {
			os.Exit(1)
		}
		os.Stdout.WriteString("ready\n")
		time.Sleep(time.Minute)
		f.Abort()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// The temporaries of a real writer stay while it runs and go once it is
// killed; the target is never touched.
func TestKilledWritersTemporariesRemoved(t *testing.T) {
	linux(t)
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), writerEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	buf := make([]byte, 6)
	_, err = io.ReadFull(out, buf)
	require.NoError(t, err)
	require.Equal(t, "ready\n", string(buf))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 2, "a file's temporary and a scratch directory")

	removed, left := RemoveStale(dir)
	assert.Empty(t, removed, "the writer runs")
	assert.Empty(t, left)
	require.NoError(t, cmd.Process.Kill())
	cmd.Wait()
	removed, left = RemoveStale(dir)
	assert.Len(t, removed, 2)
	for _, r := range removed {
		assert.Equal(t, cmd.Process.Pid, r.PID)
	}
	assert.Empty(t, left)
	entries, _ = os.ReadDir(dir)
	assert.Empty(t, entries)
}
