#!/usr/bin/env node
// `cardflow …`: the compiled CLI (dist/client/cli/main.js, what an installed copy and the image
// run). In a checkout with its dev dependencies, the TypeScript sources run through tsx instead,
// so a change to the CLI takes effect without a rebuild.
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');

function sourceRunner() {
  if (!existsSync(path.join(__dirname, 'main.ts'))) return undefined;
  try {
    return require('tsx/cjs/api');
  } catch {
    return undefined;
  }
}

const tsx = sourceRunner();
const cli = tsx ? tsx.require('./main.ts', __filename) : require('../../dist/client/cli/main.js');
cli.main(process.argv.slice(2));
