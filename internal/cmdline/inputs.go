package cmdline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/gapset/gapset/internal/infile"
	"github.com/urfave/cli/v2"
)

// CheckInput refuses, before any work, an input file that cannot be read:
// missing, a directory, a symbolic link loop, a path through a file, no
// permission, or not a regular file. Every file a command reads is checked
// here (through the actions below), so one problem gets the same line and
// exit status 2 from all of them. flag names where the paths came from (""
// for arguments). The files are read whole or mapped, so a FIFO, socket or
// device (/dev/stdin, <(...)) is refused unopened: opening a FIFO waits for
// a writer, perhaps for ever, and a device may never end. Standard input
// is "-" where a flag takes it (InputFlag).
func CheckInput(flag string, paths ...string) error {
	for _, p := range paths {
		if err := checkInput(flag, p, false); err != nil {
			return err
		}
	}
	return nil
}

// The actions below check a command's inputs as its flags and arguments
// are parsed, before it runs (a flag's action runs when the flag is
// given), and tell the run's Cleanup (Prepare) about them, which refuses an
// output that is one of them (samefile.go).

// checkRead checks input files and records them with c's Cleanup.
func checkRead(c *cli.Context, flag string, paths ...string) error {
	if err := CheckInput(flag, paths...); err != nil {
		return err
	}
	return cleanupOf(c).reads(flag, paths...)
}

// InputArgs is the Before of a command whose arguments are files it reads.
func InputArgs(c *cli.Context) error { return checkRead(c, "", c.Args().Slice()...) }

// InputFlag is the action of a flag naming a file to read; "-" (stdin)
// passes.
func InputFlag(flag string) func(*cli.Context, string) error {
	return func(c *cli.Context, path string) error {
		if path == "-" {
			return nil
		}
		return checkRead(c, flag, path)
	}
}

// InputsFlag is the action of a repeatable flag naming files to read.
func InputsFlag(flag string) func(*cli.Context, []string) error {
	return func(c *cli.Context, paths []string) error { return checkRead(c, flag, paths...) }
}

// AtInputFlag is the action of a flag taking a value or @FILE: the file is
// checked.
func AtInputFlag(flag string) func(*cli.Context, string) error {
	return func(c *cli.Context, v string) error {
		if path, ok := strings.CutPrefix(v, "@"); ok {
			return checkRead(c, flag, path)
		}
		return nil
	}
}

// InputDirFlag is the action of a flag naming a directory whose files are
// read. A missing directory passes: its reader names the file missing and
// how to make it (a pattern database not built yet).
func InputDirFlag(flag string) func(*cli.Context, string) error {
	return func(_ *cli.Context, dir string) error {
		if err := checkInput(flag, dir, true); !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
}

func checkInput(flag, path string, dir bool) error {
	st, err := os.Stat(path)
	switch {
	case err != nil:
	case dir && !st.IsDir():
		err = syscall.ENOTDIR
	case !dir && st.IsDir():
		err = syscall.EISDIR
	case !dir && !st.Mode().IsRegular():
		err = special(infile.Kind(st.Mode()))
	case st.Mode().IsRegular() || st.IsDir():
		var f *os.File
		if f, err = os.Open(path); err == nil {
			f.Close()
		}
	}
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the reason alone: the path is quoted below
	}
	if flag != "" {
		flag += ": "
	}
	return InputError{fmt.Errorf("%scannot read %s: %w", flag, Quote(path), err)}
}

// special is the reason a FIFO, socket or device is refused as an input.
type special string

func (k special) Error() string      { return string(k) + ", not a regular file" }
func (special) Is(target error) bool { return target == infile.ErrNotRegular }
