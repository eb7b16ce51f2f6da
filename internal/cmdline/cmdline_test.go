package cmdline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/infile"
	"github.com/gapset/gapset/internal/sysprobe"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"
)

var errLimit = errors.New("node limit")

// testApp has a command with a value flag, a boolean, a required flag and
// a subcommand, like the real one.
func testApp(stdout *bytes.Buffer, got *[]string) *cli.App {
	record := func(c *cli.Context) error {
		*got = append(c.FlagNames(), c.Args().Slice()...)
		switch c.Args().First() {
		case "bad":
			return BadInputf("bad board")
		case "limit":
			return fmt.Errorf("board 1: %w", errLimit)
		case "fail":
			return errors.New("disk on fire")
		}
		return nil
	}
	app := &cli.App{
		Name: "tool", Writer: stdout, ErrWriter: stdout, HideHelpCommand: true,
		Commands: []*cli.Command{
			{Name: "solve", Action: record, Flags: []cli.Flag{
				&cli.StringFlag{Name: "format", Aliases: []string{"f"}},
				&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}},
			}},
			{Name: "write", Action: record, Description: "Writes.", Flags: []cli.Flag{
				&cli.StringFlag{Name: "out", Required: true},
			}},
			{Name: "pdb", Subcommands: []*cli.Command{
				{Name: "build", Action: record, Flags: []cli.Flag{&cli.StringFlag{Name: "out"}}},
			}},
		},
	}
	Prepare(app, nil)
	return app
}

func TestReorder(t *testing.T) {
	app := testApp(nil, nil)
	for _, c := range []struct{ in, want string }{
		{"tool solve B -q", "tool solve -q B"},
		{"tool solve B -f json C", "tool solve -f json B C"},
		{"tool solve B --format=json", "tool solve --format=json B"},
		{"tool solve B -- -f json", "tool solve -- B -f json"},
		{"tool solve B -q --", "tool solve -q -- B"},
		{"tool pdb build x --out d", "tool pdb build --out d x"},
		{"tool solve B --format", "tool solve --format B"},
	} {
		got, _, unknown := Reorder(app, strings.Fields(c.in))
		assert.Empty(t, unknown, c.in)
		assert.Equal(t, c.want, strings.Join(got, " "), c.in)
	}
	_, path, unknown := Reorder(app, []string{"tool", "-q", "bogus", "x"})
	assert.Equal(t, "bogus", unknown)
	assert.Empty(t, path)
	_, path, _ = Reorder(app, []string{"tool", "pdb", "build"})
	assert.Equal(t, []string{"pdb", "build"}, path)
}

// Run keeps the contract: statuses, one line on stderr, flags anywhere.
func TestRun(t *testing.T) {
	for _, c := range []struct {
		args string
		code int
		err  string
	}{
		{"solve B -q", 0, ""},
		{"solve bad", ExitInput, "tool: bad board\n"},
		{"solve limit", ExitLimit, "tool: board 1: node limit\n"},
		{"solve fail", ExitFailure, "tool: disk on fire\n"},
		{"bogus", ExitInput, "tool: unknown command \"bogus\" (tool --help lists the commands)\n"},
		{"pdb bogus", ExitInput, "tool: unknown command \"bogus\" (tool pdb --help lists the commands)\n"},
		{"solve --nope", ExitInput, "tool: flag provided but not defined: -nope (tool solve --help lists the flags)\n"},
		{"write x", ExitInput, "tool: --out is required (tool write --help lists the flags)\n"},
		{"write x --out o", 0, ""},
	} {
		var out, errb bytes.Buffer
		var got []string
		code := Run(context.Background(), testApp(&out, &got), append([]string{"tool"}, strings.Fields(c.args)...), &errb, errLimit)
		assert.Equal(t, c.code, code, c.args)
		assert.Equal(t, c.err, errb.String(), c.args)
	}
	var out bytes.Buffer
	app := testApp(&out, nil)
	require.Equal(t, 0, Run(context.Background(), app, []string{"tool", "write", "--help"}, &out))
	assert.Contains(t, out.String(), "Writes.\n   "+strings.ReplaceAll(ExitHelp, "\n", "\n   "), "every command's help states the contract")
	// once the context is cancelled the interrupt handler reports, not Run
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var errb bytes.Buffer
	assert.Equal(t, ExitInterrupted, Run(ctx, testApp(&out, new([]string)), []string{"tool", "solve", "fail"}, &errb))
	assert.Empty(t, errb.String())
}

