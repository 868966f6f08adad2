package client

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/peertest"
	"github.com/readbench/readbench/protocol"
	"github.com/readbench/readbench/stats"
)

// Reads classified as they stream in, on every transport, against the
// buffered classification of the very bytes the server sent.

// genStdioPeer answers resources/read of a gen: URI (see genAnswer) in
// small writes, after a notification and a ping of its own.
const genStdioPeer = "gen-stdio"

// genContent is the content of gen://KIND/SIZE[/idlast]: text full of
// what JSON escapes (quotes, newlines, tabs, HTML characters, non-ASCII,
// an emoji sent as a surrogate pair), or a PNG-headed blob.
func genContent(uri string) (data []byte, mime string, text, idLast bool) {
	parts := strings.Split(strings.TrimPrefix(uri, "gen://"), "/")
	size, _ := strconv.Atoi(parts[1])
	idLast = len(parts) > 2 && parts[2] == "idlast"
	if parts[0] == "text" {
		line := "# Guide \"q\" <b>&</b>\tcafé — naïve 😀\n"
		s := strings.Repeat(line, size/len(line)+1)[:size]
		for !strings.HasSuffix(s, "\n") && len(s) > 0 && s[len(s)-1] >= 0x80 { // no rune cut in half
			s = s[:len(s)-1] + "x"
		}
		return []byte(strings.ToValidUTF8(s, "x"))[:size], "text/markdown", true, idLast
	}
	r := rand.New(rand.NewPCG(uint64(size), 7))
	b := append([]byte("\x89PNG\r\n\x1a\n"), make([]byte, max(size-8, 0))...)[:size]
	for i := 8; i < len(b); i++ {
		b[i] = byte(r.Uint32())
	}
	return b, "image/png", false, idLast
}

// genAnswer is the answer to read id of a gen: URI, exactly as sent. A
// URI ending in /badnum has a number encoding/json rejects in its result,
// one ending in /trailing data after the message.
func genAnswer(id int64, uri string) []byte {
	data, mime, text, idLast := genContent(uri)
	entry := map[string]any{"uri": uri, "mimeType": mime}
	if text {
		entry["text"] = string(data)
	} else {
		entry["blob"] = data
	}
	result, _ := json.Marshal(map[string]any{"contents": []any{entry}})
	result = bytes.ReplaceAll(result, []byte("😀"), []byte(`\ud83d\ude00`))
	if strings.HasSuffix(uri, "/badnum") {
		result = bytes.Replace(result, []byte(`{"contents":`), []byte(`{"n":01,"contents":`), 1)
	}
	var answer []byte
	if idLast {
		answer = fmt.Appendf(nil, `{"result":%s,"jsonrpc":"2.0","id":%d}`, result, id)
	} else {
		answer = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":%s}`, id, result)
	}
	if strings.HasSuffix(uri, "/trailing") {
		answer = append(answer, " x"...)
	}
	return answer
}

// genDigest is the digest of a gen: URI's content.
func genDigest(uri string) string {
	data, _, _, _ := genContent(uri)
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// serveGenStdio is the gen-stdio peer.
func serveGenStdio() int {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 4096) // many small writes: pieces of lines
	for in.Scan() {
		m, err := protocol.Decode(in.Bytes())
		if err != nil || m.Method != protocol.MethodResourcesRead {
			continue
		}
		var p struct{ URI string }
		_ = json.Unmarshal(m.Params, &p)
		n, _ := protocol.ParseIntID(m.ID)
		fmt.Fprintln(out, `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`)
		fmt.Fprintln(out, `{"jsonrpc":"2.0","id":"srv-1","method":"ping"}`)
		out.Write(genAnswer(n, p.URI))
		out.WriteString("\n")
		if out.Flush() != nil {
			return 1
		}
	}
	return 0
}

// readReq is a resources/read request classified as it streams.
func readReq(id int64, uri string, digest bool) Request {
	body, _ := protocol.AppendRequest(nil, protocol.IntID(id), protocol.MethodResourcesRead, map[string]any{"uri": uri})
	return Request{ID: id, method: protocol.MethodResourcesRead, body: body, read: &readSpec{uri: uri, digest: digest}}
}

