package main

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/gapset/gapset/gapdb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Input the commands once took for work (exit 0, or 1 at the first board)
// is refused with exit 2 and one line before any work: more gap databases
// than a heuristic reads, a gap database whose header names other cells
// than its table's (its CRC made again), negative --checkpoint-every and
// --max-step, a --resume DIR that cannot be made.
func TestBadInputRefusedBeforeWork(t *testing.T) {
	dir := t.TempDir()
	var keys []string
	for _, g := range []string{"0", "2", "4"} {
		code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", g, "--cells", "6", "--out-dir", dir)
		require.Equal(t, 0, code, errs)
		keys = append(keys, "--keys", filepath.Join(dir, "Gap"+g+"_6.keys"))
	}
	db := filepath.Join(dir, "g.gapdb")
	code, _, errs := runCmd(t, "", append([]string{"gapdb", "-q", "--out", db}, keys...)...)
	require.Equal(t, 0, code, errs)
	raw, err := os.ReadFile(db)
	require.NoError(t, err)

	var dbs []string // 17 databases, one more than a heuristic reads
	for i := range 17 {
		p := filepath.Join(dir, "g"+strconv.Itoa(i)+".gapdb")
		require.NoError(t, os.WriteFile(p, raw, 0o644))
		dbs = append(dbs, "--gapdb", p)
	}
	// the cells 3..8 made 2..7 in the header, its CRC made again
	hl, err := gapdb.HeaderLen(raw)
	require.NoError(t, err)
	other := bytes.Clone(raw)
	for i := range 6 {
		other[16+i] = byte(2 + i)
	}
	binary.LittleEndian.PutUint32(other[hl-4:], crc32.Checksum(other[:hl-4], crc32.MakeTable(crc32.Castagnoli)))
	edited := filepath.Join(dir, "edited.gapdb")
	require.NoError(t, os.WriteFile(edited, other, 0o644))
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))

	solve := []string{"solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-H", "gap4:6"}
	for _, c := range []struct {
		args []string
		says string
	}{
		{append(solve, dbs...), "17 gap databases: at most 16"},
		{append([]string{"bench", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-H", "gap4:6", "--out", filepath.Join(dir, "bench")}, dbs...), "17 gap databases: at most 16"},
		{append(solve, "--gapdb", edited), "the header does not describe the table"},
		{[]string{"enumerate", "-q", "--rows", "2", "--cols", "3", "--checkpoint-every", "-1s", "--out-dir", filepath.Join(dir, "e1")}, "checkpoint interval -1s"},
		{[]string{"enumerate", "-q", "--rows", "2", "--cols", "3", "--max-step", "-1", "--out-dir", filepath.Join(dir, "e2")}, "max step -1"},
		{[]string{"build", "-q", keys[0], keys[1], "--resume", filepath.Join(file, "state"), "--out", filepath.Join(dir, "x.bdd")}, "--resume"},
	} {
		name := strings.Join(c.args, " ")
		code, out, errs := runCmd(t, boards3x3, c.args...)
		assert.Equal(t, 2, code, "%s: %s", name, errs)
		assert.Empty(t, out, name)
		assert.Equal(t, 1, strings.Count(errs, "\n"), "%s: %s", name, errs)
		assert.Contains(t, errs, c.says, name)
	}
	for _, p := range []string{"bench", "e1", "e2", "x.bdd"} {
		assert.NoFileExists(t, filepath.Join(dir, p))
		assert.NoDirExists(t, filepath.Join(dir, p))
	}
	// the database as it was loads and solves
	code, _, errs = runCmd(t, boards3x3, append(solve, "--gapdb", db)...)
	assert.Equal(t, 0, code, errs)
}

// build --resume DIR in a directory the user cannot write: exit 2 and one
// line before any work. Tests run as root here, whom no mode stops, so the
// binary runs as nobody.
func TestResumeDirNotWritable(t *testing.T) {
	if testing.Short() || runtime.GOOS != "linux" || os.Getuid() != 0 {
		t.Skip("needs root to run the binary as another user")
	}
	bin := gapsetBinary(t)
	require.NoError(t, os.Chmod(filepath.Dir(bin), 0o755))
	dir := t.TempDir()
	require.NoError(t, os.Chmod(filepath.Dir(dir), 0o755))
	require.NoError(t, os.Chmod(dir, 0o777))
	ro := filepath.Join(dir, "ro")
	require.NoError(t, os.Mkdir(ro, 0o755)) // not writable by nobody
	keys := filepath.Join(dir, "Gap0.keys")
	code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "2", "--cols", "3", "--out-dir", dir)
	require.Equal(t, 0, code, errs)
	cmd := exec.Command(bin, "build", "-q", "--keys", keys, "--resume", filepath.Join(ro, "state"), "--out", filepath.Join(dir, "x.bdd"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, stderr.String())
	assert.Equal(t, 2, ee.ExitCode(), stderr.String())
	assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), stderr.String())
	assert.Contains(t, stderr.String(), "not writable")
	assert.NoFileExists(t, filepath.Join(dir, "x.bdd"))
}
