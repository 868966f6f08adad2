package client

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/readbench/readbench/protocol"
)

// Stdio peers that misbehave on purpose (re-executed test binaries, see
// main_test.go): each is a real child process behind real pipes.
const (
	wedgedStdioPeer = "wedged-stdio" // answers one request, then stops reading stdin and stays alive
	silentStdioPeer = "silent-stdio" // reads everything, prints nothing
	bigStdioPeer    = "big-stdio"    // answers {"size":N,"idLast":B} with N payload bytes
)

// faultPeers are the peers of this file, for TestMain.
func faultPeers() map[string]func() int {
	return map[string]func() int{
		scriptedStdioPeer:   serveScriptedStdio,
		wedgedStdioPeer:     serveWedgedStdio,
		silentStdioPeer:     serveSilentStdio,
		bigStdioPeer:        serveBigStdio,
		genStdioPeer:        serveGenStdio,
		simHTTPPeer:         serveSimHTTP,
		simStatefulHTTPPeer: serveSimStatefulHTTP,
		strayOnlyPeer:       serveStrayOnly,
		strayBannerPeer:     serveStrayBanner,
		strayExitPeer:       serveStrayExit,
		simStdioPeer:        serveSimStdio,
		endlessIDLastPeer:   serveEndless(false),
		endlessIDFirstPeer:  serveEndless(true),
		simEndlessPeer:      serveSimEndless,
		sdkSubStdioPeer:     serveSDKSubStdio,
		sdkSubHTTPPeer:      serveSDKSubHTTP,
	}
}

// serveWedgedStdio is a server whose event loop wedges after its first
// answer: it never reads stdin again, yet stays alive, so the pipe to it
// fills and every write to it blocks. Only a signal ends it.
func serveWedgedStdio() int {
	in := bufio.NewReader(os.Stdin)
	line, err := in.ReadBytes('\n')
	if err != nil {
		return 1
	}
	m, err := protocol.Decode(line)
	if err != nil {
		return 1
	}
	fmt.Println(string(protocol.AppendResult(nil, m.ID, []byte(`{}`))))
	time.Sleep(time.Hour) // stuck, reading nothing
	return 0
}

// serveSilentStdio reads stdin to its end and never prints a byte.
func serveSilentStdio() int {
	_, _ = io.Copy(io.Discard, os.Stdin)
	return 0
}

// serveBigStdio answers each request with a result whose payload is
// params.size bytes, its id first or (idLast) after the result, as some
// SDKs write it.
func serveBigStdio() int {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		m, err := protocol.Decode(in.Bytes())
		if err != nil || !m.IsRequest() {
			continue
		}
		var p struct {
			Size   int  `json:"size"`
			IDLast bool `json:"idLast"`
		}
		_ = json.Unmarshal(m.Params, &p)
		result := fmt.Sprintf(`{"blob":"%s"}`, bytes.Repeat([]byte("A"), p.Size))
		if p.IDLast {
			fmt.Fprintf(out, `{"result":%s,"jsonrpc":"2.0","id":%s}`+"\n", result, m.ID)
		} else {
			fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", m.ID, result)
		}
		if out.Flush() != nil {
			return 1
		}
	}
	return 0
}
