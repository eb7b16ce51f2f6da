package cmdline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"
)

// An output that is an input, by any path that names it (the same path, a
// hard link, a symbolic link, a path through ".."), is bad input, whichever
// was named first; another file, and a file the command updates in place
// by design, pass.
func TestOutputThatIsAnInputRefused(t *testing.T) {
	dir := t.TempDir()
	keys := filepath.Join(dir, "k", "Gap0_8.keys")
	require.NoError(t, os.MkdirAll(filepath.Dir(keys), 0o755))
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	require.NoError(t, os.WriteFile(keys, []byte("keys"), 0o644))
	hard := filepath.Join(dir, "hard.keys")
	require.NoError(t, os.Link(keys, hard))
	soft := filepath.Join(dir, "soft.keys")
	require.NoError(t, os.Symlink(keys, soft))
	other := filepath.Join(dir, "other.keys")
	require.NoError(t, os.WriteFile(other, []byte("keys"), 0o644))
	dotdot := filepath.Join(dir, "sub", "..", "k", "Gap0_8.keys")

	for _, out := range []string{keys, hard, dotdot} {
		c := NewCleanup("tool", new(bytes.Buffer))
		require.NoError(t, c.reads("--keys", other, keys))
		err := c.WillWrite("--out", out)
		require.Error(t, err, out)
		assert.Equal(t, "--out "+Quote(out)+" is the same file as --keys "+Quote(keys)+": refusing to write over an input", err.Error())
		assert.Equal(t, ExitInput, ExitCode(err))
	}
	// the input through a link, the output by its own name; or the output
	// named first (--cpuprofile, before the command's flags)
	c := NewCleanup("tool", new(bytes.Buffer))
	require.NoError(t, c.reads("", soft))
	assert.EqualError(t, c.WillWrite("--out", keys), "--out "+Quote(keys)+" is the same file as the argument "+Quote(soft)+": refusing to write over an input")
	c = NewCleanup("tool", new(bytes.Buffer))
	require.NoError(t, c.WillWrite("--cpuprofile", hard))
	assert.EqualError(t, c.reads("--keys", keys), "--cpuprofile "+Quote(hard)+" is the same file as --keys "+Quote(keys)+": refusing to write over an input")
	assert.Error(t, c.NotInput("--cpuprofile", hard), "checked again before it takes its name")
	assert.NoError(t, c.NotInput("--cpuprofile", other))

	c = NewCleanup("tool", new(bytes.Buffer))
	require.NoError(t, c.reads("--keys", keys))
	require.NoError(t, c.WillWrite("--out", filepath.Join(dir, "x.gapdb")))
	require.NoError(t, c.WillUpdate("zdd", other))
	c = NewCleanup("tool", new(bytes.Buffer))
	require.NoError(t, c.reads("", keys))
	require.NoError(t, c.WillUpdate("zdd", keys), "rewritten in place by design")
	var none *Cleanup
	require.NoError(t, none.reads("--keys", keys))
	require.NoError(t, none.WillWrite("--out", keys), "nothing is compared without a Cleanup")
}

// Two outputs that name one file, existing or still to be made, are bad
// input.
func TestOutputsThatAreOneFileRefused(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
	bdd := filepath.Join(dir, "a.bdd")
	c := NewCleanup("tool", new(bytes.Buffer))
	require.NoError(t, c.WillWrite("--out", bdd))
	require.NoError(t, c.WillWrite("--map", filepath.Join(dir, "a.map")))
	err := c.WillWrite("--chart", filepath.Join(dir, "sub", "..", "a.bdd"))
	assert.EqualError(t, err, "--out "+Quote(bdd)+" and --chart "+Quote(filepath.Join(dir, "sub", "..", "a.bdd"))+" name the same file")
	assert.EqualError(t, c.WillWrite("--out-dir", filepath.Join(dir, "b"), filepath.Join(dir, "b")), "--out-dir names "+Quote(filepath.Join(dir, "b"))+" and "+Quote(filepath.Join(dir, "b"))+", one file")
	require.NoError(t, os.WriteFile(bdd, nil, 0o644))
	link := filepath.Join(dir, "hard.bdd")
	require.NoError(t, os.Link(bdd, link))
	c = NewCleanup("tool", new(bytes.Buffer))
	require.NoError(t, c.WillWrite("--out", bdd))
	assert.Error(t, c.WillWrite("--map", link))
}

// Through an app: the input actions tell the Cleanup Prepare gave it, and
// the command's WillWrite refuses its input with exit 2, before any work.
func TestPrepareComparesInputsAndOutputs(t *testing.T) {
	dir := t.TempDir()
	keys := filepath.Join(dir, "k.keys")
	require.NoError(t, os.WriteFile(keys, []byte("keys"), 0o644))
	var out bytes.Buffer
	worked := false
	app := &cli.App{Name: "tool", Writer: &out, ErrWriter: &out, HideHelpCommand: true, Commands: []*cli.Command{
		{Name: "gapdb", Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "keys", Action: InputsFlag("--keys")},
			&cli.StringFlag{Name: "order", Action: AtInputFlag("--order")},
			&cli.StringFlag{Name: "out"},
		}, Action: func(ctx *cli.Context) error {
			if err := cleanupOf(ctx).WillWrite("--out", ctx.String("out")); err != nil {
				return err
			}
			worked = true
			return nil
		}},
	}}
	c := NewCleanup("tool", &out)
	Prepare(app, c)
	code := Run(context.Background(), app, []string{"tool", "gapdb", "--keys", keys, "--out", filepath.Join(dir, ".", "k.keys")}, &out)
	assert.Equal(t, ExitInput, code, out.String())
	assert.False(t, worked)
	assert.Equal(t, "tool: --out "+Quote(filepath.Join(dir, "k.keys"))+" is the same file as --keys "+Quote(keys)+": refusing to write over an input\n", out.String())

	out.Reset()
	app.Metadata = nil
	Prepare(app, NewCleanup("tool", &out))
	code = Run(context.Background(), app, []string{"tool", "gapdb", "--order", "@" + keys, "--out", keys}, &out)
	assert.Equal(t, ExitInput, code, out.String())
	assert.Contains(t, out.String(), "is the same file as --order")

	out.Reset()
	app.Metadata = nil
	Prepare(app, NewCleanup("tool", &out))
	code = Run(context.Background(), app, []string{"tool", "gapdb", "--keys", keys, "--out", filepath.Join(dir, "x.gapdb")}, &out)
	assert.Equal(t, 0, code, out.String())
	assert.True(t, worked)
}
