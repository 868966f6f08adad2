package protocol

import "testing"

func TestIsLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST:8080": true, "127.0.0.1": true, "127.0.0.2:9": true,
		"[::1]:8080": true, "::1": true, "[::1]": true,
		"evil.example.com": false, "evil.example.com:80": false, "10.0.0.1": false, "": false, "localhost.evil.com": false,
	} {
		if got := IsLoopbackHost(host); got != want {
			t.Errorf("IsLoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}
