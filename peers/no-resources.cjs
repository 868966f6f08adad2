// no-resources.cjs is a real MCP server on the official TypeScript SDK that
// declares tools and no resources, over stdio: it answers resources/read
// with the SDK's own -32601 "Method not found", as a server without the
// method does (cmd/readbench/outcomes_test.go).
'use strict';
const { Server } = require('@modelcontextprotocol/sdk/server/index.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { ListToolsRequestSchema } = require('@modelcontextprotocol/sdk/types.js');

const server = new Server({ name: 'no-resources', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
server.connect(new StdioServerTransport()).catch((err) => {
  process.stderr.write('no-resources.cjs: ' + err + '\n');
  process.exit(1);
});
