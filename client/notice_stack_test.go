//go:build !race

// The race detector's instrumentation makes every frame larger: stack
// sizes are measured without it, in make test-norace, so this file is
// not built under -race and its test never skips.

package client

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestNoticeKeepsStackSmall holds a legacy notification's routing — read,
// routed by its uri, delivered — to the stack a goroutine parked on a
// stream keeps anyway (4 KiB): each legacy listener session reads its
// standalone stream on a goroutine of its own, and a collection halves a
// grown stack at most once per cycle, so a notification that grows it to
// 8 KiB costs every one of thousands of sessions 4 KiB while
// notifications flow (encoding/json's recursion did: 8.5 KiB per session
// in BenchmarkLegacyListenSessions). The goroutines route from a frame as
// deep as the stream reader's (standaloneEvent's callers) and then park,
// so the stacks they grew are counted before any collection can shrink
// them.
func TestNoticeKeepsStackSmall(t *testing.T) {
	const goroutines = 256
	msg := []byte(`{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"sim:///watched.md?mime=text/markdown&size=1KiB","_meta":{"io.modelcontextprotocol/subscriptionId":7}}}`)
	n := &notices{}
	var got sync.WaitGroup
	sub := &Subscription{spec: SubscribeSpec{URIs: []string{"sim:///watched.md?mime=text/markdown&size=1KiB"}}, on: func(Notification) { got.Done() }}
	n.addLegacy(sub)

	var parked, done sync.WaitGroup
	release := make(chan struct{})
	runtime.GC()
	before := stacksNow()
	for range goroutines {
		parked.Add(1)
		got.Add(1)
		done.Go(func() {
			routeAtDepth(n, msg)
			parked.Done()
			<-release
		})
	}
	parked.Wait()
	grown := stacksNow()
	close(release)
	done.Wait()
	got.Wait()
	if d := sub.delivered.Load(); d != goroutines {
		t.Fatalf("%d notifications delivered, want %d", d, goroutines)
	}
	perGoroutine := (grown - before) / goroutines
	t.Logf("%d B of stack per goroutine that routed a notification", perGoroutine)
	if perGoroutine > 4<<10+512 {
		t.Errorf("routing a legacy notification grew each goroutine's stack to %d B, want at most 4 KiB (a stream's goroutine parks with the stack its last notification grew)", perGoroutine)
	}
}

// routeAtDepth routes msg from under a frame about as large as those of a
// standalone stream's goroutine above n.arrived (run, read,
// standaloneEvent: about 1 KiB).
//
//go:noinline
func routeAtDepth(n *notices, msg []byte) {
	var pad [768]byte
	pad[len(pad)-1] = byte(len(msg))
	n.arrived(msg[:len(msg)-int(pad[0])], time.Time{})
}
