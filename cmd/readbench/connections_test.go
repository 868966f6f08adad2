package main

import (
	"encoding/json"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// acceptingProxy forwards TCP connections on 127.0.0.1 to upstream and
// counts what it accepted: how many connections the client opened, seen
// from the server's side of the wire.
type acceptingProxy struct {
	ln      net.Listener
	accepts atomic.Int64
	wg      sync.WaitGroup
}

func startAcceptingProxy(t *testing.T, upstream string) *acceptingProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &acceptingProxy{ln: ln}
	p.wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.accepts.Add(1)
			p.wg.Go(func() { p.forward(c, upstream) })
		}
	})
	t.Cleanup(func() { ln.Close(); p.wg.Wait() })
	return p
}

// forward copies c to a new connection to upstream and back until either
// side closes.
func (p *acceptingProxy) forward(c net.Conn, upstream string) {
	defer c.Close()
	u, err := net.Dial("tcp", upstream)
	if err != nil {
		return
	}
	defer u.Close()
	done := make(chan struct{})
	go func() {
		io.Copy(u, c)
		u.(*net.TCPConn).CloseWrite()
		close(done)
	}()
	io.Copy(c, u)
	c.Close()
	<-done
}

// TestDefaultScenarioKeepsConnections: the default scenario (4 parallel
// reads a turn, an 800 ms deadline) over plain HTTP against `readbench
// serve` opens no more connections than its 2 sessions' reads in flight
// need, plus those of the reads it cut: the server accepts exactly what
// the result's connections block says was opened, the rest of the
// requests reuse them, and the report says nothing of churn. (Before,
// every read of a turn with a deadline opened a connection: 190 for 200
// reads.)
func TestDefaultScenarioKeepsConnections(t *testing.T) {
	t.Parallel()
	u, err := url.Parse(sharedServe(t))
	if err != nil {
		t.Fatal(err)
	}
	p := startAcceptingProxy(t, u.Host)
	dir := t.TempDir()
	target := "http://" + p.ln.Addr().String() + u.Path
	stdout, stderr, code := readbench(t, dir, "run", "--target", target, "--duration", "3s", "--full", "--out", "r.json") // the conns line is detail
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	r := loadResult(t, filepath.Join(dir, "r.json"))
	onlyGood(t, r)
	data, err := os.ReadFile(filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Connections *struct {
			KeepAlive      bool    `json:"keep_alive"`
			Opened         int64   `json:"opened"`
			Requests       int64   `json:"requests"`
			ReusedShare    float64 `json:"reused_share"`
			ClosedByCut    int64   `json:"closed_by_cut"`
			ClosedByServer int64   `json:"closed_by_server"`
			ClosedByClient int64   `json:"closed_by_client"`
			Churn          string  `json:"churn"`
		} `json:"connections"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	c := doc.Connections
	if c == nil {
		t.Fatal("no connections block in a run over HTTP")
	}
	const sessions, attachments = 2, 4
	if got := p.accepts.Load(); got != c.Opened {
		t.Errorf("the server accepted %d connections; the result says %d were opened", got, c.Opened)
	}
	if c.Opened > 2*sessions*attachments+c.ClosedByCut || c.ClosedByServer+c.ClosedByClient != 0 {
		t.Errorf("%d reads: connections %+v: want at most %d opened (the reads in flight of %d sessions, twice over) plus the cut ones",
			r.Totals.Scheduled, *c, 2*sessions*attachments, sessions)
	}
	if c.Requests < r.Totals.Scheduled || c.ReusedShare < 0.8 || !c.KeepAlive || c.Churn != "" {
		t.Errorf("connections %+v: want every read counted, most reused, no churn", *c)
	}
	if !strings.Contains(stdout, "conns ") || strings.Contains(stdout, "connection churn") {
		t.Errorf("the report's connections line is missing, or it speaks of churn:\n%s", stdout)
	}
}
