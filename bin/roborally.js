#!/usr/bin/env node
// The roborally command; its TypeScript sources are in cli/src, built into dist by `npm install`.
import { main, watchOutput } from '../dist/cli/src/main.js';

watchOutput();

process.exitCode = await main(process.argv.slice(2));
