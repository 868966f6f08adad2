package simserver

import (
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/readbench/readbench/protocol"
)

// writeWire writes a read's answer over Streamable HTTP with its
// violation (see Wire).
func (s *Server) writeWire(w http.ResponseWriter, r *http.Request, a *answer) {
	rc := http.NewResponseController(w)
	switch a.wire {
	case WireTruncate:
		whole := a.joined()
		w.Header().Set("Content-Type", protocol.ContentTypeJSON)
		w.Header().Set("Content-Length", strconv.Itoa(len(whole)))
		_, _ = w.Write(whole[:len(whole)/2]) // net/http closes a connection whose body came short
		return
	case WireLieLength:
		w.Header().Set("Content-Type", protocol.ContentTypeJSON)
		w.Header().Set("Content-Length", strconv.FormatInt(8<<30, 10))
		_, _ = w.Write(a.joined()[:10])
		return
	}
	w.Header().Set("Content-Type", protocol.ContentTypeSSE)
	w.Header().Set("Cache-Control", "no-cache, no-transform")
	w.WriteHeader(http.StatusOK)
	event := func(data ...[]byte) bool {
		if _, err := io.WriteString(w, "event: message\ndata: "); err != nil {
			return false
		}
		for _, d := range data {
			if _, err := w.Write(d); err != nil {
				return false
			}
		}
		_, err := io.WriteString(w, "\n\n")
		return err == nil && rc.Flush() == nil
	}
	switch a.wire {
	case WireGarbage:
		_ = event(garbageLine) && event(a.parts...)
	case WireClose:
		whole := a.joined()
		_, _ = io.WriteString(w, "event: message\ndata: ")
		_, _ = w.Write(whole[:len(whole)/2])
		_ = rc.Flush()
		panic(http.ErrAbortHandler) // the connection closes mid-answer
	case WireDuplicate:
		_ = event(a.parts...) && event(a.parts...)
	case WireUnsolicited:
		_ = event(unsolicited) && event(a.parts...)
	case WirePing, WireSampling:
		msg, done, forget := s.serverRequest(a.wire)
		defer forget()
		if event(msg) && s.awaitReply(r.Context(), done) {
			_ = event(a.parts...)
		}
	case WireKeepAlive:
		tick := time.NewTicker(keepAliveEvery)
		defer tick.Stop()
		end := time.After(maxKeepAlive)
		for {
			if _, err := io.WriteString(w, ": keep-alive\n\n"); err != nil || rc.Flush() != nil {
				return
			}
			select {
			case <-tick.C:
			case <-r.Context().Done():
				return
			case <-s.crashed:
				return
			case <-end:
				return
			}
		}
	default:
		_ = event(a.parts...)
	}
}
