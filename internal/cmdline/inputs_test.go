package cmdline

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/gapset/gapset/internal/infile"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inputTree makes, in a temporary directory: a file, a directory, a
// symbolic link loop and a FIFO.
func inputTree(t *testing.T) (file, dir, loop, fifo string) {
	t.Helper()
	root := t.TempDir()
	file, dir, loop, fifo = filepath.Join(root, "file"), filepath.Join(root, "dir"), filepath.Join(root, "loop"), filepath.Join(root, "fifo")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	require.NoError(t, os.Mkdir(dir, 0o755))
	require.NoError(t, os.Symlink(loop+"2", loop))
	require.NoError(t, os.Symlink(loop, loop+"2"))
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	return file, dir, loop, fifo
}

// An input path that cannot be read is bad input, its line naming the
// flag, the path and the system's reason; a file passes.
func TestCheckInput(t *testing.T) {
	file, dir, loop, _ := inputTree(t)
	require.NoError(t, CheckInput("--keys", file))
	require.NoError(t, CheckInput("--keys"))
	require.NoError(t, checkInput("--pdb", dir, true))
	cases := []struct {
		dir    bool
		path   string
		reason syscall.Errno
	}{
		{false, loop, syscall.ELOOP},
		{false, dir, syscall.EISDIR},
		{false, filepath.Join(dir, "missing"), syscall.ENOENT},
		{false, filepath.Join(file, "x"), syscall.ENOTDIR},
		{true, loop, syscall.ELOOP},
		{true, file, syscall.ENOTDIR},
		{true, filepath.Join(dir, "missing"), syscall.ENOENT},
		{true, filepath.Join(file, "x"), syscall.ENOTDIR},
	}
	for _, c := range cases {
		var err error
		if c.dir {
			err = checkInput("--pdb", c.path, true)
		} else {
			err = CheckInput("--keys", file, c.path)
		}
		require.Error(t, err, c.path)
		flag := map[bool]string{false: "--keys", true: "--pdb"}[c.dir]
		assert.Equal(t, flag+": cannot read "+Quote(c.path)+": "+c.reason.Error(), err.Error())
		assert.Equal(t, ExitInput, ExitCode(err))
		assert.ErrorIs(t, err, c.reason)
	}
	err := CheckInput("", filepath.Join(dir, "missing"))
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.Equal(t, "cannot read "+Quote(filepath.Join(dir, "missing"))+": "+syscall.ENOENT.Error(), err.Error())
}

// The actions of flags: "-" passes --input (stdin), a plain value an
// option taking @FILE, a missing directory the pattern database flag (its
// reader explains how to build it); anything else is checked.
func TestInputActions(t *testing.T) {
	file, dir, loop, _ := inputTree(t)
	missing := filepath.Join(dir, "missing")
	require.NoError(t, InputFlag("--input")(nil, "-"))
	require.NoError(t, InputFlag("--input")(nil, file))
	assert.ErrorIs(t, InputFlag("--input")(nil, missing), fs.ErrNotExist)
	require.NoError(t, InputsFlag("--keys")(nil, []string{file, file}))
	assert.ErrorIs(t, InputsFlag("--keys")(nil, []string{file, dir}), syscall.EISDIR)
	require.NoError(t, AtInputFlag("--order")(nil, "reverse"))
	require.NoError(t, AtInputFlag("--order")(nil, "@"+file))
	err := AtInputFlag("--order")(nil, "@"+loop)
	assert.Equal(t, "--order: cannot read "+Quote(loop)+": "+syscall.ELOOP.Error(), err.Error())
	require.NoError(t, InputDirFlag("--pdb")(nil, dir))
	require.NoError(t, InputDirFlag("--pdb")(nil, missing))
	assert.ErrorIs(t, InputDirFlag("--pdb")(nil, file), syscall.ENOTDIR)
	assert.ErrorIs(t, InputDirFlag("--pdb")(nil, loop), syscall.ELOOP)
}

// A file without read permission is refused like the others (root reads
// it anyway: then the case is skipped).
func TestCheckInputPermission(t *testing.T) {
	p := filepath.Join(t.TempDir(), "secret")
	require.NoError(t, os.WriteFile(p, []byte("x"), 0o000))
	if f, err := os.Open(p); err == nil {
		f.Close()
		t.Skip("this user reads files without read permission (root)")
	}
	err := CheckInput("", p)
	assert.Equal(t, "cannot read "+Quote(p)+": "+syscall.EACCES.Error(), err.Error())
	assert.Equal(t, ExitInput, ExitCode(err))
}

// A FIFO (nobody writes it here: opening it would wait for ever), a socket
// or a device is refused at once, unopened, as what it is; "-" stays
// standard input where a flag takes it.
func TestCheckInputRefusesSpecialFiles(t *testing.T) {
	file, _, _, fifo := inputTree(t)
	link := filepath.Join(filepath.Dir(fifo), "to-fifo")
	require.NoError(t, os.Symlink(fifo, link))
	cases := map[string]string{fifo: "a FIFO", link: "a FIFO"}
	if _, err := os.Stat("/dev/zero"); err == nil {
		cases["/dev/zero"] = "a character device"
	}
	for path, kind := range cases {
		done := make(chan error, 1)
		go func() { done <- AtInputFlag("--order")(nil, "@"+path) }()
		var err error
		select {
		case err = <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: still blocked after 10 s", path)
		}
		require.Error(t, err, path)
		assert.Equal(t, "--order: cannot read "+Quote(path)+": "+kind+", not a regular file", err.Error())
		assert.Equal(t, ExitInput, ExitCode(err))
		assert.ErrorIs(t, err, infile.ErrNotRegular)
		assert.Error(t, CheckInput("", file, path))
	}
	require.NoError(t, InputFlag("--input")(nil, "-"))
	assert.ErrorIs(t, InputFlag("--input")(nil, fifo), infile.ErrNotRegular)
}
