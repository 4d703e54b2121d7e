#!/usr/bin/env node
// The command-line tool's launcher: registers the TypeScript loader, then runs bin/caracal.ts.
import { register } from 'tsx/esm/api';

register();
await import('./caracal.ts');
