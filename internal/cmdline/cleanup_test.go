package cmdline

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// interruptSelf sends this process SIGTERM, which the handler of
// runWithSignals takes.
func interruptSelf(t *testing.T) {
	require.NoError(t, syscall.Kill(os.Getpid(), syscall.SIGTERM))
}

// The interrupt and the commit of an output exclude each other, and the
// status says which came first: 0 with the output in place, or 130 with
// neither it nor its temporary.
func TestInterruptStatusMatchesOutputs(t *testing.T) {
	for _, c := range []struct {
		name      string
		run       func(ctx context.Context, out string) int
		code      int
		outExists bool
	}{
		{"interrupt before the commit", func(ctx context.Context, out string) int {
			interruptSelf(t)
			<-ctx.Done()
			if err := atomicfile.WriteFileContext(ctx, out, []byte("x")); err != nil {
				return ExitInterrupted
			}
			return 0
		}, ExitInterrupted, false},
		{"interrupt after the commit, the run ends within the grace", func(ctx context.Context, out string) int {
			if err := atomicfile.WriteFileContext(ctx, out, []byte("x")); err != nil {
				return ExitFailure
			}
			interruptSelf(t)
			<-ctx.Done() // the summary is printed after the interrupt
			return 0
		}, 0, true},
		{"a run deaf to the interrupt: its temporary goes at the end of the grace", func(ctx context.Context, out string) int {
			f, err := atomicfile.Create(out)
			if err != nil {
				return ExitFailure
			}
			interruptSelf(t)
			time.Sleep(time.Second)
			if f.CommitContext(ctx) != nil {
				return ExitInterrupted
			}
			return 0
		}, ExitInterrupted, false},
	} {
		dir := t.TempDir()
		out := filepath.Join(dir, "out")
		var stderr bytes.Buffer
		code := runWithSignals("tool", &stderr, 200*time.Millisecond, func(ctx context.Context, cl *Cleanup) int {
			if err := cl.WillWrite("--out", out); err != nil {
				return ExitInput
			}
			return c.run(ctx, out)
		})
		assert.Equal(t, c.code, code, "%s: %s", c.name, stderr.String())
		if c.outExists {
			assert.FileExists(t, out, c.name)
			assert.Empty(t, stderr.String(), c.name)
		} else {
			assert.NoFileExists(t, out, c.name)
			assert.Contains(t, stderr.String(), "tool: interrupted by terminated", c.name)
		}
		if c.code == ExitInterrupted {
			time.Sleep(time.Second) // the deaf run's commit, refused
			entries, _ := os.ReadDir(dir)
			assert.Empty(t, entries, "%s: temporaries left", c.name)
		}
	}
}
