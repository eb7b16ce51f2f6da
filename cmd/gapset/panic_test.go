package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/gapset/gapset/bench"
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"
)

// panicky is a heuristic whose evaluator cannot be made: it panics in
// whichever goroutine the search runs.
type panicky struct{}

func (panicky) Name() string { return "panicky" }

func (panicky) NewEvaluator(int, int) (ida.Evaluator, error) { panic("evaluator exploded") }

// runPanicking runs the real app, with two subcommands only tests have:
// panic-main panics in the command's goroutine, panic-worker in the worker
// goroutines of bench.Run (every worker panics on its first board).
func runPanicking(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, context: context.Background()}
	app := newApp(e)
	app.Commands = append(app.Commands,
		&cli.Command{Name: "panic-main", Action: func(*cli.Context) error { panic("main exploded\nsecond line") }},
		&cli.Command{Name: "panic-worker", Action: func(c *cli.Context) error {
			insts, err := encode.ReadInstances(strings.NewReader(boards3x3), "test", 3, 3)
			require.NoError(t, err)
			_, err = bench.Run(c.Context, insts, []ida.Heuristic{panicky{}}, bench.Options{Jobs: 2})
			return err
		}})
	code := cmdline.Run(e.context, app, append([]string{"gapset"}, args...), &errb, limitErrors...)
	return code, out.String(), errb.String()
}

// A panic, in the command's goroutine or in a worker, is one line and exit
// status 1 (not Go's 2, which says bad input); GAPSET_TRACE=1 adds the
// stack of the goroutine where it happened.
func TestPanicExitsOne(t *testing.T) {
	t.Setenv("GAPSET_TRACE", "")
	for cmd, msg := range map[string]string{"panic-main": "main exploded second line", "panic-worker": "evaluator exploded"} {
		code, out, errs := runPanicking(t, cmd)
		assert.Equal(t, 1, code, "%s: %s", cmd, errs)
		assert.Empty(t, out, cmd)
		assert.Equal(t, "gapset: internal error: "+msg+" (set GAPSET_TRACE=1 for the stack)\n", errs, cmd)
	}
	t.Setenv("GAPSET_TRACE", "1")
	code, _, errs := runPanicking(t, "panic-worker")
	assert.Equal(t, 1, code, errs)
	first, stack, _ := strings.Cut(errs, "\n")
	assert.Equal(t, "gapset: internal error: evaluator exploded", first)
	assert.Contains(t, stack, "panicky.NewEvaluator", "the worker's stack, where the panic happened")
	assert.Contains(t, stack, "bench.Run.func", "the worker's stack, where the panic happened")
}
