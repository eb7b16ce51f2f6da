// Package slowtest is the one switch for the tests too slow or too big for
// every `go test ./...` (minutes, or gigabytes): they run with
// GAPSET_SLOW=1. Variables that name data (a directory of built databases,
// a key file) stay as they are: they say where, not whether.
package slowtest

import (
	"os"
	"testing"
)

// Env is the variable that turns the slow tests on.
const Env = "GAPSET_SLOW"

// On reports whether the slow tests run (Env is "1").
func On() bool { return os.Getenv(Env) == "1" }

// Skip skips t unless the slow tests run, saying what it would do.
func Skip(t testing.TB, what string) {
	t.Helper()
	if !On() {
		t.Skipf("set %s=1 to %s", Env, what)
	}
}
