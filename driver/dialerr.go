package driver

import "errors"

// joinDistinct joins errs (nil ones skipped) keeping one of each message:
// sessions opened in parallel to an unreachable target all fail the same
// way, and the user needs to read why once, not once per session.
func joinDistinct(errs []error) error {
	seen := map[string]bool{}
	var out []error
	for _, err := range errs {
		if err == nil || seen[err.Error()] {
			continue
		}
		seen[err.Error()] = true
		out = append(out, err)
	}
	return errors.Join(out...)
}
