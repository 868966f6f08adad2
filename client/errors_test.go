package client

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"

	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/targets"
)

// TestErrorChainsSurvive: a client error keeps its cause in the chain, so
// a caller can errors.Is and errors.As it as well as the class of failure.
func TestErrorChainsSurvive(t *testing.T) {
	for _, tc := range []struct {
		name  string
		err   error
		class error
		cause error
	}{
		{"transport", transportErr("reading answer: %w", io.ErrUnexpectedEOF), ErrTransport, io.ErrUnexpectedEOF},
		{"protocol", protocolErr("endpoint: %w", context.Canceled), ErrProtocol, context.Canceled},
	} {
		if !errors.Is(tc.err, tc.class) || !errors.Is(tc.err, tc.cause) {
			t.Errorf("%s: %v is not both %v and %v", tc.name, tc.err, tc.class, tc.cause)
		}
	}
	rpc := &protocol.Error{Code: protocol.CodeInternal, Message: "boom"}
	var got *protocol.Error
	if err := transportErr("call: %w", rpc); !errors.As(err, &got) || got.Code != protocol.CodeInternal {
		t.Errorf("errors.As found %v in %v", got, err)
	}
}

// TestRefusedConnectionIsNetOpError: connecting to a port nobody listens
// on fails as a transport failure whose cause errors.As finds as the
// *net.OpError the dial returned.
func TestRefusedConnectionIsNetOpError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	for _, target := range []string{"http://" + addr + "/mcp", "range+http://" + addr + "/files/"} {
		tg, err := targets.Parse(target)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = Open(context.Background(), Dial{Target: tg})
		var op *net.OpError
		if !errors.Is(err, ErrTransport) || !errors.As(err, &op) {
			t.Errorf("%s: %v (%T): want ErrTransport with a *net.OpError cause", target, err, err)
		}
	}
}
