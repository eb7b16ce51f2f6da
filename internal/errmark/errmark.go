// Package errmark marks an error as of a sentinel's kind without changing
// its text, so that a package's error can be told apart (errors.Is, as
// the command's exit statuses do) while its message stays the reason
// alone: wrapping with %w would prefix the sentinel's text.
package errmark

import "errors"

type marked struct {
	err  error
	kind error
}

func (m marked) Error() string        { return m.err.Error() }
func (m marked) Unwrap() error        { return m.err }
func (m marked) Is(target error) bool { return target == m.kind }

// As marks err as of kind: errors.Is(As(err, kind), kind) holds, and
// errors.Is and errors.As still see err's chain; nil stays nil.
func As(err, kind error) error {
	if err == nil {
		return nil
	}
	return marked{err, kind}
}

// If marks err as of kind when it is one of targets.
func If(err, kind error, targets ...error) error {
	for _, t := range targets {
		if errors.Is(err, t) {
			return As(err, kind)
		}
	}
	return err
}
