package auth

import (
	"context"
	"sync"
	"testing"
)

// listTokens is a Tokens whose requests a test adds.
type listTokens struct {
	mu   sync.Mutex
	reqs []Request
}

func (l *listTokens) Token(context.Context) (Token, error) { return Token{Value: "t", Serial: 1}, nil }
func (l *listTokens) Refused(context.Context, Token, int, string) (Token, error) {
	return Token{}, nil
}

func (l *listTokens) Requests() []Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]Request(nil), l.reqs...)
}

func (l *listTokens) add(reason string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reqs = append(l.reqs, Request{Reason: reason})
}

// TestSequence: runs one after another on one Tokens each report the
// token requests since the previous run reported, none twice, none lost
// (those between two runs go to the next); the first run has the
// initial request made before it.
func TestSequence(t *testing.T) {
	if NewSequence(nil).Next() != nil {
		t.Fatal("a sequence without tokens gives a run tokens")
	}
	l := &listTokens{}
	l.add("initial")
	seq := NewSequence(l)
	reasons := func(tk Tokens) (out []string) {
		for _, q := range tk.Requests() {
			out = append(out, q.Reason)
		}
		return out
	}
	first := seq.Next()
	l.add("expiring")
	if got := reasons(first); len(got) != 2 || got[0] != "initial" || got[1] != "expiring" {
		t.Errorf("first run: %v, want [initial expiring]", got)
	}
	l.add("refused") // between the runs
	second := seq.Next()
	l.add("expiring")
	if got := reasons(second); len(got) != 2 || got[0] != "refused" || got[1] != "expiring" {
		t.Errorf("second run: %v, want [refused expiring]", got)
	}
	if got := reasons(seq.Next()); len(got) != 0 {
		t.Errorf("third run, nothing new: %v", got)
	}
}
