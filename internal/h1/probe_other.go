//go:build !unix

package h1

import "net"

// alive cannot peek without blocking here: the connection is taken as it
// is, and a request written to a connection the server closed fails.
func alive(net.Conn) bool { return true }
