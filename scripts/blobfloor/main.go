// Command blobfloor measures the floor of reading an answer over HTTP/1.1
// on this machine: the CPU a client that does nothing else spends per
// read to move a resources/read answer off a kept connection (read), to
// move it and look at every byte once (scan: bytes.IndexByte for the
// closing quote), and to move it and decode its base64 (decode, the
// AVX2 decoder readbench uses). scripts/compare.sh runs it beside
// readbench, vegeta and bombardier on the same server and URI, so that
// "how close to the bytes' own cost" has a number.
//
//	go run ./scripts/blobfloor -url http://127.0.0.1:8080/mcp -uri 'sim:///x.png?mime=image/png&size=1048576' -mode decode -n 2000
//
// It prints one line: mode, reads, CPU µs per read (user + system of the
// whole process, from getrusage), and the answer's size. One connection,
// one read at a time, reading with buffers of -buf bytes (64 KiB, the
// size readbench reads an answer through).
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	simdbase64 "github.com/segmentio/asm/base64"
)

func main() {
	target := flag.String("url", "", "the server's MCP endpoint (http://host:port/path)")
	uri := flag.String("uri", "", "the resource to read")
	mode := flag.String("mode", "read", "read, scan or decode")
	n := flag.Int("n", 1000, "reads to make")
	bufSize := flag.Int("buf", 64<<10, "bytes read at a time")
	flag.Parse()
	if err := run(*target, *uri, *mode, *n, *bufSize); err != nil {
		fmt.Fprintln(os.Stderr, "blobfloor:", err)
		os.Exit(1)
	}
}

func run(target, uri, mode string, n, bufSize int) error {
	u, err := url.Parse(target)
	if err != nil || u.Scheme != "http" || u.Host == "" {
		return fmt.Errorf("-url %q: want http://host:port/path", target)
	}
	if uri == "" || n < 1 || bufSize < 4096 {
		return errors.New("-uri, -n >= 1 and -buf >= 4096 are needed")
	}
	var look func([]byte) error
	reset := func() {}
	switch mode {
	case "read":
		look = func([]byte) error { return nil }
	case "scan":
		look = func(p []byte) error {
			if bytes.IndexByte(p, 0) >= 0 { // never in JSON text: every byte is looked at
				return errors.New("a NUL byte in the answer")
			}
			return nil
		}
	case "decode":
		d := &decoder{dst: make([]byte, bufSize)}
		look = d.look
		reset = d.reset
	default:
		return fmt.Errorf("-mode %q: want read, scan or decode", mode)
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":%s,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"blobfloor","version":"1"}}}}`, strconv.Quote(uri))
	req := []byte("POST " + u.RequestURI() + " HTTP/1.1\r\nHost: " + u.Host +
		"\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: resources/read\r\nMcp-Name: " + uri +
		"\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)
	c, err := net.DialTimeout("tcp", u.Host, 5*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	br := bufio.NewReaderSize(c, bufSize)
	buf := make([]byte, bufSize)
	var size int64
	read := func() error {
		if _, err := c.Write(req); err != nil {
			return err
		}
		length, err := head(br)
		if err != nil {
			return err
		}
		size = length
		reset()
		for left := length; left > 0; {
			k, err := br.Read(buf[:min(int64(len(buf)), left)])
			if err != nil {
				return err
			}
			if err := look(buf[:k]); err != nil {
				return err
			}
			left -= int64(k)
		}
		return nil
	}
	if err := read(); err != nil { // the server's cache warmed, the size learned
		return err
	}
	before := cpu()
	for range n {
		if err := read(); err != nil {
			return err
		}
	}
	fmt.Printf("%s\t%d\t%.1f\t%d\n", mode, n, float64(cpu()-before)/float64(time.Microsecond)/float64(n), size)
	return nil
}

// head reads a response's head and returns its Content-Length; any
// status but 200, or a body without a length, is an error.
func head(br *bufio.Reader) (int64, error) {
	length := int64(-1)
	status, err := br.ReadString('\n')
	if err != nil {
		return 0, err
	}
	if !strings.HasPrefix(status, "HTTP/1.1 200 ") {
		return 0, fmt.Errorf("status %q", strings.TrimSpace(status))
	}
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return 0, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		k, v, _ := strings.Cut(line, ":")
		if strings.EqualFold(k, "Content-Length") {
			if length, err = strconv.ParseInt(strings.TrimSpace(v), 10, 64); err != nil {
				return 0, fmt.Errorf("Content-Length %q", v)
			}
		}
	}
	if length < 0 {
		return 0, io.ErrUnexpectedEOF
	}
	return length, nil
}

// cpu is the process's user and system time so far.
func cpu() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// decoder decodes the blob of an answer as its pieces come: the
// characters after `"blob":"` up to the next quote, in whole groups of
// four (a group split between two pieces waits in carry). The bytes
// before and after the blob are looked at only.
type decoder struct {
	dst   []byte
	state int // 0 before the blob, 1 in it, 2 after it
	carry []byte
}

func (d *decoder) reset() { d.state, d.carry = 0, d.carry[:0] }

var blobKey = []byte(`"blob":"`)

func (d *decoder) look(p []byte) error {
	if d.state == 0 {
		i := bytes.Index(p, blobKey)
		if i < 0 {
			return nil // the key is in the first piece: the answer's head is small
		}
		p, d.state = p[i+len(blobKey):], 1
	}
	if d.state != 1 {
		return nil
	}
	if j := bytes.IndexByte(p, '"'); j >= 0 {
		p, d.state = p[:j], 2
	}
	if len(d.carry) > 0 {
		k := min(4-len(d.carry), len(p))
		d.carry, p = append(d.carry, p[:k]...), p[k:]
		if len(d.carry) < 4 && d.state == 1 {
			return nil
		}
		if _, err := simdbase64.StdEncoding.Decode(d.dst, d.carry); err != nil {
			return err
		}
		d.carry = d.carry[:0]
	}
	whole := len(p) &^ 3
	if d.state == 2 {
		whole = len(p) // the last group, padded
	}
	if _, err := simdbase64.StdEncoding.Decode(d.dst, p[:whole]); err != nil {
		return err
	}
	d.carry = append(d.carry, p[whole:]...)
	return nil
}
