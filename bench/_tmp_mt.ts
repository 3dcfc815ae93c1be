import { benchMcpTools } from "./mcp_tools.ts";
await benchMcpTools();
process.exit(0);