// "help [COMMAND...]" prints what "[COMMAND...] --help" prints, at any
// level; a topic that is no command is an unknown command.
func TestHelpCommand(t *testing.T) {
	runHelp := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := Run(context.Background(), testApp(&out, new([]string)), append([]string{"tool"}, args...), &errb)
		return code, out.String(), errb.String()
	}
	for _, c := range []struct{ help, flag string }{
		{"help", "--help"},
		{"help write", "write --help"},
		{"help pdb", "pdb --help"},
		{"help pdb build", "pdb build --help"},
		{"pdb help build", "pdb build --help"},
	} {
		code, out, errs := runHelp(strings.Fields(c.help)...)
		assert.Equal(t, 0, code, "%s: %s", c.help, errs)
		assert.Empty(t, errs, c.help)
		_, want, _ := runHelp(strings.Fields(c.flag)...)
		assert.Contains(t, want, "USAGE:", c.flag)
		assert.Equal(t, want, out, "%s prints what %s prints", c.help, c.flag)
	}
	code, out, errs := runHelp("help", "bogus")
	assert.Equal(t, ExitInput, code)
	assert.Empty(t, out)
	assert.Equal(t, "tool: unknown command \"bogus\" (tool --help lists the commands)\n", errs)
	code, _, errs = runHelp("help", "pdb", "bogus")
	assert.Equal(t, ExitInput, code)
	assert.Equal(t, "tool: unknown command \"bogus\" (tool pdb --help lists the commands)\n", errs)
}

func TestExitCode(t *testing.T) {
	assert.Equal(t, ExitFailure, ExitCode(errors.New("x")))
	assert.Equal(t, ExitInput, ExitCode(fmt.Errorf("wrapped: %w", BadInput(errors.New("x")))))
	assert.Equal(t, ExitLimit, ExitCode(LimitError{Err: errors.New("x")}))
	assert.Equal(t, ExitLimit, ExitCode(BadInput(fmt.Errorf("a %w", errLimit)), errLimit), "a limit wins over bad input")
	assert.NoError(t, BadInput(nil))
	assert.NoError(t, InputIf(nil, os.ErrNotExist))
	missing := fmt.Errorf("open x: %w", os.ErrNotExist)
	assert.Equal(t, ExitInput, ExitCode(InputIf(missing, errLimit, os.ErrNotExist)))
	assert.Equal(t, ExitFailure, ExitCode(InputIf(missing, errLimit)))
	assert.Equal(t, missing.Error(), InputIf(missing, os.ErrNotExist).Error())
	// a file read whole or mapped that is special or too big, wherever found
	_, err := infile.ReadAll(t.TempDir(), "a test file", 10)
	assert.Equal(t, ExitInput, ExitCode(fmt.Errorf("loading: %w", err)), err.Error())
	big := filepath.Join(t.TempDir(), "big")
	require.NoError(t, os.WriteFile(big, make([]byte, 11), 0o644))
	_, err = infile.ReadAll(big, "a test file", 10)
	assert.Equal(t, ExitInput, ExitCode(err), err.Error())
}

func TestQuoteAndChecks(t *testing.T) {
	assert.Equal(t, `"a b"`, Quote("a b"))
	long := strings.Repeat("x", 100)
	assert.Equal(t, `"`+long[:60]+`"... (100 bytes)`, Quote(long))
	assert.Equal(t, "abc", Truncate("abc", 5))
	assert.Equal(t, "ab... (3 bytes)", Truncate("abc", 2))
	assert.NoError(t, CheckFormat("csv", "text", "csv"))
	assert.EqualError(t, CheckFormat("xml", "text", "csv"), `unknown --format "xml" (choose text, csv)`)
	assert.NoError(t, InRange("--jobs", 3, 1, 256))
	assert.EqualError(t, InRange("--jobs", 0, 1, 256), "--jobs 0: want 1..256")

	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	assert.NoError(t, CheckOutFile("--out", filepath.Join(dir, "new")))
	assert.ErrorContains(t, CheckOutFile("--out", dir), "is a directory, not a file")
	assert.ErrorContains(t, CheckOutFile("--out", filepath.Join(dir, "missing", "x")), "does not exist")
	assert.ErrorContains(t, CheckOutFile("--out", ""), "--out FILE is required")
	assert.NoError(t, CheckOutDir("--out", filepath.Join(dir, "a", "b")), "made later")
	assert.ErrorContains(t, CheckOutDir("--out", filepath.Join(file, "x")), "is a file, not a directory")
	assert.NoError(t, CheckFreeDisk("--out", filepath.Join(dir, "a"), 1))
	assert.ErrorContains(t, CheckFreeDisk("--out", dir, 1<<62), "MiB free, the output needs about")
	// a directory still to be made is measured on its parent, named as given
	assert.ErrorContains(t, CheckFreeDisk("--out", filepath.Join(dir, "a", "b"), 1<<62), Quote(filepath.Join(dir, "a", "b")))
	for _, err := range []error{CheckOutFile("--out", dir), CheckFreeDisk("--out", dir, 1<<62)} {
		assert.Equal(t, ExitInput, ExitCode(err))
	}
}