var genURIs = []string{
	"gen://text/1000", "gen://text/300001/idlast", "gen://blob/1", "gen://blob/1048576",
	"gen://blob/3000001/idlast", "gen://text/0", "gen://blob/0/idlast",
}

// checkGen checks the answer to read id of uri against the buffered
// classification of what the server sent.
func checkGen(t *testing.T, what string, id int64, uri string, a *Response, digest bool) {
	t.Helper()
	want := classifyRef(genAnswer(id, uri), uri, false)
	if !sameVerdict(*a.read, want) || a.read.Outcome != stats.OK {
		t.Errorf("%s %s: streamed %+v\n  buffered %+v", what, uri, *a.read, want)
	}
	if d := genDigest(uri); digest && a.read.Digest != d {
		t.Errorf("%s %s: digest %q, want %q", what, uri, a.read.Digest, d)
	}
	if !digest && a.read.Digest != "" {
		t.Errorf("%s %s: a digest nobody asked for", what, uri)
	}
	if a.Body != nil {
		t.Errorf("%s %s: the answer to a read was kept (%d bytes)", what, uri, len(a.Body))
	}
}

// TestStreamedReadsStdio: four reads at a time on one child, answers in
// small pieces among a notification and a ping, ids first or last: each
// verdict is the buffered one, with the digest when asked, and the wire
// bytes are the line and its newline.
func TestStreamedReadsStdio(t *testing.T) {
	tr, err := startStdio(peertest.Command(t, genStdioPeer), nil, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, uri := range genURIs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			id, digest := int64(i+1), i%2 == 0
			a, err := tr.call(ctx, readReq(id, uri, digest))
			if err != nil {
				t.Errorf("%s: %v", uri, err)
				return
			}
			checkGen(t, "stdio", id, uri, a, digest)
			if want := int64(len(genAnswer(id, uri))) + 1; a.WireBytes != want {
				t.Errorf("%s: %d wire bytes, want %d", uri, a.WireBytes, want)
			}
		})
	}
	wg.Wait()
}

// genHTTP answers every POSTed read of a gen: URI as JSON in small
// flushed writes, or (sse) as an SSE stream: a comment, a notification, a
// ping, then the answer with its data split over several lines (CRLF
// ends on some).
func genHTTP(sse bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m, err := decodeBody(r)
		if err != nil || m.Method != protocol.MethodResourcesRead {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		var p struct{ URI string }
		_ = json.Unmarshal(m.Params, &p)
		n, _ := protocol.ParseIntID(m.ID)
		answer := genAnswer(n, p.URI)
		write := func(b []byte) {
			for len(b) > 0 {
				k := min(len(b), 7001)
				_, _ = w.Write(b[:k])
				w.(http.Flusher).Flush()
				b = b[k:]
			}
		}
		if !sse {
			w.Header().Set("Content-Type", "application/json")
			write(answer)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		write([]byte(": hi\n\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}\n\n"))
		split := bytes.Replace(answer, []byte(`,"result":`), []byte(",\r\ndata:\"result\":"), 1)
		split = bytes.Replace(split, []byte(`"contents":`), []byte("\ndata: \"contents\":"), 1)
		write(append(append([]byte("event: message\ndata: "), split...), "\r\n\r\n"...))
	})
}

// TestStreamedReadsHTTP: the same reads over Streamable HTTP, as JSON and
// as SSE.
func TestStreamedReadsHTTP(t *testing.T) {
	for _, sse := range []bool{false, true} {
		t.Run(fmt.Sprintf("sse=%v", sse), func(t *testing.T) {
			hs := peertest.ServeLocal(t, genHTTP(sse))
			tr := newHTTPTransport(hs.URL, nil, 0)
			defer tr.close()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			for i, uri := range genURIs {
				id, digest := int64(i+1), i%2 == 1
				a, err := tr.call(ctx, readReq(id, uri, digest))
				if err != nil {
					t.Fatalf("%s: %v", uri, err)
				}
				checkGen(t, "http", id, uri, a, digest)
				if !sse && a.WireBytes != int64(len(genAnswer(id, uri))) {
					t.Errorf("%s: %d wire bytes, want %d", uri, a.WireBytes, len(genAnswer(id, uri)))
				}
			}
		})
	}
}

