package simserver

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when its tests pass but leave a goroutine
// behind.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
