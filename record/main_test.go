package record

import (
	"testing"

	"github.com/readbench/readbench/internal/peertest"
)

func TestMain(m *testing.M) { peertest.Main(m, nil) }
