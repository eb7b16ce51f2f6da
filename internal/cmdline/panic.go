package cmdline

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gapset/gapset/internal/safe"
)

// internalError reports a panic that Run recovered, in the command's
// goroutine or carried there from a worker by package safe: one line and
// status 1 (Go's own status 2 would claim bad input). With NAME_TRACE=1 in
// the environment (GAPSET_TRACE for gapset) the stack of the panic follows.
func internalError(name string, stderr io.Writer, v any) int {
	p := safe.Recovered(v)
	msg := Truncate(strings.Join(strings.Fields(fmt.Sprint(p.Value)), " "), 200) // one line however the value prints
	trace := strings.ToUpper(name) + "_TRACE"
	if os.Getenv(trace) != "1" {
		fmt.Fprintf(stderr, "%s: internal error: %s (set %s=1 for the stack)\n", name, msg, trace)
		return ExitFailure
	}
	fmt.Fprintf(stderr, "%s: internal error: %s\n%s", name, msg, p.Stack)
	return ExitFailure
}
