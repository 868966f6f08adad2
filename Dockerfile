# syntax=docker/dockerfile:1
# readbench as a container image, for running shards of one load on many
# machines (deploy/kubernetes, README "Many machines").
#
#   docker build -t registry.example.com/readbench:0.1.0 .
#
# The binary is built exactly as `make build` builds it (the flags are
# checked against the Makefile by deploy/deploy_test.go), statically
# (CGO_ENABLED=0), and runs as a non-root user on a distroless base with
# no shell. The embedded simulated server is the binary itself
# (`readbench serve --stdio`), so the image needs nothing else.

FROM golang:1.26.8 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -o /out/readbench ./cmd/readbench

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/readbench /usr/local/bin/readbench
# 65532 is distroless's "nonroot"; numeric, so Kubernetes can verify
# runAsNonRoot.
USER 65532:65532
WORKDIR /home/nonroot
ENTRYPOINT ["/usr/local/bin/readbench"]
