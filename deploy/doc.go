// Package deploy holds what runs readbench away from this repository's
// machines: the container image (the repository's Dockerfile), the
// Kubernetes manifests of a sharded run (kubernetes/) and the Grafana
// dashboard (grafana/), with the tests that check them without a cluster
// or a container daemon.
//
// It is a Go module of its own (deploy/go.mod, the repository's root
// module replaced by ../): the Kubernetes API types and the Dockerfile
// parser its tests need stay out of the go.mod every user of readbench
// downloads. `make test` runs its tests in their module.
package deploy
