package client

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

// TestDelivered: the wait for the server to have read what was written
// lasts exactly as long as the child leaves it in its stdin pipe: until a
// child that reads late has read it, to the end of the caller's context
// for one that never reads, at once for one that reads at once. Where the
// kernel cannot say (not Linux), and on HTTP, the answer is
// ErrDeliveryUnknown.
func TestDelivered(t *testing.T) {
	t.Parallel()
	const late = 300 * time.Millisecond
	for _, c := range []struct {
		name    string
		script  string
		limit   time.Duration // the caller's context
		atLeast time.Duration // after the spawn, when the server read it
		want    error
	}{
		{"reads late", "sleep 0.3; cat >/dev/null", 30 * time.Second, late, nil},
		{"reads at once", "cat >/dev/null", 30 * time.Second, 0, nil},
		{"never reads", "sleep 30", late, 0, context.DeadlineExceeded},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			spawned := time.Now()
			tr, err := startStdio([]string{"sh", "-c", c.script}, nil, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer tr.close()
			ctx, cancel := context.WithTimeout(context.Background(), c.limit)
			defer cancel()
			if _, err := tr.write(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`)); err != nil {
				t.Fatal(err)
			}
			wrote := time.Now()
			at, err := (&Session{t: tr}).Delivered(ctx)
			want := c.want
			if runtime.GOOS != "linux" {
				want = ErrDeliveryUnknown
			}
			if !errors.Is(err, want) {
				t.Fatalf("Delivered: %v, want %v", err, want)
			}
			if err != nil {
				return
			}
			if at.Before(wrote) || at.Sub(spawned) < c.atLeast {
				t.Errorf("read %s after the spawn (%s after the write); the child reads %s after its spawn",
					at.Sub(spawned), at.Sub(wrote), c.atLeast)
			}
		})
	}
	t.Run("http", func(t *testing.T) {
		t.Parallel()
		if _, err := (&Session{t: &httpTransport{}}).Delivered(context.Background()); !errors.Is(err, ErrDeliveryUnknown) {
			t.Errorf("Delivered over HTTP: %v, want ErrDeliveryUnknown", err)
		}
	})
}
