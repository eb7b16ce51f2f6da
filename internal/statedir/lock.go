package statedir

import "errors"

// LockName is the file a running enumeration holds locked in its state
// directory, its PID inside.
const LockName = "lock"

// ErrBusy is what Lock's refusal is (errors.Is): another live process
// holds the state directory.
var ErrBusy = errors.New("state directory in use")

type busyError struct{ msg string }

func (e *busyError) Error() string        { return e.msg }
func (e *busyError) Is(target error) bool { return target == ErrBusy }
