package main

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/gapset/gapset/internal/cmdline"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"
)

// indent is the description as --help prints it: each line indented.
func indent(s string) string { return "   " + strings.ReplaceAll(s, "\n", "\n   ") }

// Every command's --help prints its description whole (the file under
// help/ with its lists filled in) and, for the commands that run, the exit
// contract; every file under help/ is some command's.
func TestHelpPrintsTheFiles(t *testing.T) {
	app := newApp(&env{})
	var shown []string
	var walk func(path []string, cmds []*cli.Command)
	walk = func(path []string, cmds []*cli.Command) {
		for _, c := range cmds {
			p := append(append([]string(nil), path...), c.Name)
			code, out, errs := runCmd(t, "", append(p, "--help")...)
			require.Equal(t, 0, code, "%v: %s", p, errs)
			if len(c.Subcommands) == 0 {
				assert.Contains(t, out, indent(cmdline.ExitHelp), "%v", p)
			}
			if c.Description != "" {
				assert.Contains(t, out, "DESCRIPTION:\n"+indent(c.Description)+"\n", "%v", p)
				for _, verb := range []string{"%!", "%s", "%v"} {
					assert.NotContains(t, c.Description, verb, "%v: the file's verbs and arguments match", p)
				}
				shown = append(shown, c.Description)
			}
			walk(p, c.Subcommands)
		}
	}
	walk(nil, app.Commands)
	_, out, _ := runCmd(t, "", "--help")
	assert.Contains(t, out, indent(help("gapset")+"\n"+cmdline.ExitHelp))
	shown = append(shown, app.Description)

	files, err := fs.Glob(helpFiles, "help/*.txt")
	require.NoError(t, err)
	assert.Len(t, files, 18)
	for _, f := range files {
		first, _, _ := strings.Cut(help(strings.TrimSuffix(strings.TrimPrefix(f, "help/"), ".txt")), "%")
		found := false
		for _, d := range shown {
			found = found || strings.Contains(d, first)
		}
		assert.True(t, found, "%s is no command's description", f)
	}
	assert.Contains(t, help("build", "natural, lsb"), "Orders: natural, lsb.\n")
}

// maxHelpLine is the longest line any --help may print: a flag's usage is
// one line, so a long one must be said shorter (or in the help file).
const maxHelpLine = 200

// No line of any command's --help (the app's included) is longer than
// maxHelpLine characters.
func TestHelpLinesAreShort(t *testing.T) {
	app := newApp(&env{})
	var walk func(path []string, cmds []*cli.Command)
	checked := 0
	check := func(p []string) {
		code, out, errs := runCmd(t, "", append(p, "--help")...)
		require.Equal(t, 0, code, "%v: %s", p, errs)
		for _, line := range strings.Split(out, "\n") {
			assert.LessOrEqual(t, len(line), maxHelpLine, "%v --help: %.80s...", p, strings.TrimSpace(line))
		}
		checked++
	}
	walk = func(path []string, cmds []*cli.Command) {
		for _, c := range cmds {
			p := append(append([]string(nil), path...), c.Name)
			check(p)
			walk(p, c.Subcommands)
		}
	}
	check(nil)
	walk(nil, app.Commands)
	assert.Greater(t, checked, 15, "every command's help was read")
}

// The -H flag's usage names the grammar and where the names are, not the
// names themselves; the names are listed in the Heuristics part of the
// help, wrapped.
func TestHeuristicFlagUsage(t *testing.T) {
	for _, cmd := range []string{"solve", "bench"} {
		_, out, _ := runCmd(t, "", cmd, "--help")
		for _, line := range strings.Split(out, "\n") {
			if strings.Contains(line, "-H SPEC") || strings.Contains(line, "-H LIST") {
				assert.Contains(t, line, "max(", "%s: the -H usage states the grammar", cmd)
				assert.NotContains(t, line, "gap2r", "%s: the -H usage lists no names", cmd)
			}
		}
		assert.Contains(t, out, "pdb78+gap2r", "%s --help lists the names", cmd)
		assert.Contains(t, out, "docs/heuristics.md", "%s --help says where the names are explained", cmd)
	}
}

// eachHelp calls f with the path and --help output of the app (path nil)
// and of every command.
func eachHelp(t *testing.T, f func(path []string, out string)) {
	t.Helper()
	checked := 0
	check := func(p []string) {
		code, out, errs := runCmd(t, "", append(p, "--help")...)
		require.Equal(t, 0, code, "%v --help: %s", p, errs)
		f(p, out)
		checked++
	}
	var walk func(path []string, cmds []*cli.Command)
	walk = func(path []string, cmds []*cli.Command) {
		for _, c := range cmds {
			p := append(append([]string(nil), path...), c.Name)
			check(p)
			walk(p, c.Subcommands)
		}
	}
	check(nil)
	walk(nil, newApp(&env{}).Commands)
	assert.Greater(t, checked, 15, "every command's help was read")
}

// "gapset help [COMMAND...]" prints what "gapset [COMMAND...] --help"
// prints, for the app and every command; an unknown topic is exit 2.
func TestHelpCommand(t *testing.T) {
	eachHelp(t, func(p []string, want string) {
		code, out, errs := runCmd(t, "", append([]string{"help"}, p...)...)
		require.Equal(t, 0, code, "help %v: %s", p, errs)
		assert.Empty(t, errs, "help %v", p)
		assert.Equal(t, want, out, "help %v", p)
	})
	_, out, _ := runCmd(t, "", "help")
	assert.Contains(t, out, "COMMANDS:")
	code, out, errs := runCmd(t, "", "help", "frob")
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Equal(t, "gapset: unknown command \"frob\" (gapset --help lists the commands)\n", errs)
}

// Every flag of every command states its default once, and a sentinel
// default (a negative number: "none given") says what it stands for.
func TestHelpDefaults(t *testing.T) {
	eachHelp(t, func(p []string, out string) {
		for _, line := range strings.Split(out, "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "-") {
				continue // descriptions may say "default" as they like
			}
			assert.LessOrEqual(t, strings.Count(strings.ToLower(line), "default"), 1, "%v: %s", p, strings.TrimSpace(line))
			assert.NotContains(t, line, "(default: -", "%v: %s", p, strings.TrimSpace(line))
		}
	})
}
