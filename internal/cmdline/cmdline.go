// Package cmdline is the contract between the gapset command and its user,
// kept apart from the commands themselves: the exit statuses and the one-line
// errors behind them (bad input, a limit reached, a flag the parser refused,
// a panic: see internalError), flags accepted after the arguments, input
// paths checked alike and output paths checked before any work starts, and
// the temporaries an interrupt removes (and the one global flag,
// --cpuprofile). README.md and every command's --help state the contract;
// this package is the one place that keeps it.
package cmdline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gapset/gapset/internal/infile"
	"github.com/urfave/cli/v2"
)

// Exit statuses, the contract of README.md and --help.
const (
	ExitFailure     = 1   // anything else
	ExitInput       = 2   // bad input: flags, boards, files
	ExitLimit       = 3   // a limit reached: nodes, depth, states, memory budget
	ExitInterrupted = 130 // SIGINT or SIGTERM
)

// ExitHelp is the contract as --help shows it.
const ExitHelp = "Exit status: 0 done, 2 bad input (flags, boards, files: one line naming it),\n" +
	"3 a limit reached (nodes, depth, states, memory budget, a BDD level's size), 1 anything else, 130 interrupted."

// InputError marks errors caused by the user's input (bad boards, flags,
// files); they exit with status 2.
type InputError struct{ Err error }

func (e InputError) Error() string { return e.Err.Error() }
func (e InputError) Unwrap() error { return e.Err }

// BadInput marks err (if any) as the input's fault.
func BadInput(err error) error {
	if err == nil {
		return nil
	}
	return InputError{err}
}

// BadInputf is BadInput of a formatted error.
func BadInputf(format string, a ...any) error { return InputError{fmt.Errorf(format, a...)} }

// InputIf marks err as bad input when it is one of the sentinels (a missing
// file, a file format's error); other errors pass unchanged.
func InputIf(err error, sentinels ...error) error {
	for _, s := range sentinels {
		if errors.Is(err, s) {
			return InputError{err}
		}
	}
	return err
}

// LimitError marks a limit the user set (or the machine's budget) being
// reached; exit status 3.
type LimitError struct{ Err error }

func (e LimitError) Error() string { return e.Err.Error() }
func (e LimitError) Unwrap() error { return e.Err }

// ExitCode maps an error onto the contract; limits are the packages' limit
// sentinels, which exit with status 3 wherever they are wrapped.
func ExitCode(err error, limits ...error) int {
	var le LimitError
	if errors.As(err, &le) {
		return ExitLimit
	}
	for _, l := range limits {
		if errors.Is(err, l) {
			return ExitLimit
		}
	}
	var ie InputError
	if errors.As(err, &ie) {
		return ExitInput
	}
	// A file read whole or mapped that is special or past what its kind
	// holds (internal/infile) is the input's fault wherever it is found.
	if errors.Is(err, infile.ErrNotRegular) || errors.Is(err, infile.ErrTooBig) {
		return ExitInput
	}
	return ExitFailure
}

// Run runs app on args (flags reordered, see Reorder) and returns the exit
// status: an unknown command or an error is one line on stderr; once ctx is
// cancelled the status is 130 and the interrupt handler reports it. A panic
// is one line too, with status 1 (see internalError); panics in goroutines
// reach it through package safe.
func Run(ctx context.Context, app *cli.App, args []string, stderr io.Writer, limits ...error) (code int) {
	defer func() {
		if v := recover(); v != nil {
			code = internalError(app.Name, stderr, v)
		}
	}()
	if h, ok := helpArgs(app, args); ok {
		args = h
	}
	args, path, unknown := Reorder(app, args)
	if unknown != "" {
		// the help that lists the commands is the parent's: gapset slide's
		// for "slide frob"
		parent := strings.Join(append([]string{app.Name}, path...), " ")
		fmt.Fprintf(stderr, "%s: unknown command %s (%s --help lists the commands)\n", app.Name, Quote(unknown), parent)
		return ExitInput
	}
	err := app.Run(args)
	if err == nil {
		return 0
	}
	if ctx.Err() != nil {
		return ExitInterrupted // the signal handler reports it
	}
	fmt.Fprintf(stderr, "%s: %v\n", app.Name, err)
	return ExitCode(err, limits...)
}

// Quote quotes a user's argument for an error line, cut to about 60 bytes
// so a huge argument is not echoed whole.
func Quote(s string) string {
	if len(s) > 60 {
		return fmt.Sprintf("%q... (%d bytes)", s[:60], len(s))
	}
	return fmt.Sprintf("%q", s)
}

// Truncate cuts s to about n bytes for an error message.
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return fmt.Sprintf("%s... (%d bytes)", s[:n], len(s))
}
