package driver

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/readbench/readbench/client"
	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/servercost"
	"github.com/readbench/readbench/targets"
)

// TestCostStdioColdStart: a real stdio session gives its pid to the
// sampler and its spawn-to-first-answer to the cold start; a session
// readbench did not spawn gives neither.
func TestCostStdioColdStart(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	spawned := time.Now()
	s, handshake, err := client.Connect(ctx, client.Dial{
		Target: targets.Target{Kind: targets.Stdio, Argv: peertest.Command(t, peertest.SDKStdio)},
		Client: client.Implementation{Name: "test"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pid, first, ok := s.Process()
	if !ok || pid <= 0 {
		t.Fatalf("Process() = %d, %v, %v: a stdio session must name its child", pid, first, ok)
	}
	cold := servercost.NewColdStartRecorder()
	cold.Session(first, handshake)
	a, err := s.ReadDocument(ctx, peertest.Docs()[0].URI, client.ReadSpec{})
	if err != nil {
		t.Fatal(err)
	}
	cold.Read(a.Sent, a.Done)
	cs, ok := cold.Result()
	if !ok || cs.SpawnToFirstAnswer <= 0 || cs.Handshake <= 0 || cs.FirstRead <= 0 {
		t.Errorf("cold start %+v %v", cs, ok)
	}
	if cs.SpawnToFirstAnswer > time.Since(spawned) {
		t.Errorf("spawn to first answer %v is longer than the session has lived", cs.SpawnToFirstAnswer)
	}
	httpSession := peertest.StartSDKHTTP(t, nil)
	h, _, err := client.Connect(ctx, client.Dial{Target: targets.Target{Kind: targets.HTTP, Address: httpSession}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if pids := costPIDs([]client.Conn{s, h}, 4242); len(pids) != 2 || pids[0] != pid || pids[1] != 4242 {
		t.Errorf("pids %v, want [%d 4242]: an HTTP session has no process of ours", pids, pid)
	}
	sum := servercost.Start(ctx, costPIDs([]client.Conn{s}, 0), 10*time.Millisecond).Stop().Summarize(spawned, time.Now(), 1).WithCold(cs, ok)
	if runtime.GOOS == "linux" && (!sum.Available || sum.RSSPeak <= 0 || sum.FirstRead != cs.FirstRead || !sum.ColdStart) {
		t.Errorf("summary %+v", sum)
	}
}
