package phases

import "testing"

func TestParallel(t *testing.T) {
	t.Parallel()
}

// TestSubtestsParallel is serial: only its subtests pause.
func TestSubtestsParallel(t *testing.T) {
	t.Run("a", func(t *testing.T) { t.Parallel() })
}

func TestSerial(t *testing.T) {}

// TestOtherName calls Parallel on its own T under another name.
func TestOtherName(tt *testing.T) {
	tt.Parallel()
}

// TestOtherT is serial: the Parallel call is on another T.
func TestOtherT(t *testing.T) {
	var u testing.T
	u.Parallel()
}

// TestInsideIf is serial as go test sees it whenever the condition is false.
func TestInsideIf(t *testing.T) {
	if false {
		t.Parallel()
	}
}

func Testlower(t *testing.T) {} // not a test: lower case after Test
func TestMain(m *testing.M)  {}
func TestBench(b *testing.B) {} // not a test: a *testing.B
func helper(t *testing.T)    { t.Parallel() }
