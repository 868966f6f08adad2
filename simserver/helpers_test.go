package simserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/protocol"
)

// Helpers shared by the raw (byte-level) tests.

// modernMeta is the _meta of a 2026-07-28 request.
func modernMeta(version string) map[string]any {
	return map[string]any{
		protocol.MetaProtocolVersion:    version,
		protocol.MetaClientCapabilities: map[string]any{},
		protocol.MetaClientInfo:         map[string]string{"name": "raw-test", "version": "1"},
	}
}

// request renders a JSON-RPC request line.
func request(t testing.TB, id int, method string, params map[string]any) string {
	t.Helper()
	b, err := protocol.AppendRequest(nil, protocol.IntID(int64(id)), method, params)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readParams is the params of a read, modern when version is not "".
func readParams(uri, version string) map[string]any {
	p := map[string]any{"uri": uri}
	if version != "" {
		p["_meta"] = modernMeta(version)
	}
	return p
}

// stdioPipe is a raw stdio connection to ServeStdio.
type stdioPipe struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan *protocol.Message // every message the server wrote, in order
	done  chan error             // ServeStdio's result
}

func startStdio(t *testing.T, s *Server) *stdioPipe {
	t.Helper()
	serverIn, in := io.Pipe()
	out, serverOut := io.Pipe()
	p := &stdioPipe{t: t, in: in, lines: make(chan *protocol.Message, 100), done: make(chan error, 1)}
	go func() {
		err := s.ServeStdio(context.Background(), serverIn, serverOut)
		serverOut.Close()
		p.done <- err
	}()
	go func() {
		defer close(p.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			m, err := protocol.Decode(sc.Bytes())
			if err != nil {
				t.Errorf("server wrote a bad line %q: %v", sc.Text(), err)
				continue
			}
			p.lines <- m
		}
	}()
	t.Cleanup(func() { p.close() })
	return p
}

func (p *stdioPipe) send(line string) {
	p.t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		p.t.Fatalf("write: %v", err)
	}
}

// next returns the next message the server wrote.
func (p *stdioPipe) next() *protocol.Message {
	p.t.Helper()
	select {
	case m, ok := <-p.lines:
		if !ok {
			p.t.Fatal("server closed stdout")
		}
		return m
	case <-time.After(10 * time.Second):
		p.t.Fatal("no answer within 10s")
	}
	return nil
}

// close ends stdin and returns every message written after the last next,
// checking that ServeStdio returned nil at EOF.
func (p *stdioPipe) close() []*protocol.Message {
	p.in.Close()
	var rest []*protocol.Message
	for m := range p.lines {
		rest = append(rest, m)
	}
	if err := <-p.done; err != nil {
		p.t.Errorf("ServeStdio: %v", err)
	}
	p.done <- nil // close may run twice (test and cleanup)
	return rest
}

// roundTrip sends one request line and returns the answer.
func (p *stdioPipe) roundTrip(line string) *protocol.Message {
	p.t.Helper()
	p.send(line)
	return p.next()
}

// rpcError decodes the error of a response, failing when it is a result.
func rpcError(t testing.TB, m *protocol.Message) *protocol.Error {
	t.Helper()
	if m.Error == nil {
		t.Fatalf("want an error, got result %.300s", m.Result)
	}
	return m.Error
}

// errData decodes an error's data into a map.
func errData(t testing.TB, e *protocol.Error) map[string]any {
	t.Helper()
	var d map[string]any
	if err := json.Unmarshal(e.Data, &d); err != nil {
		t.Fatalf("error data %s: %v", e.Data, err)
	}
	return d
}

// readResult is the decoded result of a read.
type readResult struct {
	Meta       map[string]json.RawMessage `json:"_meta"`
	ResultType *string                    `json:"resultType"`
	TTLMs      *int                       `json:"ttlMs"`
	CacheScope *string                    `json:"cacheScope"`
	Contents   []map[string]any           `json:"contents"`
}

func decodeRead(t testing.TB, m *protocol.Message) readResult {
	t.Helper()
	if m.Error != nil {
		t.Fatalf("read failed: %v %s", m.Error, m.Error.Data)
	}
	var r readResult
	if err := json.Unmarshal(m.Result, &r); err != nil {
		t.Fatalf("decode read result: %v", err)
	}
	return r
}

// post sends one raw HTTP request and returns status, headers and body.
func post(t testing.TB, url string, headers map[string]string, body string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", protocol.ContentTypeJSON)
	req.Header.Set("Accept", protocol.AcceptBoth)
	for k, v := range headers {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, b
}

// modernHeaders are the headers of a 2026-07-28 POST.
func modernHeaders(method, name string) map[string]string {
	h := map[string]string{protocol.HeaderProtocolVersion: protocol.V20260728, protocol.HeaderMethod: method}
	if name != "" {
		h[protocol.HeaderName] = protocol.EncodeHeaderValue(name)
	}
	return h
}

func decodeMsg(t testing.TB, b []byte) *protocol.Message {
	t.Helper()
	m, err := protocol.Decode(b)
	if err != nil {
		t.Fatalf("decode %q: %v", b, err)
	}
	return m
}

func idOf(m *protocol.Message) string { return fmt.Sprint(string(m.ID)) }
