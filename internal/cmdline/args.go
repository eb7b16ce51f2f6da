package cmdline

import (
	"strings"

	"github.com/urfave/cli/v2"
)

// Reorder moves every command's flags in front of its positional
// arguments, because urfave/cli stops reading flags at the first argument
// (so "zdd FILE -n" would take -n for a file). Values of flags that take
// one stay with their flag; "--" ends the flags, and positionals that look
// like flags are kept behind a "--". It also returns the command path
// found ("pdb build") and an unknown command's name, if any.
func Reorder(app *cli.App, args []string) (out []string, path []string, unknown string) {
	out, path, unknown, _ = reorder(app, args)
	return out, path, unknown
}

// reorder is Reorder that also returns where the unknown command's name
// sits in out (-1: none).
func reorder(app *cli.App, args []string) (out []string, path []string, unknown string, at int) {
	if len(args) == 0 {
		return args, nil, "", -1
	}
	out = append(out, args[0])
	flags, cmds := app.Flags, app.Commands
	rest := args[1:]
	for {
		var fl, pos []string
		dashdash := false
		i := 0
		for ; i < len(rest); i++ {
			a := rest[i]
			if a == "--" {
				dashdash = true
				pos = append(pos, rest[i+1:]...)
				break
			}
			if isFlag(a) {
				fl = append(fl, a)
				if !strings.Contains(a, "=") && takesValue(flags, a) && i+1 < len(rest) {
					i++
					fl = append(fl, rest[i])
				}
				continue
			}
			if len(cmds) > 0 {
				// the first argument names the (sub)command; the rest is its own
				break
			}
			pos = append(pos, a)
		}
		out = append(out, fl...)
		if len(cmds) > 0 && !dashdash && i < len(rest) {
			c := findCommand(cmds, rest[i])
			if c == nil {
				return append(out, rest[i:]...), path, rest[i], len(out)
			}
			out = append(out, rest[i])
			path = append(path, c.Name)
			flags, cmds, rest = c.Flags, c.Subcommands, rest[i+1:]
			continue
		}
		if len(pos) > 0 && (dashdash || anyFlagLike(pos)) {
			out = append(out, "--")
		}
		return append(out, pos...), path, "", -1
	}
}

// isFlag reports whether an argument is a flag ("-" alone is stdin).
func isFlag(a string) bool { return len(a) > 1 && a[0] == '-' }

func anyFlagLike(args []string) bool {
	for _, a := range args {
		if isFlag(a) {
			return true
		}
	}
	return false
}

// takesValue reports whether the flag named by the argument reads the
// next argument as its value (unknown flags are taken as booleans; the
// parser then rejects them).
func takesValue(flags []cli.Flag, arg string) bool {
	name := strings.TrimLeft(arg, "-")
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				tv, ok := f.(interface{ TakesValue() bool })
				return ok && tv.TakesValue()
			}
		}
	}
	return false
}

func findCommand(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if c.HasName(name) {
			return c
		}
	}
	return nil
}

// helpArgs turns "help [COMMAND...]" at any level into "[COMMAND...]
// --help" ("gapset help pdb build" is "gapset pdb build --help"): the app
// lists no help command, and urfave/cli's own would not reach
// subcommands. ok is false unless args name help where a command goes.
func helpArgs(app *cli.App, args []string) (out []string, ok bool) {
	out, _, unknown, at := reorder(app, args)
	if unknown != "help" {
		return args, false
	}
	return append(append(out[:at:at], out[at+1:]...), "--help"), true
}
