//go:build !linux

package sysprobe

import "errors"

// Self has no figures here: nothing proves a PID's process gone.
func Self() (Identity, bool) { return Identity{}, false }

// Process cannot tell here.
func Process(int) (ProcessInfo, error) { return ProcessInfo{}, errors.ErrUnsupported }
