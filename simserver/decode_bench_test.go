package simserver

import (
	"bufio"
	"context"
	"io"
	"testing"

	"github.com/readbench/readbench/protocol"
)

// BenchmarkDecodeRead is what the server spends turning a read request's
// bytes into a call: the JSON-RPC decode and the params, for the request
// readbench's client sends in each era.
func BenchmarkDecodeRead(b *testing.B) {
	const uri = "sim:///compare/text.md?mime=text/markdown&size=1024"
	for _, c := range []struct{ name, version string }{{"modern", protocol.V20260728}, {"legacy", ""}} {
		b.Run(c.name, func(b *testing.B) {
			line := []byte(request(b, 12345, protocol.MethodResourcesRead, readParams(uri, c.version)))
			for b.Loop() {
				msg, pre, err := decodeMessage(line)
				if err != nil {
					b.Fatal(err)
				}
				cl, perr := newCall(msg, pre)
				if perr != nil || cl.p.URI == nil {
					b.Fatal(perr)
				}
			}
		})
	}
}

// BenchmarkReadStdioInFlight is the load a run puts on `readbench serve
// --stdio`: a closed loop keeping 16 reads of a 1 KiB text in flight on one
// pipe. ns/op is the time per read on all the cores the benchmark has, so
// with -cpu 1 it is the server's CPU per read plus the client's small share
// (writing requests, finding line ends).
func BenchmarkReadStdioInFlight(b *testing.B) {
	const inFlight = 16
	s := New(Options{})
	serverIn, in := io.Pipe()
	out, serverOut := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(context.Background(), serverIn, serverOut) }()
	line := []byte(request(b, 1, protocol.MethodResourcesRead, readParams("sim:///compare/text.md?mime=text/markdown&size=1024", protocol.V20260728)) + "\n")
	r := bufio.NewReaderSize(out, 1<<20)
	readAnswer := func() {
		for {
			_, err := r.ReadSlice('\n')
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				b.Fatal(err)
			}
			return
		}
	}
	if _, err := in.Write(line); err != nil { // warm the cache
		b.Fatal(err)
	}
	readAnswer()
	// The writer keeps inFlight requests out: one more per answer read.
	credits := make(chan struct{}, inFlight)
	wrote := make(chan error, 1)
	n := b.N
	b.ResetTimer()
	go func() {
		for i := range n {
			if i >= inFlight {
				<-credits
			}
			if _, err := in.Write(line); err != nil {
				wrote <- err
				return
			}
		}
		wrote <- nil
	}()
	for range n {
		readAnswer()
		credits <- struct{}{}
	}
	b.StopTimer()
	if err := <-wrote; err != nil {
		b.Fatal(err)
	}
	in.Close()
	if err := <-done; err != nil {
		b.Fatal(err)
	}
}
