// Package deploy holds what runs readbench away from this repository's
// machines: the container image (the repository's Dockerfile) and the
// Kubernetes manifests of a sharded run (kubernetes/). Its tests check
// them without a cluster or a container daemon: every manifest decodes
// strictly into the Kubernetes API types (a misspelt field fails), the
// Indexed Job's shard count agrees with its --segment arguments and with
// the merge step, the shards start through --barrier on the shared volume
// with no hand-set time (and their command line, run here as n local
// processes, does start them together and merge), the Dockerfile
// builds the binary the Makefile builds, statically, for a non-root user,
// and the Grafana dashboard (grafana/) asks for the exemplars of the
// histograms that carry a read's trace id, once each, on their panels.
//
// deploy is a Go module of its own (deploy/go.mod, the repository's root
// module replaced by ../): the Kubernetes API types and the Dockerfile
// parser its tests need stay out of the go.mod every user of readbench
// downloads. `make test` runs its tests in their module.
package deploy
