package protocol

import (
	"net"
	"strings"
)

// IsLoopbackHost reports whether host (a name or an address, optionally
// with a port or in brackets) is this machine: localhost or a loopback
// address. It is the one loopback-origin rule both sides apply, which is why
// it sits with the wire vocabulary: loopback targets need no allow_hosts
// entry in a workload; the simulated server refuses other Host and Origin
// headers (DNS rebinding); the SSE transport treats localhost and 127.0.0.1
// as one origin.
func IsLoopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
