package cmdline

import (
	"reflect"
	"strings"

	"github.com/urfave/cli/v2"
)

// Prepare makes app keep the contract: errors are reported by Run (never
// urfave/cli's own exit), a flag the parser refuses is one line and a hint
// with status 2 (never the whole help), required flags are checked the same
// way, every command's --help ends with ExitHelp, and the input actions
// (InputFlag, ...) tell c, the run's Cleanup, what the command reads, so
// that no output is one of its inputs (nil: none is compared).
func Prepare(app *cli.App, c *Cleanup) {
	if app.Metadata == nil {
		app.Metadata = map[string]any{}
	}
	app.Metadata[cleanupKey] = c
	app.ExitErrHandler = func(*cli.Context, error) {} // Run reports errors and picks the status
	app.OnUsageError = usageError(app.Name)
	markUsageErrors(app.Name, app.Commands)
}

// markUsageErrors makes flag errors of every (sub)command exit with status
// 2, and checks required flags itself: urfave/cli would print the whole
// help to stdout.
func markUsageErrors(app string, cmds []*cli.Command) {
	for _, c := range cmds {
		if c.OnUsageError == nil {
			c.OnUsageError = usageError(app)
		}
		if len(c.Subcommands) == 0 && !strings.Contains(c.Description, ExitHelp) {
			c.Description = strings.TrimSpace(c.Description + "\n" + ExitHelp) // every command's --help states the contract
		}
		var required []string
		for _, f := range c.Flags {
			if unsetRequired(f) {
				required = append(required, f.Names()[0])
			}
		}
		if action := c.Action; len(required) > 0 && action != nil {
			c.Action = func(ctx *cli.Context) error {
				for _, name := range required {
					if !ctx.IsSet(name) {
						return BadInputf("--%s is required (%s %s --help lists the flags)", name, app, ctx.Command.FullName())
					}
				}
				return action(ctx)
			}
		}
		markUsageErrors(app, c.Subcommands)
	}
}

// unsetRequired clears a flag's Required mark and reports whether it was
// set (by reflection: every urfave/cli flag type has the field).
func unsetRequired(f cli.Flag) bool {
	v := reflect.ValueOf(f)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return false
	}
	r := v.Elem().FieldByName("Required")
	if !r.IsValid() || r.Kind() != reflect.Bool || !r.Bool() {
		return false
	}
	r.SetBool(false)
	return true
}

// usageError is a flag the parser refused: one line and a hint, never the
// whole help.
func usageError(app string) cli.OnUsageErrorFunc {
	return func(c *cli.Context, err error, _ bool) error {
		name := app
		if c != nil && c.Command != nil && c.Command.Name != "" {
			name = app + " " + c.Command.FullName()
		}
		return BadInputf("%v (%s --help lists the flags)", err, name)
	}
}

// NoArgs refuses positional arguments of a command that takes none.
func NoArgs(c *cli.Context) error {
	if c.NArg() > 0 {
		return BadInputf("%s takes no arguments, got %s (flags start with --)", c.Command.FullName(), Quote(c.Args().First()))
	}
	return nil
}

// CheckFormat validates a --format value against the allowed ones.
func CheckFormat(got string, allowed ...string) error {
	for _, a := range allowed {
		if got == a {
			return nil
		}
	}
	return BadInputf("unknown --format %s (choose %s)", Quote(got), strings.Join(allowed, ", "))
}

// InRange refuses a flag's value outside lo..hi.
func InRange(flag string, v, lo, hi int) error {
	if v < lo || v > hi {
		return BadInputf("%s %d: want %d..%d", flag, v, lo, hi)
	}
	return nil
}
