package auth

import "context"

// Flight is one token request that concurrent callers share: the caller
// that starts it ends it with Land, the others Wait for what it got. A
// Source shares its requests so; a session shares its renewals of one
// refused token so (client).
type Flight struct {
	done chan struct{}
	tok  Token
	err  error
}

// NewFlight returns a flight in the air.
func NewFlight() *Flight { return &Flight{done: make(chan struct{})} }

// Land ends the flight with what its request got (no token on an error),
// releasing every caller waiting for it. Call it once.
func (f *Flight) Land(t Token, err error) {
	if err != nil {
		t = Token{}
	}
	f.tok, f.err = t, err
	close(f.done)
}

// Landed reports whether the flight has ended, and what it got.
func (f *Flight) Landed() (Token, error, bool) {
	select {
	case <-f.done:
		return f.tok, f.err, true
	default:
		return Token{}, nil, false
	}
}

// Wait returns what the flight got, or ctx's error if ctx ends first.
func (f *Flight) Wait(ctx context.Context) (Token, error) {
	select {
	case <-f.done:
		return f.tok, f.err
	case <-ctx.Done():
		return Token{}, ctx.Err()
	}
}
