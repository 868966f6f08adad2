package driver

import (
	"errors"
	"testing"
)

// TestJoinDistinct: sessions that fail alike are reported once.
func TestJoinDistinct(t *testing.T) {
	refused := errors.New("connection refused")
	if err := joinDistinct([]error{refused, nil, errors.New("connection refused")}); err == nil || err.Error() != "connection refused" {
		t.Errorf("two sessions refused alike: %q, want the reason once", err)
	}
	if err := joinDistinct([]error{refused, errors.New("timeout")}); err == nil || err.Error() != "connection refused\ntimeout" {
		t.Errorf("two different reasons: %q, want both", err)
	}
	if err := joinDistinct([]error{nil, nil}); err != nil {
		t.Errorf("no failure: %v", err)
	}
}