// writerEnv makes the test binary a writer that leaves a temporary of
// y.keys in the directory it names, then waits to be killed.
const writerEnv = "CMDLINE_TEST_WRITER_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(writerEnv); dir != "" {
		if _, err := atomicfile.Create(filepath.Join(dir, "y.keys")); err != nil {
			os.Exit(1)
		}
		os.Stdout.WriteString("ready\n")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// killedWriter leaves the temporary of dir/y.keys of a writer killed with
// SIGKILL, and returns its PID.
func killedWriter(t *testing.T, dir string) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), writerEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	buf := make([]byte, 6)
	_, err = io.ReadFull(out, buf)
	require.NoError(t, err)
	require.NoError(t, cmd.Process.Kill())
	cmd.Wait()
	return cmd.Process.Pid
}

// The interrupt handler removes this process's temporaries beside
// registered outputs and its registered scratch, and nothing else; the
// temporaries of a writer proven gone go when their directory is
// registered, a line each, and what is only named like a temporary stays
// with one line for all.
func TestCleanupRemovesTemporaries(t *testing.T) {
	if _, ok := sysprobe.Self(); !ok {
		t.Skip("no /proc of this PID namespace here: nothing proves a writer gone")
	}
	dir := t.TempDir()
	dead := killedWriter(t, dir)
	stale, _ := filepath.Glob(filepath.Join(dir, ".y.keys.tmp-*"))
	require.Len(t, stale, 1)
	var msgs bytes.Buffer
	c := NewCleanup("tool", &msgs)
	pid := strconv.Itoa(os.Getpid())
	var temps []string
	for _, out := range []string{"x.bdd", "g.pdb"} {
		f, err := atomicfile.Create(filepath.Join(dir, out))
		require.NoError(t, err)
		defer f.Close()
		temps = append(temps, filepath.Base(filepath.Dir(f.Name())))
	}
	runs, err := atomicfile.MkdirTemp(dir, "gapset-runs")
	require.NoError(t, err)
	temps = append(temps, filepath.Base(runs))
	// named like this process's temporaries, or a dead one's, but not
	// marked as made by either
	keep := []string{"x.bdd", ".x.bdd.tmp-" + pid + "-5", ".other.tmp-" + pid + "-1", ".x.bdd.tmp-1-5", ".gapset-checkpoint", ".y.keys.tmp-" + strconv.Itoa(dead) + "-7"}
	for _, n := range keep {
		require.NoError(t, os.WriteFile(filepath.Join(dir, n), nil, 0o644))
	}
	require.NoError(t, c.WillWrite("--out", filepath.Join(dir, "x.bdd"), filepath.Join(dir, "g.pdb")))
	c.WillScratch(dir, "gapset-runs")
	lines := strings.Split(strings.TrimSuffix(msgs.String(), "\n"), "\n")
	require.Len(t, lines, 2, msgs.String())
	assert.Equal(t, "tool: removed "+stale[0]+" left by process "+strconv.Itoa(dead)+", which is gone", lines[0])
	assert.Regexp(t, `^tool: left 4 entries of `+regexp.QuoteMeta(dir)+` named like temporaries in place, none proven stale \(\.[^/]*\.tmp-[0-9]+-[0-9]+: it holds no marker of a gapset writer\); remove them by hand if nothing uses them$`, lines[1])
	assert.Equal(t, len(temps), c.Remove())
	entries, _ := os.ReadDir(dir)
	var left []string
	for _, en := range entries {
		left = append(left, en.Name())
	}
	assert.ElementsMatch(t, keep, left)
	var none *Cleanup
	assert.NoError(t, none.WillWrite("--out", filepath.Join(dir, "x.bdd"))) // a run without a handler registers nothing
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "f"), 0o644))
	err = none.WillWrite("--out", filepath.Join(dir, "f"))
	assert.Equal(t, ExitInput, ExitCode(err), "a FIFO is refused, handler or not")
	assert.ErrorContains(t, err, "is a FIFO, not a regular file")
}

// --cpuprofile writes a profile around the command; a file that cannot be
// created is bad input.
func TestCPUProfile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cpu.prof")
	var out bytes.Buffer
	app := testApp(&out, new([]string))
	AddCPUProfile(app)
	require.Equal(t, 0, Run(context.Background(), app, []string{"tool", "--cpuprofile", path, "solve", "B"}, &out), out.String())
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Positive(t, st.Size())
	app = testApp(&out, new([]string))
	AddCPUProfile(app)
	var errb bytes.Buffer
	assert.Equal(t, ExitInput, Run(context.Background(), app, []string{"tool", "--cpuprofile", filepath.Join(dir, "no", "p"), "solve"}, &errb))
	assert.True(t, strings.HasPrefix(errb.String(), "tool: --cpuprofile: "), errb.String())
}
