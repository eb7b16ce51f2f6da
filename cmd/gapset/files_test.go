package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keys3x3 enumerates the 3x3 Gap0 set on the last 6 cells into dir and
// returns its key file.
func keys3x3(t *testing.T, dir string) string {
	t.Helper()
	code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", "0", "--cells", "6", "--out-dir", dir)
	require.Equal(t, 0, code, errs)
	return filepath.Join(dir, "Gap0_6.keys")
}

// The reproduction of issue 54.1: a directory that is only named like a
// temporary of a process that is gone stays whole, and the run says so in
// one line.
func TestSweepLeavesWhatItDidNotMake(t *testing.T) {
	dir := t.TempDir()
	keys := keys3x3(t, filepath.Join(dir, "k"))
	o := filepath.Join(dir, "o")
	important := filepath.Join(o, ".important.tmp-999999-1")
	require.NoError(t, os.MkdirAll(important, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(important, "c"), []byte("x\n"), 0o644))
	code, _, errs := runCmd(t, "", "gapdb", "-q", "--keys", keys, "--out", filepath.Join(o, "x.gapdb"))
	require.Equal(t, 0, code, errs)
	b, err := os.ReadFile(filepath.Join(important, "c"))
	require.NoError(t, err, "the directory is left whole")
	assert.Equal(t, "x\n", string(b))
	assert.Equal(t, "gapset: left "+important+" in place: named like a temporary, but it holds no marker of a gapset writer; remove it by hand if nothing uses it\n", errs)
	assert.FileExists(t, filepath.Join(o, "x.gapdb"))
}

// A run in another PID namespace cannot see the writers of this one: it
// leaves the scratch of a live writer here alone, and says why (issue
// 54.1: it deleted a live enumeration's scratch).
func TestSweepFromAnotherPIDNamespace(t *testing.T) {
	if testing.Short() || runtime.GOOS != "linux" {
		t.Skip("builds the binary and runs it in a new PID namespace")
	}
	ns := []string{"--user", "--map-root-user", "--pid", "--fork", "--mount-proc"}
	if err := exec.Command("unshare", append(ns, "true")...).Run(); err != nil {
		t.Skipf("no unshare into a new user and PID namespace here: %v", err)
	}
	bin := gapsetBinary(t)
	dir := t.TempDir()
	keys := keys3x3(t, filepath.Join(dir, "k"))
	shared := filepath.Join(dir, "shared")
	require.NoError(t, os.Mkdir(shared, 0o755))
	// this test's process: a live writer of the parent namespace
	live, err := atomicfile.MkdirTemp(shared, "gapset-runs")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(live, "run-0"), []byte("keys"), 0o644))
	out, err := exec.Command("unshare", append(ns, bin, "gapdb", "-q", "--keys", keys, "--out", filepath.Join(shared, "y.gapdb"))...).CombinedOutput()
	require.NoError(t, err, string(out))
	assert.FileExists(t, filepath.Join(live, "run-0"), "the live writer's scratch stays")
	assert.Contains(t, string(out), "gapset: left "+live+" in place: named like a temporary, but its writer ran in another PID namespace")
	assert.FileExists(t, filepath.Join(shared, "y.gapdb"))
}

