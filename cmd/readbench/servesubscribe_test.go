package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/protocol"
)

// TestServeChangesAndListen: `readbench serve --changes` changes what a
// 2026-07-28 listener follows on its own, the notifications carry the
// listen's id, and POST /changes changes a resource on request.
func TestServeChangesAndListen(t *testing.T) {
	url := startServe(t, "--changes", "50/s", "--keepalive", "0")
	uri := "sim:///live.md?mime=text/markdown&size=100"
	body := `{"jsonrpc":"2.0","id":"L1","method":"subscriptions/listen","params":{"notifications":{"resourceSubscriptions":["` + uri +
		`"]},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set(protocol.HeaderProtocolVersion, protocol.V20260728)
	req.Header.Set(protocol.HeaderMethod, protocol.MethodSubscriptionsListen)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	var methods []string
	for len(methods) < 3 && sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var m struct {
			Method string `json:"method"`
			Params struct {
				URI  string                     `json:"uri"`
				Meta map[string]json.RawMessage `json:"_meta"`
			} `json:"params"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if id := string(m.Params.Meta[protocol.MetaSubscriptionID]); id != `"L1"` {
			t.Errorf("%s: subscriptionId %s, want \"L1\"", m.Method, id)
		}
		methods = append(methods, m.Method)
	}
	want := []string{protocol.NotifySubscriptionsAcked, protocol.NotifyResourceUpdated, protocol.NotifyResourceUpdated}
	if strings.Join(methods, " ") != strings.Join(want, " ") {
		t.Fatalf("the stream carried %v (%v), want %v", methods, sc.Err(), want)
	}

	base := strings.TrimSuffix(url, "/mcp")
	r, err := http.Post(base+"/changes?uri=sim:///other.md", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var ch struct {
		URI      string `json:"uri"`
		Revision int    `json:"revision"`
		Notified int    `json:"notified"`
	}
	if err := json.NewDecoder(r.Body).Decode(&ch); err != nil || r.StatusCode != http.StatusOK || ch.Revision != 1 || ch.Notified != 0 {
		t.Errorf("POST /changes: %d %+v %v", r.StatusCode, ch, err)
	}
}
