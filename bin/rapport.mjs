#!/usr/bin/env node
// The CLI and the service run the TypeScript sources directly through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main(process.argv);