// An output that is one of the command's inputs, by any path (the same,
// through "..", a hard link, a symbolic link), is refused with exit 2 and
// one line before any work, in every command that reads and writes files;
// the input is untouched (issue 54.2).
func TestOutputOverItsInputRefused(t *testing.T) {
	dir := t.TempDir()
	keys := keys3x3(t, filepath.Join(dir, "k"))
	before, err := os.ReadFile(keys)
	require.NoError(t, err)
	hard := filepath.Join(dir, "hard.keys")
	require.NoError(t, os.Link(keys, hard))
	soft := filepath.Join(dir, "soft.keys")
	require.NoError(t, os.Symlink(keys, soft))
	dotdot := filepath.Join(dir, "k", "..", "k", "Gap0_6.keys")
	bdd := filepath.Join(dir, "g.bdd")
	code, _, errs := runCmd(t, "", "build", "-q", "--keys", keys, "--out", bdd)
	require.Equal(t, 0, code, errs)
	order := filepath.Join(dir, "g.order")
	code, _, errs = runCmd(t, "", "order", "-q", "--keys", keys, "--budget", "1s", "--out", order)
	require.Equal(t, 0, code, errs)
	boards := filepath.Join(dir, "b", "results.csv")
	require.NoError(t, os.MkdirAll(filepath.Dir(boards), 0o755))
	require.NoError(t, os.WriteFile(boards, []byte(boards3x3), 0o644))

	s33 := []string{"--rows", "3", "--cols", "3"}
	for _, c := range []struct {
		args []string
		out  string // the output named in the line
	}{
		{[]string{"gapdb", "-q", "--keys", keys, "--out", keys}, keys},
		{[]string{"gapdb", "-q", "--keys", soft, "--out", dotdot}, dotdot},
		{[]string{"build", "-q", "--keys", keys, "--out", keys}, keys},
		{[]string{"build", "-q", "--keys", keys, "--out", hard, "--out-of-core"}, hard},
		{[]string{"build", "-q", "--keys", keys, "--out", filepath.Join(dir, "n.bdd"), "--map", hard}, hard},
		{[]string{"build", "-q", "--keys", keys, "--order", "@" + order, "--out", order}, order},
		{[]string{"order", "-q", "--keys", keys, "--budget", "1s", "--out", keys}, keys},
		{[]string{"order", "-q", "--bdd", bdd, "--budget", "1s", "--out", order, "--save", bdd}, bdd},
		{[]string{"report", bdd, "--chart", bdd}, bdd},
		{append([]string{"bench", "-q", "-i", boards, "-H", "md", "--out", filepath.Dir(boards)}, s33...), boards},
		{append([]string{"--cpuprofile", keys, "solve", "-q", "-H", "gap0:6", "--keys", hard, "1 2 3 4 5 6 7 0 8"}, s33...), keys},
	} {
		code, stdout, errs := runCmd(t, "", c.args...)
		assert.Equal(t, 2, code, "%v: %s", c.args, errs)
		assert.Empty(t, stdout, "%v", c.args)
		assert.Equal(t, 1, strings.Count(errs, "\n"), "%v: one line: %s", c.args, errs)
		assert.Contains(t, errs, cmdline.Quote(c.out)+" is the same file as ", "%v", c.args)
		assert.Contains(t, errs, ": refusing to write over an input\n", "%v", c.args)
		after, err := os.ReadFile(keys)
		require.NoError(t, err)
		require.Equal(t, before, after, "%v: the key file is untouched", c.args)
	}
	b, err := os.ReadFile(boards)
	require.NoError(t, err)
	assert.Equal(t, boards3x3, string(b))
	// zdd rewrites its files in place by design
	code, _, errs = runCmd(t, "", "zdd", "-q", bdd)
	assert.Equal(t, 0, code, errs)
}

// A FIFO that nobody writes is refused at once, where each of these
// commands read a file whole or maps it (issue 54.6: they waited for a
// writer for ever); standard input stays "-".
func TestFIFOInputsRefused(t *testing.T) {
	dir := t.TempDir()
	keys := keys3x3(t, dir)
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	s33 := []string{"--rows", "3", "--cols", "3"}
	for _, c := range []struct {
		flag string
		args []string
	}{
		{"--gapdb", append([]string{"solve", "-q", "-H", "gap0:6", "--gapdb", fifo, "1 2 3 4 5 6 7 0 8"}, s33...)},
		{"--keys", []string{"gapdb", "-q", "--keys", fifo, "--out", filepath.Join(dir, "x.gapdb")}},
		{"--order", []string{"build", "-q", "--keys", keys, "--order", "@" + fifo, "--out", filepath.Join(dir, "x.bdd")}},
		{"--input", append([]string{"solve", "-q", "-i", fifo}, s33...)},
	} {
		type result struct {
			code      int
			out, errs string
		}
		done := make(chan result, 1)
		go func() {
			code, out, errs := runCmd(t, "", c.args...)
			done <- result{code, out, errs}
		}()
		var r result
		select {
		case r = <-done:
		case <-time.After(20 * time.Second):
			// let the reader go before failing: open the FIFO's other end
			if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
			<-done
			t.Fatalf("%v: still waiting for a writer after 20 s", c.args)
		}
		assert.Equal(t, 2, r.code, "%v: %s", c.args, r.errs)
		assert.Empty(t, r.out)
		assert.Equal(t, "gapset: "+c.flag+": cannot read "+cmdline.Quote(fifo)+": a FIFO, not a regular file\n", r.errs)
	}
	code, out, errs := runCmd(t, boards3x3, append([]string{"solve", "-q", "-i", "-", "--format", "csv"}, s33...)...)
	require.Equal(t, 0, code, errs)
	assert.Equal(t, 4, strings.Count(out, "\n"), "stdin still reads: a header and three boards")
}

// An order file is read within what one holds (issue 54.3: a 20 MB file
// took 774 MB before it was refused; /dev/zero, refused as a device, is in
// internal/cmdline's tests, where no regression can read it).
func TestOrderFileBounded(t *testing.T) {
	dir := t.TempDir()
	keys := keys3x3(t, dir)
	big := filepath.Join(dir, "big.order")
	require.NoError(t, os.WriteFile(big, []byte(strings.Repeat("# padding\n", 100<<10)), 0o644))
	code, _, errs := runCmd(t, "", "build", "-q", "--keys", keys, "--order", "@"+big, "--out", filepath.Join(dir, "x.bdd"))
	assert.Equal(t, 2, code)
	assert.Equal(t, "gapset: "+big+": too big for an order file (more than 64 KiB)\n", errs)
}