// TestStreamedReadsHTTPPlusSSE: the same reads on the shared GET stream,
// two at a time, each answer's data split over lines.
func TestStreamedReadsHTTPPlusSSE(t *testing.T) {
	f := newFakeSSE(t, func(msg []byte, send func(string)) {
		m, err := protocol.Decode(msg)
		if err != nil || m.Method != protocol.MethodResourcesRead {
			return
		}
		var p struct{ URI string }
		_ = json.Unmarshal(m.Params, &p)
		n, _ := protocol.ParseIntID(m.ID)
		answer := bytes.Replace(genAnswer(n, p.URI), []byte(`"contents":`), []byte("\ndata:\"contents\":"), 1)
		send(": ping\n\nevent: message\ndata: " + string(answer) + "\n\n")
	})
	tr := f.start(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for i, uri := range genURIs {
		wg.Go(func() {
			id, digest := int64(i+1), true
			a, err := tr.call(ctx, readReq(id, uri, digest))
			if err != nil {
				t.Errorf("%s: %v", uri, err)
				return
			}
			checkGen(t, "http+sse", id, uri, a, digest)
		})
	}
	wg.Wait()
}

// sizedRead is sizedRequest classified as a read as it streams.
func sizedRead(id int64, n int, idLast bool) Request {
	r := sizedRequest(id, n, idLast)
	r.read = &readSpec{uri: "x", digest: true}
	return r
}

// TestStreamedReadOverLimit: a read whose answer passes the limit ends as
// the over-limit protocol failure on every transport (id first or last on
// a shared stream), and the next read on the same session is answered.
func TestStreamedReadOverLimit(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	next := func(what string, a *Response, err error) {
		t.Helper()
		if err != nil || a.read.Outcome != stats.Protocol || a.read == nil { // the big peers' results have no contents
			t.Errorf("%s: the read after it: %+v %v", what, a, err)
		}
	}
	t.Run("stdio", func(t *testing.T) {
		tr, err := startStdio(peertest.Command(t, bigStdioPeer), nil, nil, testLimit)
		if err != nil {
			t.Fatal(err)
		}
		defer tr.close()
		for i, idLast := range []bool{false, true} {
			id := int64(2*i + 1)
			_, err := tr.call(ctx, sizedRead(id, 8<<20, idLast))
			wantOverLimit(t, fmt.Sprintf("id last %v", idLast), err)
			a, err := tr.call(ctx, sizedRead(id+1, 100, idLast))
			next("stdio", a, err)
		}
	})
	for _, c := range []struct {
		name         string
		sse, chunked bool
	}{{"JSON with Content-Length", false, false}, {"JSON without Content-Length", false, true}, {"SSE", true, false}} {
		t.Run(c.name, func(t *testing.T) {
			hs := peertest.ServeLocal(t, bigAnswers(c.sse, c.chunked))
			tr := newHTTPTransport(hs.URL, nil, testLimit)
			defer tr.close()
			_, err := tr.call(ctx, sizedRead(1, 8<<20, false))
			wantOverLimit(t, c.name, err)
			a, err := tr.call(ctx, sizedRead(2, testLimit-100, false))
			next(c.name, a, err)
		})
	}
	t.Run("HTTP+SSE", func(t *testing.T) {
		f := newFakeSSE(t, func(msg []byte, send func(string)) {
			m, err := protocol.Decode(msg)
			if err != nil || !m.IsRequest() {
				return
			}
			var p struct{ Size int }
			_ = json.Unmarshal(m.Params, &p)
			send(fmt.Sprintf("event: message\ndata: {\"jsonrpc\":\"2.0\",\"result\":{\"blob\":\"%s\"},\"id\":%s}\n\n", strings.Repeat("A", p.Size), m.ID))
		})
		sctx, scancel := context.WithTimeout(ctx, 10*time.Second)
		defer scancel()
		tr, err := startSSE(sctx, f.hs.URL+"/sse", nil, nil, testLimit)
		if err != nil {
			t.Fatal(err)
		}
		defer tr.close()
		_, err = tr.call(ctx, sizedRead(1, 8<<20, true))
		wantOverLimit(t, "id after the payload on the shared stream", err)
		a, err := tr.call(ctx, sizedRead(2, 100, true))
		next("HTTP+SSE", a, err)
	})
}
